import CardGeometry
import CardGestures

/// An input to the engine, with its time: what the input log records and replays.
public enum InputEvent: Sendable, Hashable {
    /// A pointer or wheel event (its time is inside).
    case pointer(PointerEvent)
    /// A key press.
    case key(KeyInput, time: Double)
    /// A semantic action (recorded so a replay reproduces actions hosts sent).
    case action(SceneAction, time: Double)
    /// The viewport changed size.
    case resize(Size, time: Double)

    /// When the input happened, in seconds.
    public var time: Double {
        switch self {
        case .pointer(let event): event.time
        case .key(_, let time), .action(_, let time), .resize(_, let time): time
        }
    }

    /// The same input at another time (the engine clamps inputs that arrive out of order).
    func at(_ time: Double) -> InputEvent {
        switch self {
        case .pointer(var event):
            event.time = time
            return .pointer(event)
        case .key(let key, _): return .key(key, time: time)
        case .action(let action, _): return .action(action, time: time)
        case .resize(let size, _): return .resize(size, time: time)
        }
    }
}
