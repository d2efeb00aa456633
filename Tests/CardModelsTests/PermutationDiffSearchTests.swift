import Testing

@testable import CardModels

/// `ReorderDiff(permutation:)` picks one of two longest-increasing-subsequence searches by the shape of the sources
/// (sixteen at a time when most sources are far from the one before, else one at a time). The moves it reports
/// travel on the wire as `[from, to]` pairs for small changes, so both searches must mark the very same
/// subsequence, not only one as long: these tests fail if either search (or the choice) picks another one.
@Suite struct PermutationDiffSearchTests {
    /// The positions each search marks as stable.
    private func marked(_ values: [Int32], batched: Bool) -> [Int] {
        var stable = BitSet(count: values.count)
        defer { stable.deallocate() }
        _ = values.withUnsafeBufferPointer { values in
            batched
                ? longestIncreasingSubsequenceLength(values, universe: values.count, markingStableIn: &stable)
                : runsLongestIncreasingSubsequenceLength(values, markingStableIn: &stable)
        }
        return values.indices.filter { stable.contains($0) }
    }

    /// The diff that keeps `stable` in place and moves every other element.
    private func diff(_ sources: [Int32], keeping stable: [Int]) -> ReorderDiff {
        let kept = Set(stable)
        let moves = sources.indices.filter { !kept.contains($0) }.map {
            ReorderDiff.Move(from: Int(sources[$0]), to: $0)
        }
        return ReorderDiff(
            oldCount: sources.count, newCount: sources.count, removals: [], insertions: [], moves: moves)
    }

    /// 1,800 seeded permutations of up to 8,000 elements in every shape a sort gives (shuffled, rising runs of a
    /// key with few or many values, reversed, nearly sorted, a run of each): both searches mark the same positions,
    /// and the diff is the one that keeps them.
    @Test func bothSearchesMarkTheSameSubsequence() throws {
        var generator = SplitMix64(seed: 0x2929)
        for round in 0..<1_800 {
            let count = 1 + Int(generator.next() % 8_000)
            // Every shape a sort gives: shuffled, rising runs of a key with 2-14 or 2-2,001 values, reversed, nearly
            // sorted, a shuffled half then the rest rising (far steps near the chosen share).
            let sources = SplitPatienceSortTests.sources(count, shape: round, &generator)
            let runs = marked(sources, batched: false)
            let batched = marked(sources, batched: true)
            #expect(runs == batched, "round \(round): \(count) sources")
            #expect(try ReorderDiff(permutation: sources) == diff(sources, keeping: runs), "round \(round)")
        }
    }

    /// The choice itself: shuffled sources go to the batched search, a sort by a key with few values, a reversal
    /// and a nearly sorted order to the runs' search (the choice's threshold, counted as the initialiser counts).
    @Test func theChoiceFollowsTheShape() {
        func farShare(_ sources: [Int32]) -> Bool {
            var far = 0
            var previous = 0
            for value in sources {
                far += abs(Int(value) - previous) > Int(ReorderDiff.farStep) ? 1 : 0
                previous = Int(value)
            }
            return far > sources.count / ReorderDiff.farStepShare
        }
        var generator = SplitMix64(seed: 29)
        var shuffled = (0..<100_000).map { Int32($0) }
        shuffled.shuffle(using: &generator)
        #expect(farShare(shuffled))
        let keys = (0..<100_000).map { _ in generator.next() % 12 }
        var runs = (0..<100_000).map { Int32($0) }
        runs.sort { (first: Int32, second: Int32) -> Bool in
            let (a, b) = (keys[Int(first)], keys[Int(second)])
            return a != b ? a < b : first < second
        }
        #expect(!farShare(runs))
        #expect(!farShare((0..<100_000).reversed().map { Int32($0) }))
    }
}
