import CardEngine
import CardGeometry
import CardGestures
import CardModels
import Testing

private let viewport = Size(width: 390, height: 844)

/// A scene whose only node, a badge, is absent from the first layout and enters on `appear` (when `launches`).
private struct BadgeScene: Scene {
    static let descriptor = SceneDescriptor(
        name: "badge", title: "Badge", summary: "a badge that enters on appear", seed: "none")
    let deck = Deck()
    var launches: Bool
    var isShown = false

    func layout(in viewport: Size) -> [Node] {
        guard isShown else { return [] }
        return [Node(id: "badge", role: .chip, rect: Rect(x: 10, y: 10, width: 20, height: 20), transition: .opacity)]
    }

    mutating func appear(context: inout SceneContext) -> Bool {
        guard launches else { return false }
        isShown = true
        context.animation = .default
        return true
    }

    mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        throw .unknownAction(action.name)
    }
    mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {}
    mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool { false }
    mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {}
}

@Suite struct SceneAppearTests {
    @Test func changesMadeOnAppearAnimateFromTheFirstLayout() {
        var engine = Engine(scene: BadgeScene(launches: true), viewport: viewport, startTime: 5)
        let start = engine.frame(at: 5)
        #expect(start.node("badge")?.opacity == 0 && start.isAnimating)
        let middle = engine.frame(at: 5.2).node("badge")?.opacity ?? 0
        #expect(middle > 0 && middle < 1)
        let end = engine.frame(at: 7)
        #expect(end.node("badge")?.opacity == 1 && !end.isAnimating)
        // Nothing was logged: a replay runs `appear` again from the scene itself.
        #expect(engine.log.inputs.isEmpty)
    }

    @Test func aSceneThatDoesNotChangeOnAppearStartsAtRest() {
        var engine = Engine(scene: BadgeScene(launches: false), viewport: viewport)
        let frame = engine.frame(at: 0)
        #expect(frame.nodes.isEmpty && !frame.isAnimating && engine.nextWakeTime() == nil)
    }
}
