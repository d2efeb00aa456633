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
    public init(permutation sources: [Int32]) throws(ModelError) {
        let count = sources.count
        var seen = BitSet(count: count)
        defer { seen.deallocate() }
        var farSteps = 0
        var previous = 0
        for value in sources {
            guard value >= 0, Int(value) < count, !seen.contains(Int(value)) else {
                throw .diffMismatch("the sources are not a permutation of 0..<\(count) (at \(value))")
            }
            seen.insert(Int(value))
            farSteps &+= (Int(value) &- previous).magnitude > Self.farStep ? 1 : 0
            previous = Int(value)
        }
        let stableCount = sources.withUnsafeBufferPointer { sources in
            farSteps <= count / Self.farStepShare
                ? runsLongestIncreasingSubsequenceLength(sources, markingStableIn: &seen)
                : longestIncreasingSubsequenceLength(sources, universe: count, markingStableIn: &seen)
        }
        var moves: [Move] = []
        if stableCount < count {
            moves = [Move](unsafeUninitializedCapacity: count - stableCount) { storage, initialized in
                var written = 0
                for index in 0..<count where !seen.contains(index) {
                    (storage.baseAddress! + written).initialize(to: Move(from: Int(sources[index]), to: index))
                    written &+= 1
                }
                initialized = written
            }
        }
        self.init(oldCount: count, newCount: count, removals: [], insertions: [], moves: moves)
    }

    /// Sources more than this from the one before are far (`init(permutation:)`): a key with 250 values interleaves
    /// its runs at about that distance, and the runs' search is still the faster there.
    static let farStep: UInt = 1024
    /// Beyond one source in this many far from the one before, `init(permutation:)` searches sixteen at a time (about
    /// 500 interleaved runs, where both searches take the same time on a million sources).
    static let farStepShare = 8
}
