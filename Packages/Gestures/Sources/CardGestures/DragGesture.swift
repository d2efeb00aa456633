import CardGeometry
import CardPhysics

/// An axis a drag or scroll can be locked to.
public enum GestureAxis: Sendable, Hashable {
    /// Along x only (left and right).
    case horizontal
    /// Along y only (up and down).
    case vertical

    /// The component of `vector` along the axis, as a vector (the other component zeroed).
    func project(_ vector: Vector) -> Vector {
        switch self {
        case .horizontal: Vector(dx: vector.dx, dy: 0)
        case .vertical: Vector(dx: 0, dy: vector.dy)
        }
    }

    /// The signed component of `vector` along the axis.
    func component(_ vector: Vector) -> Double {
        switch self {
        case .horizontal: vector.dx
        case .vertical: vector.dy
        }
    }
}

/// A drag (SwiftUI's `DragGesture`). Continuous: began once the pointer is `minimumDistance` (default 10 pt) or
/// more from where it went down, changed on every move that changes the value, ended on up; lifting before the
/// minimum distance fails it. A minimum of zero begins on touch-down.
///
/// With an `axis` lock only the movement along that axis counts towards the minimum distance and is reported:
/// the location, translation, velocity and predictions are projected onto the axis through the start location.
public struct DragGesture: Sendable, Hashable {
    /// How far, in points, the pointer must move from where it went down before the drag begins; 0 begins on down.
    public var minimumDistance: Double
    /// The axis the drag is locked to, or `nil` to follow the pointer freely.
    public var axis: GestureAxis?

    /// A drag that begins after `minimumDistance` points (default 10), optionally locked to `axis`.
    public init(minimumDistance: Double = 10, axis: GestureAxis? = nil) {
        self.minimumDistance = minimumDistance
        self.axis = axis
    }
}

/// Recognises a ``DragGesture``.
public struct DragRecognizer: GestureRecognizer {
    private enum Phase: Sendable {
        case idle
        case tracking(start: Point)
        case dragging(start: Point)
        case done
    }

    /// The drag this recogniser recognises.
    public let configuration: DragGesture
    private var phase = Phase.idle
    private var reporter = PhaseReporter()
    private var tracker = VelocityTracker()

    /// A recogniser in the `possible` state for `configuration`.
    public init(_ configuration: DragGesture) {
        self.configuration = configuration
    }

    public var state: RecognizerState { reporter.state }
    public var value: GestureValue? { reporter.value }
    public var nextDeadline: Double? { nil }

    public mutating func handle(_ event: PointerEvent) -> GestureTransition? {
        switch (phase, event.kind) {
        case (.done, _), (_, .wheel), (.idle, .move):
            return nil
        case (.idle, .down):
            tracker.add(time: event.time, location: event.location)
            guard configuration.minimumDistance <= 0 else {
                phase = .tracking(start: event.location)
                return nil
            }
            phase = .dragging(start: event.location)
            return reporter.move(to: .active, value: .drag(dragValue(start: event.location, event: event)))
        case (.tracking(let start), .move):
            tracker.add(time: event.time, location: event.location)
            let moved = event.location - start
            let distance = configuration.axis.map { abs($0.component(moved)) } ?? moved.length
            guard distance >= configuration.minimumDistance else { return nil }
            phase = .dragging(start: start)
            return reporter.move(to: .active, value: .drag(dragValue(start: start, event: event)))
        case (.dragging(let start), .move):
            tracker.add(time: event.time, location: event.location)
            return reporter.move(to: .active, value: .drag(dragValue(start: start, event: event)))
        case (.dragging(let start), .up):
            if tracker.lastLocation != event.location { tracker.add(time: event.time, location: event.location) }
            phase = .done
            return reporter.move(to: .ended, value: .drag(dragValue(start: start, event: event)))
        case (.idle, _), (.tracking, _), (.dragging, _):
            phase = .done
            return reporter.move(to: .failed, value: nil)
        }
    }

    public mutating func advance(to time: Double) -> GestureTransition? { nil }

    public mutating func cancel() -> GestureTransition? {
        phase = .done
        return reporter.move(to: .failed, value: nil)
    }

    private func dragValue(start: Point, event: PointerEvent) -> DragValue {
        var translation = event.location - start
        var velocity = tracker.velocity(at: event.time)
        if let axis = configuration.axis {
            translation = axis.project(translation)
            velocity = axis.project(velocity)
        }
        // Where a scroll view would come to rest after this release (CardPhysics' UIScrollView deceleration).
        let rest = Deceleration.normal.destination(from: Point(x: 0, y: 0), initialVelocity: velocity)
        let predicted = translation + Vector(dx: rest.x, dy: rest.y)
        return DragValue(
            time: event.time, location: start + translation, startLocation: start, translation: translation,
            velocity: velocity, predictedEndTranslation: predicted, predictedEndLocation: start + predicted)
    }
}
