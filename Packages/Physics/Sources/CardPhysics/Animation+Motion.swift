import Foundation

extension Animation {
    /// The state map `elapsed` real seconds after the motion starts (the delay already passed), velocities per
    /// real second.
    ///
    /// - Springs: the spring's closed form at τ = elapsed·speed. With `blendingFrom` and a blend duration, the
    ///   old and new springs' motions (same start state, same target) are mixed with the weight
    ///   w = smoothstep(τ / blendDuration); the weight's derivative enters the velocity, so neither position nor
    ///   velocity jumps at the start or the end of the blend.
    /// - Interpolating springs: the initial velocity is `initialVelocity` × the change (towards the target).
    /// - Curves: offset·(1 − p(u)) with u = τ / duration; the curve ignores the initial velocity.
    /// - Decay: offset·e^(λτ) with λ = 1000·ln rate; the initial velocity is ignored (see `Motion.decay`).
    /// O(1); allocation-free.
    @inlinable
    public func transition(elapsed: Double, blendingFrom previous: Spring? = nil) -> MotionTransition {
        let tau = (elapsed > 0 ? elapsed : 0) * speed
        switch motion {
        case .spring(let spring, let blendDuration):
            var result = spring.transition(at: tau)
            if let previous, blendDuration > 0, tau < blendDuration, previous != spring {
                let old = previous.transition(at: tau)
                let s = tau / blendDuration
                let weight = s * s * (3 - 2 * s)
                let weightRate = 6 * s * (1 - s) / blendDuration
                result = MotionTransition(
                    positionFromOffset: old.positionFromOffset
                        + weight * (result.positionFromOffset - old.positionFromOffset),
                    positionFromVelocity: old.positionFromVelocity
                        + weight * (result.positionFromVelocity - old.positionFromVelocity),
                    velocityFromOffset: old.velocityFromOffset
                        + weight * (result.velocityFromOffset - old.velocityFromOffset)
                        + weightRate * (result.positionFromOffset - old.positionFromOffset),
                    velocityFromVelocity: old.velocityFromVelocity
                        + weight * (result.velocityFromVelocity - old.velocityFromVelocity)
                        + weightRate * (result.positionFromVelocity - old.positionFromVelocity))
            }
            return Animation.toRealTime(result, speed: speed)
        case .interpolatingSpring(let spring, let initialVelocity):
            var result = spring.transition(at: tau)
            // v₀ = initialVelocity·(target − start) = −initialVelocity·d₀ in τ units.
            result.positionFromOffset -= initialVelocity * result.positionFromVelocity
            result.velocityFromOffset -= initialVelocity * result.velocityFromVelocity
            return Animation.toRealTime(result, speed: speed)
        case .decay(let deceleration):
            // offset(τ) = d₀·e^(λτ), λ = 1000·ln rate (per second, negative).
            let lambda = deceleration.logRatePerSecond
            let remaining = exp(lambda * tau)
            return Animation.toRealTime(
                MotionTransition(
                    positionFromOffset: remaining, positionFromVelocity: 0, velocityFromOffset: lambda * remaining,
                    velocityFromVelocity: 0), speed: speed)
        case .curve(let curve, let duration):
            guard duration > 0, tau < duration else { return .finished }
            let (progress, slope) = curve.progressAndSlope(at: tau / duration)
            return MotionTransition(
                positionFromOffset: 1 - progress, positionFromVelocity: 0,
                velocityFromOffset: -slope * speed / duration, velocityFromVelocity: 0)
        }
    }

    /// Converts a map in τ = speed·t units to real seconds: v_τ = v/speed, v = speed·v_τ.
    @inlinable
    static func toRealTime(_ transition: MotionTransition, speed: Double) -> MotionTransition {
        if speed == 1 { return transition }
        return MotionTransition(
            positionFromOffset: transition.positionFromOffset,
            positionFromVelocity: transition.positionFromVelocity / speed,
            velocityFromOffset: transition.velocityFromOffset * speed,
            velocityFromVelocity: transition.velocityFromVelocity)
    }

    /// Real seconds after the start after which a motion from (`offset`, `velocity`) magnitudes stays within
    /// `tolerance` of the target (see `Spring.settleTime`); curves finish exactly at their duration.
    public func settleTime(
        offset: Double, velocity: Double, tolerance: Double, blendingFrom previous: Spring? = nil
    ) -> Double {
        switch motion {
        case .spring(let spring, let blendDuration):
            let time = spring.settleTime(offset: offset, velocity: velocity / speed, tolerance: tolerance)
            guard let previous, blendDuration > 0, previous != spring else { return time / speed }
            let old = previous.settleTime(offset: offset, velocity: velocity / speed, tolerance: tolerance)
            // During the blend the motion is a convex mix of both; afterwards it is the new spring's.
            return max(time, min(old, blendDuration)) / speed
        case .interpolatingSpring(let spring, let initialVelocity):
            let speedMagnitude = velocity / speed + abs(initialVelocity) * offset
            return spring.settleTime(offset: offset, velocity: speedMagnitude, tolerance: tolerance) / speed
        case .curve(_, let duration):
            return offset == 0 ? 0 : duration / speed
        case .decay(let deceleration):
            guard offset > tolerance, tolerance > 0 else { return 0 }
            return log(tolerance / offset) / deceleration.logRatePerSecond / speed
        }
    }
}
