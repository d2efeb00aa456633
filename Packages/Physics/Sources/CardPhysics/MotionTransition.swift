/// The linear map that takes an animation's initial state to its state some time later.
///
/// Every motion in this package is linear in its initial offset from the target `d₀` and its initial velocity
/// `v₀`, so one evaluation serves every component of a vector value:
///
///     offset(t)   = positionFromOffset · d₀ + positionFromVelocity · v₀
///     velocity(t) = velocityFromOffset · d₀ + velocityFromVelocity · v₀
///
/// The value shown is `target + offset(t)`. Velocities are per second.
public struct MotionTransition: Sendable, Hashable {
    /// How much of the initial offset `d₀` remains in the offset at time t (1 at the start, 0 once settled).
    public var positionFromOffset: Double
    /// The offset at time t produced by each point per second of initial velocity `v₀`, in seconds.
    public var positionFromVelocity: Double
    /// The velocity at time t produced by each point of initial offset `d₀`, per second.
    public var velocityFromOffset: Double
    /// How much of the initial velocity `v₀` remains in the velocity at time t (1 at the start).
    public var velocityFromVelocity: Double

    /// A transition with the four coefficients of the linear map.
    @inlinable
    public init(
        positionFromOffset: Double, positionFromVelocity: Double, velocityFromOffset: Double,
        velocityFromVelocity: Double
    ) {
        self.positionFromOffset = positionFromOffset
        self.positionFromVelocity = positionFromVelocity
        self.velocityFromOffset = velocityFromOffset
        self.velocityFromVelocity = velocityFromVelocity
    }

    /// No time has passed: the state is unchanged.
    public static let identity = MotionTransition(
        positionFromOffset: 1, positionFromVelocity: 0, velocityFromOffset: 0, velocityFromVelocity: 1)

    /// The motion has finished: at the target, at rest.
    public static let finished = MotionTransition(
        positionFromOffset: 0, positionFromVelocity: 0, velocityFromOffset: 0, velocityFromVelocity: 0)

    /// The offset after the transition, for a scalar.
    @inlinable
    public func offset(from offset: Double, velocity: Double) -> Double {
        positionFromOffset * offset + positionFromVelocity * velocity
    }

    /// The velocity after the transition, for a scalar.
    @inlinable
    public func velocity(from offset: Double, velocity: Double) -> Double {
        velocityFromOffset * offset + velocityFromVelocity * velocity
    }
}
