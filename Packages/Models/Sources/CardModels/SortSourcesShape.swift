/// Shapes of a sort's sources (for each new slot, the old slot of its card) that tests draw from a seeded
/// generator: the cases a diff of a permutation meets — a shuffle, a sort by a key with few values (rising runs),
/// a reversal, one card moved, a nearly sorted order. Test-only.
package enum SortSourcesShape: Int, Sendable, CaseIterable {
    /// A seeded shuffle: a sort by distinct keys of an order sorted by another key.
    case shuffled
    /// Sorted by seeded keys with up to 40 values, ties by slot: rising runs, as a sort by colour leaves.
    case risingRuns
    /// The slots reversed.
    case reversed
    /// One card taken out and put back elsewhere.
    case oneMoved
    /// The identity with a seeded transposition for every 50 slots (at least one).
    case nearlySorted

    /// The shape of round `round` when rounds cycle through the shapes.
    package init(round: Int) {
        self = Self.allCases[round % Self.allCases.count]
    }

    /// `count` sources of this shape, drawn from `generator`. O(n log n) for rising runs, O(n) otherwise.
    package func sources(count: Int, using generator: inout SplitMix64) -> [Int32] {
        var sources = (0..<count).map { Int32($0) }
        switch self {
        case .shuffled:
            sources.shuffle(using: &generator)
        case .risingRuns:
            let keys = (0..<count).map { _ in generator.next() % (1 + generator.next() % 40) }
            sources.sort { (first: Int32, second: Int32) -> Bool in
                let (a, b) = (keys[Int(first)], keys[Int(second)])
                return a != b ? a < b : first < second
            }
        case .reversed:
            sources.reverse()
        case .oneMoved:
            if count > 1 {
                let card = sources.remove(at: Int(generator.next() % UInt64(count)))
                sources.insert(card, at: Int(generator.next() % UInt64(count)))
            }
        case .nearlySorted:
            for _ in 0..<(count / 50 + 1) where count > 1 {
                sources.swapAt(Int(generator.next() % UInt64(count)), Int(generator.next() % UInt64(count)))
            }
        }
        return sources
    }
}
