import CardEngine
import CardGeometry
import CardGestures
import CardModels
import Testing

/// A scene whose layout is drawn from a seeded generator at each `step`: a few nodes from a small pool of ids
/// (often the same ids in the same order as before, sometimes others or another order), with random places,
/// fills, implicit animations and gestures. With `marker`, every layout also holds one off-screen node whose id
/// changes at every step, so no two layouts ever have the same ids.
struct RandomLayoutScene: Scene {
    static let descriptor = SceneDescriptor(
        name: "random", title: "Random", summary: "seeded random layouts", seed: "none",
        actions: [ActionInfo("step", "draw the next layout")])
    let deck = Deck()
    var marker: Bool
    var step = 0
    var nodes: [Node] = []
    var generator: SplitMix64
    var gestures: [String] = []

    init(seed: UInt64, marker: Bool) {
        self.marker = marker
        generator = SplitMix64(seed: seed)
    }

    func layout(in viewport: Size) -> [Node] {
        guard marker else { return nodes }
        return nodes + [
            Node(
                id: NodeID("marker.\(step)"), role: .background, rect: Rect(x: -500, y: -500, width: 1, height: 1),
                isHitTestable: false)
        ]
    }

    mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        step += 1
        let pool = ["a", "b", "c", "d", "e", "f"]
        var ids = nodes.map(\.id)
        if nodes.isEmpty || generator.next() % 3 == 0 {
            ids = pool.shuffled(using: &generator).prefix(1 + Int(generator.next() % 5)).map { NodeID($0) }
        }
        var generator = self.generator
        defer { self.generator = generator }
        nodes = ids.map { id in
            func random(_ limit: UInt64) -> Double { Double(generator.next() % limit) }
            let gestures: [GestureAttachment] =
                switch generator.next() % 3 {
                case 0: []
                case 1: [GestureAttachment("tap", TapGesture())]
                default: [GestureAttachment("drag", DragGesture()), GestureAttachment("tap", TapGesture())]
                }
            return Node(
                id: id, role: .card, rect: Rect(x: random(300), y: random(600), width: 40 + random(80), height: 60),
                z: random(3), fill: RGBA(red: random(2), green: 0.5, blue: 0.5, alpha: 1),
                implicitAnimation: generator.next() % 2 == 0
                    ? ImplicitAnimation(.bouncy, value: generator.next() % 2 == 0 ? "x" : "y") : nil,
                gestures: gestures, isHitTestable: generator.next() % 5 != 0)
        }
        context.animation = generator.next() % 4 == 0 ? nil : .smooth
    }

    mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        gestures.append("\(gesture.gesture) \(gesture.phase) \(gesture.target)")
    }

    mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool { false }
    mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {}
}

/// The engine reuses the previous id index when a layout holds the same ids in the same order (no hashing); a
/// layout with any other ids goes through the index. Both must give the same frames and the same gestures.
@Suite struct LayoutFastPathTests {
    @Test func sameIDLayoutsAnimateAndHitTestAsAnyOther() throws {
        let viewport = Size(width: 400, height: 800)
        var recognised = 0
        for seed in 0..<150 {
            var fast = Engine(scene: RandomLayoutScene(seed: UInt64(seed), marker: false), viewport: viewport)
            var slow = Engine(scene: RandomLayoutScene(seed: UInt64(seed), marker: true), viewport: viewport)
            var probe = SplitMix64(seed: UInt64(seed) &+ 1000)
            var time = 0.0
            for _ in 0..<12 {
                time += 0.1
                try fast.perform(SceneAction("step"), at: time)
                try slow.perform(SceneAction("step"), at: time)
                // A press somewhere, sometimes dragged, on both.
                // At the centre of one of the nodes (the topmost one there takes it), or anywhere.
                let current = try #require(fast.scene as? RandomLayoutScene).nodes
                var point = Point(x: Double(probe.next() % 400), y: Double(probe.next() % 800))
                if !current.isEmpty, probe.next() % 4 != 0 {
                    point = current[Int(probe.next() % UInt64(current.count))].rect.center
                }
                let drag = probe.next() % 2 == 0
                for engine in [0, 1] {
                    func send(_ event: PointerEvent) {
                        if engine == 0 { fast.handle(.pointer(event)) } else { slow.handle(.pointer(event)) }
                    }
                    send(PointerEvent(.down, at: point, time: time + 0.01))
                    if drag { send(PointerEvent(.move, at: Point(x: point.x + 30, y: point.y), time: time + 0.02)) }
                    send(PointerEvent(.up, at: Point(x: point.x + (drag ? 30 : 0), y: point.y), time: time + 0.03))
                }
                for offset in [0.03, 0.05, 0.2] {
                    let a = fast.frame(at: time + offset).nodes
                    let b = slow.frame(at: time + offset).nodes.filter { !$0.id.description.hasPrefix("marker.") }
                    #expect(a == b, "seed \(seed) at \(time + offset)")
                }
            }
            let fastGestures = try #require(fast.scene as? RandomLayoutScene).gestures
            let slowGestures = try #require(slow.scene as? RandomLayoutScene).gestures
            #expect(fastGestures == slowGestures, "seed \(seed)")
            recognised += fastGestures.count
        }
        #expect(recognised > 500)
    }
}
