import CardGeometry

/// The value a gesture reports with each transition; composition wraps its parts' values.
public enum GestureValue: Sendable, Hashable {
    /// A tap gesture's value.
    case tap(TapValue)
    /// A long-press gesture's value.
    case longPress(LongPressValue)
    /// A drag gesture's value.
    case drag(DragValue)
    /// A swipe gesture's value.
    case swipe(SwipeValue)
    /// A scroll gesture's value.
    case scroll(ScrollValue)
    /// A `sequenced(before:)` gesture's value.
    indirect case sequenced(SequencedValue)
    /// An `exclusively(before:)` gesture's value: whichever part won.
    indirect case exclusive(ExclusiveValue)
    /// A `simultaneously(with:)` gesture's value: each part's value while it is recognised.
    indirect case simultaneous(first: GestureValue?, second: GestureValue?)

    /// The drag value inside this value, looking through composition (the last stage first), if any.
    public var drag: DragValue? {
        switch self {
        case .drag(let value): value
        case .sequenced(.first(let value)): value.drag
        case .sequenced(.second(let first, let second)): second?.drag ?? first.drag
        case .exclusive(.first(let value)), .exclusive(.second(let value)): value.drag
        case .simultaneous(let first, let second): second?.drag ?? first?.drag
        case .tap, .longPress, .swipe, .scroll: nil
        }
    }
}

/// SwiftUI's `SequenceGesture.Value`: `.first` while the first gesture runs, `.second` once it has ended.
public enum SequencedValue: Sendable, Hashable {
    /// The first gesture is running (or has just ended); its value.
    case first(GestureValue)
    /// The first gesture's final value and the second's (nil until the second gesture is recognised).
    case second(GestureValue, GestureValue?)
}

/// SwiftUI's `ExclusiveGesture.Value`.
public enum ExclusiveValue: Sendable, Hashable {
    /// The first gesture won; its value.
    case first(GestureValue)
    /// The second gesture won after the first failed; its value.
    case second(GestureValue)
}

/// A recognised tap.
public struct TapValue: Sendable, Hashable {
    /// How many taps made the gesture (1 for a single tap, 2 for a double tap, …).
    public var count: Int
    /// Where the last tap lifted.
    public var location: Point

    /// A tap value of `count` taps, the last lifting at `location`.
    public init(count: Int, location: Point) {
        self.count = count
        self.location = location
    }
}

/// A recognised long press.
public struct LongPressValue: Sendable, Hashable {
    /// Where the pointer went down.
    public var startLocation: Point
    /// Where the pointer was when the press was recognised.
    public var location: Point
    /// How long the pointer had been held, in seconds.
    public var duration: Double

    /// A long-press value.
    public init(startLocation: Point, location: Point, duration: Double) {
        self.startLocation = startLocation
        self.location = location
        self.duration = duration
    }
}

/// SwiftUI's `DragGesture.Value`: where the drag started, where it is, and where it is heading.
public struct DragValue: Sendable, Hashable {
    /// The time of the event that produced the value, in seconds.
    public var time: Double
    /// The pointer's current location, in points.
    public var location: Point
    /// Where the pointer went down, in points.
    public var startLocation: Point
    /// `location − startLocation`.
    public var translation: Vector
    /// Points per second, from ``VelocityTracker``.
    public var velocity: Vector
    /// Where the content would come to rest if released now, by the scroll-view deceleration model.
    public var predictedEndTranslation: Vector
    /// `startLocation + predictedEndTranslation`.
    public var predictedEndLocation: Point

    /// A drag value; the host normally receives these from a DragRecognizer rather than building them.
    public init(
        time: Double, location: Point, startLocation: Point, translation: Vector, velocity: Vector,
        predictedEndTranslation: Vector, predictedEndLocation: Point
    ) {
        self.time = time
        self.location = location
        self.startLocation = startLocation
        self.translation = translation
        self.velocity = velocity
        self.predictedEndTranslation = predictedEndTranslation
        self.predictedEndLocation = predictedEndLocation
    }
}

/// A recognised swipe.
public struct SwipeValue: Sendable, Hashable {
    /// The dominant direction of the translation (horizontal wins ties).
    public var direction: SwipeDirection
    /// Where the pointer went down, in points.
    public var startLocation: Point
    /// Where the pointer lifted, in points.
    public var location: Point
    /// `location − startLocation`, in points.
    public var translation: Vector
    /// Points per second at release.
    public var velocity: Vector
    /// Seconds from down to up.
    public var duration: Double

    /// A swipe value.
    public init(
        direction: SwipeDirection, startLocation: Point, location: Point, translation: Vector, velocity: Vector,
        duration: Double
    ) {
        self.direction = direction
        self.startLocation = startLocation
        self.location = location
        self.translation = translation
        self.velocity = velocity
        self.duration = duration
    }
}

/// Where scrolling input came from.
public enum ScrollSource: Sendable, Hashable {
    /// A pointer dragged the content.
    case drag
    /// Wheel or trackpad scroll events moved the content.
    case wheel
}

/// A scroll or pull along one axis, expressed as content offset (positive scrolls content towards the top/left).
public struct ScrollValue: Sendable, Hashable {
    /// Whether the scroll comes from a drag or from the wheel.
    public var source: ScrollSource
    /// The change of content offset since the gesture started (a finger dragged down by 30 gives −30).
    public var translation: Double
    /// The unclamped content offset: the gesture's starting offset plus `translation`.
    public var offset: Double
    /// How far `offset` lies past the allowed range: negative past the top/leading edge (a pull), positive past the
    /// bottom/trailing edge, zero inside.
    public var overscroll: Double
    /// Change of content offset per second.
    public var velocity: Double

    /// A scroll value; offsets in points, `velocity` in points per second.
    public init(source: ScrollSource, translation: Double, offset: Double, overscroll: Double, velocity: Double) {
        self.source = source
        self.translation = translation
        self.offset = offset
        self.overscroll = overscroll
        self.velocity = velocity
    }
}
