import CardEngine
import CardGeometry
import CardGestures
import CardSceneFormat
import Testing

/// Composed gestures in a description (`exclusive`, `sequenced`, `simultaneous`), played through the engine.
@Suite struct GestureCompositionTests {
    /// One card in the middle of a 400 × 400 viewport that a long press then a drag moves (`sequenced`).
    static let pressThenDrag = """
        {"format": 1, "name": "press-drag",
         "cards": [{"id": 1, "title": "Hold me"}],
         "card": {"size": ["100", "100"]},
         "layouts": [{"name": "one", "kind": "stack"}],
         "gestures": [{"name": "lift", "on": "card", "kind": "sequenced",
                       "gestures": [{"kind": "longPress", "minimumDuration": 0.4}, {"kind": "drag", "minimumDistance": 0}],
                       "bind": {"x": "x + tx", "y": "y + ty"}}]}
        """

    func engine(_ text: String) throws -> Engine {
        let description = try SceneDescription.load(bytes: Array(text.utf8))
        return Engine(scene: try DescribedScene(description: description), viewport: Size(width: 400, height: 400))
    }

    @Test func aSequencedDragMovesTheCardOnlyAfterTheLongPress() throws {
        // Moved at once, the long press fails (the finger moved) and the drag never begins: the card stays.
        var quick = try engine(Self.pressThenDrag)
        let start = try #require(quick.frame(at: 0).node(card: 1)).rect
        quick.handle(.pointer(PointerEvent(.down, at: Point(x: 200, y: 200), time: 1)))
        quick.handle(.pointer(PointerEvent(.move, at: Point(x: 240, y: 200), time: 1.05)))
        quick.handle(.pointer(PointerEvent(.move, at: Point(x: 280, y: 200), time: 1.1)))
        #expect(try #require(quick.frame(at: 1.1).node(card: 1)).rect == start)
        // Held past 0.4 s first, the drag follows the finger.
        var held = try engine(Self.pressThenDrag)
        held.handle(.pointer(PointerEvent(.down, at: Point(x: 200, y: 200), time: 1)))
        _ = held.frame(at: 1.5)
        held.handle(.pointer(PointerEvent(.move, at: Point(x: 240, y: 210), time: 1.55)))
        held.handle(.pointer(PointerEvent(.move, at: Point(x: 280, y: 220), time: 1.6)))
        let moved = try #require(held.frame(at: 1.6).node(card: 1)).rect
        #expect(moved.minX == start.minX + 80)
        #expect(moved.minY == start.minY + 20)
    }

    @Test func compositionsLoadAsTheEnginesComposedGestures() throws {
        let text = """
            {"format": 1, "name": "composed", "cards": [{"id": 1, "title": "A"}],
             "card": {"size": ["100", "100"]}, "layouts": [{"name": "one", "kind": "stack"}],
             "gestures": [
               {"name": "either", "kind": "exclusive",
                "gestures": [{"kind": "swipe", "directions": ["left"], "minimumVelocity": 900}, {"kind": "tap"}]},
               {"name": "both", "kind": "simultaneous", "gestures": [{"kind": "drag"}, {"kind": "longPress"}]}]}
            """
        let scene = try DescribedScene(description: try SceneDescription.load(bytes: Array(text.utf8)))
        let card = try #require(scene.layout(in: Size(width: 400, height: 400)).first { $0.card == 1 })
        #expect(
            card.gestures.map(\.gesture) == [
                .exclusive(.swipe(SwipeGesture(directions: .left, minimumVelocity: 900)), .tap(TapGesture())),
                .simultaneous(.drag(DragGesture()), .longPress(LongPressGesture())),
            ])
    }

    @Test func faultyCompositionsAreRefusedWithTheirPointers() throws {
        func refusal(_ gesture: String) -> SceneFormatError? {
            let text = """
                {"format": 1, "name": "bad", "cards": [{"id": 1, "title": "A"}],
                 "card": {"size": ["100", "100"]}, "layouts": [{"name": "one", "kind": "stack"}],
                 "gestures": [\(gesture)]}
                """
            do {
                _ = try SceneDescription.load(bytes: Array(text.utf8))
                return nil
            } catch {
                return error
            }
        }
        let one = try #require(refusal(#"{"name": "g", "kind": "exclusive", "gestures": [{"kind": "tap"}]}"#))
        #expect(one.pointer == "/gestures/0/gestures")
        let unknown = try #require(
            refusal(#"{"name": "g", "kind": "sequenced", "gestures": [{"kind": "tap"}, {"kind": "pinch"}]}"#))
        #expect(unknown.pointer == "/gestures/0/gestures/1/kind")
        var nested = #"{"kind": "tap"}"#
        for _ in 0..<6 { nested = #"{"kind": "exclusive", "gestures": [{"kind": "tap"}, \#(nested)]}"# }
        let deep = try #require(
            refusal(#"{"name": "g", "kind": "exclusive", "gestures": [{"kind": "tap"}, \#(nested)]}"#))
        #expect(deep.message.contains("nests deeper"))
    }
}
