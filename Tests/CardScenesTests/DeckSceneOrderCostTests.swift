import CardEngine
import CardGeometry
import Testing

@testable import CardModels
@testable import CardScenes

/// Issue 29: a change of a large deck's order costs what it changes. A move shifts only the slots between its
/// source and destination (counted by `orderSlotWrites`), the new order is reported without gathering every id,
/// every key's ranks are ready when a large deck opens (ids by a radix sort), and the order checksum kept change by
/// change equals the whole-array computation.
@Suite struct DeckSceneOrderCostTests {
    static let viewport = Size(width: 390, height: 844)

    /// The reference: the ids in display order gathered from `order`, as every change did before.
    static func gathered(_ scene: DeckScene) -> [CardID] { scene.order.slots.map { scene.order.ids[Int($0)] } }

    @Test func aMoveWritesOnlyTheSlotsBetweenItsEnds() throws {
        var scene = try DeckScene(options: SceneOptions(cardCount: 100_000))
        var context = SceneContext(time: 0, viewport: Self.viewport)
        let ids = scene.deckIDs
        var before = scene.order.orderSlotWrites
        try scene.moveCard(ids[50_000], to: 50_003, context: &context)
        #expect(scene.order.orderSlotWrites - before == 4)
        before = scene.order.orderSlotWrites
        try scene.moveCard(ids[99_999], to: 99_990, context: &context)
        #expect(scene.order.orderSlotWrites - before == 10)
        before = scene.order.orderSlotWrites
        try scene.perform(SceneAction("move", ["card": .string("\(ids[7])"), "to": .number(5)]), context: &context)
        #expect(scene.order.orderSlotWrites - before == 3)
        before = scene.order.orderSlotWrites
        _ = scene.handle(KeyInput("down", shift: true), context: &context)
        #expect(scene.order.orderSlotWrites - before == 2)
        #expect(scene.deckIDs == Self.gathered(scene))
    }

    /// A move leaves the positions alone (`positionBase` unchanged, the move pending) and every read goes through
    /// the pending moves: 2,400 seeded moves at random distances on a 3,000-card deck, a sort or a host sort every
    /// 600 moves and settling every `pendingMoveLimit` moves; after each, `slot(of:)` of 40 seeded cards (of every
    /// card each 40th move) is its index in `order`, and the user's order (`manualRank`) is the display order.
    @Test func positionsAreReadThroughThePendingMoves() throws {
        var scene = try DeckScene(options: SceneOptions(cardCount: 3_000))
        var context = SceneContext(time: 0, viewport: Self.viewport)
        var generator = SplitMix64(seed: 0x2990)
        var settled = 0
        for step in 0..<2_400 {
            if step % 600 == 599 {
                if step % 1_200 == 599 {
                    try scene.sortDeck(by: .id, descending: generator.next() % 2 == 0, context: &context)
                } else {
                    try scene.perform(SceneAction("sort", ["by": .string("title")]), context: &context)
                }
                #expect(scene.order.pendingMoves.isEmpty, "a sort settles the positions")
            }
            let from = Int(generator.next() % 3_000)
            let to = Int(generator.next() % 3_000)
            let before = scene.order.positionBase
            let pending = scene.order.pendingMoves.count
            let writes = scene.order.orderSlotWrites
            scene.order.move(from: from, to: to)
            if from != to, pending + 1 < DeckOrder.pendingMoveLimit {
                #expect(scene.order.positionBase == before, "step \(step): a move rewrote positions")
                #expect(scene.order.orderSlotWrites - writes == abs(to - from) + 1)
            } else if from != to {
                #expect(scene.order.pendingMoves.isEmpty)
                settled += 1
            }
            var inverse = [Int](repeating: -1, count: 3_000)
            for (slot, card) in scene.order.slots.enumerated() { inverse[Int(card)] = slot }
            let cards = step % 40 == 0 ? Array(0..<3_000) : (0..<40).map { _ in Int(generator.next() % 3_000) }
            #expect(cards.allSatisfy { scene.slot(of: $0) == inverse[$0] }, "step \(step)")
            if step % 40 == 0 { #expect(scene.order.manualRank?.map(Int.init) == inverse, "step \(step)") }
            #expect(scene.deckCards(0..<3).map(\.sortOrder) == [0, 1, 2])
        }
        #expect(settled >= 6)
    }

    /// A snapshot handed to the saver holds its own copy of the order and not the display ids, so the next move
    /// shifts the scene's arrays in place (the same storage before and after) instead of copying them while the
    /// snapshot is alive; the snapshot encodes the state as it was when taken.
    @Test func aSnapshotLeavesTheNextMoveItsArrays() throws {
        var scene = try DeckScene(options: SceneOptions(cardCount: 20_000))
        var context = SceneContext(time: 0, viewport: Self.viewport)
        try scene.sortDeck(by: .id, descending: false, context: &context)
        scene.order.move(from: 5, to: 17_000)
        let state = scene.encodeState()
        let snapshot = scene.stateSnapshot()
        let order = scene.order.slots.withUnsafeBufferPointer { $0.baseAddress }
        let displayIDs = scene.order.displayIDs.withUnsafeBufferPointer { $0.baseAddress }
        scene.order.move(from: 19_000, to: 3)
        #expect(scene.order.slots.withUnsafeBufferPointer { $0.baseAddress } == order)
        #expect(scene.order.displayIDs.withUnsafeBufferPointer { $0.baseAddress } == displayIDs)
        #expect(snapshot() == state)
        #expect(scene.encodeState() != state)
    }

    @Test func aLargeDeckRanksEveryKeyWhenItOpens() throws {
        let scene = try DeckScene(options: SceneOptions(cardCount: 20_000))
        #expect(scene.order.keyRanks.id != nil)
        #expect(scene.order.keyRanks.colorNumber != nil)
        #expect(scene.order.keyRanks.title != nil)
        #expect(scene.order.keyRanks.color != nil)
        #expect(scene.order.keyRanks.givenSortOrder != nil)
    }

    /// The ids' radix ranks equal the comparison sort's, for generated (random 64-bit) ids and for seeded ids with
    /// long shared prefixes.
    @Test func idRanksByRadixMatchTheComparisonSort() throws {
        var scene = try DeckScene(options: SceneOptions(cardCount: 3_000))
        let ids = scene.order.ids
        #expect(scene.order.ranks(for: .id) == DenseRanks(count: ids.count) { ids[$0] })
        var generator = SplitMix64(seed: 29)
        for round in 0..<200 {
            let count = 1 + Int(generator.next() % 300)
            let high = generator.next() & 0xFFFF_FFFF_0000_0000
            let raw = Set((0..<count).map { _ in high | (generator.next() % 100_000) })
            let deck = try Deck(
                raw.map { Card(id: CardID($0), title: "c\($0)", color: RGBColor(red: 0, green: 0, blue: 0)) })
            var small = try DeckScene(options: SceneOptions(deck: deck))
            let smallIDs = small.order.ids
            #expect(small.order.ranks(for: .id) == DenseRanks(count: smallIDs.count) { smallIDs[$0] }, "round \(round)")
        }
    }

    /// A scene sort keeps the user's order it replaces — the order and its ids, not only its positions — so that
    /// sorting back by the user's order gathers them (`DenseRanks.cards`) instead of scattering by the ranks: on a
    /// deck of 200 cards and one past `TwoThreads.minimumCount`, after seeded moves, a sort by title then by
    /// sortOrder (each direction) gives back exactly the order before the title sort (or its reverse), with
    /// sources equal to the reference counting sort's; a move makes the display order the user's again and drops
    /// the kept arrays.
    @Test func sortingBackByTheUsersOrderGathersTheKeptOrder() throws {
        var generator = SplitMix64(seed: 0x5052)
        for count in [200, TwoThreads.minimumCount + 77] {
            for descending in [false, true] {
                var scene = try DeckScene(options: SceneOptions(cardCount: count))
                var context = SceneContext(time: 0, viewport: Self.viewport)
                for _ in 0..<20 {
                    scene.order.move(
                        from: Int(generator.next() % UInt64(count)), to: Int(generator.next() % UInt64(count)))
                }
                let usersOrder = scene.order.slots
                let usersIDs = scene.deckIDs
                try scene.perform(SceneAction("sort", ["by": .string("title")]), context: &context)
                #expect(scene.order.slots != usersOrder, "the title sort changed the order")
                #expect(scene.order.storedManualOrder?.order == usersOrder)
                let ranks = scene.order.ranks(for: .sortOrder)
                #expect(ranks.cards == usersOrder, "the user's order is the card of each rank")
                #expect(ranks.rankIDs == usersIDs)
                let reference = DeckOrder.sorted(
                    scene.order.slots, positions: scene.order.settledPositions(),
                    by: DenseRanks(ranks: ranks.ranks, distinct: ranks.distinct), descending: descending)
                let sorted = scene.order.sortedOrder(by: .sortOrder, descending: descending)
                #expect(sorted.order == reference.order)
                #expect(sorted.sources == reference.sources)
                #expect(sorted.order == (descending ? usersOrder.reversed() : usersOrder))
                #expect(sorted.displayIDs == (descending ? usersIDs.reversed() : usersIDs))
                #expect(sorted.checksum == nil, "the kept order's checksum is the engine's to compute")
                scene.order.move(from: 0, to: 1)
                #expect(scene.order.storedManualOrder == nil)
            }
        }
    }

    /// A restored scene keeps the user's order as its ranks only — the order and ids a replayed scene sort kept
    /// would make a reopened session's resident set larger than a fresh open's — and sorting by the user's order
    /// still gives it back, whether the sort that replaced it comes from the snapshot's operations or the journal.
    @Test func aRestoredSceneKeepsTheUsersOrderAsRanksOnly() throws {
        var generator = SplitMix64(seed: 0x5245)
        let count = DeckScene.persistListLimit + 1_234
        for fromJournal in [false, true] {
            var scene = try DeckScene(options: SceneOptions(cardCount: count))
            var context = SceneContext(time: 0, viewport: Self.viewport)
            let initial = scene.encodeState()
            let snapshot = try #require(initial)
            _ = scene.takeStateJournal()
            for _ in 0..<20 {
                scene.order.move(from: Int(generator.next() % UInt64(count)), to: Int(generator.next() % UInt64(count)))
            }
            let usersOrder = scene.order.slots
            try scene.perform(SceneAction("sort", ["by": .string("title")]), context: &context)
            #expect(scene.order.storedManualOrder?.order == usersOrder, "the live scene keeps the replaced order")
            var restored = try DeckScene(options: SceneOptions(cardCount: count))
            if fromJournal {
                let records = scene.takeStateJournal()
                let journal = try #require(records, "a large deck journals its moves and sorts")
                try restored.restoreState(snapshot)
                try restored.applyStateJournal(journal)
            } else {
                let state = scene.encodeState()
                try restored.restoreState(try #require(state))
            }
            #expect(restored.order.slots == scene.order.slots)
            #expect(
                restored.order.storedManualOrder?.order.count == nil,
                "restored from the \(fromJournal ? "journal" : "snapshot")")
            #expect(restored.order.manualRank != nil)
            restored.order._checkInvariants()
            let sorted = restored.order.sortedOrder(by: .sortOrder, descending: false)
            #expect(sorted.order == usersOrder)
        }
    }

    /// 3,000 seeded changes through the engine (moves at random distances, scene sorts, host sorts by every key,
    /// key moves, action moves) on decks of 1 to 60 cards, a 12,000-card deck and one past `TwoThreads.minimumCount`:
    /// every reported order is the
    /// gathered one, and the checksum the engine keeps change by change (O(1) a move) and sends is `OrderChecksum.of`
    /// the whole order, the computation the wire contract defines.
    @Test func keptOrderAndChecksumEqualTheWholeArrayComputation() throws {
        var generator = SplitMix64(seed: 0x29_29)
        var checked = 0
        for deckRound in 0..<60 {
            // The second deck is large enough for the sorts' two threads, and its sorts by title and id report the
            // checksum the key keeps (`DenseRanks.sortedChecksums`) rather than the engine's pass.
            let count =
                deckRound == 0
                ? 12_000 : deckRound == 1 ? TwoThreads.minimumCount + 1_001 : 1 + Int(generator.next() % 60)
            var engine = Engine(
                scene: try DeckScene(options: SceneOptions(cardCount: count)), viewport: Self.viewport)
            var time = 1.0
            for step in 0..<50 {
                let ids = try #require(engine.scene as? DeckScene).deckIDs
                let card = ids[Int(generator.next() % UInt64(count))]
                let to = Int(generator.next() % UInt64(count))
                let descending = generator.next() % 2 == 0
                switch generator.next() % 5 {
                case 0, 1:
                    try engine.moveCard(card, to: to, at: time)
                case 2:
                    let key = DeckSort.Key.allCases[Int(generator.next() % 3)]
                    let order = descending ? "descending" : "ascending"
                    try engine.perform(
                        SceneAction("sort", ["by": .string(key.rawValue), "order": .string(order)]), at: time)
                case 3:
                    let key = DeckSortKey.allCases[Int(generator.next() % 4)]
                    try engine.sortDeck(by: key, descending: descending, at: time)
                default:
                    try engine.perform(
                        SceneAction("move", ["card": .string("\(card)"), "to": .number(Double(to))]), at: time)
                }
                let scene = try #require(engine.scene as? DeckScene)
                let whole = Self.gathered(scene)
                for case .deckChanged(let change) in engine.takeEvents(at: time) {
                    #expect(change.ids == whole)
                    #expect(change.checksum == OrderChecksum.of(whole), "deck \(deckRound), step \(step)")
                }
                #expect(scene.deckIDs == whole)
                #expect(engine.deckChecksum == OrderChecksum.of(whole), "deck \(deckRound), step \(step)")
                checked += 1
                time += 1
            }
        }
        #expect(checked == 3_000)
    }
}

@Suite struct DeckSceneSortPassTests {
    /// The fused sort (order, sources, positions and display ids written together) equals the reference counting sort
    /// followed by the separate pass that inverted the order and gathered the ids: 2,000 seeded orders and rank
    /// tables (few keys, with and without their ranks as bytes, and all-distinct keys, with and without the cards by
    /// rank; both directions), the first 16 large enough for the sort's two threads (`TwoThreads.minimumCount`).
    @Test func theFusedPassEqualsTheSortThenTheGather() {
        var generator = SplitMix64(seed: 0x5047)
        for round in 0..<2_000 {
            let count =
                round < 16
                ? TwoThreads.minimumCount + Int(generator.next() % 20_000) : Int(generator.next() % 80)
            var order = Array(0..<count)
            order.shuffle(using: &generator)
            var positions = [Int](repeating: 0, count: count)
            for (slot, card) in order.enumerated() { positions[card] = slot }
            let ids = (0..<count).map { _ in CardID(generator.next()) }
            let displayIDs = order.map { ids[$0] }
            let distinct = round % 2 == 0 ? count : 1 + Int(generator.next() % 6)
            let ranks: DenseRanks
            if distinct == count {
                let permutation = DenseRanks(permutation: Array(0..<count).shuffled(using: &generator))
                ranks = round % 4 == 0 ? permutation.indexedByRank(ids: ids, checksum: OrderChecksum.of) : permutation
                #expect(ranks.cards.isEmpty == (round % 4 != 0 || count < 2), "round \(round)")
            } else {
                // Every second table with its ranks as bytes too (the colours' counting sort reads those).
                let integers = DenseRanks(integers: (0..<count).map { _ in Int(generator.next() % UInt64(distinct)) })
                ranks = round % 4 == 1 ? integers.compacted() : integers
                #expect(ranks.rankBytes.isEmpty == (round % 4 != 1 || count == 0), "round \(round)")
            }
            let descending = generator.next() % 2 == 0
            let reference = DeckOrder.sorted(
                order.map(Int32.init), positions: positions.map(Int32.init), by: ranks, descending: descending)
            let fused = DeckOrder.sortedOrder(
                order.map(Int32.init), positions: positions.map(Int32.init), ids: ids, displayIDs: displayIDs,
                by: ranks, descending: descending)
            #expect(fused.order == reference.order, "round \(round)")
            #expect(fused.sources == reference.sources, "round \(round)")
            var inverse = [Int](repeating: 0, count: count)
            for (slot, card) in reference.order.enumerated() { inverse[Int(card)] = slot }
            #expect(fused.position.map(Int.init) == inverse, "round \(round)")
            #expect(fused.displayIDs == reference.order.map { ids[Int($0)] }, "round \(round)")
            // What the placement counted for the diff is what the diff's own pass counts; the gather (cards by
            // rank) and the counting sort count, the scatter does not. The checksum the gather reports is the new
            // order's.
            let gathers = !ranks.cards.isEmpty
            #expect((fused.counts != nil) == (count > 1 && (gathers || ranks.distinct < count)), "round \(round)")
            if let counts = fused.counts { #expect(counts == Self.counts(of: fused.sources), "round \(round)") }
            #expect((fused.checksum != nil) == gathers, "round \(round)")
            if let checksum = fused.checksum {
                #expect(checksum == OrderChecksum.of(fused.displayIDs), "round \(round)")
            }
        }
    }

    /// The sort's reversal (sortOrder descending while the user's order is the display order) counts its sources as
    /// the diff does: 200 seeded decks, some large enough for two threads.
    @Test func theReversalCountsItsSources() throws {
        var generator = SplitMix64(seed: 0x5245)
        for round in 0..<200 {
            let count = round < 4 ? TwoThreads.minimumCount + Int(generator.next() % 5_000) : Int(generator.next() % 60)
            var scene = try DeckScene(options: SceneOptions(cardCount: count))
            scene.order.makeOrderTheUsersOrder()
            let reversed = scene.order.reversedOrder()
            #expect(reversed.sources == (0..<count).reversed().map { Int32($0) }, "round \(round)")
            #expect(reversed.counts == Self.counts(of: reversed.sources), "round \(round)")
        }
    }

    /// `ReorderDiff.SourceCounts` of `sources` taken one by one in slot order, as `ReorderDiff(sortSources:)` does.
    static func counts(of sources: [Int32]) -> ReorderDiff.SourceCounts {
        var counts = ReorderDiff.SourceCounts()
        var previous = 0
        for (slot, source) in sources.enumerated() {
            counts.count(Int(source), at: slot, after: previous, of: sources.count)
            previous = Int(source)
        }
        return counts
    }
}

@Suite struct GeneratedDeckCacheTests {
    /// A cache keeps the last large generated deck with its ranks and hands out the same storage; another size
    /// replaces it; small decks are not kept.
    @Test func theLastLargeGeneratedDeckIsKeptWithItsRanks() throws {
        let cache = GeneratedDeckCache()
        let (first, noRanks) = cache.deck(count: 12_000)
        #expect(noRanks == DeckOrder.Ranks())
        #expect(first == DeckGenerator.deck(count: 12_000))
        var ranks = DeckOrder.Ranks()
        ranks.id = DenseRanks(permutation: Array(0..<12_000))
        cache.remember(count: 12_000, deck: first, ranks: ranks)
        let (again, keptRanks) = cache.deck(count: 12_000)
        #expect(keptRanks == ranks)
        #expect(
            again.cards.withUnsafeBufferPointer { $0.baseAddress }
                == first.cards.withUnsafeBufferPointer { $0.baseAddress })
        #expect(cache.deck(count: 11_000).ranks == DeckOrder.Ranks())
        cache.remember(count: 500, deck: DeckGenerator.deck(count: 500), ranks: ranks)
        #expect(cache.deck(count: 500).ranks == DeckOrder.Ranks())
        #expect(cache.deck(count: 12_000).ranks == ranks)
    }

    /// A scene opened on a generated deck again (through the process's cache or not) has the same cards, order and
    /// ranks as the first.
    @Test func aReopenedGeneratedDeckIsTheSame() throws {
        let first = try DeckScene(options: SceneOptions(cardCount: 10_009))
        let second = try DeckScene(options: SceneOptions(cardCount: 10_009))
        #expect(first.base == second.base)
        #expect(first.order.keyRanks == second.order.keyRanks)
        #expect(first.deckIDs == second.deckIDs)
    }
}
