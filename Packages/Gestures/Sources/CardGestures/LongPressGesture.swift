import CardGeometry

/// A long press (SwiftUI's `LongPressGesture`). Discrete, as in SwiftUI: it ends the moment it is recognised, so
/// a gesture sequenced after it starts in the middle of the touch.
///
/// The pointer must stay within `maximumDistance` (10 pt) of where it went down for `minimumDuration` (0.5 s, the
/// SwiftUI and UIKit default); moving further or lifting before that fails it. Moving after it has been
/// recognised is allowed (the gesture has already ended). A `minimumDuration` of zero or less ends on touch-down.
public struct LongPressGesture: Sendable, Hashable {
    /// How long, in seconds, the pointer must be held before the press is recognised (default 0.5).
    public var minimumDuration: Double
    /// How far, in points, the pointer may move from where it went down before the press fails (default 10).
    public var maximumDistance: Double

    /// A long press of at least `minimumDuration` seconds within `maximumDistance` points.
    public init(minimumDuration: Double = 0.5, maximumDistance: Double = 10) {
        self.minimumDuration = minimumDuration
        self.maximumDistance = maximumDistance
    }
}

/// Recognises a ``LongPressGesture``.
public struct LongPressRecognizer: GestureRecognizer {
    private enum Phase: Sendable {
        case idle
        case pressing(start: Point, location: Point, startTime: Double)
        case done
    }

    /// The long press this recogniser recognises.
    public let configuration: LongPressGesture
    private var phase = Phase.idle
    private var reporter = PhaseReporter()

    /// A recogniser in the `possible` state for `configuration`.
    public init(_ configuration: LongPressGesture) {
        self.configuration = configuration
    }

    public var state: RecognizerState { reporter.state }
    public var value: GestureValue? { reporter.value }

    public var nextDeadline: Double? {
        guard case .pressing(_, _, let startTime) = phase else { return nil }
        let deadline = startTime + configuration.minimumDuration
        return deadline.isFinite ? deadline : nil
    }

    public mutating func handle(_ event: PointerEvent) -> GestureTransition? {
        switch (phase, event.kind) {
        case (.done, _), (_, .wheel), (.idle, .move):
            return nil
        case (.idle, .down):
            phase = .pressing(start: event.location, location: event.location, startTime: event.time)
            return configuration.minimumDuration <= 0 ? recognize(at: event.time) : nil
        case (.pressing(let start, _, let startTime), .move):
            guard event.location.distance(to: start) <= configuration.maximumDistance else { return fail() }
            phase = .pressing(start: start, location: event.location, startTime: startTime)
            return nil
        case (.idle, _), (.pressing, _):
            return fail()
        }
    }

    public mutating func advance(to time: Double) -> GestureTransition? {
        guard let deadline = nextDeadline, time >= deadline else { return nil }
        return recognize(at: time)
    }

    public mutating func cancel() -> GestureTransition? { fail() }

    private mutating func recognize(at time: Double) -> GestureTransition? {
        guard case .pressing(let start, let location, let startTime) = phase else { return nil }
        phase = .done
        let value = LongPressValue(
            startLocation: start, location: location, duration: max(configuration.minimumDuration, time - startTime))
        return reporter.move(to: .ended, value: .longPress(value))
    }

    private mutating func fail() -> GestureTransition? {
        phase = .done
        return reporter.move(to: .failed, value: nil)
    }
}
