import CardEngine
import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardSceneFormat
import Foundation
import Testing

/// The repository's root, found from this file (Tests/CardSceneFormatTests/…).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

func loadDescription(_ path: String) throws -> SceneDescription {
    let bytes = try Data(contentsOf: repositoryRoot.appendingPathComponent(path))
    return try SceneDescription.load(bytes: Array(bytes))
}

private let viewport = Size(width: 844, height: 390)

/// The board (scenes/board.json), played through the engine by pointer events as a person would.
@Suite struct BoardTests {
    let description: SceneDescription

    init() throws {
        description = try loadDescription("scenes/board.json")
    }

    func engine() throws -> Engine {
        Engine(scene: try DescribedScene(description: description), viewport: viewport)
    }

    func column(of node: FrameNode) -> Int {
        // Columns are (844 − 32 − 32) / 3 = 260 wide with 16 between, from x = 16.
        Int(((node.rect.minX - 16) / (260 + 16)).rounded())
    }

    func drag(
        _ engine: inout Engine, from start: Point, to end: Point, at time: Double, steps: Int = 8,
        duration: Double = 0.4
    ) {
        engine.handle(.pointer(PointerEvent(.down, at: start, time: time)))
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            let point = Point(x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t)
            engine.handle(.pointer(PointerEvent(.move, at: point, time: time + duration * t)))
        }
        engine.handle(.pointer(PointerEvent(.up, at: end, time: time + duration)))
    }

    /// A held card turns and grows (`bind`: rotation tx / 30 up to 5°, scale 1.04) and its title turns and grows
    /// with it once: the engine composes a parent's transform into its children, so the description gives a child
    /// its place on the card, not the card's transform again (which drew the title at 8° and 1.0816).
    @Test func aChildTurnsAndScalesOnceWithItsCard() throws {
        var engine = try engine()
        let start = Point(x: 60, y: 70)
        engine.handle(.pointer(PointerEvent(.down, at: start, time: 1)))
        for step in 1...6 {
            engine.handle(
                .pointer(PointerEvent(.move, at: Point(x: 60 + Double(step) * 30, y: 70), time: 1 + Double(step) / 60)))
        }
        let frame = engine.frame(at: 1.2)
        let card = try #require(frame.node(card: 1))
        let title = try #require(frame.node(NodeID("card.1.title")))
        #expect(card.rotation > 1)
        #expect(card.scale > 1.01)
        #expect(abs(title.rotation - card.rotation) < 1e-9)
        #expect(abs(title.scale - card.scale) < 1e-9)
        #expect(abs(title.opacity - card.opacity) < 1e-9)
        // The title's centre is where the card's transform takes the title's place on the card at rest.
        var resting = Engine(scene: try DescribedScene(description: description), viewport: viewport)
        let rest = resting.frame(at: 0)
        let restCard = try #require(rest.node(card: 1))
        let restTitle = try #require(rest.node(NodeID("card.1.title")))
        let dx = (restTitle.rect.midX - restCard.rect.midX) * card.scale
        let dy = (restTitle.rect.midY - restCard.rect.midY) * card.scale
        let angle = card.rotation * .pi / 180
        #expect(abs(title.rect.midX - (card.rect.midX + dx * cos(angle) - dy * sin(angle))) < 1e-6)
        #expect(abs(title.rect.midY - (card.rect.midY + dx * sin(angle) + dy * cos(angle))) < 1e-6)
    }

    @Test func describesItselfWithItsOwnNameKeysAndActions() throws {
        let descriptor = description.descriptor
        #expect(descriptor.name == "board")
        #expect(descriptor.actions.map(\.name) == ["expand", "right", "left", "archive", "restore"])
        #expect(descriptor.keyHelp.flatMap(\.names) == ["enter", "space", "l", "h", "a", "r"])
        let scene = try DescribedScene(description: description)
        #expect(scene.descriptor == descriptor)
        #expect(scene.name == "board")
    }

    @Test func cardsStartInThreeColumnsByIndex() throws {
        var engine = try engine()
        let frame = engine.frame(at: 0)
        let cards = frame.nodes.filter { $0.role == .card }
        #expect(cards.count == 9)
        for (index, card) in description.cards.enumerated() {
            let node = try #require(frame.node(card: card.id))
            #expect(column(of: node) == index % 3, "card \(card.id)")
            #expect(node.accessibilityLabel == card.title)
        }
        // A column's cards are stacked top to bottom in deck order, 64 + 16 apart from y = 48.
        let first = try #require(frame.node(card: 1))
        let fourth = try #require(frame.node(card: 4))
        #expect(first.rect.minY == 48)
        #expect(fourth.rect.minY == 48 + 80)
        // The title is a child of its card, with the card's title.
        let title = try #require(frame.node(NodeID("card.1.title")))
        #expect(title.parent == "card.1")
        #expect(title.plainText.contains("Sketch"))
    }

    @Test func draggingACardToAnotherColumnSpringsItIntoItsNewSlot() throws {
        var engine = try engine()
        let start = try #require(engine.frame(at: 0).node(card: 1))
        // Card 1 (column 0, top) to the third column, below its cards.
        let target = Point(x: 16 + 2 * (260 + 16) + 100, y: 48 + 3 * 80 + 20)
        drag(&engine, from: Point(x: start.rect.midX, y: start.rect.midY), to: target, at: 1)
        // While held it followed the finger; released, it springs (with the release velocity) into column 2.
        let moving = try #require(engine.frame(at: 1.45).node(card: 1))
        #expect(engine.frame(at: 1.45).isAnimating)
        let settled = engine.frame(at: 4)
        #expect(!settled.isAnimating)
        let node = try #require(settled.node(card: 1))
        #expect(column(of: node) == 2)
        // Column 2 held cards 3, 6, 9 above it: card 1 goes to the fourth slot.
        #expect(node.rect.minY == 48 + 3 * 80)
        #expect(moving.rect.minX != node.rect.minX || moving.rect.minY != node.rect.minY)
        // The order changed: card 1 now follows card 9 among column 2's cards.
        #expect(engine.deck.ids.firstIndex(of: 1)! > engine.deck.ids.firstIndex(of: 9)!)
    }

    @Test func reorderingWithinAColumnMovesTheCardToTheSlotUnderThePointer() throws {
        var engine = try engine()
        let top = try #require(engine.frame(at: 0).node(card: 1))
        // Card 1 is slot 0 of column 0 (cards 1, 4, 7): drop it on slot 2.
        drag(
            &engine, from: Point(x: top.rect.midX, y: top.rect.midY), to: Point(x: top.rect.midX, y: 48 + 2 * 80 + 30),
            at: 1)
        let settled = engine.frame(at: 4)
        #expect(column(of: try #require(settled.node(card: 1))) == 0)
        #expect(try #require(settled.node(card: 1)).rect.minY == 48 + 2 * 80)
        #expect(try #require(settled.node(card: 4)).rect.minY == 48)
        #expect(try #require(settled.node(card: 7)).rect.minY == 48 + 80)
    }

    @Test func tapExpandsTheCardWithAMatchedGeometryFlight() throws {
        var engine = try engine()
        let before = try #require(engine.frame(at: 0).node(card: 5))
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: before.rect.midX, y: before.rect.midY), time: 1)))
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: before.rect.midX, y: before.rect.midY), time: 1.05)))
        let during = engine.frame(at: 1.15)
        let settled = engine.frame(at: 3)
        let expanded = try #require(settled.node(NodeID("detail.5")))
        #expect(settled.node(NodeID("card.5")) == nil)
        #expect(expanded.matchedGeometryID == "card.5")
        #expect(expanded.rect.width == 480)
        #expect(expanded.z == 100)
        // Mid-flight the detail node is between the card's slot and its expanded frame.
        let flying = try #require(during.node(NodeID("detail.5")))
        #expect(flying.rect.width > before.rect.width && flying.rect.width < 480)
        // A tap on the background puts it back.
        engine.handle(.pointer(PointerEvent(.down, at: Point(x: 5, y: 385), time: 4)))
        engine.handle(.pointer(PointerEvent(.up, at: Point(x: 5, y: 385), time: 4.05)))
        let back = engine.frame(at: 6)
        #expect(back.node(NodeID("detail.5")) == nil)
        #expect(try #require(back.node(card: 5)).rect == before.rect)
    }

    @Test func aFastHorizontalFlingArchivesTheCard() throws {
        var engine = try engine()
        let card = try #require(engine.frame(at: 0).node(card: 2))
        drag(
            &engine, from: Point(x: card.rect.midX, y: card.rect.midY),
            to: Point(x: card.rect.midX + 200, y: card.rect.midY), at: 1, steps: 4, duration: 0.08)
        #expect(!engine.deck.contains(id: 2))
        let settled = engine.frame(at: 4)
        #expect(settled.node(card: 2) == nil)
        #expect(engine.deck.count == 8)
        // `restore` (key r) brings it back.
        let used1 = engine.handle(.key(KeyInput("r"), time: 5))
        #expect(used1)
        #expect(engine.deck.count == 9)
    }

    @Test func keysRunTheirActions() throws {
        var engine = try engine()
        let used2 = engine.handle(.key(KeyInput("enter"), time: 1))
        #expect(used2)
        #expect(engine.frame(at: 3).node(NodeID("detail.1")) != nil)
        let used3 = engine.handle(.key(KeyInput("l"), time: 4))
        #expect(used3)
        let used4 = engine.handle(.key(KeyInput("enter"), time: 5))
        #expect(used4)
        let frame = engine.frame(at: 8)
        #expect(column(of: try #require(frame.node(card: 1))) == 1)
        let used5 = engine.handle(.key(KeyInput("z"), time: 9))
        #expect(!used5)
    }

    @Test func columnsPersistPerDeck() throws {
        var scene = try DescribedScene(description: description)
        var context = SceneContext(time: 0, viewport: viewport)
        try scene.perform(SceneAction("right", ["card": .string("1")]), context: &context)
        try scene.perform(SceneAction("archive", ["card": .string("2")]), context: &context)
        #expect(context.stateChanged)
        let saved = try #require(scene.encodeState())
        var restored = try DescribedScene(description: description)
        try restored.restoreState(saved)
        #expect(restored.deck.ids == scene.deck.ids)
        #expect(!restored.deck.contains(id: 2))
        var a = Engine(scene: scene, viewport: viewport)
        var b = Engine(scene: restored, viewport: viewport)
        #expect(a.frame(at: 0).nodes.map(\.rect) == b.frame(at: 0).nodes.map(\.rect))
    }

    @Test func framesPassTheLintAndStayFinite() throws {
        var engine = try engine()
        let lint = FrameLint()
        let card = try #require(engine.frame(at: 0).node(card: 3))
        drag(&engine, from: Point(x: card.rect.midX, y: card.rect.midY), to: Point(x: 100, y: 300), at: 1)
        for step in 0...60 {
            let frame = engine.frame(at: 1 + Double(step) / 20)
            for node in frame.nodes {
                #expect(node.rect.minX.isFinite && node.rect.width.isFinite && node.opacity.isFinite)
            }
            if !frame.isAnimating { #expect(lint.findings(in: frame).isEmpty, "\(lint.findings(in: frame))") }
        }
    }
}
