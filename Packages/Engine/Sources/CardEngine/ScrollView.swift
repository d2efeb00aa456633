import CardGeometry
import CardGestures
import CardPhysics

/// A scroll view's scrolling as a value a scene keeps: SwiftUI's `ScrollView` along one axis, with UIScrollView's
/// physics. The scene lays its content out at `-offset` along the axis, attaches `gesture` to the node that
/// scrolls (which should clip its content), and feeds the gesture's events, wheel events and keys to the
/// mutating functions below; each returns the animation the scene puts in its `SceneContext` for that change
/// (nil: the content follows at once).
///
/// - Dragging: the content follows the finger; past either end it is rubber-banded (UIScrollView's
///   `(1 − 1/(x·0.55/d + 1))·d` over the view's length d, CardPhysics' `RubberBand`).
/// - Release: past an end it springs back to the edge (`.spring`, a documented choice: iOS's bounce-back is a
///   critically damped spring of about that length); otherwise it coasts with UIScrollView's `.normal`
///   deceleration (0.998 per millisecond) to where that rate projects it (`Deceleration.destination`), and when
///   the projection lies beyond an end it decelerates faster so as to come to rest exactly at the edge
///   (`Deceleration.stopping`), where iOS would overshoot and bounce back by a few points.
/// - Wheel and trackpad: each event moves the content by its delta along the axis, clamped to the ends (the
///   gesture's wheel source; a horizontal scroll view also takes a mouse's vertical wheel, as AppKit does for a
///   view that cannot scroll vertically); with `wheelBounces`, rubber-banded past an end instead, springing back
///   when the wheel stops (a trackpad's elastic scrolling).
/// - Keys: `page(by:)` and `scroll(to:)` animate with `.smooth`, clamped to the ends.
///
/// All operations are O(1).
public struct ScrollView: Sendable, Hashable {
    /// The axis the content scrolls along.
    public let axis: GestureAxis
    /// The content offset the layout shows: 0 shows the content's start; past `range` while rubber-banded.
    public private(set) var offset: Double = 0
    /// The content's length along the axis, in points.
    public private(set) var contentLength: Double
    /// The visible length along the axis, in points.
    public private(set) var viewportLength: Double
    /// The offset the current drag or wheel scroll started from, and the gesture's translation at its latest
    /// event (nil when none is in progress).
    private var gestureStart: Double?
    private var lastTranslation = 0.0
    /// The coast in progress, if any: its start time, start offset and rate (so that a touch can stop it where it
    /// shows, as UIScrollView stops on touch-down).
    private var coast: Coast?

    private struct Coast: Sendable, Hashable {
        var time: Double
        var from: Double
        var rate: Deceleration
    }

    /// Whether wheel and trackpad scrolling may go past an end too (rubber-banded, springing back when the wheel
    /// stops), as a trackpad's elastic scrolling does; by default the wheel stops at the ends.
    public let wheelBounces: Bool

    /// A scroll view along `axis` at its start, showing `viewportLength` points of `contentLength`.
    public init(axis: GestureAxis, contentLength: Double = 0, viewportLength: Double = 0, wheelBounces: Bool = false) {
        self.axis = axis
        self.contentLength = Self.sanitized(contentLength)
        self.viewportLength = Self.sanitized(viewportLength)
        self.wheelBounces = wheelBounces
    }

    /// Whether a coast is still moving the content at `time` (more than half a point from its rest).
    public func isCoasting(at time: Double) -> Bool {
        coast != nil && abs(displayedOffset(at: time) - offset) > 0.5
    }

    /// Stops a coast where it shows the content at `time` (a touch, a key: anything that takes the content over).
    public mutating func stop(at time: Double) {
        guard coast != nil else { return }
        offset = displayedOffset(at: time)
        coast = nil
    }

    /// Puts the content at `offset` at once (a scene that moved it by other means: a key, an action), ending any
    /// coast; a value that is not finite is ignored.
    public mutating func jump(to offset: Double) {
        guard offset.isFinite else { return }
        self.offset = offset
        coast = nil
    }

    /// The offsets the content may rest at: 0 through the content's overflow (0…0 when it fits).
    public var range: ClosedRange<Double> { 0...max(0, contentLength - viewportLength) }

    /// Whether the content is longer than the view (so that scrolling does anything).
    public var canScroll: Bool { contentLength > viewportLength }

    /// The gesture the scrolling node carries: a drag or wheel along `axis` from the current offset.
    public var gesture: ScrollGesture {
        ScrollGesture(axis: axis, contentOffset: offset, offsetRange: range)
    }

    /// Sets the lengths after a layout change; when they change, an offset left outside the new range is clamped
    /// (the same lengths leave a rubber-banded offset alone). Returns whether the offset changed.
    @discardableResult
    public mutating func resize(contentLength: Double, viewportLength: Double) -> Bool {
        let content = Self.sanitized(contentLength)
        let viewport = Self.sanitized(viewportLength)
        guard content != self.contentLength || viewport != self.viewportLength else { return false }
        self.contentLength = content
        self.viewportLength = viewport
        let clamped = clamp(offset)
        defer { offset = clamped }
        return clamped != offset
    }

    /// The offset shown at `time`: the coast's position while one is in progress, else `offset`.
    public func displayedOffset(at time: Double) -> Double {
        guard let coast, time.isFinite, time > coast.time else { return coast?.from ?? offset }
        return coast.rate.position(
            from: coast.from, initialVelocity: (offset - coast.from) * coast.rate.decayConstant,
            at: time - coast.time)
    }

    /// Applies one event of the scroll `gesture` at `time` (began, changed, ended, cancelled or failed) and returns
    /// the animation for the change: nil while the content follows a finger or the wheel; the coast or the
    /// bounce-back on release. A drag that starts during a coast starts from where the coast shows the content
    /// (a touch stops a coasting scroll view). A value that is not a scroll value changes nothing.
    public mutating func handle(_ phase: GesturePhase, _ value: GestureValue?, at time: Double) -> Animation? {
        switch phase {
        case .began, .changed:
            guard case .scroll(let scroll)? = value, scroll.translation.isFinite else { return nil }
            if gestureStart == nil || phase == .began {
                gestureStart = displayedOffset(at: time)
                lastTranslation = 0
                coast = nil
            }
            switch scroll.source {
            case .drag:
                offset = banded((gestureStart ?? offset) + scroll.translation)
            case .wheel where wheelBounces:
                offset = banded((gestureStart ?? offset) + scroll.translation)
            case .wheel:
                // Each wheel event moves the content by its own delta from where it is (wheeling past an end and
                // back moves back at once, without first unwinding the excess).
                offset = clamp(offset + scroll.translation - lastTranslation)
            }
            lastTranslation = scroll.translation
            return nil
        case .ended:
            gestureStart = nil
            guard case .scroll(let scroll)? = value, scroll.source == .drag else { return settle() }
            return release(velocity: scroll.velocity, at: time)
        case .cancelled, .failed:
            gestureStart = nil
            return settle()
        }
    }

    /// The release of a drag at `velocity` (offset change per second) at `time`: back to the edge from past it,
    /// else a coast to the projected rest (or to the edge, when the projection lies beyond it).
    public mutating func release(velocity: Double, at time: Double) -> Animation? {
        coast = nil
        if let back = settle() { return back }
        guard velocity.isFinite, velocity != 0 else { return nil }
        let start = offset
        let projected = Deceleration.normal.destination(from: offset, initialVelocity: velocity)
        let bounds = range
        var rate = Deceleration.normal
        if bounds.contains(projected) {
            offset = projected
        } else {
            let edge = projected < bounds.lowerBound ? bounds.lowerBound : bounds.upperBound
            guard let stopping = Deceleration.stopping(from: offset, at: edge, initialVelocity: velocity) else {
                return nil
            }
            offset = edge
            rate = stopping
        }
        guard offset != start else { return nil }
        if time.isFinite { coast = Coast(time: time, from: start, rate: rate) }
        return .decelerate(rate)
    }

    /// Moves the content by `delta` points (a page or a line from the keyboard), clamped to the ends, with
    /// `.smooth`. Nil (nothing to animate) when the offset did not change.
    public mutating func scroll(by delta: Double) -> Animation? {
        scroll(to: offset + (delta.isFinite ? delta : 0))
    }

    /// Moves the content to `target` (clamped to the ends) with `.smooth`; nil when the offset did not change.
    public mutating func scroll(to target: Double) -> Animation? {
        coast = nil
        let clamped = clamp(target.isFinite ? target : offset)
        guard clamped != offset else { return nil }
        offset = clamped
        return .smooth
    }

    /// Springs back to the nearer edge when the content rests past one; nil when it is inside its range.
    mutating func settle() -> Animation? {
        coast = nil
        let clamped = clamp(offset)
        guard clamped != offset else { return nil }
        offset = clamped
        return .spring
    }

    /// `value` clamped to `range`.
    func clamp(_ value: Double) -> Double {
        min(max(value, range.lowerBound), range.upperBound)
    }

    /// `value` with the part outside `range` rubber-banded over the view's length.
    func banded(_ value: Double) -> Double {
        guard let band = try? RubberBand(dimension: max(viewportLength, 1)) else { return clamp(value) }
        return band.clamp(value, to: range)
    }

    private static func sanitized(_ length: Double) -> Double { length.isFinite ? max(0, length) : 0 }

    /// Checks, in debug builds, that the lengths are finite and not negative and that the offset is finite and
    /// within a view's length of the range (the rubber band never reaches that far).
    package func _checkInvariants() {
        #if DEBUG
            precondition(contentLength.isFinite && contentLength >= 0, "content length \(contentLength)")
            precondition(viewportLength.isFinite && viewportLength >= 0, "viewport length \(viewportLength)")
            precondition(offset.isFinite, "offset \(offset)")
            precondition(
                offset >= range.lowerBound - max(viewportLength, 1)
                    && offset <= range.upperBound + max(viewportLength, 1),
                "offset \(offset) beyond the rubber band's reach of \(range)")
        #endif
    }
}
