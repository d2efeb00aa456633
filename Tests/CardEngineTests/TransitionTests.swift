import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics
import Testing

/// A scene whose only node appears and disappears with a transition chosen by the test.
struct TransitionProbeScene: Scene {
    static let descriptor = SceneDescriptor(
        name: "probe", title: "Probe", summary: "a box that comes and goes", seed: "none",
        actions: [ActionInfo("toggle", "show or hide the box")])
    let deck = Deck()
    var isShown = false
    var transition: NodeTransition

    func layout(in viewport: Size) -> [Node] {
        guard isShown else { return [] }
        return [
            Node(id: "box", role: .card, rect: Rect(x: 100, y: 200, width: 80, height: 40), transition: transition)
        ]
    }

    mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        isShown.toggle()
        context.animation = .easeInOut
    }

    mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {}
    mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool { false }
    mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {}
}

@Suite struct TransitionTests {
    let viewport = Size(width: 400, height: 800)

    /// The box at the start of its insertion and at the end of its removal (just before it is dropped).
    func extremes(_ transition: NodeTransition) throws -> (inserted: FrameNode, removed: FrameNode, gone: Bool) {
        var engine = Engine(scene: TransitionProbeScene(transition: transition), viewport: viewport)
        try engine.perform(SceneAction("toggle"), at: 1)
        let inserted = try #require(engine.frame(at: 1).node("box"))
        #expect(engine.frame(at: 2).node("box")?.rect == Rect(x: 100, y: 200, width: 80, height: 40))
        try engine.perform(SceneAction("toggle"), at: 3)
        // easeInOut lasts 0.35 s: just before its end the box is almost at its absent state.
        let removed = try #require(engine.frame(at: 3.3499).node("box"))
        #expect(removed.isLeaving)
        let gone = engine.frame(at: 4).node("box") == nil
        return (inserted, removed, gone)
    }

    @Test func opacityFades() throws {
        let (inserted, removed, gone) = try extremes(.opacity)
        #expect(inserted.opacity == 0)
        #expect(removed.opacity < 0.01)
        #expect(gone)
    }

    @Test func offsetAndScale() throws {
        let offset = try extremes(.offset(Vector(dx: 0, dy: 50)))
        #expect(offset.inserted.rect.minY == 250)
        #expect(abs(offset.removed.rect.minY - 250) < 0.5)
        let scale = try extremes(.scale(0))
        #expect(scale.inserted.scale == 0)
        #expect(scale.removed.scale < 0.01)
    }

    @Test func moveAndSlideGoPastTheViewportEdges() throws {
        let leading = try extremes(.move(.leading))
        #expect(leading.inserted.rect.maxX == 0)
        let bottom = try extremes(.move(.bottom))
        #expect(bottom.inserted.rect.minY == viewport.height)
        let slide = try extremes(.slide)
        #expect(slide.inserted.rect.maxX == 0)  // in from the leading edge
        #expect(abs(slide.removed.rect.minX - viewport.width) < 1)  // out through the trailing edge
    }

    @Test func combinedAndAsymmetric() throws {
        let combined = try extremes(.combined([.opacity, .move(.top)]))
        #expect(combined.inserted.opacity == 0 && combined.inserted.rect.maxY == 0)
        let asymmetric = try extremes(.asymmetric(insertion: .opacity, removal: .scale(0)))
        #expect(asymmetric.inserted.opacity == 0 && asymmetric.inserted.scale == 1)
        #expect(asymmetric.removed.scale < 0.01 && asymmetric.removed.opacity == 1)
    }

    @Test func identityAppearsAndLeavesAtOnce() throws {
        var engine = Engine(scene: TransitionProbeScene(transition: .identity), viewport: viewport)
        try engine.perform(SceneAction("toggle"), at: 1)
        let inserted = try #require(engine.frame(at: 1).node("box"))
        #expect(inserted.rect == Rect(x: 100, y: 200, width: 80, height: 40) && inserted.opacity == 1)
        try engine.perform(SceneAction("toggle"), at: 2)
        #expect(engine.frame(at: 2).node("box") == nil)
    }

    /// The engine evaluates motion through the animator it is given: with `InstantAnimator` a change is at its end
    /// state in the first frame after it and nothing animates.
    @Test func anInjectedInstantAnimatorAppliesChangesAtOnce() throws {
        var engine = Engine(
            scene: TransitionProbeScene(transition: .opacity), viewport: viewport, animator: InstantAnimator())
        try engine.perform(SceneAction("toggle"), at: 1)
        let frame = engine.frame(at: 1)
        #expect(frame.node("box")?.opacity == 1 && !frame.isAnimating)
        try engine.perform(SceneAction("toggle"), at: 2)
        // The removal is over the moment it starts: invisible at once, dropped as soon as time moves on.
        #expect(engine.frame(at: 2).node("box")?.opacity == 0)
        #expect(engine.frame(at: 2.001).node("box") == nil)
        #expect(engine.nextWakeTime() == nil)
    }
}
