import CardGeometry

/// A single or multiple tap (SwiftUI's `TapGesture(count:)`). Discrete: possible → ended | failed.
///
/// Timeouts and tolerances (documented choices; the intervals and slop are Flutter's `kDoubleTapTimeout` = 300 ms
/// and `kDoubleTapSlop` = 100 from `gestures/constants.dart`):
/// - each press fails the tap when the pointer moves more than `movementTolerance` (10 pt) from where it went
///   down, or when it is held `maximumPressDuration` (0.5 s, the default long-press duration) or longer;
/// - between presses of a multi-tap the next down must come within `maximumInterval` (0.3 s) of the previous up
///   and within `multiTapSlop` (100 pt) of the first down.
public struct TapGesture: Sendable, Hashable {
    /// How many taps make the gesture (1 or more; 2 is a double tap).
    public var count: Int
    /// How far, in points, the pointer may move during a press (default 10).
    public var movementTolerance: Double
    /// How long, in seconds, a press may last before it is no longer a tap (default 0.5).
    public var maximumPressDuration: Double
    /// The longest pause, in seconds, between an up and the next down of a multiple tap (default 0.3).
    public var maximumInterval: Double
    /// How far, in points, each down of a multiple tap may be from the first (default 100).
    public var multiTapSlop: Double

    /// A tap of `count` taps (a count below 1 is taken as 1) with the given tolerances.
    public init(
        count: Int = 1, movementTolerance: Double = 10, maximumPressDuration: Double = 0.5,
        maximumInterval: Double = 0.3, multiTapSlop: Double = 100
    ) {
        self.count = max(1, count)
        self.movementTolerance = movementTolerance
        self.maximumPressDuration = maximumPressDuration
        self.maximumInterval = maximumInterval
        self.multiTapSlop = multiTapSlop
    }
}

/// Recognises a ``TapGesture``.
public struct TapRecognizer: GestureRecognizer {
    private enum Phase: Sendable {
        case idle
        case pressed(origin: Point, down: Point, deadline: Double, completed: Int)
        case waiting(origin: Point, deadline: Double, completed: Int)
        case done
    }

    /// The tap this recogniser recognises.
    public let configuration: TapGesture
    private var phase = Phase.idle
    private var reporter = PhaseReporter()

    /// A recogniser in the `possible` state for `configuration`.
    public init(_ configuration: TapGesture) {
        self.configuration = configuration
    }

    public var state: RecognizerState { reporter.state }
    public var value: GestureValue? { reporter.value }

    public var nextDeadline: Double? {
        switch phase {
        case .pressed(_, _, let deadline, _), .waiting(_, let deadline, _): deadline.isFinite ? deadline : nil
        case .idle, .done: nil
        }
    }

    public mutating func handle(_ event: PointerEvent) -> GestureTransition? {
        switch (phase, event.kind) {
        case (.done, _), (_, .wheel):
            return nil
        case (.idle, .down):
            phase = .pressed(
                origin: event.location, down: event.location,
                deadline: event.time + configuration.maximumPressDuration, completed: 0)
            return nil
        case (.pressed(_, let down, _, _), .move):
            return event.location.distance(to: down) > configuration.movementTolerance ? fail() : nil
        case (.pressed(let origin, let down, _, let completed), .up):
            guard event.location.distance(to: down) <= configuration.movementTolerance else { return fail() }
            let taps = completed + 1
            if taps >= configuration.count {
                phase = .done
                return reporter.move(to: .ended, value: .tap(TapValue(count: taps, location: event.location)))
            }
            phase = .waiting(origin: origin, deadline: event.time + configuration.maximumInterval, completed: taps)
            return nil
        case (.waiting(let origin, _, let completed), .down):
            guard event.location.distance(to: origin) <= configuration.multiTapSlop else { return fail() }
            phase = .pressed(
                origin: origin, down: event.location,
                deadline: event.time + configuration.maximumPressDuration, completed: completed)
            return nil
        case (.waiting, .move), (.idle, .move):
            return nil
        case (.idle, _), (.pressed, _), (.waiting, _):
            return fail()
        }
    }

    public mutating func advance(to time: Double) -> GestureTransition? {
        guard let deadline = nextDeadline, time >= deadline else { return nil }
        return fail()
    }

    public mutating func cancel() -> GestureTransition? { fail() }

    private mutating func fail() -> GestureTransition? {
        phase = .done
        return reporter.move(to: .failed, value: nil)
    }
}
