import Foundation

/// A damped harmonic oscillator with SwiftUI's parameterisations and exact closed-form motion.
///
/// The spring obeys `m·x″ + c·x′ + k·x = 0` for the offset `x` from its target. Every SwiftUI way of making one
/// is here, with mass 1 unless given (formulas from Apple's `Spring` documentation and WWDC23 "Animate with
/// springs"):
/// - `(response, dampingRatio)`: k = (2π / response)², c = 4π·ζ / response;
/// - `(duration, bounce)`: response = duration, ζ = 1 − bounce for bounce ≥ 0 and 1 / (1 + bounce) below;
/// - `(mass, stiffness, damping, allowOverDamping)`: over-damping becomes critical damping unless allowed.
///
/// The derived constants of the solution are computed once here, so evaluating the motion
/// (`transition(at:)`) costs one `exp` and one `sin`/`cos` pair (or two `exp`s), with no integration.
public struct Spring: Sendable, Hashable {
    /// The regime of the solution, fixed by the sign of α² − ω₀².
    @usableFromInline
    enum Regime: UInt8, Sendable {
        case underdamped
        case critical
        case overdamped
    }

    /// The mass `m` (> 0).
    public let mass: Double
    /// The stiffness `k` (> 0).
    public let stiffness: Double
    /// The damping coefficient `c` (≥ 0), after any clamping to critical damping.
    public let damping: Double

    /// α = c / 2m, the decay rate of the envelope.
    @usableFromInline let decay: Double
    /// ω₀² = k / m.
    @usableFromInline let naturalSquared: Double
    /// ω_d = √(ω₀² − α²) when under-damped, β = √(α² − ω₀²) when over-damped, 0 when critical.
    @usableFromInline let frequency: Double
    /// The slower root r₁ = −ω₀² / (α + β) of an over-damped spring (computed without cancellation); else −α.
    @usableFromInline let slowRoot: Double
    /// The faster root r₂ = −(α + β) of an over-damped spring; else −α.
    @usableFromInline let fastRoot: Double
    @usableFromInline let regime: Regime

    /// A spring from its physical constants, as SwiftUI's `Spring(mass:stiffness:damping:allowOverDamping:)`.
    ///
    /// - Throws: `PhysicsError` when mass ≤ 0, stiffness ≤ 0 (a spring with no restoring force never arrives),
    ///   damping < 0, any value is not finite, or k/m or c/m overflows.
    public init(mass: Double = 1, stiffness: Double, damping: Double, allowOverDamping: Bool = false) throws {
        try PhysicsError.requirePositive(mass, "mass")
        try PhysicsError.requirePositive(stiffness, "stiffness")
        try PhysicsError.requireNonNegative(damping, "damping")
        guard (stiffness * mass).isFinite else {
            throw PhysicsError.outOfRange(parameter: "stiffness × mass", value: stiffness * mass, range: "finite")
        }
        let critical = 2 * (stiffness * mass).squareRoot()
        let effectiveDamping = allowOverDamping ? damping : min(damping, critical)
        try Spring.requireRepresentable(mass: mass, stiffness: stiffness, damping: effectiveDamping)
        self.init(unchecked: mass, stiffness, effectiveDamping)
    }

    /// A spring from its response (the period of the undamped oscillation, in seconds) and damping ratio ζ,
    /// as SwiftUI's `Spring(response:dampingRatio:)`: k = (2π / response)², c = 4π·ζ / response, mass 1.
    ///
    /// - Throws: `PhysicsError` when response ≤ 0, ζ < 0, or either is not finite.
    public init(response: Double, dampingRatio: Double) throws {
        try PhysicsError.requirePositive(response, "response")
        try PhysicsError.requireNonNegative(dampingRatio, "dampingRatio")
        let omega = 2 * Double.pi / response
        let damping = 4 * Double.pi * dampingRatio / response
        try Spring.requireRepresentable(mass: 1, stiffness: omega * omega, damping: damping)
        self.init(unchecked: 1, omega * omega, damping)
    }

    /// A spring from its perceptual duration and bounce, as SwiftUI's `Spring(duration:bounce:)`:
    /// response = duration; ζ = 1 − bounce for bounce ≥ 0 and 1 / (1 + bounce) for bounce < 0.
    ///
    /// - Throws: `PhysicsError` when duration ≤ 0, bounce is not in −1 < bounce ≤ 1, or either is not finite.
    ///   (SwiftUI accepts bounce > 1, a growing oscillation; here that is rejected so motion stays finite.)
    public init(duration: Double = 0.5, bounce: Double = 0) throws {
        try PhysicsError.requireFinite(bounce, "bounce")
        guard bounce > -1, bounce <= 1 else {
            throw PhysicsError.outOfRange(parameter: "bounce", value: bounce, range: "-1 < bounce ≤ 1")
        }
        try self.init(response: duration, dampingRatio: Spring.dampingRatio(forBounce: bounce))
    }

    /// Builds a spring from constants known to be valid (presets and validated initialisers).
    @usableFromInline
    init(unchecked mass: Double, _ stiffness: Double, _ damping: Double) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        let alpha = damping / (2 * mass)
        let omegaSquared = stiffness / mass
        decay = alpha
        naturalSquared = omegaSquared
        // (α − ω₀)(α + ω₀) loses less precision than α² − ω₀² near critical damping.
        let omega0 = omegaSquared.squareRoot()
        let discriminant = (alpha - omega0) * (alpha + omega0)
        if abs(discriminant) <= 1e-12 * omegaSquared {
            regime = .critical
            frequency = 0
            slowRoot = -alpha
            fastRoot = -alpha
        } else if discriminant < 0 {
            regime = .underdamped
            frequency = (-discriminant).squareRoot()
            slowRoot = -alpha
            fastRoot = -alpha
        } else {
            regime = .overdamped
            // β = α·√((1 − r)(1 + r)) with r = ω₀/α: no α² that could overflow, no cancellation near r = 1.
            let ratio = omega0 / alpha
            let beta = alpha * ((1 - ratio) * (1 + ratio)).squareRoot()
            frequency = beta
            fastRoot = -(alpha + beta)
            slowRoot = -omegaSquared / (alpha + beta)
        }
    }

    /// Rejects constants whose motion would overflow: k/m must stay ≤ 1e300 and c/m ≤ 1e150 (so ω₀², α² and
    /// every product in the closed form stay finite). Such springs would settle in under 1e-140 s anyway.
    static func requireRepresentable(mass: Double, stiffness: Double, damping: Double) throws {
        let stiffnessRatio = stiffness / mass
        let dampingRatio = damping / mass
        guard stiffnessRatio.isFinite, stiffnessRatio <= 1e300 else {
            throw PhysicsError.outOfRange(parameter: "stiffness / mass", value: stiffnessRatio, range: "≤ 1e300")
        }
        guard dampingRatio.isFinite, dampingRatio <= 1e150 else {
            throw PhysicsError.outOfRange(parameter: "damping / mass", value: dampingRatio, range: "≤ 1e150")
        }
    }

    /// ζ for a SwiftUI bounce: 1 − bounce when bounce ≥ 0, 1 / (1 + bounce) otherwise.
    static func dampingRatio(forBounce bounce: Double) -> Double {
        bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    }

    // MARK: Derived parameters (the reverse conversions)

    /// The response: the period of the undamped oscillation, 2π·√(m / k), in seconds.
    public var response: Double { 2 * Double.pi * (mass / stiffness).squareRoot() }

    /// SwiftUI's perceptual duration; equal to the response.
    public var duration: Double { response }

    /// The damping ratio ζ = c / (2·√(k·m)): below 1 it oscillates, 1 is critical, above 1 over-damped.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// SwiftUI's bounce: 1 − ζ when ζ ≤ 1, 1/ζ − 1 when over-damped (so −1 < bounce ≤ 1).
    public var bounce: Double {
        let zeta = dampingRatio
        return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }

    /// Whether the spring never loses energy (damping 0, bounce 1): it oscillates for ever and never settles.
    public var isUndamped: Bool { damping == 0 }
}
