import Foundation

// Closed-form solutions of m·x″ + c·x′ + k·x = 0 with x(0) = d₀, x′(0) = v₀ (any standard ODE text, e.g.
// Thomson & Dahleh, "Theory of Vibration with Applications", §2). With α = c/2m and ω₀² = k/m:
// - under-damped (α < ω₀), ω_d = √(ω₀² − α²):
//     x = e^(−αt)·(d₀·cos ω_d t + (v₀ + α·d₀)·sin(ω_d t)/ω_d)
// - critical (α = ω₀):
//     x = e^(−αt)·(d₀ + (v₀ + α·d₀)·t)
// - over-damped (α > ω₀), β = √(α² − ω₀²), roots r₁ = −α + β, r₂ = −α − β:
//     x = e^(−αt)·(d₀·cosh βt + (v₀ + α·d₀)·sinh(βt)/β)
// All three share one shape with S(t) = sin(ω_d t)/ω_d, t, or sinh(βt)/β and C(t) = cos, 1, or cosh:
//     x = e^(−αt)·((C + αS)·d₀ + S·v₀),   x′ = e^(−αt)·(−ω₀²S·d₀ + (C − αS)·v₀).

extension Spring {
    /// The map from the initial (offset, velocity) to the state `time` seconds later (time < 0 counts as 0).
    ///
    /// Never NaN or infinite for finite time: the over-damped branch switches to separate exponentials when
    /// βt ≥ 1 so that cosh and sinh cannot overflow. O(1): one `exp` and a `sin`/`cos` pair, or two `exp`s.
    @inlinable
    public func transition(at time: Double) -> MotionTransition {
        let t = time > 0 ? time : 0
        let alpha = decay
        switch regime {
        case .underdamped:
            let envelope = exp(-alpha * t)
            let angle = frequency * t
            let cosine = cos(angle)
            let sine = sin(angle) / frequency
            return MotionTransition(
                positionFromOffset: envelope * (cosine + alpha * sine),
                positionFromVelocity: envelope * sine,
                velocityFromOffset: -naturalSquared * envelope * sine,
                velocityFromVelocity: envelope * (cosine - alpha * sine))
        case .critical:
            let envelope = exp(-alpha * t)
            return MotionTransition(
                positionFromOffset: envelope * (1 + alpha * t),
                positionFromVelocity: envelope * t,
                velocityFromOffset: -naturalSquared * envelope * t,
                velocityFromVelocity: envelope * (1 - alpha * t))
        case .overdamped:
            let beta = frequency
            let bt = beta * t
            if bt < 1 {
                let envelope = exp(-alpha * t)
                let hyperbolicCosine = envelope * cosh(bt)
                let hyperbolicSine = envelope * sinh(bt) / beta
                return MotionTransition(
                    positionFromOffset: hyperbolicCosine + alpha * hyperbolicSine,
                    positionFromVelocity: hyperbolicSine,
                    velocityFromOffset: -naturalSquared * hyperbolicSine,
                    velocityFromVelocity: hyperbolicCosine - alpha * hyperbolicSine)
            }
            // x = (d₀·(−r₂e₁ + r₁e₂) + v₀·(e₁ − e₂)) / 2β with e_i = e^(r_i t); no term can overflow.
            let slow = exp(slowRoot * t)
            let fast = exp(fastRoot * t)
            let twoBeta = 2 * beta
            return MotionTransition(
                positionFromOffset: (-fastRoot * slow + slowRoot * fast) / twoBeta,
                positionFromVelocity: (slow - fast) / twoBeta,
                velocityFromOffset: -naturalSquared * (slow - fast) / twoBeta,
                velocityFromVelocity: (slowRoot * slow - fastRoot * fast) / twoBeta)
        }
    }

    /// The position `time` seconds after leaving `from` towards `target` with `initialVelocity` (per second).
    @inlinable
    public func value(from start: Double, to target: Double, initialVelocity: Double = 0, at time: Double) -> Double {
        target + transition(at: time).offset(from: start - target, velocity: initialVelocity)
    }

    /// The velocity (per second) `time` seconds after leaving `from` towards `target` with `initialVelocity`.
    @inlinable
    public func velocity(
        from start: Double, to target: Double, initialVelocity: Double = 0, at time: Double
    ) -> Double {
        transition(at: time).velocity(from: start - target, velocity: initialVelocity)
    }

    /// The spring force per unit mass (acceleration) at `position` moving at `velocity` towards `target`.
    public func acceleration(position: Double, velocity: Double, target: Double) -> Double {
        (-stiffness * (position - target) - damping * velocity) / mass
    }
}
