import CardEngine
import CardGeometry
import CardModels
import CardPersistence
import CardScenes
import Testing

/// Scene state kept per scene and deck, saved as snapshots plus journals, and restored exactly.
@Suite struct StatePerDeckTests {
    let viewport = Size(width: 390, height: 844)

    @Test func stateNamesKeepDecksApart() {
        #expect(StateKey.name("deck", deck: nil) == "deck")
        #expect(StateKey.name("deck", deck: StateKey.generated(count: 1_000_000)) == "deck.cards-1000000")
        #expect(StateKey.name("flashcards", deck: StateKey.stored(name: "french")) == "flashcards.deck-french")
        let file = StateKey.file(contents: Array("a,b\n".utf8))
        #expect(file != StateKey.file(contents: Array("a,c\n".utf8)))
        #expect(StateKey.name("wallet", deck: file).hasPrefix("wallet.file-"))
        // A long stored name is hashed into a valid store name.
        let long = StateKey.name("deck", deck: StateKey.stored(name: String(repeating: "x", count: 64)))
        #expect(long.utf8.count <= 64)
        #expect((try? StoreName.validate(long)) != nil)
        // FNV-1a 64 test vectors (draft-eastlake-fnv): "" and "a".
        #expect(StateKey.fnv1a64([]) == 0xcbf2_9ce4_8422_2325)
        #expect(StateKey.fnv1a64(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
    }

    /// A large deck's moves and sorts (by every key) go to the journal as O(1) records, snapshots come only when the journal is
    /// compacted, and a reopened engine has exactly the order it was left with — over seeded random histories.
    @Test func aLargeDecksJournalRestoresItsOrderExactly() throws {
        for seed in 1...3 as ClosedRange<UInt64> {
            var random = SplitMix64(seed: seed)
            let store = InMemoryStore()
            let identity = StateKey.generated(count: 20_000)
            let options = SceneOptions(cardCount: 20_000)
            var engine = Engine.persisted(
                try DeckScene(options: options), viewport: viewport, store: store, identity: identity)
            var snapshots = 0
            var records = 0
            var time = 1.0
            for step in 0..<40 {
                time += 0.01
                if random.next() % 6 == 0 {
                    // Every key: the host's sorts by id and colour number are journal records too.
                    let keys: [DeckSortKey] = [.title, .sortOrder, .id, .color]
                    try engine.sortDeck(by: keys[Int(random.next() % 4)], descending: random.next() % 2 == 0, at: time)
                } else {
                    let id = engine.deck.ids[Int(random.next() % 20_000)]
                    try engine.moveCard(id, to: Int(random.next() % 20_000), at: time)
                }
                if let change = engine.takeStateChange() {
                    if change.snapshot != nil { snapshots += 1 }
                    records += change.records.count
                    // Written as the saver writes it.
                    let key = StateKey.name("deck", deck: identity)
                    var machine = StateSaverMachine()
                    machine.resume(key, after: LoadedState(key, from: store).sequence)
                    var actions = machine.submit(
                        change, to: key)
                    while case .start(let job)? = actions.first {
                        #expect(StateSaver.write(job, to: store).error == nil)
                        actions = machine.finished()
                    }
                }
                if step % 13 == 12 {
                    let reopened = Engine.persisted(
                        try DeckScene(options: options), viewport: viewport, store: store, identity: identity)
                    #expect(reopened.stateError == nil)
                    #expect(reopened.deck.ids == engine.deck.ids, "seed \(seed) step \(step)")
                }
            }
            // Moves are journal records, not snapshots of 20,000 cards.
            #expect(records >= 30)
            #expect(snapshots <= 2)
        }
    }

    /// Switching decks never touches another deck's state: the seed deck's order and a generated deck's order
    /// are saved and restored side by side.
    @Test func switchingDecksKeepsEachDecksOrder() throws {
        let store = InMemoryStore()
        var seedDeck = Engine.persisted(try DeckScene(), viewport: viewport, store: store)
        let seedFirst = seedDeck.deck.ids[0]
        try seedDeck.moveCard(seedFirst, to: 5, at: 1)
        #expect(seedDeck.save(to: store) == nil)
        let identity = StateKey.generated(count: 20_000)
        let options = SceneOptions(cardCount: 20_000)
        var large = Engine.persisted(
            try DeckScene(options: options), viewport: viewport, store: store, identity: identity)
        let largeFirst = large.deck.ids[0]
        try large.moveCard(largeFirst, to: 19_999, at: 1)
        #expect(large.save(to: store, identity: identity) == nil)
        // Reopen both: each has its own order.
        let seedAgain = Engine.persisted(try DeckScene(), viewport: viewport, store: store)
        #expect(seedAgain.deck.ids[5] == seedFirst)
        let largeAgain = Engine.persisted(
            try DeckScene(options: options), viewport: viewport, store: store, identity: identity)
        #expect(largeAgain.deck.ids[19_999] == largeFirst)
        // The large deck's first change is a journal record: it has no snapshot yet, only a journal.
        #expect(try store.loadStateJournal(named: "deck.cards-20000").count == 1)
    }

    /// The flashcards' progress with the user's own deck and with the seed deck are two states.
    @Test func flashcardProgressIsPerDeck() throws {
        let store = InMemoryStore()
        let own = try Deck([
            Card(
                id: 1, title: "un", color: .blue, sortOrder: 0,
                payload: .flashcard(Flashcard(prompt: "un", answer: "one"))),
            Card(
                id: 2, title: "deux", color: .blue, sortOrder: 1,
                payload: .flashcard(Flashcard(prompt: "deux", answer: "two"))),
        ])
        let identity = StateKey.stored(name: "french")
        var mine = Engine.persisted(
            try FlashcardsScene(options: SceneOptions(deck: own, deckIdentity: identity)), viewport: viewport,
            store: store, identity: identity)
        try mine.perform(SceneAction("swipe", ["direction": .string("left")]), at: 1)
        #expect(mine.save(to: store, identity: identity) == nil)
        // The seed deck's progress is untouched: a fresh stack.
        let seed = Engine.persisted(try FlashcardsScene(), viewport: viewport, store: store)
        #expect(seed.deck.count == SeedData.flashcards.count)
        // And the own deck's progress is back.
        let again = Engine.persisted(
            try FlashcardsScene(options: SceneOptions(deck: own, deckIdentity: identity)), viewport: viewport,
            store: store, identity: identity)
        #expect(again.deck.count == 1)
    }
}

extension StatePerDeckTests {
    /// The wallet's order with the user's own cards (a file) and with the seed's cards are two states: reordering
    /// one never moves the other.
    @Test func walletOrderIsPerDeck() throws {
        let store = InMemoryStore()
        let own = try Deck(SeedData.wallet.cards.reversed().prefix(3).map { $0 })
        let identity = StateKey.file(contents: Array("my cards".utf8))
        var mine = Engine.persisted(
            try WalletScene(options: SceneOptions(deck: own, deckIdentity: identity)), viewport: viewport,
            store: store, identity: identity)
        let moved = own.ids[0]
        try mine.moveCard(moved, to: 2, at: 1)
        #expect(mine.save(to: store, identity: identity) == nil)
        var seed = Engine.persisted(try WalletScene(), viewport: viewport, store: store)
        #expect(seed.deck.ids == SeedData.wallet.ids)
        let seedMoved = SeedData.wallet.ids[1]
        try seed.moveCard(seedMoved, to: 0, at: 1)
        #expect(seed.save(to: store) == nil)
        // Reopened, each deck has its own order.
        let mineAgain = Engine.persisted(
            try WalletScene(options: SceneOptions(deck: own, deckIdentity: identity)), viewport: viewport,
            store: store, identity: identity)
        #expect(mineAgain.deck.ids == [own.ids[1], own.ids[2], moved])
        let seedAgain = Engine.persisted(try WalletScene(), viewport: viewport, store: store)
        #expect(seedAgain.deck.ids.first == seedMoved)
        #expect(seedAgain.deck.count == SeedData.wallet.count)
    }

    /// Replay work is bounded, not only the number of records: 250 moves of the first card to the end (each
    /// shifts every card) compact the journal into a snapshot long before 1,024 records, and 120 sorts turn the
    /// saved operations into the packed order; a reopened deck has the same order either way.
    @Test func replayWorkIsBounded() throws {
        let store = InMemoryStore()
        let count = 20_000
        let identity = StateKey.generated(count: count)
        let options = SceneOptions(cardCount: count)
        var engine = Engine.persisted(
            try DeckScene(options: options), viewport: viewport, store: store, identity: identity)
        var snapshots = 0
        var time = 1.0
        for _ in 0..<250 {
            time += 0.01
            try engine.moveCard(engine.deck.ids[0], to: count - 1, at: time)
            let change = engine.takeStateChange()
            if change?.snapshot != nil { snapshots += 1 }
            if let change { #expect(engine.write(change, to: store, identity: identity) == nil) }
        }
        // 200 full-length moves fill the budget (200 steps per card); the count limit alone would allow 1,024.
        #expect(snapshots >= 1)
        var reopened = Engine.persisted(
            try DeckScene(options: options), viewport: viewport, store: store, identity: identity)
        #expect(reopened.deck.ids == engine.deck.ids)
        for index in 0..<120 {
            try reopened.sortDeck(by: index % 2 == 0 ? .title : .sortOrder, descending: index % 3 == 0, at: time)
            time += 0.01
        }
        let state = try #require((reopened.scene as? DeckScene)?.encodeState())
        let text = String(decoding: state, as: UTF8.self)
        let packed = text.contains("\"orderIndices\"")
        let operations = text.contains("\"operations\"")
        #expect(packed, "120 sorts are 240 steps per card: the order is saved packed")
        #expect(!operations)
    }

    /// Records replayed at reopening count towards the journal's compaction: a deck reopened with 8 sorts in its
    /// journal saves a snapshot at the next sort, so a reopening never replays more than 4 sorts.
    @Test func replayedRecordsCountTowardsCompaction() throws {
        let store = InMemoryStore()
        let identity = StateKey.generated(count: 20_000)
        let options = SceneOptions(cardCount: 20_000)
        var engine = Engine.persisted(
            try DeckScene(options: options), viewport: viewport, store: store, identity: identity)
        for step in 0..<4 {  // DeckOrder.journalSortCompaction
            try engine.sortDeck(by: .title, descending: step % 2 == 0, at: 1 + Double(step) / 10)
            #expect(engine.save(to: store, identity: identity) == nil)
        }
        let journal = try store.loadStateJournal(named: "deck.cards-20000")
        #expect(journal.count >= 4)
        var reopened = Engine.persisted(
            try DeckScene(options: options), viewport: viewport, store: store, identity: identity)
        try reopened.sortDeck(by: .title, descending: false, at: 1)
        let taken = reopened.takeStateChange()
        let change = try #require(taken)
        #expect(change.snapshot != nil, "the fifth sort since the snapshot compacts the journal")
    }
}
