extension ReorderDiff {
    /// The minimal diff of a reordering whose sources are known: `sources[i]` is the old index of the element now
    /// at new index i (a sort knows this, so no id needs hashing).
    ///
    /// The elements that stay are one longest increasing subsequence of `sources`; every other element is a move —
    /// the same count as `ReorderDiff(from:to:)` on the ids. Throws `ModelError.diffMismatch` unless `sources` is a
    /// permutation of `0..<sources.count`. O(n log k) for a longest run k, O(n) for nearly sorted sources.
    public init(permutation sources: [Int32]) throws(ModelError) {
        let count = sources.count
        var seen = BitSet(count: count)
        defer { seen.deallocate() }
        for value in sources {
            guard value >= 0, Int(value) < count, !seen.contains(Int(value)) else {
                throw .diffMismatch("the sources are not a permutation of 0..<\(count) (at \(value))")
            }
            seen.insert(Int(value))
        }
        let stableCount = sources.withUnsafeBufferPointer {
            runsLongestIncreasingSubsequenceLength($0, markingStableIn: &seen)
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
}
