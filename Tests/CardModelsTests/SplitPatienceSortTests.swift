import Testing

@testable import CardModels

/// Issue 29: from `TwoThreads.minimumCount` sources, `ReorderDiff(permutation:)` splits its work between two
/// threads — the permutation check by halves, the longest increasing subsequence as a forward search of the first
/// half and a backward one of the second joined at the best threshold, the moves by halves. These tests hold the
/// split to the one-thread computation: the same length (so the same number of moves), a subsequence that really
/// increases, the same choice whichever search runs, and every non-permutation still refused.
@Suite struct SplitPatienceSortTests {
    /// Sources of `count` in one of the shapes a sort gives (shuffled, rising runs of a key with few or many values,
    /// reversed, nearly sorted, half shuffled).
    static func sources(_ count: Int, shape: Int, _ generator: inout SplitMix64) -> [Int32] {
        var sources = (0..<count).map { Int32($0) }
        switch shape % 6 {
        case 0:
            sources.shuffle(using: &generator)
        case 1, 2:
            let values = 2 + generator.next() % (shape % 6 == 1 ? 12 : 2_000)
            let keys = (0..<count).map { _ in generator.next() % values }
            sources.sort { (first: Int32, second: Int32) -> Bool in
                let (a, b) = (keys[Int(first)], keys[Int(second)])
                return a != b ? a < b : first < second
            }
        case 3:
            sources.reverse()
        case 4:
            for _ in 0..<(1 + count / 100) {
                sources.swapAt(Int(generator.next() % UInt64(count)), Int(generator.next() % UInt64(count)))
            }
        default:
            sources[0..<(count / 2)].shuffle(using: &generator)
        }
        return sources
    }

    /// The length and the marked positions of a search over `values`.
    static func search(_ values: [Int32], split: Bool, batched: Bool) -> (length: Int, marked: [Int]) {
        var stable = BitSet(count: values.count)
        defer { stable.deallocate() }
        let length = values.withUnsafeBufferPointer { values in
            switch (split, batched) {
            case (true, true):
                splitLongestIncreasingSubsequenceLength(
                    values, universe: values.count, searching: PatiencePiles.self, markingStableIn: &stable)
            case (true, false):
                splitLongestIncreasingSubsequenceLength(
                    values, universe: values.count, searching: RunsPatiencePiles.self, markingStableIn: &stable)
            case (false, true):
                longestIncreasingSubsequenceLength(values, universe: values.count, markingStableIn: &stable)
            case (false, false):
                runsLongestIncreasingSubsequenceLength(values, markingStableIn: &stable)
            }
        }
        return (length, values.indices.filter { stable.contains($0) })
    }

    /// 24 seeded permutations of 131,072 to 165,536 sources in every shape: the split search's length is the
    /// one-thread search's, it marks that many positions whose values rise, and both split searches (batched and
    /// by runs) mark the same positions.
    @Test func theSplitSearchFindsALongestSubsequence() {
        var generator = SplitMix64(seed: 0x5917)
        for round in 0..<24 {
            let count = TwoThreads.minimumCount + Int(generator.next() % 34_465)
            let values = Self.sources(count, shape: round, &generator)
            let whole = Self.search(values, split: false, batched: true)
            let batched = Self.search(values, split: true, batched: true)
            let runs = Self.search(values, split: true, batched: false)
            #expect(batched.length == whole.length, "round \(round): \(count) sources")
            #expect(batched.marked.count == batched.length, "round \(round)")
            #expect(zip(batched.marked, batched.marked.dropFirst()).allSatisfy { values[$0] < values[$1] })
            #expect(runs.length == whole.length && runs.marked == batched.marked, "round \(round)")
        }
    }

    /// A longest subsequence that lies wholly in one half, or crosses at a threshold only the second half's tops
    /// show: the join tries every threshold, not only the halves' own longest.
    @Test func theJoinFindsSubsequencesOfEitherHalfOrAcross() {
        let count = TwoThreads.minimumCount * 2
        let half = count / 2
        // First half rising (all of it stable), second half falling: the longest is the first half.
        let firstRises = (0..<half).map { Int32($0) } + (0..<half).map { Int32(count - 1 - $0) }
        #expect(Self.search(firstRises, split: true, batched: true).length == half + 1)
        // First half falling, second half rising: the longest is the second half (plus one of the first below it).
        let secondRises = (0..<half).map { Int32(count - 1 - $0) } + (0..<half).map { Int32($0) }
        #expect(Self.search(secondRises, split: true, batched: true).length == half)
        // The low values rise in the first half, the high ones in the second, interleaved with noise above them.
        var crossing: [Int32] = []
        for index in 0..<half { crossing.append(index % 2 == 0 ? Int32(index / 2) : Int32(count - 1 - index / 2)) }
        for index in 0..<half {
            crossing.append(index % 2 == 0 ? Int32(half / 2 + index / 2) : Int32(count - half / 2 - 1 - index / 2))
        }
        let whole = Self.search(crossing, split: false, batched: true)
        let split = Self.search(crossing, split: true, batched: true)
        #expect(split.length == whole.length)
        #expect(zip(split.marked, split.marked.dropFirst()).allSatisfy { crossing[$0] < crossing[$1] })
    }

    /// The check by halves refuses what the whole check refused: a value repeated within either half or across
    /// them, a negative value, one past the end in either half; and a split diff of shuffled sources rebuilds the
    /// new order with the minimal number of moves.
    @Test func theCheckByHalvesRefusesEveryNonPermutation() throws {
        let count = TwoThreads.minimumCount + 1_001
        var generator = SplitMix64(seed: 0x2929_5917)
        var sources = (0..<count).map { Int32($0) }
        sources.shuffle(using: &generator)
        let diff = try ReorderDiff(permutation: sources)
        let old = (0..<count).map { $0 }
        #expect(try diff.applied(to: old, inserting: []) == sources.map { Int($0) })
        #expect(diff.moves.count == count - Self.search(sources, split: false, batched: true).length)
        let half = count / 2
        let broken: [(String, (inout [Int32]) -> Void)] = [
            ("repeat in the first half", { $0[3] = $0[half - 2] }),
            ("repeat in the second half", { $0[half + 5] = $0[count - 1] }),
            ("repeat across the halves", { $0[10] = $0[count - 10] }),
            ("negative", { $0[half + 1] = -1 }),
            ("past the end, first half", { $0[0] = Int32(count) }),
            ("past the end, second half", { $0[count - 1] = Int32(count + 7) }),
        ]
        for (name, breakIt) in broken {
            var bad = sources
            breakIt(&bad)
            #expect(throws: ModelError.self, "\(name)") { try ReorderDiff(permutation: bad) }
        }
    }
}

/// `ReorderDiff(sortSources:)`, the sorts' diff that leaves out the permutation check, gives exactly the checked
/// diff, and finds the identity (a sort that changed nothing) without a search.
@Suite struct SortSourcesDiffTests {
    /// Seeded sources of every shape, at sizes on one thread and on two, plus the identity and a one-card change:
    /// the same moves as `ReorderDiff(permutation:)`.
    @Test func theUncheckedDiffIsTheCheckedOne() throws {
        var generator = SplitMix64(seed: 0x2929)
        for round in 0..<600 {
            let count =
                round % 50 == 0
                ? TwoThreads.minimumCount + Int(generator.next() % 9_999) : 1 + Int(generator.next() % 3_000)
            var sources: [Int32]
            switch round % 8 {
            case 6: sources = (0..<count).map { Int32($0) }
            case 7:
                sources = (0..<count).map { Int32($0) }
                if count > 1 { sources.swapAt(0, count - 1) }
            default: sources = SplitPatienceSortTests.sources(count, shape: round, &generator)
            }
            let checked = try ReorderDiff(permutation: sources)
            let unchecked = ReorderDiff(sortSources: sources)
            #expect(unchecked == checked, "round \(round): \(count) sources")
            // Counted by parts as a sort writes them (here three, the last two's first step from the one before).
            var counts = ReorderDiff.SourceCounts()
            for part in [0..<count / 3, count / 3..<count / 2, count / 2..<count] {
                var partCounts = ReorderDiff.SourceCounts()
                var previous = part.lowerBound > 0 ? Int(sources[part.lowerBound - 1]) : 0
                for slot in part {
                    partCounts.count(Int(sources[slot]), at: slot, after: previous, of: count)
                    previous = Int(sources[slot])
                }
                counts = counts + partCounts
            }
            #expect(counts.unchanged == zip(sources, 0...).count { Int($0) == $1 }, "round \(round)")
            #expect(counts.outside == 0, "round \(round)")
            var far = 0
            for slot in sources.indices {
                let before = slot > 0 ? Int(sources[slot - 1]) : 0
                far += abs(Int(sources[slot]) - before) > 1024 ? 1 : 0
            }
            #expect(counts.farSteps == far, "round \(round)")
            #expect(ReorderDiff(sortSources: sources, counted: counts) == checked, "round \(round): \(count) sources")
        }
        #expect(ReorderDiff(sortSources: (0..<300_000).map { Int32($0) }).isEmpty)
    }

    /// Counts that say a source is outside the slots stop the process, as the pass that counts them does.
    @Test func countsOfASourceOutsideTheSlotsStopTheProcess() async {
        await #expect(processExitsWith: .failure) {
            var counts = ReorderDiff.SourceCounts()
            counts.count(2, at: 1, after: 0, of: 2)
            _ = ReorderDiff(sortSources: [0, 1], counted: counts)
        }
    }

    /// A source outside `0..<count` stops the process instead of letting the search read out of bounds.
    @Test func aSourceOutsideTheSlotsStopsTheProcess() async {
        await #expect(processExitsWith: .failure) { _ = ReorderDiff(sortSources: [0, 2]) }
        await #expect(processExitsWith: .failure) { _ = ReorderDiff(sortSources: [-1, 0, 1]) }
    }
}
