import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardScenes
import Testing

/// A scene that takes every host reorder through the protocol's default implementations (a copy of the deck and
/// `replaceDeck`): the reference the deck scene's own `moveCard` and `sortDeck` must match.
private struct DefaultReorders: Scene {
    static let descriptor = DeckScene.descriptor
    var base: DeckScene
    var deck: Deck { base.deck }
    func layout(in viewport: Size) -> [Node] { base.layout(in: viewport) }
    mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        try base.perform(action, context: &context)
    }
    mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        base.handle(gesture, context: &context)
    }
    mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool { base.handle(key, context: &context) }
    mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {
        try base.replaceDeck(deck, context: &context)
    }
}

@Suite struct DeckSceneHostReorderTests {
    func engine(_ count: Int) throws -> Engine {
        Engine(scene: try DeckScene(options: SceneOptions(cardCount: count)), viewport: Size(width: 390, height: 844))
    }

    @Test func movesAndSortsMatchTheDefaultCopyAndReplace() throws {
        for count in [12, 12_000] {
            var fast = try engine(count)
            var reference = Engine(
                scene: DefaultReorders(base: try DeckScene(options: SceneOptions(cardCount: count))),
                viewport: Size(width: 390, height: 844))
            let ids = fast.deck.ids
            var time = 1.0
            func both(_ change: (inout Engine) throws(SceneError) -> Void) throws {
                try change(&fast)
                try change(&reference)
                #expect(fast.deck == reference.deck)
                #expect(fast.frame(at: time).nodes == reference.frame(at: time).nodes)
                time += 1
            }
            try both { (engine) throws(SceneError) in try engine.moveCard(ids[count - 1], to: 0, at: time) }
            try both { (engine) throws(SceneError) in try engine.moveCard(ids[2], to: 2, at: time) }
            for key in DeckSortKey.allCases {
                try both { (engine) throws(SceneError) in try engine.sortDeck(by: key, descending: true, at: time) }
                try both { (engine) throws(SceneError) in try engine.sortDeck(by: key, descending: false, at: time) }
            }
            try both { (engine) throws(SceneError) in try engine.moveCard(ids[5], to: count / 2, at: time) }
            try both { (engine) throws(SceneError) in try engine.sortDeck(by: .sortOrder, descending: true, at: time) }
            // The pages a host reads are the deck's, without building it.
            let scene = try #require(fast.scene as? DeckScene)
            #expect(scene.deckIDs == fast.deck.ids)
            #expect(scene.deckCards(3..<9) == Array(fast.deck[3..<9]))
            #expect(throws: SceneError.unknownCard(424_242)) { try fast.moveCard(424_242, to: 0, at: time) }
            #expect(throws: SceneError.self) { try fast.moveCard(ids[0], to: count, at: time) }
        }
    }

    @Test func theLogOfHostMovesGrowsWithTheMovesNotTheCards() throws {
        var engine = try engine(200_000)
        let ids = engine.deck.ids
        for step in 0..<200 {
            try engine.moveCard(ids[(step * 7919) % ids.count], to: (step * 104_729) % ids.count, at: Double(step))
        }
        try engine.sortDeck(by: .title, descending: false, at: 300)
        try engine.replaceDeck(try Deck(engine.deck.reversed()), at: 301)
        let lines = engine.log.jsonLines.split(separator: "\n")
        #expect(lines.count == 203)
        // O(moves): a move or a sort is one short line (a joined id list would be 1.4 MB a line), whatever the
        // deck's size; a replaced deck is logged as its diff, O(change) (here every card moves).
        #expect(lines.dropLast().allSatisfy { $0.utf8.count < 200 })
        #expect(!lines[lines.count - 1].contains("ids"))
    }

    @Test func loggedHostReordersReplayToTheSameOrderAndState() throws {
        var engine = try engine(20_000)
        let ids = engine.deck.ids
        try engine.moveCard(ids[19_999], to: 3, at: 1)
        try engine.sortDeck(by: .title, descending: true, at: 2)
        try engine.moveCard(ids[10], to: 19_000, at: 3)
        try engine.sortDeck(by: .color, descending: false, at: 4)
        try engine.replaceDeck(try Deck(engine.deck.shuffled()), at: 5)
        var replay = try self.engine(20_000)
        for input in try InputLog(jsonLines: engine.log.jsonLines).inputs {
            guard case .action(let action, let time) = input else { continue }
            try replay.perform(action, at: time)
        }
        #expect(replay.deck == engine.deck)
        #expect(replay.scene.encodeState() == engine.scene.encodeState())
    }

    @Test func aHostMoveOfALargeDeckStaysAnOperationInTheSavedState() throws {
        var engine = try engine(20_000)
        let ids = engine.deck.ids
        try engine.moveCard(ids[7], to: 15_000, at: 1)
        try engine.sortDeck(by: .title, descending: false, at: 2)
        let state = String(decoding: engine.scene.encodeState() ?? [], as: UTF8.self)
        #expect(state.contains("operations"))
        #expect(state.utf8.count < 1_000)
        var restored = try DeckScene(options: SceneOptions(cardCount: 20_000))
        try restored.restoreState(engine.scene.encodeState() ?? [])
        #expect(restored.deck == engine.deck)
    }
}

/// A host's sort by sortOrder while the user's order is the display order (after a move or a host sort): the
/// ranks are the positions, so ascending changes nothing — no change reported, nothing journaled — and descending
/// is the order reversed, built without the sort's random reads. Large enough for both threads.
@Suite struct SortByTheUsersOrderTests {
    @Test func ascendingChangesNothingAndDescendingReverses() throws {
        let count = TwoThreads.minimumCount + 3
        var engine = Engine(
            scene: try DeckScene(options: SceneOptions(cardCount: count)), viewport: Size(width: 390, height: 844))
        let ids = engine.deck.ids
        try engine.moveCard(ids[11], to: count - 5, at: 1)
        try engine.sortDeck(by: .id, descending: false, at: 2)
        _ = engine.frame(at: 2)
        let sortedByID = engine.deck.ids
        #expect(sortedByID == ids.sorted { $0.rawValue < $1.rawValue })
        let state = engine.scene.encodeState()
        try engine.sortDeck(by: .sortOrder, descending: false, at: 3)
        let unchanged = engine.frame(at: 3).events.filter { if case .deckChanged = $0 { true } else { false } }
        #expect(unchanged.isEmpty)
        #expect(engine.deck.ids == sortedByID)
        #expect(engine.scene.encodeState() == state)
        try engine.sortDeck(by: .sortOrder, descending: true, at: 4)
        let reversed = engine.frame(at: 4).events.compactMap {
            if case .deckChanged(let change) = $0 { change } else { nil }
        }
        #expect(engine.deck.ids == Array(sortedByID.reversed()))
        #expect(reversed.count == 1)
        #expect(reversed.first?.diff.moves.count == count - 1)
        #expect(reversed.first?.sources == (0..<count).map { Int32(count - 1 - $0) })
        // The cards' sortOrder is their new position, and a move after it still lands where it is told.
        let scene = try #require(engine.scene as? DeckScene)
        #expect(scene.deckCards(0..<3).map(\.sortOrder) == [0, 1, 2])
        try engine.moveCard(sortedByID[0], to: 0, at: 5)
        #expect(engine.deck.ids.first == sortedByID[0])
    }
}
