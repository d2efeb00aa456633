#if canImport(Glibc)
    import Glibc
#endif

/// The process's heap, set up for decks of a million cards: what the `cardistry` executable does at start and what
/// a front end's state saver does after a snapshot. glibc only (`mallopt(3)`, `malloc_trim(3)`, which Swift's Glibc
/// module does not export from malloc.h, so they are looked up by name); elsewhere both do nothing.
public enum ProcessMemory {
    /// Serves blocks up to 64 MB from the heap and keeps them when freed, in one arena. A million-card change
    /// works in arrays of 4–16 MB (an order, its ranks, a sort's sources and diff, the base64 of a change): glibc
    /// maps blocks that large and unmaps them when freed, so every sort faulted its pages in afresh, a third of a
    /// `deck.sort` through the server. One arena (M_ARENA_MAX 1) lets the serving thread reuse what the saver's
    /// thread freed. In glibc's malloc.h M_TRIM_THRESHOLD is -1, M_MMAP_THRESHOLD -3 and M_ARENA_MAX -8. Call it
    /// once, before any thread starts.
    public static func configureForLargeDecks() {
        #if canImport(Glibc)
            guard let symbol = lookUp("mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(-3, 64 << 20)
            _ = mallopt(-1, 256 << 20)
            _ = mallopt(-8, 1)
        #endif
    }

    /// Gives the heap's free pages back to the system (`malloc_trim(0)`): after a large snapshot was encoded, so
    /// that the process's resident memory does not keep that peak. Costs a millisecond or two, off the interaction.
    @Sendable public static func releaseFreed() {
        #if canImport(Glibc)
            guard let symbol = lookUp("malloc_trim") else { return }
            let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
            _ = trim(0)
        #endif
    }

    #if canImport(Glibc)
        private static func lookUp(_ name: String) -> UnsafeMutableRawPointer? {
            guard let process = dlopen(nil, RTLD_NOW) else { return nil }
            return dlsym(process, name)
        }
    #endif
}
