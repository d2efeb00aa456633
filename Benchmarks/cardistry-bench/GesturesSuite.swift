import CardGeometry
import CardGestures
import CardModels

/// Pointer events per second through a gesture arena of 1,000 targets.
///
/// The arena: a table target (scroll gesture) holding 999 overlapping rounded cards in a fanned grid, each with the
/// wallet's gesture (tap exclusively before long press sequenced before drag) and every third card also a
/// simultaneous drag-to-dismiss. The workload: seeded touches, each a down on a random point, 20 moves of up to
/// 6 pt every 8 ms, an up, then one second of clock ticks; so a down (a hit test over 1,000 targets) every 22
/// events, and long presses, taps and drags all occur.
///
/// Floor: the least any arena must do for the same stream — on each down a linear hit test of the 1,000 rounded
/// rectangles, on each move and up the translation from the down point. `ratioToFloor` is the median over rounds of
/// the arena's time over the floor's, each round timing both.
struct GesturesSuite: BenchSuite {
    let name = "gestures"

    func run(_ context: BenchContext) {
        guard context.selects("gestures/arena") else { return }
        let targets = 1000
        let touches = context.quick ? 400 : 4000
        context.progress("gestures: arena of \(targets) targets, \(touches) touches")
        let arena = Self.makeArena(targets: targets)
        let stream = Self.makeStream(touches: touches)
        let frames = (0..<targets).compactMap { arena.target($0) }.map { ($0.frame, $0.cornerRadius, $0.z) }

        var outputs = 0
        let samples = measureCell(
            "\(name)/arena/\(targets)/wallet/arena", rounds: gateRounds(context),
            {
                var copy = arena
                var count = 0
                for input in stream {
                    switch input {
                    case .event(let event): count += copy.handle(event).count
                    case .tick(let time): count += copy.advance(to: time).count
                    }
                }
                outputs = count
                return count
            }, floor: { Self.floor(stream, frames: frames) })
        let timing = samples.cell
        let floor = samples.floor
        let events = Double(stream.count)
        let eventsPerSecond = events / (timing.medianMs / 1000)
        context.emit(
            BenchRow(
                suite: name, workload: "arena", n: targets, key: "wallet", impl: "arena", samples: samples,
                metrics: [
                    ("events_per_s", eventsPerSecond), ("ns_per_event", timing.medianMs * 1e6 / events),
                    ("inputs", events), ("gesture_events", Double(outputs)),
                ]))
        context.emit(
            BenchRow(
                suite: name, workload: "arena", n: targets, key: "wallet", impl: "floor", timing: floor,
                metrics: [("events_per_s", events / (floor.medianMs / 1000))],
                note: "linear hit test on down, translation on move"))
    }

    private enum Input {
        case event(PointerEvent)
        case tick(Double)
    }

    private static func makeArena(targets: Int) -> GestureArena<Int> {
        var arena = GestureArena<Int>()
        arena.setTarget(GestureTarget(id: 0, frame: Rect(x: 0, y: 0, width: 2000, height: 2000)))
        let wallet = TapGesture().exclusively(
            before: LongPressGesture(minimumDuration: 0.05).sequenced(before: DragGesture()))
        do {
            try arena.attach(ScrollGesture(offsetRange: 0...5000), named: "scroll", to: 0)
            for id in 1..<targets {
                let column = Double(id % 37)
                let row = Double(id / 37)
                let frame = Rect(x: column * 50, y: row * 70, width: 120, height: 160)
                arena.setTarget(GestureTarget(id: id, frame: frame, z: Double(id), cornerRadius: 12, parent: 0))
                try arena.attach(wallet, named: "wallet", to: id)
                if id % 3 == 0 {
                    try arena.attach(
                        DragGesture(minimumDistance: 20), named: "dismiss", to: id, priority: .simultaneous)
                }
            }
        } catch {
            fatalError("benchmark arena: \(error)")  // the ids above are all registered
        }
        return arena
    }

    private static func makeStream(touches: Int) -> [Input] {
        var random = SplitMix64(seed: 0x6E57)
        var stream: [Input] = []
        stream.reserveCapacity(touches * 23)
        var time = 0.0
        for _ in 0..<touches {
            var location = Point(
                x: Double.random(in: 0..<1900, using: &random), y: .random(in: 0..<1900, using: &random))
            stream.append(.event(PointerEvent(.down, at: location, time: time)))
            for _ in 0..<20 {
                time += 0.008
                location =
                    location + Vector(dx: .random(in: -6...6, using: &random), dy: .random(in: -6...6, using: &random))
                stream.append(.event(PointerEvent(.move, at: location, time: time)))
            }
            time += 0.008
            stream.append(.event(PointerEvent(.up, at: location, time: time, buttons: [])))
            time += 1
            stream.append(.tick(time))
        }
        return stream
    }

    /// The floor: a linear hit test on each down and the translation from the down point on other events.
    private static func floor(_ stream: [Input], frames: [(Rect, Double, Double)]) -> Double {
        var start = Point.zero
        var sum = 0.0
        for input in stream {
            guard case .event(let event) = input else { continue }
            if event.kind == .down {
                start = event.location
                var best = -1
                var bestZ = -Double.infinity
                for (index, frame) in frames.enumerated()
                where frame.2 >= bestZ && frame.0.contains(event.location, cornerRadius: frame.1) {
                    best = index
                    bestZ = frame.2
                }
                sum += Double(best)
            } else {
                sum += (event.location - start).length
            }
        }
        return sum
    }
}
