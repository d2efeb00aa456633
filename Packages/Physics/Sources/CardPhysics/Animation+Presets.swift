// SwiftUI's named animations, with the parameters Apple documents:
// - `Animation.default`: "spring(response:dampingFraction:blendDuration:) with response 0.55, dampingFraction 1.0,
//   blendDuration 0.0"; before iOS 17 it was easeInOut (developer.apple.com/documentation/swiftui/animation/default).
// - `spring(response: 0.5, dampingFraction: 0.825, blendDuration: 0)` defaults; `interactiveSpring(response: 0.15,
//   dampingFraction: 0.86, blendDuration: 0.25)`; `smooth/snappy/bouncy(duration: 0.5, extraBounce: 0)`.
// - Timing curves default to 0.35 s; easeIn/Out/InOut are CSS's and Core Animation's control points.

extension Animation {
    /// The default animation since iOS 17: a critically damped spring, response 0.55.
    public static let `default` = Animation(
        .spring(Spring(unchecked: 1, (2 * .pi / 0.55) * (2 * .pi / 0.55), 4 * .pi / 0.55), blendDuration: 0))

    /// SwiftUI's `.spring()`: response 0.5, damping fraction 0.825.
    public static let spring = Animation(.spring(.default, blendDuration: 0))
    /// SwiftUI's `.interactiveSpring()`: response 0.15, damping fraction 0.86, blend 0.25 s.
    public static let interactiveSpring = Animation(
        .spring(
            Spring(unchecked: 1, (2 * .pi / 0.15) * (2 * .pi / 0.15), 4 * .pi * 0.86 / 0.15), blendDuration: 0.25))
    /// `.smooth`: spring with duration 0.5, bounce 0.
    public static let smooth = Animation(.spring(.smooth, blendDuration: 0))
    /// `.snappy`: spring with duration 0.5, bounce 0.15.
    public static let snappy = Animation(.spring(.snappy, blendDuration: 0))
    /// `.bouncy`: spring with duration 0.5, bounce 0.3.
    public static let bouncy = Animation(.spring(.bouncy, blendDuration: 0))

    /// Linear over 0.35 s.
    public static let linear = Animation(.curve(.linear, duration: 0.35))
    /// Ease-in over 0.35 s.
    public static let easeIn = Animation(.curve(.easeIn, duration: 0.35))
    /// Ease-out over 0.35 s.
    public static let easeOut = Animation(.curve(.easeOut, duration: 0.35))
    /// Ease-in-out over 0.35 s.
    public static let easeInOut = Animation(.curve(.easeInOut, duration: 0.35))

    /// A spring animation from `Spring(response:dampingRatio:)`.
    public static func spring(
        response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0
    ) throws -> Animation {
        try PhysicsError.requireNonNegative(blendDuration, "blendDuration")
        return Animation(
            .spring(try Spring(response: response, dampingRatio: dampingFraction), blendDuration: blendDuration))
    }

    /// A spring animation from `Spring(duration:bounce:)`.
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0) throws -> Animation
    {
        try PhysicsError.requireNonNegative(blendDuration, "blendDuration")
        return Animation(.spring(try Spring(duration: duration, bounce: bounce), blendDuration: blendDuration))
    }

    /// A spring animation with any spring.
    public static func spring(_ spring: Spring, blendDuration: Double = 0) throws -> Animation {
        try PhysicsError.requireNonNegative(blendDuration, "blendDuration")
        return Animation(.spring(spring, blendDuration: blendDuration))
    }

    /// SwiftUI's `interactiveSpring(response:dampingFraction:blendDuration:)`.
    public static func interactiveSpring(
        response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
    ) throws -> Animation {
        try spring(response: response, dampingFraction: dampingFraction, blendDuration: blendDuration)
    }

    /// `.smooth` with another duration and extra bounce.
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) throws -> Animation {
        Animation(.spring(try Spring.smooth(duration: duration, extraBounce: extraBounce), blendDuration: 0))
    }

    /// `.snappy` with another duration and extra bounce.
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) throws -> Animation {
        Animation(.spring(try Spring.snappy(duration: duration, extraBounce: extraBounce), blendDuration: 0))
    }

    /// `.bouncy` with another duration and extra bounce.
    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) throws -> Animation {
        Animation(.spring(try Spring.bouncy(duration: duration, extraBounce: extraBounce), blendDuration: 0))
    }

    /// An interpolating (additive) spring from physical constants; over-damping is allowed, as in SwiftUI.
    public static func interpolatingSpring(
        mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
    ) throws -> Animation {
        try PhysicsError.requireFinite(initialVelocity, "initialVelocity")
        let spring = try Spring(mass: mass, stiffness: stiffness, damping: damping, allowOverDamping: true)
        return Animation(.interpolatingSpring(spring, initialVelocity: initialVelocity))
    }

    /// An interpolating (additive) spring from duration and bounce.
    public static func interpolatingSpring(
        duration: Double = 0.5, bounce: Double = 0, initialVelocity: Double = 0
    ) throws -> Animation {
        try PhysicsError.requireFinite(initialVelocity, "initialVelocity")
        return Animation(
            .interpolatingSpring(try Spring(duration: duration, bounce: bounce), initialVelocity: initialVelocity))
    }

    /// A timing-curve animation with any control points.
    public static func timingCurve(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, duration: Double = 0.35
    ) throws -> Animation {
        try curve(try TimingCurve(x1: x1, y1: y1, x2: x2, y2: y2), duration: duration)
    }

    /// A timing-curve animation with any curve; a duration of 0 jumps at once.
    public static func curve(_ curve: TimingCurve, duration: Double = 0.35) throws -> Animation {
        try PhysicsError.requireNonNegative(duration, "duration")
        return Animation(.curve(curve, duration: duration))
    }

    /// Linear over `duration` seconds.
    public static func linear(duration: Double) throws -> Animation { try curve(.linear, duration: duration) }
    /// Ease-in over `duration` seconds.
    public static func easeIn(duration: Double) throws -> Animation { try curve(.easeIn, duration: duration) }
    /// Ease-out over `duration` seconds.
    public static func easeOut(duration: Double) throws -> Animation { try curve(.easeOut, duration: duration) }
    /// Ease-in-out over `duration` seconds.
    public static func easeInOut(duration: Double) throws -> Animation { try curve(.easeInOut, duration: duration) }
}
