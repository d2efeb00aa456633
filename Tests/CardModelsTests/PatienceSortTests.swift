import CardModels
import Testing

/// Checks that `longestIncreasingSubsequence(values)` picks strictly increasing values at increasing positions, as
/// many as the reference says the longest has.
private func checkLongest(_ values: [Int32], _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
    let positions = longestIncreasingSubsequence(values)
    let picked = positions.map { values[Int($0)] }
    #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }, comment, sourceLocation: sourceLocation)
    #expect(zip(picked, picked.dropFirst()).allSatisfy { $0 < $1 }, comment, sourceLocation: sourceLocation)
    #expect(picked.count == binarySearchLISLength(values), comment, sourceLocation: sourceLocation)
}

/// The batched patience sort behind the diff: its pile search (a 16-ary tree of counts, and from 257 piles a hint
/// by value bucket) and its batches of 16 (searched against the piles as they were, then corrected) must give a
/// longest subsequence on every shape of input.
@Suite struct PatienceSortTests {
    /// Thousands of seeded inputs of every shape and size up to 3,000: random values with repeats, permutations,
    /// nearly sorted, nearly reversed, rising runs, local shuffles.
    @Test func seededShapesMatchTheReference() {
        var generator = SplitMix64(seed: 77)
        for case_ in 0..<3_000 {
            let size = Int(generator.next() % 3_000)
            var values: [Int32]
            switch case_ % 6 {
            case 0:  // random values, repeats likely
                values = (0..<size).map { _ in Int32(generator.next() % UInt64(max(1, size / 3))) }
            case 1:  // a permutation
                values = (0..<size).map { Int32($0) }
                values.shuffle(using: &generator)
            case 2:  // nearly sorted
                values = (0..<size).map { Int32($0) }
                for _ in 0..<(size / 40 + 1) where size > 1 {
                    values.swapAt(Int(generator.next() % UInt64(size)), Int(generator.next() % UInt64(size)))
                }
            case 3:  // nearly reversed
                values = (0..<size).reversed().map { Int32($0) }
                for _ in 0..<(size / 40 + 1) where size > 1 {
                    values.swapAt(Int(generator.next() % UInt64(size)), Int(generator.next() % UInt64(size)))
                }
            case 4:  // rising runs, as a stable sort by a key of few values produces
                let keys = (0..<size).map { _ in generator.next() % 7 }
                values = (0..<size).sorted { (keys[$0], $0) < (keys[$1], $1) }.map { Int32($0) }
            default:  // local shuffles: many piles close together
                values = (0..<size).map { Int32($0) }
                var start = 0
                while start < size {
                    let end = min(start + 8, size)
                    values[start..<end].shuffle(using: &generator)
                    start = end
                }
            }
            checkLongest(values, "case \(case_), size \(size)")
        }
    }

    /// Batches whose values crowd a few piles, so that values placed earlier in a batch often move a later value's
    /// pile by several places (the correction after the batch's searches), and a hand-made batch that needs two.
    @Test func crowdedBatchesAreCorrected() {
        var generator = SplitMix64(seed: 12)
        for range in [3, 8, 20, 50, 100] {
            for _ in 0..<300 {
                let values = (0..<Int(generator.next() % 400)).map { _ in Int32(generator.next() % UInt64(range)) }
                checkLongest(values, "values below \(range)")
            }
        }
        // Piles topped 0, 10, …, 150, then one batch: 41 and 44 lower piles 5 and 6, 5 lowers pile 1, and 45 must go
        // on pile 7 — two places past its search (5), and past the pile after the last value placed (2). Then
        // 46 … 57 climb from there: 20 piles, where 45 one pile too low would leave 19.
        let values: [Int32] = (0..<16).map { Int32($0 * 10) } + [41, 44, 5, 45] + Array(46...57)
        checkLongest(values, "hand-made batch")
        #expect(longestIncreasingSubsequence(values).count == 20)
    }

    /// Pile counts at and around every change of the tree's depth (16, 256, 4,096 and 65,536 piles): ascending
    /// even values build the piles, then odd values in random order are searched and placed among them.
    @Test func depthChangesKeepTheSearchExact() {
        var generator = SplitMix64(seed: 5)
        for piles in [15, 16, 17, 255, 256, 257, 4_095, 4_096, 4_097, 65_537] {
            var odd = (0..<min(piles, 3_000)).map { _ in Int32(2 * Int(generator.next() % UInt64(piles)) + 1) }
            odd.shuffle(using: &generator)
            let values = (0..<piles).map { Int32(2 * $0) } + odd
            checkLongest(values, "\(piles) piles")
        }
    }

    /// The hint by value bucket gives up when 16 or more level-1 entries share the value's bucket: hundreds of
    /// piles crowded into the lowest of a million values, then searched, must still be placed exactly.
    @Test func crowdedBucketsFallBackToTheTree() {
        var generator = SplitMix64(seed: 6)
        var values = (0..<700).map { Int32($0) }  // 700 piles, all in the first bucket of ~1,000
        values += (0..<2_000).map { _ in Int32(generator.next() % 700) }
        values.append(1_000_000)
        checkLongest(values, "crowded")
        // And the same crowd in the middle of the range, with the piles above it.
        var middle = (0..<700).map { Int32(500_000 + $0) }
        middle += (0..<2_000).map { _ in Int32(500_000 + Int(generator.next() % 700)) }
        middle += (0..<300).map { Int32(900_000 + $0) }
        checkLongest(middle, "crowded middle")
    }

    /// Values of the whole Int32 range: negatives are ranked first; `Int32.min` and `Int32.max` are values like
    /// any other (the search pads with `Int32.max`).
    @Test func extremeAndNegativeValues() {
        var generator = SplitMix64(seed: 8)
        checkLongest([Int32.max, Int32.min, 0, -1, Int32.max, 5], "extremes")
        checkLongest([Int32.max, Int32.max - 1, Int32.max], "top of the range")
        for _ in 0..<200 {
            let values = (0..<Int(generator.next() % 500)).map { _ in Int32(truncatingIfNeeded: generator.next()) }
            checkLongest(values, "full range")
        }
        #expect(longestIncreasingSubsequence([]).isEmpty)
        #expect(longestIncreasingSubsequence([7]) == [0])
    }

    /// The shuffles the benchmark uses: 100,000 values take about 630 piles, so the hint does the searching.
    @Test func largeShuffles() {
        var generator = SplitMix64(seed: 42)
        for size in [50_000, 130_000] {
            var values = (0..<size).map { Int32($0) }
            values.shuffle(using: &generator)
            checkLongest(values, "shuffle of \(size)")
        }
    }
}
