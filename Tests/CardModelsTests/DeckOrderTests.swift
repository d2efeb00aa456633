import Testing

@testable import CardModels

/// `DeckOrder` against a naive model: an array of card indices in display order, the user's ranks (nil while the
/// cards keep their given sortOrder) and the sort shown. Every operation is applied to both, and after each the
/// order's slots, display ids, positions (through the pending moves), user's ranks and sort must be the model's;
/// `_checkInvariants()` runs after each. Seeded, thousands of cases.
@Suite struct DeckOrderTests {
    /// A deck of `count` cards whose titles, colours and sortOrders repeat (so stable sorts have ties to keep).
    static func deck(count: Int, using generator: inout SplitMix64) -> Deck {
        var ids = Set<UInt64>()
        var cards: [Card] = []
        // Up to 24 distinct titles, so that "t9" and "t10" meet (titles sort as people count: `TitleOrder`).
        let titles = 1 + Int(generator.next() % 24)
        while cards.count < count {
            let id = generator.next() % 1_000_000
            guard ids.insert(id).inserted else { continue }
            let shade = UInt8(truncatingIfNeeded: generator.next() % 4 * 60)
            let colour =
                generator.next() % 3 == 0
                ? RGBColor(red: shade, green: shade, blue: shade)
                : RGBColor(red: shade, green: 255 &- shade, blue: UInt8(truncatingIfNeeded: generator.next() % 2 * 200))
            cards.append(
                Card(
                    id: CardID(id), title: "t\(generator.next() % UInt64(titles))", color: colour,
                    sortOrder: Int(generator.next() % 5) - 2))
        }
        return (try? Deck(cards)) ?? Deck()
    }

    /// A checksum of an order (any function of the ids in order serves: the order only passes it on).
    static let checksum: @Sendable ([CardID]) -> UInt32 = { ids in
        var hash: UInt32 = 2_166_136_261
        for id in ids { hash = (hash ^ UInt32(truncatingIfNeeded: id.rawValue)) &* 16_777_619 }
        return hash
    }

    /// The naive model of an order.
    struct Model {
        let deck: Deck
        /// Display slot → card index.
        var slots: [Int]
        /// Card index → the user's sortOrder; nil while the cards keep their given sortOrder.
        var userRanks: [Int]?
        var sort: DeckOrder.Sort?

        init(_ deck: Deck) {
            self.deck = deck
            slots = Array(0..<deck.count)
        }

        var positions: [Int] {
            var positions = [Int](repeating: 0, count: slots.count)
            for (slot, card) in slots.enumerated() { positions[card] = slot }
            return positions
        }

        mutating func move(from: Int, to: Int) {
            slots.insert(slots.remove(at: from), at: to)
            userRanks = positions
            sort = nil
        }

        /// A stable sort of the display order by `key` (ties keep their order).
        func sorted(by key: DeckOrder.Key, descending: Bool) -> [Int] {
            func less(_ a: Int, _ b: Int) -> Bool? {
                let (x, y) = (deck[a], deck[b])
                switch key {
                case .title: return x.title == y.title ? nil : TitleOrder.precedes(x.title, y.title)
                case .color:
                    let (p, q) = (DeckOrder.hueKey(x.color), DeckOrder.hueKey(y.color))
                    return p == q ? nil : p < q
                case .sortOrder:
                    let (p, q) = userRanks.map { ($0[a], $0[b]) } ?? (x.sortOrder, y.sortOrder)
                    return p == q ? nil : p < q
                case .id: return x.id.rawValue < y.id.rawValue
                case .colorNumber:
                    let (p, q) = (Self.number(x.color), Self.number(y.color))
                    return p == q ? nil : p < q
                }
            }
            let indexed = Array(slots.enumerated())
            return indexed.sorted { first, second in
                guard let less = less(first.element, second.element) else { return first.offset < second.offset }
                return descending ? !less : less
            }.map(\.element)
        }

        static func number(_ color: RGBColor) -> Int {
            Int(color.red) << 16 | Int(color.green) << 8 | Int(color.blue)
        }

        mutating func sceneSort(_ sort: DeckOrder.Sort) {
            slots = sorted(by: sort.key, descending: sort.descending)
            self.sort = sort
        }

        mutating func hostSort(by key: DeckOrder.Key, descending: Bool) {
            slots = sorted(by: key, descending: descending)
            userRanks = positions
            sort = nil
        }
    }

    /// Checks `order` against `model`: every card's slot and id, the positions, the user's ranks and the sort.
    static func expect(_ order: DeckOrder, matches model: Model, _ note: String) {
        order._checkInvariants()
        #expect(order.slots.map(Int.init) == model.slots, "\(note): slots")
        #expect(order.displayIDs == model.slots.map { model.deck[$0].id }, "\(note): display ids")
        let positions = model.positions
        #expect((0..<model.slots.count).allSatisfy { order.slot(of: $0) == positions[$0] }, "\(note): slot(of:)")
        #expect(order.manualRank?.map(Int.init) == model.userRanks, "\(note): the user's ranks")
        #expect(order.sort == model.sort, "\(note): the sort")
        let sortOrders = order.deck.map(\.sortOrder)
        #expect(
            sortOrders == model.slots.map { model.userRanks?[$0] ?? model.deck[$0].sortOrder }, "\(note): sortOrders")
    }

    static let sceneKeys: [DeckOrder.Key] = [.title, .color, .sortOrder]

    /// 2,000 seeded decks of up to 60 cards, each through 20 random moves, scene sorts, host sorts and whole new
    /// orders, checked against the model after every step; a sort's report is the diff's permutation and its
    /// checksum (when it knows one) the order's.
    @Test func movesAndSortsMatchTheNaiveModel() {
        var generator = SplitMix64(seed: 0xDEC0)
        for round in 0..<2_000 {
            let deck = Self.deck(count: Int(generator.next() % 61), using: &generator)
            var order = DeckOrder(deck, checksum: Self.checksum)
            var model = Model(deck)
            Self.expect(order, matches: model, "round \(round) start")
            for step in 0..<20 where deck.count > 0 {
                let note = "round \(round) step \(step)"
                let count = deck.count
                switch generator.next() % 8 {
                case 0, 1, 2:
                    let (from, to) = (Int(generator.next() % UInt64(count)), Int(generator.next() % UInt64(count)))
                    order.move(from: from, to: to)
                    model.move(from: from, to: to)
                case 3, 4:
                    let key = Self.sceneKeys[Int(generator.next() % 3)]
                    let sort = DeckOrder.Sort(key, descending: generator.next() % 2 == 0)
                    let before = order.displayIDs
                    let sorted = order.apply(sort)
                    model.sceneSort(sort)
                    Self.expectReport(sorted, before: before, after: order.displayIDs, note)
                case 5, 6:
                    let key = DeckOrder.Key.allCases[Int(generator.next() % 5)]
                    let descending = generator.next() % 2 == 0
                    let before = order.displayIDs
                    let sorted = order.hostSort(by: key, descending: descending)
                    model.hostSort(by: key, descending: descending)
                    Self.expectReport(sorted, before: before, after: order.displayIDs, note)
                default:
                    let slots = Array(0..<count).shuffled(using: &generator)
                    order.replace(with: slots.map { Int32($0) })
                    model.slots = slots
                    model.userRanks = model.positions
                    model.sort = nil
                }
                Self.expect(order, matches: model, note)
            }
        }
    }

    /// A sort's result: for each new slot the old slot of its card, a checksum (when known) of the new order, and a
    /// diff that turns the old ids into the new.
    static func expectReport(_ sorted: DeckOrder.SortedOrder, before: [CardID], after: [CardID], _ note: String) {
        #expect(sorted.displayIDs == after, "\(note): the sorted ids are the order's")
        #expect(sorted.sources.map { before[Int($0)] } == after, "\(note): sources")
        if let checksum = sorted.checksum { #expect(checksum == Self.checksum(after), "\(note): checksum") }
        #expect((try? sorted.diff.applied(to: before, inserting: [])) == after, "\(note): diff")
    }

    /// More moves than `pendingMoveLimit` without a sort: every read goes through the pending moves, settling every
    /// 256th move; a move writes only the slots between its ends.
    @Test func movesStayPendingAndWriteOnlyTheirSlots() {
        var generator = SplitMix64(seed: 0x3417)
        let deck = Self.deck(count: 2_000, using: &generator)
        var order = DeckOrder(deck, checksum: Self.checksum)
        var model = Model(deck)
        for step in 0..<1_000 {
            let (from, to) = (Int(generator.next() % 2_000), Int(generator.next() % 2_000))
            let pending = order.pendingMoves.count
            let writes = order.orderSlotWrites
            order.move(from: from, to: to)
            model.move(from: from, to: to)
            if from != to, pending + 1 < DeckOrder.pendingMoveLimit {
                #expect(order.orderSlotWrites - writes == abs(to - from) + 1, "step \(step)")
                #expect(order.pendingMoves.count == pending + 1, "step \(step)")
            }
            #expect(order.pendingMoves.count < DeckOrder.pendingMoveLimit)
            if step % 50 == 0 { Self.expect(order, matches: model, "step \(step)") }
        }
        Self.expect(order, matches: model, "end")
    }

    /// A large deck's records replayed reproduce its order: from the initial order (the operations, while kept) and
    /// from a whole-order snapshot plus the journal handed out since, over seeded moves, scene sorts and host sorts.
    @Test func recordsReplayedReproduceTheOrder() throws {
        var generator = SplitMix64(seed: 0x10C4)
        let count = DeckOrder.largeCount + 500
        let deck = Self.deck(count: count, using: &generator)
        var journalled = 0
        for round in 0..<6 {
            var order = DeckOrder(deck, checksum: Self.checksum)
            // A restore point: the whole order after a few moves, as a snapshot saves it.
            for _ in 0..<3 { order.move(from: Int(generator.next() % 100), to: Int(generator.next() % 100)) }
            _ = order.takeJournal()
            var snapshot = (order.slots, order.manualRank, order.sort)
            var journal: [DeckOrder.Record] = []
            for step in 0..<30 {
                switch generator.next() % 4 {
                case 0, 1:
                    order.move(from: Int(generator.next() % UInt64(count)), to: Int(generator.next() % UInt64(count)))
                case 2:
                    let key = Self.sceneKeys[Int(generator.next() % 3)]
                    order.apply(DeckOrder.Sort(key, descending: generator.next() % 2 == 0))
                default:
                    let key = DeckOrder.Key.allCases[Int(generator.next() % 5)]
                    order.hostSort(by: key, descending: generator.next() % 2 == 0)
                }
                guard step % 7 == 6 || step == 29 else { continue }
                if let records = order.takeJournal() {
                    journal += records
                    journalled += records.count
                } else {
                    // Too many sorts since the last snapshot: the saver writes a snapshot now.
                    snapshot = (order.slots, order.manualRank, order.sort)
                    journal = []
                }
            }
            let operations = try #require(order.operations, "round \(round): the operations are kept")
            var replayed = DeckOrder(deck, checksum: Self.checksum)
            try replayed.restore(replaying: operations)
            #expect(replayed.slots == order.slots, "round \(round): operations")
            #expect(replayed.manualRank == order.manualRank && replayed.sort == order.sort, "round \(round)")
            var restored = DeckOrder(deck, checksum: Self.checksum)
            let usersOrder: DeckOrder.UsersOrder = snapshot.1.map { .ranks($0) } ?? .given
            restored.restore(order: snapshot.0, usersOrder: usersOrder, sort: snapshot.2)
            try restored.replayJournal(journal)
            restored._checkInvariants()
            #expect(restored.slots == order.slots, "round \(round): journal")
            #expect(restored.displayIDs == order.displayIDs, "round \(round): journal ids")
            #expect(restored.manualRank == order.manualRank && restored.sort == order.sort, "round \(round)")
        }
        #expect(journalled > 50, "the journal was replayed, not only snapshots")
    }

    /// A record that moves an unknown card, or to a slot outside the deck, is refused.
    @Test func aBadRecordIsRefused() {
        var generator = SplitMix64(seed: 7)
        let deck = Self.deck(count: 20, using: &generator)
        var order = DeckOrder(deck, checksum: Self.checksum)
        #expect(throws: ModelError.unknownID(CardID(2_000_000))) {
            try order.replayJournal([.move(CardID(2_000_000), to: 0)])
        }
        #expect(throws: ModelError.indexOutOfRange(index: 20, limit: 20)) {
            try order.replayJournal([.move(deck[0].id, to: 20)])
        }
    }

    /// A small deck records nothing (its saved state is the whole order); a large one stops keeping the operations
    /// beyond `operationsLimit` and after a change no record expresses, whose next save is a snapshot.
    @Test func theJournalKeepsItsLimits() {
        var generator = SplitMix64(seed: 11)
        var small = DeckOrder(Self.deck(count: 50, using: &generator), checksum: Self.checksum)
        small.move(from: 0, to: 3)
        #expect(small.takeJournal() == nil)
        let count = DeckOrder.largeCount + 10
        let deck = Self.deck(count: count, using: &generator)
        var large = DeckOrder(deck, checksum: Self.checksum)
        for step in 0..<DeckOrder.operationsLimit { large.move(from: step % 7, to: step % 5) }
        #expect(large.operations?.count == DeckOrder.operationsLimit)
        #expect(large.takeJournal()?.count == DeckOrder.operationsLimit)
        large.move(from: 1, to: 2)
        #expect(large.operations == nil, "one more than the limit")
        var replaced = DeckOrder(deck, checksum: Self.checksum)
        replaced.move(from: 1, to: 2)
        replaced.replace(with: (0..<Int32(count)).reversed())
        #expect(replaced.operations == nil && replaced.takeJournal() == nil)
        replaced.move(from: 1, to: 2)
        #expect(replaced.takeJournal() == [.move(replaced.displayIDs[2], to: 2)], "records again after the snapshot")
    }
}
