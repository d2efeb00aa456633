import Foundation

/// How a change animates: a spring or a timing curve, with a delay and a speed — SwiftUI's `Animation` as a
/// plain value.
///
/// Every animation maps an initial (offset, velocity) linearly to a later state (`transition(elapsed:…)`), so the
/// timeline evaluates any value type with one call per entry. Time is always an argument.
public struct Animation: Sendable, Hashable {
    /// The kind of motion.
    public enum Motion: Sendable, Hashable {
        /// A persistent spring: retargeting replaces it and keeps the current velocity; a new spring's response
        /// is blended in from the old one over `blendDuration` seconds.
        case spring(Spring, blendDuration: Double)
        /// An interpolating spring: overlapping changes add up (each runs to completion), and it starts with
        /// `initialVelocity` as a fraction of the change per second (SwiftUI's convention).
        case interpolatingSpring(Spring, initialVelocity: Double)
        /// A timing curve over `duration` seconds.
        case curve(TimingCurve, duration: Double)
        /// UIScrollView's deceleration: the offset from the target decays by the deceleration's rate every
        /// millisecond, offset(t) = d₀·rate^(1000t), so a fling released at v₀ towards `Deceleration.destination`
        /// moves exactly as a scroll view coasting to rest there. The initial velocity is ignored (it is the
        /// target's distance times the rate's log).
        case decay(Deceleration)
    }

    /// The kind of motion.
    public let motion: Motion
    /// Seconds to wait before moving (already divided by any later `speed`).
    public private(set) var delay: Double = 0
    /// The playback rate (> 0): 2 runs twice as fast.
    public private(set) var speed: Double = 1

    /// An animation with the given motion, no delay, speed 1.
    public init(_ motion: Motion) {
        self.motion = motion
    }

    /// The same animation, starting `delay` more seconds later. A negative or non-finite delay adds nothing.
    public func delay(_ delay: Double) -> Animation {
        var copy = self
        if delay.isFinite && delay > 0 { copy.delay += delay }
        return copy
    }

    /// The same animation played `speed` times as fast, its delay included (as SwiftUI's `speed(_:)` wraps the
    /// animation it modifies).
    /// - Throws: `PhysicsError` when speed ≤ 0 or is not finite.
    public func speed(_ speed: Double) throws -> Animation {
        try PhysicsError.requirePositive(speed, "speed")
        var copy = self
        copy.speed *= speed
        copy.delay /= speed
        return copy
    }

    /// Whether overlapping animations of this kind add up instead of replacing one another.
    public var isAdditive: Bool {
        if case .interpolatingSpring = motion { return true }
        return false
    }

    /// The spring, if the motion is one.
    public var spring: Spring? {
        switch motion {
        case .spring(let spring, _), .interpolatingSpring(let spring, _): spring
        case .curve, .decay: nil
        }
    }

    /// The seconds from the start (after the delay) until a move from rest is done: the spring's settling
    /// duration or the curve's duration, divided by the speed.
    public var duration: Double {
        switch motion {
        case .spring(let spring, _), .interpolatingSpring(let spring, _): spring.settlingDuration / speed
        case .curve(_, let duration): duration / speed
        case .decay(let deceleration): log(1e-3) / deceleration.logRatePerSecond / speed
        }
    }

    /// UIScrollView's deceleration (`Deceleration.normal`, 0.998 per millisecond, by default): for a scroll
    /// view's content coasting from its release to the place `Deceleration.destination` projects.
    public static func decelerate(_ deceleration: Deceleration = .normal) -> Animation {
        Animation(.decay(deceleration))
    }
}
