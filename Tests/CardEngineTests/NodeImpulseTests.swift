import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics
import Foundation
import Testing

/// A one-node scene whose `kick` action asks the engine for velocity kicks (`SceneContext.nodeImpulses`), and whose
/// `report` action reports a deck change with a diff it made itself (`deckChanged(to:diff:)`).
private struct KickScene: Scene {
    static let descriptor = SceneDescriptor(name: "kick", title: "Kick", summary: "a box to kick", seed: "none")
    /// Cards 1 and 2; `report` swaps them (the engine checks, in debug builds, that reported changes add up).
    var deck =
        (try? Deck(
            [1, 2].map { Card(id: CardID(UInt64($0)), title: "\($0)", color: RGBColor(red: 0, green: 0, blue: 0)) }))
        ?? Deck()
    var y = 100.0

    func layout(in viewport: Size) -> [Node] {
        [Node(id: "box", role: .card, rect: Rect(x: 0, y: y, width: 50, height: 50))]
    }

    mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        switch action.name {
        case "kick":
            let delay = action.has("delay") ? try action.double("delay") : 0
            let animation = try? Animation.spring(response: 0.5, dampingFraction: 0.5)
            for id in ["box", "missing"] {
                context.nodeImpulses[NodeID(id)] = NodeImpulse(
                    velocity: Vector(dx: 0, dy: 400), animation: (animation ?? .spring).delay(delay))
            }
        case "move":
            y = try action.double("y")
        case "report":
            deck = (try? Deck([deck[1], deck[0]])) ?? deck
            context.deckChanged(
                to: [2, 1],
                diff: ReorderDiff(
                    oldCount: 2, newCount: 2, removals: [], insertions: [], moves: [ReorderDiff.Move(from: 1, to: 0)]))
            context.deckChanged(
                to: [2, 1], diff: ReorderDiff(oldCount: 2, newCount: 2, removals: [], insertions: [], moves: []))
        default:
            throw .unknownAction(action.name)
        }
    }

    mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {}
    mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool { false }
    mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {}
}

@Suite struct NodeImpulseTests {
    func boxY(_ engine: inout Engine, at time: Double) -> Double {
        engine.frame(at: time).node("box")?.rect.minY ?? .nan
    }

    @Test func aKickMovesANodeAtRestAndItSpringsBackToItsTarget() throws {
        var engine = Engine(scene: KickScene(), viewport: Size(width: 390, height: 844))
        try engine.perform(SceneAction("kick"), at: 1)
        #expect(boxY(&engine, at: 1) == 100)
        // Underdamped spring, ω₀ = 2π/0.5, ζ = 0.5, from rest at the target with v₀ = 400:
        // x(t) = v₀/ω_d · e^(−ζω₀t) · sin(ω_d t).
        let omega = 2 * Double.pi / 0.5
        let damped = omega * (1 - 0.25).squareRoot()
        for elapsed in [0.05, 0.1, 0.2] {
            let envelope: Double = exp(-0.5 * omega * elapsed)
            let expected: Double = 100 + 400 / damped * envelope * sin(damped * elapsed)
            #expect(abs(boxY(&engine, at: 1 + elapsed) - expected) < 1e-6)
        }
        #expect(abs(boxY(&engine, at: 5) - 100) < 1e-6)
        #expect(!engine.frame(at: 5).isAnimating)
    }

    @Test func aDelayedKickHoldsStillUntilItsDelayAndIdsNotLaidOutAreIgnored() throws {
        var engine = Engine(scene: KickScene(), viewport: Size(width: 390, height: 844))
        try engine.perform(SceneAction("kick", ["delay": .number(0.2)]), at: 1)
        #expect(boxY(&engine, at: 1.15) == 100)
        #expect(boxY(&engine, at: 1.3) > 101)
        #expect(engine.frame(at: 1.3).node("missing") == nil)
    }

    @Test func aKickAddsToTheVelocityOfAMovingNode() throws {
        var engine = Engine(scene: KickScene(), viewport: Size(width: 390, height: 844))
        try engine.perform(SceneAction("move", ["y": .number(300)]), at: 0)
        #expect(boxY(&engine, at: 0.5) == 300, "without an animation the move jumps")
        try engine.perform(SceneAction("kick"), at: 1)
        try engine.perform(SceneAction("kick"), at: 1.02)
        // Two kicks 20 ms apart: faster than one kick alone at the same moment after the second.
        var single = Engine(scene: KickScene(), viewport: Size(width: 390, height: 844))
        try single.perform(SceneAction("move", ["y": .number(300)]), at: 0)
        try single.perform(SceneAction("kick"), at: 1.02)
        #expect(boxY(&engine, at: 1.05) > boxY(&single, at: 1.05))
    }

    @Test func aSceneCanReportADiffItComputedAndEmptyDiffsAreDropped() throws {
        var engine = Engine(scene: KickScene(), viewport: Size(width: 390, height: 844))
        try engine.perform(SceneAction("report"), at: 1)
        let changes = engine.frame(at: 1).events.compactMap { if case .deckChanged(let c) = $0 { c } else { nil } }
        #expect(changes.count == 1)
        #expect(changes.first?.ids == [2, 1])
        #expect(changes.first?.diff.moves == [ReorderDiff.Move(from: 1, to: 0)])
    }
}
