import CardGeometry
import Foundation

/// UIScrollView's deceleration after a fling: the velocity is multiplied by `rate` every millisecond
/// (`UIScrollView.DecelerationRate.normal` = 0.998, `.fast` = 0.99, per Apple's documentation).
///
/// Continuous form used here, so that position and velocity are exact derivatives of each other:
/// v(t) = v₀·rate^(1000t), x(t) = x₀ + v₀·(rate^(1000t) − 1) / (1000·ln rate), and the projected destination
/// x₀ − v₀ / (1000·ln rate). (WWDC18 "Designing Fluid Interfaces" uses the discrete sum v₀/1000 · rate / (1 − rate),
/// which differs by under 0.1 % for these rates.) Velocities in points per second, time in seconds.
public struct Deceleration: Sendable, Hashable {
    /// The velocity factor per millisecond, 0 < rate < 1.
    public let rate: Double
    /// ln(rate) · 1000: the exponential decay constant per second (negative).
    @usableFromInline let logRatePerSecond: Double

    /// `.normal`: 0.998 per millisecond.
    public static let normal = Deceleration(unchecked: 0.998)
    /// `.fast`: 0.99 per millisecond.
    public static let fast = Deceleration(unchecked: 0.99)

    /// The deceleration that takes a fling released at `velocity` (points per second) from `start` to rest
    /// exactly at `destination`, where `destination` lies ahead of `start` in the fling's direction (a scroll
    /// view whose content edge is nearer than `.normal` would carry it): rate = e^(v / (1000·(start − dest))).
    /// Nil when no such rate exists (the destination is behind, at the start, or the velocity is not finite).
    public static func stopping(from start: Double, at destination: Double, initialVelocity velocity: Double)
        -> Deceleration?
    {
        let distance = destination - start
        guard velocity.isFinite, distance.isFinite, distance != 0, velocity * distance > 0 else { return nil }
        // x(t) = dest + (start − dest)·e^(λt) has x'(0) = −λ·distance = v, so λ = −v / distance.
        let rate = exp(-velocity / distance / 1000)
        guard rate > 0, rate < 1 else { return nil }
        return Deceleration(unchecked: rate)
    }

    /// The decay constant −1000·ln(rate), per second (positive): the velocity falls by e every 1/k seconds, and a
    /// fling at v₀ travels v₀ / k.
    public var decayConstant: Double { -logRatePerSecond }

    /// A deceleration with another rate.
    /// - Throws: `PhysicsError` unless 0 < rate < 1.
    public init(rate: Double) throws {
        try PhysicsError.requireFinite(rate, "rate")
        guard rate > 0, rate < 1 else {
            throw PhysicsError.outOfRange(parameter: "rate", value: rate, range: "0 < rate < 1")
        }
        self.init(unchecked: rate)
    }

    private init(unchecked rate: Double) {
        self.rate = rate
        logRatePerSecond = 1000 * log(rate)
    }

    /// The velocity `time` seconds after a fling at `velocity`.
    public func velocity(initialVelocity velocity: Double, at time: Double) -> Double {
        velocity * exp(logRatePerSecond * max(0, time))
    }

    /// The position `time` seconds after a fling from `start` at `velocity`.
    public func position(from start: Double, initialVelocity velocity: Double, at time: Double) -> Double {
        // expm1 keeps precision for small t.
        start + velocity * expm1(logRatePerSecond * max(0, time)) / logRatePerSecond
    }

    /// Where the fling comes to rest.
    public func destination(from start: Double, initialVelocity velocity: Double) -> Double {
        start - velocity / logRatePerSecond
    }

    /// Seconds until the fling is within `threshold` points of its destination (its speed is then below
    /// `threshold`·|1000·ln rate| points per second). 0 when it already is.
    public func timeToRest(initialVelocity velocity: Double, threshold: Double = 0.5) -> Double {
        let remaining = abs(velocity / logRatePerSecond)
        guard threshold > 0, remaining > threshold else { return 0 }
        return log(threshold / remaining) / logRatePerSecond
    }

    /// The position at `time` for a 2-D fling.
    public func position(from start: Point, initialVelocity velocity: Vector, at time: Double) -> Point {
        Point(
            x: position(from: start.x, initialVelocity: velocity.dx, at: time),
            y: position(from: start.y, initialVelocity: velocity.dy, at: time))
    }

    /// Where a 2-D fling comes to rest.
    public func destination(from start: Point, initialVelocity velocity: Vector) -> Point {
        Point(
            x: destination(from: start.x, initialVelocity: velocity.dx),
            y: destination(from: start.y, initialVelocity: velocity.dy))
    }
}
