import CardGeometry

/// One raw input event from a pointing device: a touch, a mouse or a trackpad.
///
/// Positions are in points in the engine's coordinate space; `time` is in seconds on the same monotonic time line
/// as the times the host passes to ``GestureArena/advance(to:)``. Events carrying a non-finite position, time or wheel delta are
/// rejected by ``GestureArena/handle(_:)`` (they cannot come from real hardware).
public struct PointerEvent: Sendable, Hashable {
    /// What happened to the pointer.
    public enum Kind: Sendable, Hashable {
        /// The pointer touched down (a finger landed, a mouse button was pressed).
        case down
        /// The pointer moved while down (moves of a pointer that is not down are ignored by every recogniser).
        case move
        /// The pointer lifted.
        case up
        /// The system took the pointer away (an incoming call, a lost window); every gesture using it is cancelled.
        case cancel
        /// A scroll-wheel or two-finger trackpad scroll by (`dx`, `dy`) points of content offset.
        case wheel(dx: Double, dy: Double)
    }

    /// What happened: down, move, up, cancel or a wheel scroll.
    public var kind: Kind
    /// Identifies one finger or device across its down, moves and up.
    public var pointerID: Int
    /// Where it happened, in points.
    public var location: Point
    /// Seconds on the clock's monotonic time line.
    public var time: Double
    /// The buttons held (`.primary` for a touch).
    public var buttons: PointerButtons
    /// The keyboard modifiers held.
    public var modifiers: PointerModifiers

    /// An event of `kind` at `location` (points) and `time` (seconds); by default pointer 0, the primary button,
    /// no modifiers.
    public init(
        _ kind: Kind, at location: Point, time: Double, pointerID: Int = 0, buttons: PointerButtons = .primary,
        modifiers: PointerModifiers = []
    ) {
        self.kind = kind
        self.pointerID = pointerID
        self.location = location
        self.time = time
        self.buttons = buttons
        self.modifiers = modifiers
    }

    /// Whether every number in the event is finite, i.e. whether it can be processed at all.
    public var isFinite: Bool {
        guard location.x.isFinite, location.y.isFinite, time.isFinite else { return false }
        if case .wheel(let dx, let dy) = kind { return dx.isFinite && dy.isFinite }
        return true
    }

    /// A copy at another time (used to clamp events that arrive out of order).
    func at(time newTime: Double) -> PointerEvent {
        var copy = self
        copy.time = newTime
        return copy
    }

    /// A copy of another kind at the same place and time (used to start the second gesture of a sequence).
    func with(kind newKind: Kind, time newTime: Double) -> PointerEvent {
        var copy = self
        copy.kind = newKind
        copy.time = newTime
        return copy
    }
}

/// The buttons held during a pointer event.
public struct PointerButtons: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A finger, a pen tip or the left mouse button.
    public static let primary = PointerButtons(rawValue: 1 << 0)
    /// The secondary (usually right) mouse button.
    public static let secondary = PointerButtons(rawValue: 1 << 1)
    /// The middle mouse button.
    public static let middle = PointerButtons(rawValue: 1 << 2)
}

/// The keyboard modifiers held during a pointer event.
public struct PointerModifiers: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Shift.
    public static let shift = PointerModifiers(rawValue: 1 << 0)
    /// Control.
    public static let control = PointerModifiers(rawValue: 1 << 1)
    /// Option (Alt).
    public static let option = PointerModifiers(rawValue: 1 << 2)
    /// Command (Super, Meta).
    public static let command = PointerModifiers(rawValue: 1 << 3)
}
