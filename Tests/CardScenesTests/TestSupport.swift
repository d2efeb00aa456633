import CardEngine
import CardGeometry
import CardGestures
import CardScenes

/// Feeds a pointer event to the engine.
func pointer(_ engine: inout Engine, _ kind: PointerEvent.Kind, _ x: Double, _ y: Double, at time: Double) {
    engine.handle(.pointer(PointerEvent(kind, at: Point(x: x, y: y), time: time)))
}

/// A drag from `start` by `translation`, in `steps` moves spread over `duration`, starting at `time`; returns the
/// time of the last move (the caller lifts the pointer).
@discardableResult
func drag(
    _ engine: inout Engine, from start: Point, by translation: Vector, steps: Int = 10, at time: Double,
    duration: Double = 0.2, lift: Bool = true
) -> Double {
    pointer(&engine, .down, start.x, start.y, at: time)
    var last = time
    for step in 1...steps {
        let fraction = Double(step) / Double(steps)
        last = time + duration * fraction
        pointer(&engine, .move, start.x + translation.dx * fraction, start.y + translation.dy * fraction, at: last)
    }
    if lift { pointer(&engine, .up, start.x + translation.dx, start.y + translation.dy, at: last) }
    return last
}

/// Feeds one random input to the engine: an action through `perform` (a refusal is part of random input, so it is
/// ignored), anything else through `handle`.
func feed(_ engine: inout Engine, _ input: InputEvent) {
    if case .action(let action, let at) = input {
        try? engine.perform(action, at: at)
    } else {
        engine.handle(input)
    }
}
