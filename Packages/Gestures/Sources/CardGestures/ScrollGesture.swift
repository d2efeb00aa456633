import CardGeometry

/// Scrolling or pulling content along one axis, from drags or from wheel events, reporting overscroll past an
/// edge (pull-to-refresh, the deck's pull-to-fan). Continuous.
///
/// The host describes the content: its `contentOffset` when the gesture starts and the `offsetRange` it may
/// scroll within (re-attach the gesture with the new offset after scrolling). A finger moving down by 30 pt
/// changes the offset by −30; a wheel event changes it by its `dy` (vertical) or `dx` (horizontal; its `dy` when
/// `dx` is 0, so a mouse's vertical wheel scrolls a horizontal view).
/// - From a drag: began once the pointer has moved `minimumDistance` (10 pt) along the axis, ended on up, fails
///   on an up before that.
/// - From the wheel: began on the first wheel event, changed on each further one, ended once no wheel event has
///   come for `wheelEndDelay` (0.15 s, a documented choice).
public struct ScrollGesture: Sendable, Hashable {
    /// The axis the content scrolls along (default vertical).
    public var axis: GestureAxis
    /// The content offset, in points, when the gesture starts.
    public var contentOffset: Double
    /// The offsets, in points, the content may rest at; beyond them the value reports overscroll.
    public var offsetRange: ClosedRange<Double>
    /// How far, in points, a drag must move along the axis before scrolling begins (default 10).
    public var minimumDistance: Double
    /// How long, in seconds, without a wheel event ends a wheel scroll (default 0.15).
    public var wheelEndDelay: Double

    /// A scroll gesture; see the type's discussion for each parameter's meaning and default.
    public init(
        axis: GestureAxis = .vertical, contentOffset: Double = 0, offsetRange: ClosedRange<Double> = 0...0,
        minimumDistance: Double = 10, wheelEndDelay: Double = 0.15
    ) {
        self.axis = axis
        self.contentOffset = contentOffset
        self.offsetRange = offsetRange
        self.minimumDistance = minimumDistance
        self.wheelEndDelay = wheelEndDelay
    }
}

/// Recognises a ``ScrollGesture``.
public struct ScrollRecognizer: GestureRecognizer {
    private enum Phase: Sendable {
        case idle
        case tracking(start: Point)
        case dragging(start: Point)
        case wheeling(translation: Double, lastTime: Double)
        case done
    }

    /// The scroll this recogniser recognises.
    public let configuration: ScrollGesture
    private var phase = Phase.idle
    private var reporter = PhaseReporter()
    private var tracker = VelocityTracker()

    /// A recogniser in the `possible` state for `configuration`.
    public init(_ configuration: ScrollGesture) {
        self.configuration = configuration
    }

    public var state: RecognizerState { reporter.state }
    public var value: GestureValue? { reporter.value }

    public var nextDeadline: Double? {
        guard case .wheeling(_, let lastTime) = phase else { return nil }
        let deadline = lastTime + configuration.wheelEndDelay
        return deadline.isFinite ? deadline : nil
    }

    public mutating func handle(_ event: PointerEvent) -> GestureTransition? {
        switch (phase, event.kind) {
        case (.done, _), (.idle, .move), (.tracking, .wheel), (.dragging, .wheel):
            return nil
        case (.idle, .wheel(let dx, let dy)), (.wheeling, .wheel(let dx, let dy)):
            // A horizontal scroll takes a mouse's vertical wheel when the event has no horizontal part (AppKit
            // scrolls a view that cannot scroll vertically so; a terminal's wheel is vertical only).
            var translation = configuration.axis == .vertical ? dy : (dx != 0 ? dx : dy)
            if case .wheeling(let previous, _) = phase { translation += previous }
            phase = .wheeling(translation: translation, lastTime: event.time)
            tracker.add(time: event.time, location: Point(x: 0, y: translation))
            let velocity = tracker.velocity(at: event.time).dy
            return reporter.move(to: .active, value: .scroll(scrollValue(.wheel, translation, velocity)))
        case (.wheeling, _):
            return nil
        case (.idle, .down):
            tracker.add(time: event.time, location: event.location)
            phase = .tracking(start: event.location)
            return nil
        case (.tracking(let start), .move):
            tracker.add(time: event.time, location: event.location)
            let moved = configuration.axis.component(event.location - start)
            guard abs(moved) >= configuration.minimumDistance else { return nil }
            phase = .dragging(start: start)
            return reporter.move(to: .active, value: dragValue(start: start, event: event))
        case (.dragging(let start), .move):
            tracker.add(time: event.time, location: event.location)
            return reporter.move(to: .active, value: dragValue(start: start, event: event))
        case (.dragging(let start), .up):
            if tracker.lastLocation != event.location { tracker.add(time: event.time, location: event.location) }
            phase = .done
            return reporter.move(to: .ended, value: dragValue(start: start, event: event))
        case (.idle, _), (.tracking, _), (.dragging, _):
            return cancel()
        }
    }

    public mutating func advance(to time: Double) -> GestureTransition? {
        guard let deadline = nextDeadline, time >= deadline, let value = reporter.value else { return nil }
        phase = .done
        return reporter.move(to: .ended, value: value)
    }

    public mutating func cancel() -> GestureTransition? {
        phase = .done
        return reporter.move(to: .failed, value: nil)
    }

    private func dragValue(start: Point, event: PointerEvent) -> GestureValue {
        let translation = -configuration.axis.component(event.location - start)
        let velocity = -configuration.axis.component(tracker.velocity(at: event.time))
        return .scroll(scrollValue(.drag, translation, velocity))
    }

    private func scrollValue(_ source: ScrollSource, _ translation: Double, _ velocity: Double) -> ScrollValue {
        let offset = configuration.contentOffset + translation
        let clamped = min(max(offset, configuration.offsetRange.lowerBound), configuration.offsetRange.upperBound)
        return ScrollValue(
            source: source, translation: translation, offset: offset, overscroll: offset - clamped, velocity: velocity)
    }
}
