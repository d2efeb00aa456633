import CardModels
import Foundation
import Testing

/// An independent O(n²) longest-increasing-subsequence length (textbook dynamic programming).
private func quadraticLISLength(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
        for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max() ?? 0
}

/// LIS length by the textbook binary search over tails (independent of the library's counting search).
func binarySearchLISLength(_ values: [Int32]) -> Int {
    var tails: [Int32] = []
    for value in values {
        var low = 0
        var high = tails.count
        while low < high {
            let middle = (low + high) / 2
            if tails[middle] < value { low = middle + 1 } else { high = middle }
        }
        if low == tails.count { tails.append(value) } else { tails[low] = value }
    }
    return tails.count
}

/// The minimal number of moves in O(n log n), independently of the library (a dictionary and a textbook
/// binary-search LIS), for orders too long for the quadratic check.
private func fastMinimalMoves<Key: Hashable>(_ old: [Key], _ new: [Key]) -> Int {
    var oldPosition: [Key: Int] = [:]
    for (index, key) in old.enumerated() { oldPosition[key] = index }
    let sequence = new.compactMap { oldPosition[$0] }.map { Int32($0) }
    return sequence.count - binarySearchLISLength(sequence)
}

/// The minimal number of moves, computed independently of the diff: common keys minus the LIS of their old
/// positions taken in new order.
private func minimalMoves<Key: Hashable>(_ old: [Key], _ new: [Key]) -> Int {
    var oldPosition: [Key: Int] = [:]
    for (index, key) in old.enumerated() { oldPosition[key] = index }
    let sequence = new.compactMap { oldPosition[$0] }
    return sequence.count - quadraticLISLength(sequence)
}

/// Checks every documented property of `ReorderDiff(from: old, to: new)`.
private func checkDiff<Key: ReorderKey>(_ old: [Key], _ new: [Key], sourceLocation: SourceLocation = #_sourceLocation)
    throws
{
    let diff = try ReorderDiff(from: old, to: new)
    let inserted = diff.insertions.map { new[$0] }
    #expect(try diff.applied(to: old, inserting: inserted) == new, "batch reading", sourceLocation: sourceLocation)
    #expect(diff.appliedStepByStep(to: old, inserting: inserted) == new, "step reading", sourceLocation: sourceLocation)
    #expect(diff.moves.count == minimalMoves(old, new), "minimal moves", sourceLocation: sourceLocation)
    #expect(diff.steps.filter { if case .move = $0 { true } else { false } }.count == diff.moves.count)
    let newSet = Set(new)
    let oldSet = Set(old)
    #expect(diff.removals == old.indices.filter { !newSet.contains(old[$0]) }, sourceLocation: sourceLocation)
    #expect(diff.insertions == new.indices.filter { !oldSet.contains(new[$0]) }, sourceLocation: sourceLocation)
    for move in diff.moves { #expect(old[move.from] == new[move.to], sourceLocation: sourceLocation) }
    #expect(diff.moves.map(\.to) == diff.moves.map(\.to).sorted(), sourceLocation: sourceLocation)
}

@Suite struct ReorderDiffTests {
    @Test func identityHasNoChanges() throws {
        let keys = Array(0..<50)
        let diff = try ReorderDiff(from: keys, to: keys)
        #expect(diff.isEmpty)
        #expect(diff.steps.isEmpty)
    }

    @Test func emptyOrders() throws {
        try checkDiff([Int](), [])
        try checkDiff([Int](), [1, 2, 3])
        try checkDiff([1, 2, 3], [Int]())
        #expect(try ReorderDiff(from: [Int](), to: [4, 5]).insertions == [0, 1])
        #expect(try ReorderDiff(from: [4, 5], to: [Int]()).removals == [0, 1])
    }

    @Test func oneCardFrontToBackIsOneMove() throws {
        let diff = try ReorderDiff(from: [1, 2, 3, 4, 5], to: [2, 3, 4, 5, 1])
        #expect(diff.moves == [ReorderDiff.Move(from: 0, to: 4)])
        #expect(diff.steps == [.move(from: 0, to: 4)])
        try checkDiff([1, 2, 3, 4, 5], [5, 1, 2, 3, 4])
    }

    @Test func fullReverseMovesAllButOne() throws {
        let keys = Array(0..<100)
        let diff = try ReorderDiff(from: keys, to: keys.reversed())
        #expect(diff.moves.count == 99)
        try checkDiff(keys, keys.reversed())
    }

    @Test func disjointOrdersRemoveAndInsertEverything() throws {
        let diff = try ReorderDiff(from: [1, 2, 3], to: [4, 5])
        #expect(diff.removals == [0, 1, 2])
        #expect(diff.insertions == [0, 1])
        #expect(diff.moves.isEmpty)
        try checkDiff([1, 2, 3], [4, 5])
    }

    @Test func duplicatesInEitherOrderThrow() {
        #expect(throws: ModelError.duplicateKey("2")) { try ReorderDiff(from: [1, 2, 2], to: [1, 2]) }
        #expect(throws: ModelError.duplicateKey("3")) { try ReorderDiff(from: [1, 2, 3], to: [3, 1, 3]) }
        // Duplicates hidden in the trimmed common prefix and suffix are found too.
        #expect(throws: ModelError.duplicateKey("1")) { try ReorderDiff(from: [1, 1], to: [1, 1]) }
        #expect(throws: ModelError.duplicateKey("1")) { try ReorderDiff(from: [1, 2, 3], to: [1, 3, 1]) }
        #expect(throws: ModelError.duplicateKey("9")) { try ReorderDiff(from: [1, 2], to: [9, 1, 9, 2]) }
        #expect(throws: ModelError.duplicateID(CardID(5))) {
            try ReorderDiff(from: [CardID(5), CardID(5)], to: [CardID(5)])
        }
    }

    @Test func stringAndUUIDKeysUseTheComparingPath() throws {
        try checkDiff(["a", "b", "c", "d"], ["d", "a", "x", "c"])
        var generator = SplitMix64(seed: 3)
        let uuids = (0..<40).map { _ in UUID(uuid: randomUUIDBytes(&generator)) }
        try checkDiff(uuids, ReorderWorkload.shuffle.apply(to: uuids, using: &generator) { _ in UUID() })
    }

    /// 10,000 seeded random cases: every workload, sizes up to 200, plus free-form removals and insertions.
    @Test func seededRandomCasesAreCorrectAndMinimal() throws {
        var generator = SplitMix64(seed: 42)
        var nextFresh = 1_000_000
        for caseNumber in 0..<10_000 {
            let size = Int(generator.next() % 201)
            let old = Array(0..<size).map { $0 * 7 + 3 }
            let new: [Int]
            switch caseNumber % 5 {
            case 0, 1, 2, 3:
                let workload = ReorderWorkload.allCases[caseNumber % 4]
                new = workload.apply(to: old, using: &generator) { _ in
                    nextFresh += 1
                    return nextFresh
                }
            default:
                var keys = old.filter { _ in generator.next() % 4 != 0 }
                keys.shuffle(using: &generator)
                for _ in 0..<Int(generator.next() % 20) {
                    nextFresh += 1
                    keys.insert(nextFresh, at: Int(generator.next() % UInt64(keys.count + 1)))
                }
                new = keys
            }
            try checkDiff(old, new)
        }
    }

    @Test func workloadsProduceWhatTheySay() {
        var generator = SplitMix64(seed: 1)
        let old = Array(0..<1_000)
        var fresh = 10_000
        let churned = ReorderWorkload.churn.apply(to: old, using: &generator) { _ in
            fresh += 1
            return fresh
        }
        #expect(churned.count == 1_000 - 200 + 100)
        #expect(churned.filter { $0 >= 10_000 }.count == 100)
        #expect(Set(churned).count == churned.count)
        let moved = ReorderWorkload.move1.apply(to: old, using: &generator) { _ in 0 }
        #expect(Set(moved) == Set(old))
        #expect(minimalMoves(old, moved) <= 10)
        #expect(minimalMoves(old, moved) >= 1)
    }

    @Test func longestIncreasingSubsequenceIsIncreasingAndLongest() {
        var generator = SplitMix64(seed: 9)
        for _ in 0..<500 {
            let values = (0..<Int(generator.next() % 60)).map { _ in Int32(generator.next() % 100) }
            let positions = longestIncreasingSubsequence(values)
            let picked = positions.map { values[Int($0)] }
            #expect(zip(picked, picked.dropFirst()).allSatisfy { $0 < $1 })
            #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 })
            #expect(picked.count == quadraticLISLength(values.map(Int.init)))
        }
    }

    /// Long inputs, where the pile search runs over many 32-pile blocks, against a plain binary-search LIS.
    @Test func longestIncreasingSubsequenceOnLongInputs() {
        var generator = SplitMix64(seed: 11)
        for size in [100, 1_000, 5_000, 20_000, 60_000] {
            for shape in 0..<3 {
                var values = (0..<size).map { Int32($0) }
                switch shape {
                case 0: values.shuffle(using: &generator)
                case 1:  // nearly sorted with outliers
                    for _ in 0..<(size / 50) {
                        values.swapAt(Int(generator.next() % UInt64(size)), Int(generator.next() % UInt64(size)))
                    }
                default:  // interleaved increasing runs: many piles, and a summary of over 64 blocks
                    values = (0..<size).map { Int32(($0 % 7) * size / 7 + $0 / 7) }
                }
                if size == 60_000 && shape == 0 { continue }  // the O(n²)-free check is enough; keep debug fast
                let positions = longestIncreasingSubsequence(values)
                let picked = positions.map { values[Int($0)] }
                #expect(zip(picked, picked.dropFirst()).allSatisfy { $0 < $1 })
                #expect(picked.count == binarySearchLISLength(values))
            }
        }
    }

    /// Large orders (the pile search past 256 piles, where it starts from a hint by value; tables past the L2 cache,
    /// where prefetching matters): every workload, with integer keys (the injective path) and string keys (the
    /// comparing path), checked against the new order and an independent minimal-move count.
    @Test(arguments: ReorderWorkload.allCases)
    func largeOrdersAreCorrect(workload: ReorderWorkload) throws {
        var generator = SplitMix64(seed: 17)
        for size in [140_000, 200_001] {
            let old = (0..<size).map { $0 * 3 + 1 }
            var fresh = 10_000_000
            let new = workload.apply(to: old, using: &generator) { _ in
                fresh += 1
                return fresh
            }
            let diff = try ReorderDiff(from: old, to: new)
            let inserted = diff.insertions.map { new[$0] }
            #expect(try diff.applied(to: old, inserting: inserted) == new)
            #expect(diff.moves.count == fastMinimalMoves(old, new))
            for move in diff.moves { #expect(old[move.from] == new[move.to]) }
            if size == 140_000 {
                let oldText = old.map(String.init)
                let newText = new.map(String.init)
                let textDiff = try ReorderDiff(from: oldText, to: newText)
                #expect(textDiff.moves.count == diff.moves.count)
                #expect(
                    try textDiff.applied(to: oldText, inserting: textDiff.insertions.map { newText[$0] }) == newText)
            }
        }
    }

    @Test func largeOrdersStillRejectDuplicates() {
        let old = Array(0..<150_000)
        var generator = SplitMix64(seed: 99)
        var duplicateInMiddle = old.shuffled(using: &generator)
        duplicateInMiddle[100] = duplicateInMiddle[200]
        #expect(throws: ModelError.self) { try ReorderDiff(from: old, to: duplicateInMiddle) }
        var duplicateOld = old
        duplicateOld[140_000] = 7
        #expect(throws: ModelError.duplicateKey("7")) { try ReorderDiff(from: duplicateOld, to: old.reversed()) }
        // A key of the trimmed prefix repeated in the middle of the new order.
        var trimmedRepeat = old
        trimmedRepeat.swapAt(20_000, 130_000)
        trimmedRepeat[25_000] = 0
        #expect(throws: ModelError.self) { try ReorderDiff(from: old, to: trimmedRepeat) }
        // Two copies of the same new key that is in neither the old order nor the trimmed parts.
        var twoNew = old.reversed().map { $0 }
        twoNew[10] = 99_999_999
        twoNew[20] = 99_999_999
        #expect(throws: ModelError.duplicateKey("99999999")) { try ReorderDiff(from: old, to: twoNew) }
    }

    /// The permutation form (a sort's sources) gives the minimal moves and the new order, for random permutations
    /// and for sort-like ones made of interleaved rising runs (the run fast path).
    @Test func permutationDiffsAreMinimal() throws {
        var generator = SplitMix64(seed: 5)
        for round in 0..<300 {
            let count = Int(generator.next() % 3_000)
            var sources = (0..<count).map { Int32($0) }
            if round % 2 == 0 {
                sources.shuffle(using: &generator)
            } else {
                // A stable sort by a key with few values: rising runs of old indices, one per key.
                let keys = (0..<count).map { _ in generator.next() % 7 }
                sources = sources.sorted { keys[Int($0)] != keys[Int($1)] ? keys[Int($0)] < keys[Int($1)] : $0 < $1 }
            }
            let diff = try ReorderDiff(permutation: sources)
            let old = Array(0..<count)
            let new = sources.map { Int($0) }
            #expect(try diff.applied(to: old, inserting: []) == new)
            #expect(diff.moves.count == new.count - binarySearchLISLength(sources))
        }
        #expect(throws: ModelError.self) { try ReorderDiff(permutation: [0, 2]) }
        #expect(throws: ModelError.self) { try ReorderDiff(permutation: [1, 1]) }
        #expect(throws: ModelError.self) { try ReorderDiff(permutation: [-1, 0]) }
    }

    @Test func batchApplyRejectsDiffsThatDoNotFit() {
        let diff = ReorderDiff(oldCount: 3, newCount: 3, removals: [], insertions: [], moves: [.init(from: 0, to: 5)])
        #expect(throws: ModelError.self) { try diff.applied(to: [1, 2, 3], inserting: []) }
        let twice = ReorderDiff(
            oldCount: 3, newCount: 3, removals: [], insertions: [],
            moves: [.init(from: 0, to: 1), .init(from: 2, to: 1)])
        #expect(throws: ModelError.self) { try twice.applied(to: [1, 2, 3], inserting: []) }
    }
}

private func randomUUIDBytes(_ generator: inout SplitMix64) -> uuid_t {
    let a = generator.next()
    let b = generator.next()
    return (
        UInt8(truncatingIfNeeded: a), UInt8(truncatingIfNeeded: a >> 8), UInt8(truncatingIfNeeded: a >> 16),
        UInt8(truncatingIfNeeded: a >> 24), UInt8(truncatingIfNeeded: a >> 32), UInt8(truncatingIfNeeded: a >> 40),
        UInt8(truncatingIfNeeded: a >> 48), UInt8(truncatingIfNeeded: a >> 56), UInt8(truncatingIfNeeded: b),
        UInt8(truncatingIfNeeded: b >> 8), UInt8(truncatingIfNeeded: b >> 16), UInt8(truncatingIfNeeded: b >> 24),
        UInt8(truncatingIfNeeded: b >> 32), UInt8(truncatingIfNeeded: b >> 40), UInt8(truncatingIfNeeded: b >> 48),
        UInt8(truncatingIfNeeded: b >> 56)
    )
}
