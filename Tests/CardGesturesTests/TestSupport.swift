import CardGeometry
import CardGestures
import CardModels

/// Builds pointer events tersely: `down(10, 20, at: 0.1)`.
func down(_ x: Double, _ y: Double, at time: Double, id: Int = 0) -> PointerEvent {
    PointerEvent(.down, at: Point(x: x, y: y), time: time, pointerID: id)
}

func move(_ x: Double, _ y: Double, at time: Double, id: Int = 0) -> PointerEvent {
    PointerEvent(.move, at: Point(x: x, y: y), time: time, pointerID: id)
}

func up(_ x: Double, _ y: Double, at time: Double, id: Int = 0) -> PointerEvent {
    PointerEvent(.up, at: Point(x: x, y: y), time: time, pointerID: id, buttons: [])
}

func cancel(_ x: Double, _ y: Double, at time: Double, id: Int = 0) -> PointerEvent {
    PointerEvent(.cancel, at: Point(x: x, y: y), time: time, pointerID: id, buttons: [])
}

func wheel(_ dx: Double, _ dy: Double, at time: Double, x: Double = 0, y: Double = 0) -> PointerEvent {
    PointerEvent(.wheel(dx: dx, dy: dy), at: Point(x: x, y: y), time: time, buttons: [])
}

/// Drives one recogniser as the arena does: fire due timers, then deliver the event. Returns every transition.
struct Driver {
    var recognizer: any GestureRecognizer
    var transitions: [GestureTransition] = []

    init(_ gesture: some GestureConvertible) {
        recognizer = gesture.gesture.makeRecognizer()
    }

    mutating func send(_ events: PointerEvent...) {
        for event in events {
            if let transition = recognizer.advance(to: event.time) { transitions.append(transition) }
            if let transition = recognizer.handle(event) { transitions.append(transition) }
        }
    }

    mutating func advance(to time: Double) {
        if let transition = recognizer.advance(to: time) { transitions.append(transition) }
    }

    var phases: [GesturePhase] { transitions.map(\.phase) }
    var state: RecognizerState { recognizer.state }
    var last: GestureValue? { transitions.last?.value }
}

extension GestureArena {
    /// Feeds events through the arena and collects all outputs.
    mutating func send(_ events: PointerEvent...) -> [GestureEvent<TargetID>] {
        events.flatMap { handle($0) }
    }
}

func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

/// The project's seeded generator (CardModels' `SplitMix64`); the packages under test do not import CardModels,
/// their tests may.
typealias SplitMix64 = CardModels.SplitMix64
