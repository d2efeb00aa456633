/// The seam through which the timeline evaluates motion: a real closed-form implementation, and an instant
/// one for hosts and tests that want changes applied at once (SwiftUI's disabled animations).
public protocol Animator: Sendable {
    /// The state map `elapsed` seconds after a motion of `animation` starts (see `Animation.transition`).
    func transition(of animation: Animation, blendingFrom previous: Spring?, elapsed: Double) -> MotionTransition
    /// Seconds after the start until the motion stays within `tolerance` of its target.
    func settleTime(
        of animation: Animation, blendingFrom previous: Spring?, offset: Double, velocity: Double, tolerance: Double
    ) -> Double
}

/// The real animator: SwiftUI-exact closed-form springs and timing curves.
public struct ClosedFormAnimator: Animator {
    /// The closed-form animator (stateless).
    public init() {}

    @inlinable
    public func transition(of animation: Animation, blendingFrom previous: Spring?, elapsed: Double) -> MotionTransition
    {
        animation.transition(elapsed: elapsed, blendingFrom: previous)
    }

    public func settleTime(
        of animation: Animation, blendingFrom previous: Spring?, offset: Double, velocity: Double, tolerance: Double
    ) -> Double {
        animation.settleTime(offset: offset, velocity: velocity, tolerance: tolerance, blendingFrom: previous)
    }
}

/// An animator under which every change completes the moment it starts (after its delay).
public struct InstantAnimator: Animator {
    /// The instant animator (stateless).
    public init() {}

    public func transition(of animation: Animation, blendingFrom previous: Spring?, elapsed: Double) -> MotionTransition
    {
        .finished
    }

    public func settleTime(
        of animation: Animation, blendingFrom previous: Spring?, offset: Double, velocity: Double, tolerance: Double
    ) -> Double {
        0
    }
}
