import CardEngine
import CardGeometry
import CardGestures
import Testing

@Suite struct ActionInfoTests {
    static let scroll = ActionInfo(
        "scroll", "scroll",
        arguments: [
            ActionArgument("to", .number(), "offset", required: false),
            ActionArgument("by", .number(), "distance", required: false),
        ],
        exactlyOneOf: ["to", "by"])
    static let select = ActionInfo(
        "select", "select a test", arguments: [ActionArgument("test", .integer(minimum: 1, maximum: 10), "1…10")])
    static let swipe = ActionInfo(
        "swipe", "swipe",
        arguments: [
            ActionArgument("direction", .string(oneOf: ["left", "right"]), "where"),
            ActionArgument("card", .card, "card id", required: false),
        ],
        availability: .deckHasAtLeast(1))

    func reason(_ info: ActionInfo, _ arguments: [String: ActionValue]) -> String? {
        do {
            try info.validate(SceneAction(info.name, arguments), cardCount: 10)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func unknownMissingMistypedAndOutOfRangeArgumentsAreRefused() {
        #expect(reason(Self.select, ["test": .number(3)]) == nil)
        #expect(
            reason(Self.select, ["test": .number(3), "tset": .number(4)])?.contains("'tset' is not an argument") == true
        )
        #expect(reason(Self.select, [:]) == "select: argument 'test' missing")
        #expect(reason(Self.select, ["test": .number(11)]) == "select: argument 'test' must be 1…10")
        #expect(reason(Self.select, ["test": .number(2.5)]) == "select: argument 'test' must be a whole number")
        #expect(reason(Self.swipe, ["direction": .string("up")])?.contains("must be one of") == true)
        #expect(reason(Self.swipe, ["direction": .string("left"), "card": .string("x")])?.contains("card id") == true)
        #expect(reason(Self.swipe, ["direction": .string("left"), "card": .number(7)]) == nil)
    }

    @Test func exactlyOneOfIsEnforcedAndInTheSchema() throws {
        #expect(reason(Self.scroll, ["to": .number(0)]) == nil)
        #expect(reason(Self.scroll, ["by": .number(-20)]) == nil)
        #expect(reason(Self.scroll, [:])?.contains("exactly one of 'to' or 'by'") == true)
        #expect(reason(Self.scroll, ["to": .number(0), "by": .number(1)])?.contains("exactly one") == true)
        let schema = Self.scroll.parametersSchema(cardCount: 10)
        #expect(schema["additionalProperties"] == .bool(false))
        #expect(schema["oneOf"]?.arrayValue?.count == 2)
        #expect(schema["required"] == .array([.string("name")]))
        #expect(Self.select.parametersSchema(cardCount: 10)["properties"]?["test"]?["maximum"] == .integer(10))
    }

    /// A `position` is bounded by the deck it moves in, in the check and in the schema a host validates with (the
    /// `move` actions' `to` had its maximum in a description only).
    @Test func aPositionIsBoundedByTheDecksSizeInTheCheckAndTheSchema() throws {
        let move = ActionInfo(
            "move", "move", arguments: [ActionArgument("card", .card, "id"), ActionArgument("to", .position, "slot")])
        func reason(_ to: ActionValue, count: Int) -> String? {
            do {
                try move.validate(SceneAction("move", ["card": .number(1), "to": to]), cardCount: count)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(reason(.number(0), count: 12) == nil)
        #expect(reason(.number(11), count: 12) == nil)
        #expect(reason(.number(12), count: 12) == "move: argument 'to' must be 0…11")
        #expect(reason(.number(-1), count: 12) == "move: argument 'to' must be 0…11")
        #expect(reason(.number(1.5), count: 12) == "move: argument 'to' must be a whole number")
        #expect(reason(.number(999_999), count: 1_000_000) == nil)
        #expect(reason(.number(0), count: 0) != nil)
        let to = try #require(move.parametersSchema(cardCount: 12)["properties"]?["to"])
        #expect(to["type"] == .string("integer"))
        #expect(to["minimum"] == .integer(0))
        #expect(to["maximum"] == .integer(11))
        #expect(move.parametersSchema(cardCount: 1_000_000)["properties"]?["to"]?["maximum"] == .integer(999_999))
    }

    @Test func availabilityFollowsTheDeck() {
        #expect(Self.swipe.availability.holds(cardCount: 1))
        #expect(!Self.swipe.availability.holds(cardCount: 0))
        #expect(ActionAvailability.always.holds(cardCount: 0))
    }

    @Test func anEnginesInputLogKeepsAFixedBudget() {
        var engine = Engine(
            scene: TransitionProbeScene(transition: .identity), viewport: Size(width: 390, height: 844))
        let count = InputLog.defaultCapacity + 1000
        for index in 0..<count {
            engine.handle(.pointer(PointerEvent(.move, at: Point(x: 10, y: 10), time: Double(index) * 0.001)))
        }
        #expect(engine.log.inputs.count == InputLog.defaultCapacity)
        #expect(engine.log.droppedCount == 1000)
        #expect(!engine.log.isComplete)
    }

    @Test func theEngineRefusesAnUndeclaredArgumentBeforeTheSceneSeesIt() {
        var engine = Engine(
            scene: TransitionProbeScene(transition: .identity), viewport: Size(width: 390, height: 844))
        #expect(throws: SceneError.self) { try engine.perform(SceneAction("toggle", ["x": .bool(true)]), at: 0) }
        #expect(engine.log.inputs.isEmpty)
        try? engine.perform(SceneAction("toggle"), at: 0)
        #expect(engine.log.inputs.count == 1)
    }
}
