import Foundation
import Testing

@testable import CardModels

/// A diff computed from a permutation's sources defers its moves (`ReorderDiff.MoveList`): `moveCount` counts them
/// without building them, the first read of `moves` builds them (the same as an eager diff's), and equality,
/// hashing and coding see the moves, not how they are kept.
@Suite struct ReorderDiffMoveListTests {
    /// `count` sources: a seeded shuffle, or the identity with `swaps` seeded transpositions.
    static func sources(count: Int, swaps: Int?, _ generator: inout SplitMix64) -> [Int32] {
        var sources = (0..<count).map { Int32($0) }
        if let swaps {
            for _ in 0..<swaps where count > 1 {
                sources.swapAt(Int(generator.next() % UInt64(count)), Int(generator.next() % UInt64(count)))
            }
        } else {
            sources.shuffle(using: &generator)
        }
        return sources
    }

    /// The moves of `sources` from the slots a longest increasing subsequence keeps, one thread, by the textbook
    /// definition: the reference the deferred list must match.
    static func referenceMoves(_ sources: [Int32], stable: Set<Int>) -> [ReorderDiff.Move] {
        sources.indices.filter { !stable.contains($0) }.map { ReorderDiff.Move(from: Int(sources[$0]), to: $0) }
    }

    /// 2,000 seeded permutations (shuffles and near-identities, up to 3,000 slots): the diff's moves stay unbuilt
    /// until read, `moveCount` is their count, and they are every slot outside an increasing subsequence of the
    /// sources as long as the longest, each from its source, ascending by `to`.
    @Test func deferredMovesAreTheMinimalDiffsMoves() throws {
        var generator = SplitMix64(seed: 0x4D4F_5645)
        for round in 0..<2_000 {
            let count = Int(generator.next() % 3_000)
            let sources = Self.sources(
                count: count, swaps: round % 2 == 0 ? nil : Int(generator.next() % 20), &generator)
            let diff = round % 3 == 0 ? try ReorderDiff(permutation: sources) : ReorderDiff(sortSources: sources)
            let length = binarySearchLISLength(sources)
            #expect(diff.moveCount == count - length, "round \(round)")
            #expect(diff.moveList.isUnbuilt == (diff.moveCount > 0), "round \(round): built before a read")
            let moves = diff.moves
            #expect(!diff.moveList.isUnbuilt, "round \(round)")
            #expect(moves.count == diff.moveCount, "round \(round)")
            let moved = Set(moves.map(\.to))
            let stable = Set(sources.indices).subtracting(moved)
            #expect(moves == Self.referenceMoves(sources, stable: stable), "round \(round)")
            let kept = stable.sorted().map { sources[$0] }
            #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 }, "round \(round): the kept slots rise")
            #expect(try diff.applied(to: Array(0..<count), inserting: []) == sources.map(Int.init), "round \(round)")
        }
    }

    /// Past `TwoThreads.minimumCount` slots the moves are built by halves on two threads: the same as the
    /// reference, and built once (a second read returns the same storage).
    @Test func largeDeferredMovesAreBuiltByHalvesOnce() throws {
        var generator = SplitMix64(seed: 29)
        let count = TwoThreads.minimumCount + 4_321
        for swaps in [nil, 5_000] as [Int?] {
            let sources = Self.sources(count: count, swaps: swaps, &generator)
            let diff = ReorderDiff(sortSources: sources)
            #expect(diff.moveList.isUnbuilt)
            let first = diff.moves
            let second = diff.moves
            #expect(
                first.withUnsafeBufferPointer { $0.baseAddress } == second.withUnsafeBufferPointer { $0.baseAddress })
            let stable = Set(sources.indices).subtracting(first.map(\.to))
            #expect(first == Self.referenceMoves(sources, stable: stable))
            #expect(first.count == count - binarySearchLISLength(sources))
        }
    }

    /// Readers on two threads at once get the same moves (the list builds them once, under its lock).
    @Test func concurrentReadersGetTheSameMoves() async throws {
        var generator = SplitMix64(seed: 7)
        let sources = Self.sources(count: 50_000, swaps: nil, &generator)
        let diff = ReorderDiff(sortSources: sources)
        async let first = Task.detached { diff.moves }.value
        async let second = Task.detached { diff.moves }.value
        let (a, b) = await (first, second)
        #expect(a == b)
        #expect(a.count == diff.moveCount)
    }

    /// A deferred diff equals, hashes and codes as the eager diff with the same moves; setting `moves` replaces
    /// the list.
    @Test func equalityHashingAndCodingSeeTheMoves() throws {
        var generator = SplitMix64(seed: 11)
        let sources = Self.sources(count: 500, swaps: nil, &generator)
        let deferred = ReorderDiff(sortSources: sources)
        let eager = ReorderDiff(
            oldCount: 500, newCount: 500, removals: [], insertions: [], moves: ReorderDiff(sortSources: sources).moves)
        #expect(deferred == eager)
        #expect(deferred.hashValue == eager.hashValue)
        var other = eager
        other.moves.removeLast()
        #expect(deferred != other)
        #expect(other.moveCount == eager.moveCount - 1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(deferred)
        #expect(encoded == (try encoder.encode(eager)))
        let object = try JSONSerialization.jsonObject(with: encoded) as? [String: Any]
        #expect(Set(object?.keys.map { $0 } ?? []) == ["oldCount", "newCount", "removals", "insertions", "moves"])
        #expect(try JSONDecoder().decode(ReorderDiff.self, from: encoded) == deferred)
        #expect(ReorderDiff(sortSources: (0..<10).map { Int32($0) }).isEmpty)
        #expect(!deferred.isEmpty)
    }

    /// 3,000 seeded sorts' sources of five shapes (up to 3,000 slots): a sort's diff searches nothing until its
    /// count or its moves are read; before, `moveCountBounds` holds the true count, starts at n − r for the r
    /// descending runs, and is exact — with no search ever — for a reversal; `isEmpty` needs no search; after the
    /// read the count is the longest increasing subsequence's complement and the bounds are exact.
    @Test func aSortsDiffSearchesOnlyWhenItsCountIsRead() throws {
        var generator = SplitMix64(seed: 0x5345_4152)
        var reversals = 0
        for round in 0..<3_000 {
            let count = Int(generator.next() % 3_000)
            let sources = SortSourcesShape(round: round).sources(count: count, using: &generator)
            let diff = ReorderDiff(sortSources: sources)
            let exact = count - binarySearchLISLength(sources)
            let runs = count == 0 ? 0 : 1 + zip(sources, sources.dropFirst()).count { $0 < $1 }
            #expect(diff.isEmpty == (exact == 0), "round \(round)")
            let bounds = diff.moveCountBounds
            #expect(bounds.contains(exact), "round \(round): \(bounds) against \(exact)")
            if exact > 0 {
                #expect(bounds.lowerBound == max(count - runs, 1), "round \(round)")
                #expect(bounds.upperBound == count - 1, "round \(round)")
                #expect(diff.moveList.isUnsearched, "round \(round): searched before a read")
            }
            #expect(diff.moveCount == exact, "round \(round)")
            if runs == 1 && count > 1 {
                // A reversal: counted from the bounds alone.
                reversals += 1
                #expect(diff.moveList.isUnsearched, "round \(round): a reversal searched")
                #expect(diff.moveCountBounds == exact...exact, "round \(round)")
            } else {
                #expect(!diff.moveList.isUnsearched, "round \(round)")
                #expect(diff.moveCountBounds == exact...exact, "round \(round)")
            }
            #expect(diff.moves.count == exact, "round \(round)")
            #expect(try diff.applied(to: Array(0..<count), inserting: []) == sources.map(Int.init), "round \(round)")
        }
        #expect(reversals > 500)
    }

    /// A large shuffle's diff (past `TwoThreads.minimumCount`): unsearched after creation, searched once by
    /// concurrent readers of the count, which all see the same count as an eager diff of the same sources.
    @Test func concurrentReadersOfALargeSortsCountSearchOnce() async throws {
        var generator = SplitMix64(seed: 41)
        let sources = Self.sources(count: TwoThreads.minimumCount + 999, swaps: nil, &generator)
        let diff = ReorderDiff(sortSources: sources)
        #expect(diff.moveList.isUnsearched)
        #expect(!diff.moveCountBounds.isEmpty && diff.moveCountBounds.lowerBound > sources.count / 3)
        async let first = Task.detached { diff.moveCount }.value
        async let second = Task.detached { diff.moveCount }.value
        let (a, b) = await (first, second)
        let eager = try ReorderDiff(permutation: sources)
        #expect(a == eager.moveCount && b == eager.moveCount)
        #expect(diff.moveCountBounds == a...a)
        #expect(diff.moves.count == a)
    }
}
