import CardEngine
import CardGeometry
import Testing

@testable import CardModels
@testable import CardScenes

/// The fast rankings (counting, radix, distinct-value table) against the comparison sort they replace, on seeded
/// random keys: thousands of cases each, with ties, extremes and both sides of every fast path's threshold.
@Suite struct DenseRanksTests {
    private func reference<Key: Comparable>(_ keys: [Key]) -> DenseRanks {
        DenseRanks(count: keys.count) { keys[$0] }
    }

    @Test func integerRanksMatchTheComparisonSort() {
        var generator = SplitMix64(seed: 0x5EED_0001)
        for round in 0..<3_000 {
            let count = Int(generator.next() % 300)
            let keys: [Int] = (0..<count).map { _ in
                switch round % 5 {
                case 0: Int(generator.next() % 8)  // many ties, a narrow span (counting pass)
                case 1: Int(generator.next() % UInt64(4 * count + 2)) - count  // negative, near the threshold
                case 2: Int(bitPattern: UInt(generator.next()))  // the full range (radix sort)
                case 3: [Int.min, Int.max, 0, -1, 1][Int(generator.next() % 5)]  // extremes (overflowing span)
                default: Int(generator.next() % 1_000_000) * (generator.next() % 2 == 0 ? 1 : -1)
                }
            }
            let ranks = DenseRanks(integers: keys)
            #expect(ranks == reference(keys), "round \(round): \(keys)")
        }
    }

    @Test func aPermutationOfPositionsTakesTheCountingPass() {
        var generator = SplitMix64(seed: 7)
        var keys = Array(0..<10_000)
        keys.shuffle(using: &generator)
        let ranks = DenseRanks(integers: keys)
        #expect(ranks.ranks == keys.map { Int32($0) })
        #expect(ranks.distinct == 10_000)
    }

    @Test func radixSortIsASortedStablePermutation() {
        var generator = SplitMix64(seed: 0x5EED_0002)
        for round in 0..<2_000 {
            let count = Int(generator.next() % 200)
            let keys: [UInt64] = (0..<count).map { _ in
                round % 2 == 0 ? generator.next() % 16 : generator.next() >> (generator.next() % 64)
            }
            let (sorted, indices) = DenseRanks.radixSort(keys)
            let expected = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
            #expect(indices.map(Int.init) == expected)
            #expect(sorted == expected.map { keys[$0] })
        }
    }

    /// The packed sort (keys' high bits and indices in one word) ranks as the comparison sort: random keys, keys
    /// that tie in their high bits and differ below (the runs it sorts afterwards), equal keys, few distinct keys
    /// and keys that differ only in bits the index shares, at counts on both sides of a power of two.
    @Test func packedSortRanksMatchTheComparisonSort() {
        var generator = SplitMix64(seed: 0x5EED_0009)
        for round in 0..<60 {
            let count = [1, 2, 3, 255, 256, 257, 4_095, 4_096, 4_097, 9_000][round % 10]
            let keys: [UInt64] = (0..<count).map { _ in
                switch round % 6 {
                case 0: generator.next()
                case 1: (generator.next() % 64) << 50 | generator.next() % 4_096  // high-bit ties, low bits differ
                case 2: generator.next() % 8  // equal keys, all below the index bits
                case 3: [0, UInt64.max, 1 << 63, 1][Int(generator.next() % 4)]
                case 4: generator.next() >> (generator.next() % 64)
                default: (generator.next() % 3) << 12 | (generator.next() % 3)  // ties across the index's byte
                }
            }
            #expect(DenseRanks(packedSortOf: keys) == reference(keys), "round \(round)")
        }
        let large = (0..<(DenseRanks.packedMinimumCount + 7)).map { _ in generator.next() % 1_000 }
        #expect(DenseRanks(sortedBy: large) == reference(large))
    }

    @Test func distinctValueRanksMatchTheComparisonSort() {
        var generator = SplitMix64(seed: 0x5EED_0003)
        for round in 0..<3_000 {
            let count = Int(generator.next() % 300)
            let palette = (0..<(1 + Int(generator.next() % 20))).map { _ in UInt32(truncatingIfNeeded: generator.next())
            }
            let values = (0..<count).map { _ in palette[Int(generator.next() % UInt64(palette.count))] }
            // Distinct values may share a key (a many-to-one key function), and the limit may be exceeded.
            let key: (UInt32) -> Int = { round % 3 == 0 ? Int($0 % 5) : Int($0) }
            let limit = round % 4 == 0 ? 3 : 4096
            let ranks = DenseRanks(count: count, value: { values[$0] }, key: key, distinctLimit: limit)
            #expect(ranks == reference(values.map(key)), "round \(round)")
        }
    }

    @Test func colourRanksMatchTheHueKeyOfEveryCard() throws {
        var generator = SplitMix64(seed: 0x5EED_0004)
        let cards = (0..<5_000).map { index in
            Card(
                id: CardID(UInt64(index + 1)), title: "C\(index % 37)",
                color: RGBColor(
                    red: UInt8(generator.next() % 4 * 80), green: UInt8(generator.next() % 4 * 80),
                    blue: UInt8(generator.next() % 4 * 80)),
                sortOrder: Int(generator.next() % 9_000) - 4_000)
        }
        let deck = try Deck(cards)
        #expect(DeckOrder.colorRanks(deck) == reference(cards.map { DeckOrder.hueKey($0.color) }))
        #expect(DeckOrder.titleRanks(deck) == reference(cards.map { TitleOrder.Key($0.title) }))
        #expect(DeckOrder.givenSortOrderRanks(deck) == reference(cards.map(\.sortOrder)))
    }

    /// Titles rank as people count them (issue 46: "Card 1, Card 10, Card 100 …" read as a defect): digit runs by
    /// value, letters without case, the bytes deciding between equals.
    @Test func titlesRankAsPeopleCountThem() {
        let titles = [
            "Card 10", "Card 2", "Card 1", "card 3", "Card 100", "Card 007", "Card 7", "apple", "Banana", "Apple",
            "Zeta 3b", "Zeta 3a", "Zeta 03a", "é", "e", "Card 1000000", "Card 999999", "",
        ]
        let ordered = titles.sorted(by: TitleOrder.precedes)
        #expect(
            ordered == [
                "", "Apple", "apple", "Banana", "Card 1", "Card 2", "card 3", "Card 007", "Card 7", "Card 10",
                "Card 100", "Card 999999", "Card 1000000", "e", "Zeta 03a", "Zeta 3a", "Zeta 3b", "é",
            ])
        let ranks = DenseRanks(titles: titles.count) { titles[$0] }
        #expect(ranks == reference(titles.map(TitleOrder.Key.init)))
    }

    /// `TitleOrder` is a total order (antisymmetric, transitive, equal only for the same title) and the 128-bit
    /// prefix keys never contradict it; the title ranks equal the reference comparison sort's: 4,000 seeded decks
    /// of titles made of digits (zeros too), letters of both cases, spaces, punctuation and non-ASCII letters,
    /// some runs longer than a key holds.
    @Test func titleOrderIsTotalAndItsKeysAgree() {
        var generator = SplitMix64(seed: 0x5EED_0007)
        let pieces = ["0", "00", "1", "9", "10", "42", "007", "a", "A", "b", "Z", " ", "-", "é", "É", "card", "Card "]
        func title() -> String {
            var text = ""
            for _ in 0..<(generator.next() % 7) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            if generator.next() % 50 == 0 { text += String(repeating: "7", count: 250 + Int(generator.next() % 20)) }
            return text
        }
        func key(_ title: String) -> (UInt64, UInt64) {
            var title = title
            return title.withUTF8 { TitleOrder.prefixKey($0) }
        }
        for round in 0..<4_000 {
            let titles = (0..<(2 + Int(generator.next() % 40))).map { _ in title() }
            for a in titles {
                for b in titles {
                    let order = TitleOrder.compare(a, b)
                    #expect(order == -TitleOrder.compare(b, a), "\(a) / \(b)")
                    #expect((order == 0) == (a == b), "\(a) / \(b)")
                    let (keyA, keyB) = (key(a), key(b))
                    if keyA.0 < keyB.0 || (keyA.0 == keyB.0 && keyA.1 < keyB.1) {
                        #expect(order < 0, "the key of \(a) is below the key of \(b)")
                    }
                }
            }
            let sorted = titles.sorted(by: TitleOrder.precedes)
            for index in sorted.indices.dropFirst() {
                #expect(TitleOrder.compare(sorted[index - 1], sorted[index]) <= 0, "round \(round)")
            }
            let ranks = DenseRanks(titles: titles.count) { titles[$0] }
            #expect(ranks == reference(titles.map(TitleOrder.Key.init)), "round \(round): \(titles)")
            // Given in order (the ranks' fast path that skips the sort), ties and all; and with one pair out of
            // order, which the fast path must notice.
            let inOrder = DenseRanks(titles: sorted.count) { sorted[$0] }
            #expect(inOrder == reference(sorted.map(TitleOrder.Key.init)), "round \(round): \(sorted)")
            if let swap = sorted.indices.dropFirst().first(where: { TitleOrder.compare(sorted[$0 - 1], sorted[$0]) < 0 }
            ) {
                var almost = sorted
                almost.swapAt(swap - 1, swap)
                let ranks = DenseRanks(titles: almost.count) { almost[$0] }
                #expect(ranks == reference(almost.map(TitleOrder.Key.init)), "round \(round): \(almost)")
            }
        }
    }

    /// A deck large enough to rank its keys when it opens sorts exactly as the stable comparison sort does.
    @Test func aLargeDeckSortsLikeTheStableComparisonSort() throws {
        var generator = SplitMix64(seed: 0x5EED_0005)
        let count = DeckScene.persistListLimit + 2_000
        let cards = (0..<count).map { index in
            Card(
                id: CardID(UInt64(index + 1)), title: "Card \(generator.next() % 3_000)",
                color: DeckGenerator.palette[Int(generator.next() % 12)],
                sortOrder: Int(bitPattern: UInt(generator.next())) / 4)
        }
        var scene = try DeckScene(options: SceneOptions(deck: try Deck(cards)))
        #expect(
            scene.order.keyRanks.title != nil && scene.order.keyRanks.color != nil
                && scene.order.keyRanks.givenSortOrder != nil)
        var context = SceneContext(time: 0, viewport: Size(width: 390, height: 844))
        for (key, descending) in [("title", false), ("color", true), ("sortOrder", false), ("title", true)] {
            let before = scene.deck.cards
            try scene.perform(
                SceneAction("sort", ["by": .string(key), "order": .string(descending ? "descending" : "ascending")]),
                context: &context)
            func less(_ a: Card, _ b: Card) -> Bool {
                switch key {
                case "title":
                    descending ? TitleOrder.precedes(b.title, a.title) : TitleOrder.precedes(a.title, b.title)
                case "color":
                    descending
                        ? DeckOrder.hueKey(a.color) > DeckOrder.hueKey(b.color)
                        : DeckOrder.hueKey(a.color) < DeckOrder.hueKey(b.color)
                default: descending ? a.sortOrder > b.sortOrder : a.sortOrder < b.sortOrder
                }
            }
            // Stable: equal keys keep their previous order.
            let expected = before.enumerated().sorted { lhs, rhs in
                less(lhs.element, rhs.element) || (!less(rhs.element, lhs.element) && lhs.offset < rhs.offset)
            }.map(\.element.id)
            #expect(scene.deck.ids == expected, "sort by \(key)")
        }
    }

    /// The counting sort and its all-distinct fast path against a stable comparison sort of the slots, with the
    /// sources (old slot of each new slot) checked too: 4,000 seeded cases, half with every key distinct.
    @Test func sortedIsTheStableSortOfTheOrderByRank() {
        var generator = SplitMix64(seed: 0x5EED_0006)
        for round in 0..<4_000 {
            let count = Int(generator.next() % 200)
            var order = Array(0..<count)
            order.shuffle(using: &generator)
            let distinct = round % 2 == 0
            let keys: [Int] =
                distinct
                ? Array(0..<count).shuffled(using: &generator)
                : (0..<count).map { _ in Int(generator.next() % 7) }
            let ranks = DenseRanks(integers: keys)
            if distinct { #expect(ranks.distinct == count, "the fast path is taken") }
            let descending = generator.next() % 2 == 0
            var positions = [Int](repeating: 0, count: count)
            for (slot, card) in order.enumerated() { positions[card] = slot }
            let (sorted, sources) = DeckOrder.sorted(
                order.map(Int32.init), positions: positions.map(Int32.init), by: ranks, descending: descending)
            let expectedSlots = order.indices.sorted { lhs, rhs in
                let (a, b) = (keys[order[lhs]], keys[order[rhs]])
                return a == b ? lhs < rhs : (descending ? a > b : a < b)
            }
            #expect(sorted.map(Int.init) == expectedSlots.map { order[$0] }, "round \(round)")
            #expect(sources.map(Int.init) == expectedSlots, "round \(round)")
        }
    }
}
