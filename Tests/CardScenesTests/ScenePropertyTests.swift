import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardTestScenes
import Testing

/// Random but reproducible input for a scene: pointer gestures (taps, holds, drags, flings), wheel scrolls, keys
/// and semantic actions with valid and invalid arguments, at increasing times.
struct RandomInput {
    var generator: SplitMix64
    let viewport: Size

    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + Double(generator.next() % 1_000_001) / 1_000_000 * (range.upperBound - range.lowerBound)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(generator.next() % UInt64(items.count))] }

    mutating func point() -> Point { Point(x: uniform(0...viewport.width), y: uniform(0...viewport.height)) }

    /// One burst of input starting at `time`; returns the inputs (in time order) and the time after them.
    mutating func burst(at time: Double, scene: any Scene) -> (inputs: [InputEvent], end: Double) {
        var inputs: [InputEvent] = []
        var now = time
        switch generator.next() % 6 {
        case 0, 1:  // a pointer gesture: down, some moves (maybe after a hold), up or cancel
            let start = point()
            inputs.append(.pointer(PointerEvent(.down, at: start, time: now)))
            if generator.next() % 2 == 0 { now += uniform(0...0.8) }
            var location = start
            for _ in 0..<Int(generator.next() % 8) {
                now += uniform(0.001...0.05)
                location = Point(x: location.x + uniform(-80...80), y: location.y + uniform(-80...80))
                inputs.append(.pointer(PointerEvent(.move, at: location, time: now)))
            }
            now += uniform(0.001...0.3)
            inputs.append(.pointer(PointerEvent(generator.next() % 10 == 0 ? .cancel : .up, at: location, time: now)))
        case 2:
            inputs.append(
                .pointer(PointerEvent(.wheel(dx: uniform(-20...20), dy: uniform(-200...200)), at: point(), time: now)))
        case 3:
            let key = pick([
                "left", "right", "up", "down", "tab", "backtab", "enter", "space", "escape", "s", "r", "1", "0",
            ])
            inputs.append(.key(KeyInput(key, shift: generator.next() % 4 == 0), time: now))
        default:
            let actions = scene.descriptor.actions
            guard !actions.isEmpty else { break }
            let info = pick(actions)
            var arguments: [String: ActionValue] = [:]
            for name in info.arguments.map(\.name) {
                switch generator.next() % 5 {
                case 0: arguments[name] = .number(uniform(-3...12).rounded())
                case 1:
                    arguments[name] = .string(
                        pick(["left", "right", "title", "color", "sortOrder", "ascending", "descending"]))
                case 2: arguments[name] = .bool(true)
                default:
                    let ids = scene.deck.ids
                    arguments[name] = ids.isEmpty ? .string("1") : .string(pick(ids).description)
                }
            }
            inputs.append(.action(SceneAction(info.name, arguments), time: now))
        }
        return (inputs, now + uniform(0...0.6))
    }
}

/// Checks the invariants every frame must keep.
func checkFrame(_ frame: Frame, scene: String, sourceLocation: SourceLocation = #_sourceLocation) {
    var ids = Set<NodeID>()
    var currentMatched = [String: Int]()
    var allMatched = [String: Int]()
    for node in frame.nodes {
        let numbers = [
            node.rect.origin.x, node.rect.origin.y, node.rect.size.width, node.rect.size.height, node.z, node.opacity,
            node.rotation, node.scale, node.cornerRadius,
        ]
        let finite = numbers.allSatisfy(\.isFinite) && node.text.allSatisfy { $0.digitProgress.allSatisfy(\.isFinite) }
        #expect(finite, "\(scene): non-finite value in \(node.id)", sourceLocation: sourceLocation)
        #expect(ids.insert(node.id).inserted, "\(scene): duplicate node \(node.id)", sourceLocation: sourceLocation)
        if let matched = node.matchedGeometryID {
            allMatched[matched, default: 0] += 1
            if !node.isLeaving { currentMatched[matched, default: 0] += 1 }
        }
    }
    // A matched element is one node of the layout; in flight SwiftUI draws its old copy too (leaving), never more.
    for (matched, count) in currentMatched {
        #expect(count == 1, "\(scene): matched id \(matched) laid out \(count) times", sourceLocation: sourceLocation)
    }
    for (matched, count) in allMatched {
        #expect(count <= 2, "\(scene): matched id \(matched) drawn \(count) times", sourceLocation: sourceLocation)
    }
    // The view tree: depth-first paint order and parents present, in every frame.
    let treeFindings = FrameLint().findings(in: frame).filter { $0.kind == .paintOrder || $0.kind == .missingParent }
    #expect(treeFindings.isEmpty, "\(scene): \(treeFindings.prefix(3))", sourceLocation: sourceLocation)
}

/// Every scene of a catalogue: the standard five and the throwaway sixth (`SceneCatalog.testing`), so these checks
/// run over a scene added with nothing but its entry.
@Suite struct ScenePropertyTests {
    static let catalog = SceneCatalog.testing

    /// At least 10,000 seeded random input streams per scene: no NaN or infinity in any frame, node ids unique, each
    /// matched-geometry id laid out at most once (and drawn at most twice, in flight), everything settles, and the deck keeps its cards: it stays free of
    /// duplicates, gains no card, and loses only cards the scene reported removing (a `deckChanged` event whose diff
    /// has removals), so a scene that never reports a removal keeps a permutation of its cards, whatever its name.
    @Test(arguments: SceneCatalog.testing.names)
    func randomInputKeepsTheInvariants(scene name: String) throws {
        let streams = 10_000
        var generator = SplitMix64(seed: 0xCA4D ^ UInt64(name.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        for stream in 0..<streams {
            let viewport = Size(width: [390, 844, 640][stream % 3], height: [844, 390, 360][stream % 3])
            var engine = Engine(scene: try Self.catalog.make(name), viewport: viewport)
            let initialIDs = Set(engine.deck.ids)
            var input = RandomInput(generator: SplitMix64(seed: generator.next()), viewport: viewport)
            var time = 0.0
            // The cards the scene said it removed: every id that left the order in a reported deck change.
            var reportedRemoved: Set<CardID> = []
            var lastOrder = engine.deck.ids
            func noteRemovals(_ frame: Frame) {
                for case .deckChanged(let change) in frame.events {
                    if !change.diff.removals.isEmpty {
                        reportedRemoved.formUnion(Set(lastOrder).subtracting(change.ids))
                    }
                    lastOrder = change.ids
                }
            }
            for _ in 0..<(1 + Int(input.generator.next() % 4)) {
                let (inputs, end) = input.burst(at: time, scene: engine.scene)
                for item in inputs { feed(&engine, item) }
                let frame = engine.frame(at: end - input.uniform(0...0.3))
                checkFrame(frame, scene: name)
                noteRemovals(frame)
                time = end
            }
            let settled = engine.frame(at: time + 60)
            checkFrame(settled, scene: name)
            noteRemovals(settled)
            #expect(!settled.isAnimating, "\(name) stream \(stream) still animates a minute later")
            #expect(engine.nextWakeTime() == nil, "\(name) stream \(stream) has work pending a minute later")
            let ids = engine.deck.ids
            #expect(Set(ids).count == ids.count, "\(name) stream \(stream): the deck holds a card twice")
            #expect(Set(ids).isSubset(of: initialIDs), "\(name) stream \(stream): the deck gained a card")
            #expect(
                initialIDs.subtracting(ids).isSubset(of: reportedRemoved),
                "\(name) stream \(stream): cards left the deck without a reported removal")
        }
    }

    /// Seeded sessions at phone, landscape and desktop viewports: once everything has settled, the frame passes the
    /// whole lint (text fits its node, sibling texts do not overlap, children lie inside their parents and clips).
    @Test(arguments: SceneCatalog.testing.names)
    func settledFramesPassTheLint(scene name: String) throws {
        let viewports = [
            Size(width: 320, height: 480), Size(width: 390, height: 844), Size(width: 844, height: 390),
            Size(width: 1600, height: 1000),
        ]
        var generator = SplitMix64(seed: 0x11A7 ^ UInt64(name.utf8.count))
        var findings: [FrameLint.Finding] = []
        for stream in 0..<200 {
            let viewport = viewports[stream % viewports.count]
            var engine = Engine(scene: try Self.catalog.make(name), viewport: viewport)
            var input = RandomInput(generator: SplitMix64(seed: generator.next()), viewport: viewport)
            var time = 0.0
            findings += FrameLint().findings(in: engine.frame(at: 60))
            for _ in 0..<(1 + Int(input.generator.next() % 3)) {
                let (inputs, end) = input.burst(at: time, scene: engine.scene)
                for item in inputs { feed(&engine, item) }
                time = end
            }
            // Release any pointer still down, then let everything settle.
            engine.handle(.pointer(PointerEvent(.cancel, at: Point(x: 0, y: 0), time: time)))
            let settled = engine.frame(at: time + 60)
            if !settled.isAnimating { findings += FrameLint().findings(in: settled) }
        }
        var kinds: [FrameLint.Finding.Kind: Int] = [:]
        for finding in findings { kinds[finding.kind, default: 0] += 1 }
        #expect(findings.isEmpty, "\(name): \(kinds) e.g. \(Array(Set(findings.map(\.description)).prefix(6)))")
    }

    /// An action whose arguments are cards, given a card the deck does not have, refuses it as an unknown card
    /// (−32011 on the wire, docs/protocol.md) in every scene. The throwaway scene called it an invalid argument
    /// (−32602), which only the schema fuzz of a build with the scene in its catalogue saw (scripts/add-a-scene.sh).
    @Test(arguments: SceneCatalog.testing.names)
    func aCardTheDeckDoesNotHaveIsAnUnknownCard(scene name: String) throws {
        let engine = Engine(scene: try Self.catalog.make(name), viewport: Size(width: 390, height: 844))
        let missing = CardID(9_000_000_000)
        try #require(!engine.scene.deckIDs.contains(missing))
        for action in engine.scene.descriptor.actions
        where !action.arguments.isEmpty && action.arguments.allSatisfy({ $0.kind == .card }) {
            var copy = engine
            let arguments = Dictionary(
                uniqueKeysWithValues: action.arguments.map { ($0.name, ActionValue.string(missing.description)) })
            #expect(throws: SceneError.unknownCard(missing), "\(name): \(action.name)") {
                try copy.perform(SceneAction(action.name, arguments), at: 5)
            }
        }
    }

    /// One log replayed and sampled at 30 Hz and at 120 Hz gives identical nodes at the common times.
    @Test(arguments: SceneCatalog.testing.names)
    func samplingRateDoesNotChangeFrames(scene name: String) throws {
        var generator = SplitMix64(seed: 77)
        for _ in 0..<10 {
            let viewport = Size(width: 390, height: 844)
            var input = RandomInput(generator: SplitMix64(seed: generator.next()), viewport: viewport)
            var reference = Engine(scene: try Self.catalog.make(name), viewport: viewport)
            var inputs: [InputEvent] = []
            var time = 0.0
            for _ in 0..<6 {
                let (burst, end) = input.burst(at: time, scene: reference.scene)
                for item in burst {
                    if case .action(let action, let at) = item {
                        try? reference.perform(action, at: at)
                    } else {
                        reference.handle(item)
                    }
                }
                inputs += burst
                time = end
            }
            let step = 1.0 / 120
            let ticks = Int((time + 1) / step)
            var slow = Engine(scene: try Self.catalog.make(name), viewport: viewport)
            var fast = Engine(scene: try Self.catalog.make(name), viewport: viewport)
            var slowFrames: [Int: [FrameNode]] = [:]
            var fastFrames: [Int: [FrameNode]] = [:]
            for (engineIndex, every) in [(0, 4), (1, 1)] {
                var pending = inputs[...]
                for tick in stride(from: 0, through: ticks, by: every) {
                    let at = Double(tick) * step
                    while let next = pending.first, next.time <= at {
                        pending.removeFirst()
                        if engineIndex == 0 { feed(&slow, next) } else { feed(&fast, next) }
                    }
                    if engineIndex == 0 {
                        slowFrames[tick] = slow.frame(at: at).nodes
                    } else {
                        fastFrames[tick] = fast.frame(at: at).nodes
                    }
                }
            }
            for (tick, nodes) in slowFrames {
                #expect(nodes == fastFrames[tick], "\(name): frames differ at tick \(tick)")
            }
        }
    }
}
