import CardGeometry

/// The direction of a swipe (y grows downwards).
public enum SwipeDirection: Sendable, Hashable, CaseIterable {
    /// Towards negative x.
    case left
    /// Towards positive x.
    case right
    /// Towards negative y (up the screen).
    case up
    /// Towards positive y (down the screen).
    case down

    /// The dominant direction of `translation` (horizontal wins ties).
    init(_ translation: Vector) {
        if abs(translation.dx) >= abs(translation.dy) {
            self = translation.dx < 0 ? .left : .right
        } else {
            self = translation.dy < 0 ? .up : .down
        }
    }

    /// The signed amount of `vector` in this direction.
    func amount(of vector: Vector) -> Double {
        switch self {
        case .left: -vector.dx
        case .right: vector.dx
        case .up: -vector.dy
        case .down: vector.dy
        }
    }

    var option: SwipeDirections {
        switch self {
        case .left: .left
        case .right: .right
        case .up: .up
        case .down: .down
        }
    }
}

/// A set of swipe directions.
public struct SwipeDirections: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Swipes to the left.
    public static let left = SwipeDirections(rawValue: 1 << 0)
    /// Swipes to the right.
    public static let right = SwipeDirections(rawValue: 1 << 1)
    /// Swipes up.
    public static let up = SwipeDirections(rawValue: 1 << 2)
    /// Swipes down.
    public static let down = SwipeDirections(rawValue: 1 << 3)
    /// Swipes to the left or right.
    public static let horizontal: SwipeDirections = [.left, .right]
    /// Swipes up or down.
    public static let vertical: SwipeDirections = [.up, .down]
    /// Swipes in any of the four directions.
    public static let all: SwipeDirections = [.horizontal, .vertical]
}

/// A swipe, judged at the end of a drag. Discrete: possible → ended | failed.
///
/// On up it ends when the translation's dominant direction is allowed, the distance along it is at least
/// `minimumDistance` (50 pt), the release velocity along it at least `minimumVelocity` (300 pt/s) and the touch
/// lasted less than `maximumDuration` (0.75 s); otherwise it fails. It also fails as soon as the touch reaches
/// `maximumDuration`, without waiting for the up. (These thresholds are documented choices: UIKit does not
/// publish its swipe recogniser's.)
public struct SwipeGesture: Sendable, Hashable {
    /// The directions that are recognised (default all).
    public var directions: SwipeDirections
    /// The least distance, in points, along the swipe's direction (default 50).
    public var minimumDistance: Double
    /// The least release velocity, in points per second, along the swipe's direction (default 300).
    public var minimumVelocity: Double
    /// The longest the touch may last, in seconds (default 0.75).
    public var maximumDuration: Double

    /// A swipe in `directions` with the given thresholds.
    public init(
        directions: SwipeDirections = .all, minimumDistance: Double = 50, minimumVelocity: Double = 300,
        maximumDuration: Double = 0.75
    ) {
        self.directions = directions
        self.minimumDistance = minimumDistance
        self.minimumVelocity = minimumVelocity
        self.maximumDuration = maximumDuration
    }
}

/// Recognises a ``SwipeGesture``.
public struct SwipeRecognizer: GestureRecognizer {
    private enum Phase: Sendable {
        case idle
        case tracking(start: Point, startTime: Double)
        case done
    }

    /// The swipe this recogniser recognises.
    public let configuration: SwipeGesture
    private var phase = Phase.idle
    private var reporter = PhaseReporter()
    private var tracker = VelocityTracker()

    /// A recogniser in the `possible` state for `configuration`.
    public init(_ configuration: SwipeGesture) {
        self.configuration = configuration
    }

    public var state: RecognizerState { reporter.state }
    public var value: GestureValue? { reporter.value }

    public var nextDeadline: Double? {
        guard case .tracking(_, let startTime) = phase else { return nil }
        let deadline = startTime + configuration.maximumDuration
        return deadline.isFinite ? deadline : nil
    }

    public mutating func handle(_ event: PointerEvent) -> GestureTransition? {
        switch (phase, event.kind) {
        case (.done, _), (_, .wheel), (.idle, .move):
            return nil
        case (.idle, .down):
            tracker.add(time: event.time, location: event.location)
            phase = .tracking(start: event.location, startTime: event.time)
            return nil
        case (.tracking, .move):
            tracker.add(time: event.time, location: event.location)
            return nil
        case (.tracking(let start, let startTime), .up):
            if tracker.lastLocation != event.location { tracker.add(time: event.time, location: event.location) }
            phase = .done
            let translation = event.location - start
            let velocity = tracker.velocity(at: event.time)
            let direction = SwipeDirection(translation)
            let duration = event.time - startTime
            guard configuration.directions.contains(direction.option),
                direction.amount(of: translation) >= configuration.minimumDistance,
                direction.amount(of: velocity) >= configuration.minimumVelocity,
                duration < configuration.maximumDuration
            else { return reporter.move(to: .failed, value: nil) }
            let value = SwipeValue(
                direction: direction, startLocation: start, location: event.location, translation: translation,
                velocity: velocity, duration: duration)
            return reporter.move(to: .ended, value: .swipe(value))
        case (.idle, _), (.tracking, _):
            return cancel()
        }
    }

    public mutating func advance(to time: Double) -> GestureTransition? {
        guard let deadline = nextDeadline, time >= deadline else { return nil }
        return cancel()
    }

    public mutating func cancel() -> GestureTransition? {
        phase = .done
        return reporter.move(to: .failed, value: nil)
    }
}
