internal import CardFrontendShims

/// The process's heap, set up for decks of a million cards: what the `cardistry` executable does at start and what
/// a front end's state saver does after a snapshot. glibc only (`mallopt(3)`, `malloc_trim(3)`, reached through
/// the `CardFrontendShims` header with malloc.h's own constants); elsewhere both do nothing.
public enum ProcessMemory {
    /// Serves blocks up to 64 MB from the heap and keeps them when freed, in one arena. A million-card change
    /// works in arrays of 4–16 MB (an order, its ranks, a sort's sources and diff, the base64 of a change): glibc
    /// maps blocks that large and unmaps them when freed, so every sort faulted its pages in afresh, a third of a
    /// `deck.sort` through the server. One arena (M_ARENA_MAX 1) lets the serving thread reuse what the saver's
    /// thread freed; the heap keeps up to 256 MB free before trimming (M_TRIM_THRESHOLD). Call it once, before
    /// any thread starts.
    public static func configureForLargeDecks() {
        _ = cardistry_heap_configure(64 << 20, 256 << 20, 1)
    }

    /// Gives the heap's free pages back to the system (`malloc_trim(0)`): after a large snapshot was encoded, so
    /// that the process's resident memory does not keep that peak. Costs a millisecond or two, off the interaction.
    @Sendable public static func releaseFreed() {
        _ = cardistry_heap_release_freed()
    }

    /// The bytes the heap holds free, which `releaseFreed()` may give back, and the heap's size (glibc's
    /// `mallinfo2`; both 0 elsewhere). It walks the heap's free lists: microseconds, so for after a long request
    /// rather than after every one.
    public static func heapUsage() -> (free: Int, total: Int) {
        var free = 0
        var total = 0
        cardistry_heap_usage(&free, &total)
        return (free, total)
    }
}
