extension ReorderDiff {
    /// The minimal diff of a reordering whose sources are known: `sources[i]` is the old index of the element now
    /// at new index i (a sort knows this, so no id needs hashing).
    ///
    /// The elements that stay are one longest increasing subsequence of `sources`; every other element is a move —
    /// the same count as `ReorderDiff(from:to:)` on the ids. Throws `ModelError.diffMismatch` unless `sources` is a
    /// permutation of `0..<sources.count`. O(n log k) for a longest increasing subsequence k, O(n) for nearly
    /// sorted sources.
    ///
    /// The subsequence search suits the sources. Mostly close to the source before (a sort by a key with few
    /// values keeps each value's cards in their order, a reversal, a nearly sorted order): one value at a time
    /// (`runsLongestIncreasingSubsequenceLength`, whose shortcuts then spare most searches). Mostly far from it (a
    /// sort by distinct keys of an order sorted by another key, about as random as a shuffle): sixteen at a time
    /// (`longestIncreasingSubsequenceLength`, 8 ms for a million shuffled sources where the other takes 19, but
    /// twice as slow on the cases above). The check that the sources are a permutation counts the far steps.
    ///
    /// From `TwoThreads.minimumCount` sources every step is split between two threads: the check by halves (each
    /// into its own bit set; a value in both is a repeat), the search as the first half forwards and the second
    /// backwards (`splitLongestIncreasingSubsequenceLength`, with either search), the moves by halves (when first
    /// read: `MoveList`). The subsequence kept is then as long as the one-thread search's, so the moves are as few,
    /// but it may be another one (`ReorderDiff(from:to:)` keeps the one-thread search).
    public init(permutation sources: [Int32]) throws(ModelError) {
        let count = sources.count
        // `seen` holds the first half's values, then the subsequence's positions; `seenAfter` the second half's.
        var seen = BitSet(count: count)
        let seenAfter = BitSet(count: count)
        defer {
            seen.deallocate()
            seenAfter.deallocate()
        }
        var farSteps = (0, 0)
        var outside: (Int?, Int?) = (nil, nil)
        sources.withUnsafeBufferPointer { sources in
            TwoThreads.run(count: count) { part in
                let range = TwoThreads.half(part, of: count)
                var set = part == 0 ? seen : seenAfter
                var steps = 0
                var previous = range.lowerBound > 0 ? Int(sources[range.lowerBound - 1]) : 0
                for index in range {
                    let value = sources[index]
                    guard value >= 0, Int(value) < count, !set.contains(Int(value)) else {
                        if part == 0 { outside.0 = Int(value) } else { outside.1 = Int(value) }
                        return
                    }
                    set.insert(Int(value))
                    steps &+= (Int(value) &- previous).magnitude > Self.farStep ? 1 : 0
                    previous = Int(value)
                }
                if part == 0 { farSteps.0 = steps } else { farSteps.1 = steps }
            }
        }
        if let value = outside.0 ?? outside.1 ?? Self.repeated(in: seen, and: seenAfter) {
            throw .diffMismatch("the sources are not a permutation of 0..<\(count) (at \(value))")
        }
        self.init(permutation: sources, farSteps: farSteps.0 &+ farSteps.1, stable: &seen)
    }

    /// `init(permutation:)` for sources that a sort built, which are a permutation by construction: the check for
    /// repeats is left out (in release builds; debug builds still make it and stop on a failure), and the one pass
    /// it made that the search needs — counting the far steps (`SourceCounts`) — reads the sources without the
    /// check's bit sets, only making sure that every source is in `0..<sources.count` (it traps otherwise: the
    /// search would read out of bounds). The identity (a sort that changed nothing) is found in the same pass and
    /// costs no search; any other order's search waits for the first read of `moveCount` or `moves`, and
    /// `moveCountBounds` says what the pass proved before it. Same result as `init(permutation:)` for a permutation;
    /// for sources with repeats, a diff that is not one.
    public init(sortSources sources: [Int32]) {
        let count = sources.count
        var counts = (SourceCounts(), SourceCounts())
        sources.withUnsafeBufferPointer { sources in
            TwoThreads.run(count: count) { part in
                let partCounts = SourceCounts(sources, TwoThreads.half(part, of: count))
                if part == 0 { counts.0 = partCounts } else { counts.1 = partCounts }
            }
        }
        self.init(sortSources: sources, counted: counts.0 + counts.1)
    }

    /// `init(sortSources:)` given the counts of its one pass, which the sort took as it wrote the sources (a
    /// million sources: 0.7 ms saved). `counts` must be those of every source in slot order, as
    /// `SourceCounts.count(_:at:after:of:)` takes them: the search trusts them to choose its method and, in release
    /// builds, that no source is outside `0..<sources.count` unless they say so — then it traps. Debug builds count
    /// again and check the sources are a permutation.
    ///
    /// O(1) here: the search for a longest increasing subsequence (O(n log k) for its length k) runs on the first
    /// read of `moveCount` or `moves`, on the reading thread (with `TwoThreads`' second one), once. Until then
    /// `moveCountBounds` holds what the counts prove: at least n − r for r descending runs (one more than the
    /// ascents), since no increasing subsequence takes two sources of one run — exact for a reversal (r = 1). A
    /// reader can so send the sources of a shuffle-like sort before the search, and search while they travel.
    public init(sortSources sources: [Int32], counted counts: SourceCounts) {
        #if DEBUG
            precondition((try? ReorderDiff(permutation: sources)) != nil, "sort sources that are not a permutation")
            let recount = sources.withUnsafeBufferPointer { SourceCounts($0, $0.indices) }
            precondition(recount == counts, "sort source counts \(counts) that are not the sources' \(recount)")
        #endif
        precondition(counts.outside == 0, "sort sources outside 0..<\(sources.count)")
        let count = sources.count
        guard counts.unchanged < count else {
            self.init(oldCount: count, newCount: count, removals: [], insertions: [], moves: [])
            return
        }
        // Not the identity: at least one move, and at most n − 1 (an increasing subsequence of one always stays).
        // An increasing subsequence takes at most one source from each descending run, and the runs are one more
        // than the ascents after slot 0 (`ascents` counts slot 0 when its source is above 0): one run — a
        // reversal — makes the count exact with no search.
        let descendingRuns = 1 &+ counts.ascents &- (sources[0] > 0 ? 1 : 0)
        let leastCount = Swift.min(Swift.max(count &- descendingRuns, 1), count &- 1)
        self.init(
            oldCount: count, newCount: count, removals: [], insertions: [],
            moveList: MoveList(searching: sources, farSteps: counts.farSteps, leastCount: leastCount))
    }

    /// What `init(sortSources:)` reads a sort's sources for before its search, which a sort can count as it writes
    /// them (`init(sortSources:counted:)`): the far steps (a source more than `farStep` from the one before, which
    /// choose the search), the ascents (a source above the one before, which bound the moves before the search:
    /// `ReorderDiff.moveCountBounds`), the sources that are their own slot (all of them: the identity, no search)
    /// and those outside the slots (a fault). Counted by parts, the parts' counts add up (`+`).
    public struct SourceCounts: Sendable, Hashable {
        /// Sources more than `farStep` from the one before (the first from 0).
        public var farSteps = 0
        /// Sources above the one before (the first above 0).
        public var ascents = 0
        /// Sources equal to their slot.
        public var unchanged = 0
        /// Sources outside `0..<count`.
        public var outside = 0

        /// No sources counted.
        public init() {}

        /// The counts of `sources[range]`, the step into the first from the source before it (from 0 at slot 0).
        init(_ sources: UnsafeBufferPointer<Int32>, _ range: Range<Int>) {
            var previous = range.lowerBound > 0 ? Int(sources[range.lowerBound - 1]) : 0
            for slot in range {
                let value = Int(sources[slot])
                count(value, at: slot, after: previous, of: sources.count)
                previous = value
            }
        }

        /// Counts `source`, the old slot of new slot `slot`, `previous` being the source of `slot − 1` (0 for slot
        /// 0), `count` the number of slots. O(1), branch-free: a sort's sources can be as random as a shuffle's,
        /// where a branch on whether a source ascends would be mispredicted every other slot.
        @inlinable @inline(__always)
        public mutating func count(_ source: Int, at slot: Int, after previous: Int, of count: Int) {
            // Each count adds a comparison's outcome as 0 or 1 (a `Bool`'s bits), never a branch.
            @inline(__always) func one(_ holds: Bool) -> Int { Int(unsafeBitCast(holds, to: UInt8.self)) }
            farSteps &+= one((source &- previous).magnitude > ReorderDiff.farStep)
            ascents &+= one(source > previous)
            unchanged &+= one(source == slot)
            outside &+= one(UInt(bitPattern: source) >= UInt(bitPattern: count))
        }

        /// The counts of two parts of the sources together.
        public static func + (first: SourceCounts, second: SourceCounts) -> SourceCounts {
            var sum = first
            sum.farSteps &+= second.farSteps
            sum.ascents &+= second.ascents
            sum.unchanged &+= second.unchanged
            sum.outside &+= second.outside
            return sum
        }
    }

    /// The minimal diff of `sources`, a permutation with `farSteps` far steps (`farStep`): the search the steps
    /// choose marks the subsequence that stays in `stable` (cleared first, at least `sources.count` bits), and
    /// every other slot is a move (built by halves on the first read of `moves`).
    private init(permutation sources: [Int32], farSteps: Int, stable seen: inout BitSet) {
        let count = sources.count
        let stableCount = Self.search(sources, farSteps: farSteps, markingStableIn: &seen)
        // Every other slot is a move; they are built when first read (`MoveList`): the stdio server sends a
        // large change as its sources and reads only their count.
        let moveList =
            stableCount < count
            ? MoveList(sources: sources, stable: seen, count: count - stableCount) : MoveList([])
        self.init(oldCount: count, newCount: count, removals: [], insertions: [], moveList: moveList)
    }

    /// One longest increasing subsequence of `sources` (a permutation with `farSteps` far steps), marked in
    /// `stable` (cleared first), its length returned: one value at a time when the sources are mostly close to the
    /// one before, sixteen at a time otherwise, split between two threads from `TwoThreads.minimumCount` sources.
    static func search(_ sources: [Int32], farSteps: Int, markingStableIn stable: inout BitSet) -> Int {
        let count = sources.count
        return sources.withUnsafeBufferPointer { sources in
            farSteps <= count / Self.farStepShare
                ? splitLongestIncreasingSubsequenceLength(
                    sources, universe: count, searching: RunsPatiencePiles.self, markingStableIn: &stable)
                : splitLongestIncreasingSubsequenceLength(
                    sources, universe: count, searching: PatiencePiles.self, markingStableIn: &stable)
        }
    }

    /// A value in both halves' sets, if any: the lowest. O(n / 64).
    private static func repeated(in first: BitSet, and second: BitSet) -> Int? {
        for word in first.words.indices where first.words[word] & second.words[word] != 0 {
            return word << 6 | (first.words[word] & second.words[word]).trailingZeroBitCount
        }
        return nil
    }

    /// Sources more than this from the one before are far (`init(permutation:)`): a key with 250 values interleaves
    /// its runs at about that distance, and the runs' search is still the faster there.
    @usableFromInline static let farStep: UInt = 1024
    /// Beyond one source in this many far from the one before, `init(permutation:)` searches sixteen at a time (about
    /// 500 interleaved runs, where both searches take the same time on a million sources).
    static let farStepShare = 8
}
