import CardGeometry
import CardGestures
import Testing

/// The gestures the seeds use, and a few more compositions, for the fuzzers.
private let fuzzGestures: [Gesture] = [
    TapGesture().gesture,
    TapGesture(count: 2).gesture,
    LongPressGesture().gesture,
    DragGesture().gesture,
    DragGesture(minimumDistance: 0, axis: .vertical).gesture,
    SwipeGesture().gesture,
    ScrollGesture(offsetRange: 0...300).gesture,
    TapGesture().exclusively(before: LongPressGesture(minimumDuration: 0.05).sequenced(before: DragGesture())),
    LongPressGesture().sequenced(before: DragGesture()),
    TapGesture().sequenced(before: TapGesture()),
    ScrollGesture().sequenced(before: DragGesture()),
    DragGesture(minimumDistance: 20).simultaneously(with: TapGesture(count: 2)),
    TapGesture(count: 2).exclusively(before: TapGesture()).simultaneously(with: SwipeGesture()),
]

/// Checks that each (target, gesture) reports a legal phase sequence: began → changed* → ended | cancelled, or a
/// single ended or failed.
private struct PhaseGrammar {
    var open: Set<String> = []
    var violations: [String] = []

    mutating func check(_ event: GestureEvent<Int>) {
        let key = "\(event.target).\(event.gesture)"
        let isOpen = open.contains(key)
        switch event.phase {
        case .began:
            if isOpen { violations.append("\(key) began twice") }
            open.insert(key)
        case .changed:
            if !isOpen { violations.append("\(key) changed before began") }
        case .ended:
            open.remove(key)
        case .cancelled:
            if !isOpen { violations.append("\(key) cancelled before began") }
            open.remove(key)
        case .failed:
            if isOpen { violations.append("\(key) failed after began") }
        }
    }
}

private func randomPoint(_ random: inout SplitMix64) -> Point {
    Point(x: Double.random(in: -20...420, using: &random), y: Double.random(in: -20...420, using: &random))
}

@Suite struct FuzzTests {
    /// A table holding a fan of overlapping rounded cards, with the fuzz gestures spread over them.
    private func fuzzArena() throws -> GestureArena<Int> {
        var arena = GestureArena<Int>()
        arena.setTarget(GestureTarget(id: 0, frame: Rect(x: 0, y: 0, width: 400, height: 400)))
        try arena.attach(ScrollGesture(offsetRange: 0...500), named: "scroll", to: 0)
        try arena.attach(TapGesture(), named: "tap", to: 0, priority: .high)
        for id in 1...12 {
            let frame = Rect(x: Double(id % 4) * 60, y: Double(id) * 25, width: 180, height: 110)
            arena.setTarget(GestureTarget(id: id, frame: frame, z: Double(id % 5), cornerRadius: 16, parent: 0))
            try arena.attach(fuzzGestures[id % fuzzGestures.count], named: "main", to: id)
            let priority: GesturePriority = id % 3 == 0 ? .simultaneous : (id % 3 == 1 ? .normal : .high)
            try arena.attach(fuzzGestures[(id * 7) % fuzzGestures.count], named: "extra", to: id, priority: priority)
        }
        return arena
    }

    @Test func tenThousandRandomStreamsThroughAnArenaAlwaysSettle() throws {
        let template = try fuzzArena()
        var random = SplitMix64(seed: 0xCA4D_5EED)
        var eventCount = 0
        for stream in 0..<10_000 {
            var arena = template
            var grammar = PhaseGrammar()
            var time = Double(stream)
            var lastEventTime = -Double.infinity
            var outputs: [GestureEvent<Int>] = []
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                let roll = Int.random(in: 0..<100, using: &random)
                let pointer = roll % 7 == 0 ? Int.random(in: 1...2, using: &random) : 0
                time += Double.random(in: 0...0.12, using: &random)
                var eventTime = time
                if roll % 23 == 0 { eventTime -= 0.5 }  // out of order
                var location = randomPoint(&random)
                if roll % 97 == 0 { location.x = .nan }
                let kind: PointerEvent.Kind
                switch roll {
                case 0..<15: kind = .down
                case 15..<65: kind = .move
                case 65..<80: kind = .up
                case 80..<84: kind = .cancel
                case 84..<92:
                    kind = .wheel(
                        dx: Double.random(in: -40...40, using: &random), dy: .random(in: -40...40, using: &random))
                default:
                    outputs += arena.advance(to: time)
                    continue
                }
                outputs += arena.handle(PointerEvent(kind, at: location, time: eventTime, pointerID: pointer))
            }
            // Lift every pointer: right after, everything is settled or waiting on a timer.
            for pointer in 0...2 { outputs += arena.handle(up(0, 0, at: time, id: pointer)) }
            #expect(arena.isIdle || arena.nextDeadline != nil, "stream \(stream): stuck after the last up")
            var guardCount = 0
            while let deadline = arena.nextDeadline, guardCount < 100 {
                outputs += arena.advance(to: deadline)
                guardCount += 1
            }
            #expect(arena.isIdle, "stream \(stream): not idle after the timers: \(arena.recognizerStates)")
            for event in outputs {
                grammar.check(event)
                #expect(event.time >= lastEventTime, "stream \(stream): time ran back")
                lastEventTime = event.time
            }
            #expect(grammar.violations.isEmpty, "stream \(stream): \(grammar.violations)")
            #expect(grammar.open.isEmpty, "stream \(stream): left open \(grammar.open)")
            eventCount += outputs.count
        }
        #expect(eventCount > 10_000)  // the streams really exercised the recognisers
    }

    @Test func tenThousandRandomStreamsLeaveEveryRecognizerTerminal() {
        var random = SplitMix64(seed: 42)
        var endedCount = 0
        for stream in 0..<10_000 {
            let gesture = fuzzGestures[stream % fuzzGestures.count]
            var recognizer = gesture.makeRecognizer()
            var time = 0.0
            var isDown = true
            var location = randomPoint(&random)
            _ = recognizer.handle(PointerEvent(.down, at: location, time: time))
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                time += Double.random(in: 0...0.1, using: &random)
                _ = recognizer.advance(to: time)
                location =
                    location
                    + Vector(dx: .random(in: -15...15, using: &random), dy: .random(in: -15...15, using: &random))
                let roll = Int.random(in: 0..<100, using: &random)
                let kind: PointerEvent.Kind
                switch roll {
                case 0..<5: kind = .down
                case 5..<80: kind = .move
                case 80..<88: kind = .up
                case 88..<91: kind = .cancel
                default: kind = .wheel(dx: 0, dy: .random(in: -30...30, using: &random))
                }
                if kind == .down { isDown = true }
                if kind == .up || kind == .cancel { isDown = false }
                _ = recognizer.handle(PointerEvent(kind, at: location, time: time))
            }
            if isDown { _ = recognizer.handle(PointerEvent(.up, at: location, time: time)) }
            var guardCount = 0
            while let deadline = recognizer.nextDeadline, guardCount < 100 {
                _ = recognizer.advance(to: deadline)
                guardCount += 1
            }
            #expect(recognizer.state.isTerminal, "stream \(stream) (\(gesture)) ended \(recognizer.state)")
            if recognizer.state == .ended { endedCount += 1 }
        }
        #expect(endedCount > 500)  // plenty of streams were recognised, not only failed
    }
}
