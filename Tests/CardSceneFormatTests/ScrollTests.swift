import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardSceneFormat
import Testing

/// Scroll containers (`"scroll": true`) and virtualisation, played through the engine.
@Suite struct ScrollTests {
    static let column = """
        {"format": 1, "name": "long-column", "takesDeck": true,
         "card": {"size": ["200", "50"]},
         "layouts": [{"name": "list", "kind": "column", "top": 20, "spacing": 10, "padding": 16, "scroll": true}]}
        """
    static let viewport = Size(width: 400, height: 400)

    func engine(cards count: Int) throws -> Engine {
        let description = try SceneDescription.load(bytes: Array(Self.column.utf8))
        let deck = try Deck(
            (0..<count).map { Card(id: CardID(UInt64($0 + 1)), title: "Card \($0 + 1)", color: .blue, sortOrder: $0) })
        return Engine(
            scene: try DescribedScene(description: description, options: SceneOptions(deck: deck)),
            viewport: Self.viewport)
    }

    @Test func aLargeColumnLaysOutOnlyTheCardsNearTheView() throws {
        var engine = try engine(cards: 100_000)
        let frame = engine.frame(at: 0)
        let cards = frame.nodes.filter { $0.role == .card }
        // 380 points of view, 60 a slot: the view and one view's length beyond it, not 100,000 cards.
        #expect(cards.count > 6 && cards.count < 40)
        let first = try #require(frame.node(card: 1))
        #expect(first.rect.minY == 20)
        #expect(first.parent == "scroll.list.0")
        let container = try #require(frame.node(NodeID("scroll.list.0")))
        #expect(container.clipsContent)
        #expect(container.rect == Rect(x: 0, y: 20, width: 400, height: 380))
    }

    @Test func theWheelScrollsTheContentAndNewCardsComeIntoView() throws {
        var engine = try engine(cards: 100_000)
        for step in 0..<10 {
            engine.handle(
                .pointer(PointerEvent(.wheel(dx: 0, dy: 600), at: Point(x: 200, y: 200), time: 1 + Double(step) * 0.01))
            )
        }
        let frame = engine.frame(at: 3)
        // 6,000 points down: card 101 (slot 100, at 20 + 100·60 = 6,020) is at the container's top.
        let card = try #require(frame.node(card: 101))
        #expect(card.rect.minY == 20)
        #expect(frame.node(card: 1) == nil)
        #expect(frame.nodes.filter { $0.role == .card }.count < 40)
    }

    @Test func theWheelStopsAtTheEnds() throws {
        var engine = try engine(cards: 10)
        // Ten cards: 10·60 − 10 + 16 = 606 points of content in 380: at most 226 down.
        engine.handle(.pointer(PointerEvent(.wheel(dx: 0, dy: -300), at: Point(x: 200, y: 200), time: 1)))
        #expect(try #require(engine.frame(at: 2).node(card: 1)).rect.minY == 20)
        engine.handle(.pointer(PointerEvent(.wheel(dx: 0, dy: 5000), at: Point(x: 200, y: 200), time: 3)))
        #expect(try #require(engine.frame(at: 4).node(card: 1)).rect.minY == 20 - 226)
    }

    @Test func eachGroupScrollsOnItsOwnAndAHeldCardLeavesItsContainer() throws {
        let text = """
            {"format": 1, "name": "lanes", "takesDeck": true, "card": {"size": ["colWidth", "50"]},
             "cardState": {"lane": {"type": "number", "initial": "i % 2"}},
             "layouts": [{"name": "lanes", "kind": "groups", "group": "card.lane", "groups": 2, "top": 20,
                          "spacing": 10, "padding": 10, "scroll": true}],
             "gestures": [{"name": "move", "on": "card", "kind": "drag", "minimumDistance": 4,
                           "bind": {"x": "x + tx", "y": "y + ty"}}]}
            """
        let deck = try Deck(
            (0..<40).map { Card(id: CardID(UInt64($0 + 1)), title: "Card \($0 + 1)", color: .blue, sortOrder: $0) })
        var engine = Engine(
            scene: try DescribedScene(
                description: try SceneDescription.load(bytes: Array(text.utf8)), options: SceneOptions(deck: deck)),
            viewport: Self.viewport)
        // The wheel over the second lane scrolls it alone: 600 points is ten 60-point slots.
        engine.handle(.pointer(PointerEvent(.wheel(dx: 0, dy: 600), at: Point(x: 300, y: 200), time: 1)))
        let frame = engine.frame(at: 2)
        #expect(try #require(frame.node(card: 1)).rect.minY == 20)
        #expect(try #require(frame.node(card: 22)).rect.minY == 20)
        #expect(try #require(frame.node(card: 22)).parent == "scroll.lanes.1")
        // A card dragged out of the first lane is nobody's child while held.
        let card = try #require(frame.node(card: 3)).rect
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: card.midX, y: card.midY), time: 3)))
        engine.handle(.pointer(PointerEvent(.move, at: Point(x: card.midX + 60, y: card.midY), time: 3.05)))
        engine.handle(.pointer(PointerEvent(.move, at: Point(x: card.midX + 120, y: card.midY), time: 3.1)))
        let held = try #require(engine.frame(at: 3.1).node(card: 3))
        #expect(held.parent == nil)
        #expect(held.rect.minX == card.minX + 120)
    }

    @Test func onlyLayoutsThatListTheirCardsScroll() throws {
        let text = """
            {"format": 1, "name": "s", "cards": [{"id": 1, "title": "A"}], "card": {"size": ["10", "10"]},
             "layouts": [{"name": "pile", "kind": "stack", "scroll": true}]}
            """
        do {
            _ = try SceneDescription.load(bytes: Array(text.utf8))
            Issue.record("a scrolling stack loaded")
        } catch {
            #expect(error.pointer == "/layouts/0/scroll")
        }
    }
}
