/// A gesture description: a primitive or a SwiftUI-style composition of gestures. A plain value (Sendable,
/// Hashable) that the host attaches to arena targets; ``makeRecognizer()`` builds a fresh state machine per touch.
///
/// ```swift
/// // The wallet: a tap, or else a long press followed by a drag.
/// let wallet = TapGesture().exclusively(before: LongPressGesture(minimumDuration: 0.05).sequenced(before: DragGesture()))
/// ```
public indirect enum Gesture: Sendable, Hashable {
    /// A tap or multiple tap.
    case tap(TapGesture)
    /// A long press.
    case longPress(LongPressGesture)
    /// A drag.
    case drag(DragGesture)
    /// A swipe, judged when the pointer lifts.
    case swipe(SwipeGesture)
    /// A scroll or pull along one axis, from drags or the wheel.
    case scroll(ScrollGesture)
    /// The second gesture starts once the first has ended (SwiftUI's `SequenceGesture`).
    case sequenced(Gesture, Gesture)
    /// The first wins if it is recognised; the second only once the first has failed (`ExclusiveGesture`).
    case exclusive(Gesture, Gesture)
    /// Both are recognised independently (`SimultaneousGesture`).
    case simultaneous(Gesture, Gesture)

    /// A new recogniser in the `possible` state for this gesture.
    public func makeRecognizer() -> any GestureRecognizer {
        switch self {
        case .tap(let configuration): TapRecognizer(configuration)
        case .longPress(let configuration): LongPressRecognizer(configuration)
        case .drag(let configuration): DragRecognizer(configuration)
        case .swipe(let configuration): SwipeRecognizer(configuration)
        case .scroll(let configuration): ScrollRecognizer(configuration)
        case .sequenced(let first, let second): SequenceRecognizer(first: first, second: second)
        case .exclusive(let first, let second): ExclusiveRecognizer(first: first, second: second)
        case .simultaneous(let first, let second): SimultaneousRecognizer(first: first, second: second)
        }
    }

    /// Whether wheel events can drive this gesture (it contains a scroll gesture that could receive them first).
    public var handlesWheel: Bool {
        switch self {
        case .scroll: true
        case .tap, .longPress, .drag, .swipe: false
        case .sequenced(let first, _): first.handlesWheel
        case .exclusive(let first, let second), .simultaneous(let first, let second):
            first.handlesWheel || second.handlesWheel
        }
    }
}

/// Anything that describes a gesture; gives every gesture type SwiftUI's composition methods.
public protocol GestureConvertible: Sendable {
    /// The gesture this value describes.
    var gesture: Gesture { get }
}

extension Gesture: GestureConvertible {
    public var gesture: Gesture { self }
}

extension TapGesture: GestureConvertible {
    public var gesture: Gesture { .tap(self) }
}

extension LongPressGesture: GestureConvertible {
    public var gesture: Gesture { .longPress(self) }
}

extension DragGesture: GestureConvertible {
    public var gesture: Gesture { .drag(self) }
}

extension SwipeGesture: GestureConvertible {
    public var gesture: Gesture { .swipe(self) }
}

extension ScrollGesture: GestureConvertible {
    public var gesture: Gesture { .scroll(self) }
}

extension GestureConvertible {
    /// This gesture, then `other` starting mid-touch once this one has ended; values `.first` / `.second`.
    public func sequenced(before other: some GestureConvertible) -> Gesture {
        .sequenced(gesture, other.gesture)
    }

    /// This gesture if it is recognised; `other` only once this one has failed.
    public func exclusively(before other: some GestureConvertible) -> Gesture {
        .exclusive(gesture, other.gesture)
    }

    /// This gesture and `other`, each recognised on its own.
    public func simultaneously(with other: some GestureConvertible) -> Gesture {
        .simultaneous(gesture, other.gesture)
    }
}
