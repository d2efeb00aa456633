import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics
import CardTestScenes
import Testing

private let viewport = Size(width: 390, height: 844)

/// Reduced motion: after any key or action, no node moves on its way to its new place (no spring path, no
/// slide): every sample of the change shows each node where it settles, only its opacity changes.
@Suite struct ReducedMotionTests {
    /// Times after an input at which the change is sampled (the cross-fade takes 0.2 s; springs take longer).
    static let offsets = [0.001, 0.016, 0.05, 0.1, 0.15, 0.199, 0.3, 0.6, 1.2]

    /// Counts node samples (over seeded keys and actions) whose frame, rotation or scale differ from where the node
    /// is once everything has settled; nodes that are leaving are compared with where they were when they left.
    static func movingSamples(scene name: String, reducesMotion: Bool) throws -> (moving: Int, samples: Int) {
        var generator = SplitMix64(seed: 0x2ED0 ^ UInt64(name.utf8.count))
        var moving = 0
        var samples = 0
        for _ in 0..<12 {
            var engine = Engine(
                scene: try SceneCatalog.testing.make(name), viewport: viewport, reducesMotion: reducesMotion)
            var input = RandomInput(generator: SplitMix64(seed: generator.next()), viewport: viewport)
            var time = 1.0
            for _ in 0..<10 {
                let (inputs, _) = input.burst(at: time, scene: engine.scene)
                for item in inputs {
                    switch item {
                    case .key(let key, _): engine.handle(.key(key, time: time))
                    case .action(let action, _): try? engine.perform(action, at: time)
                    default: continue
                    }
                    let frames = offsets.map { engine.frame(at: time + $0) }
                    let settled = engine.frame(at: time + 30)
                    var left: [NodeID: FrameNode] = [:]
                    for frame in frames {
                        for node in frame.nodes {
                            samples += 1
                            let rest = node.isLeaving ? left[node.id] ?? node : settled.node(node.id)
                            if node.isLeaving, left[node.id] == nil { left[node.id] = node }
                            guard let rest else { continue }
                            if !Self.same(node, rest) { moving += 1 }
                        }
                    }
                    time += 31
                }
            }
        }
        return (moving, samples)
    }

    static func same(_ a: FrameNode, _ b: FrameNode) -> Bool {
        abs(a.rect.minX - b.rect.minX) < 1e-6 && abs(a.rect.minY - b.rect.minY) < 1e-6
            && abs(a.rect.width - b.rect.width) < 1e-6 && abs(a.rect.height - b.rect.height) < 1e-6
            && abs(a.rotation - b.rotation) < 1e-6 && abs(a.scale - b.scale) < 1e-6
    }

    @Test(arguments: SceneCatalog.testing.names)
    func noNodeMovesAfterAKeyOrAnAction(scene name: String) throws {
        let (moving, samples) = try Self.movingSamples(scene: name, reducesMotion: true)
        #expect(samples > 100)
        #expect(moving == 0, "\(name): \(moving) of \(samples) node samples were on their way somewhere")
    }

    /// The same inputs without reduced motion do move nodes (so the check above can fail).
    @Test func withoutReducedMotionTheSameInputsMoveNodes() throws {
        var moving = 0
        for name in SceneCatalog.standard.names {
            moving += try Self.movingSamples(scene: name, reducesMotion: false).moving
        }
        #expect(moving > 100)
    }

    /// A cross-fade: the node is at its new place at once, transparent, and opaque again after 0.2 s.
    @Test func aMovedCardFadesInAtItsNewPlace() throws {
        var engine = Engine(scene: try SceneCatalog.standard.make("deck"), viewport: viewport, reducesMotion: true)
        let before = try #require(engine.frame(at: 0).node("card.401"))
        try engine.perform(SceneAction("move", ["card": .string("401"), "to": .number(3)]), at: 1)
        var engineAgain = engine
        let settled = try #require(engine.frame(at: 5).node("card.401"))
        #expect(settled.rect != before.rect)
        let start = try #require(engineAgain.frame(at: 1.001).node("card.401"))
        #expect(start.rect == settled.rect)
        #expect(start.opacity < 0.05)
        let middle = try #require(engineAgain.frame(at: 1.1).node("card.401"))
        #expect(middle.rect == settled.rect)
        #expect(middle.opacity > 0.3 && middle.opacity < 0.7)
        let end = try #require(engineAgain.frame(at: 1.2).node("card.401"))
        #expect(end.opacity == 1)
    }

    /// A recording says it was made with reduced motion (so a replay rebuilds the same engine); one made without
    /// says nothing, as before.
    @Test func aRecordingNotesReducedMotion() throws {
        for reduces in [true, false] {
            var engine = Engine(
                scene: try SceneCatalog.standard.make("deck"), viewport: viewport, reducesMotion: reduces)
            engine.startRecording(options: SceneOptions())
            let text = String(decoding: engine.takeRecording(), as: UTF8.self)
            #expect(text.contains("\"reduceMotion\":true") == reduces)
            #expect(try InputLog(jsonLines: text).setup.reducesMotion == reduces)
        }
    }
}
