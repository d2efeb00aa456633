// SwiftUI's named springs. Sources: Apple's documentation of `Spring.smooth`, `.snappy`, `.bouncy`
// ("predefined duration" 0.5 s; smooth has no bounce, snappy "a small amount", bouncy "a higher amount": 0.15
// and 0.3 as shown in WWDC23 "Animate with springs"), `Animation.spring(response:dampingFraction:blendDuration:)`
// (defaults 0.5, 0.825, 0) and `interactiveSpring` (0.15, 0.86, 0.25).

extension Spring {
    /// SwiftUI's `.spring()` spring: response 0.5, damping ratio 0.825.
    public static let `default` = Spring(
        unchecked: 1, (2 * Double.pi / 0.5) * (2 * Double.pi / 0.5), 4 * .pi * 0.825 / 0.5)

    /// A smooth spring with no bounce: duration 0.5, bounce 0.
    public static let smooth = Spring(presetDuration: 0.5, bounce: 0)
    /// A snappy spring with a small bounce: duration 0.5, bounce 0.15.
    public static let snappy = Spring(presetDuration: 0.5, bounce: 0.15)
    /// A bouncy spring: duration 0.5, bounce 0.3.
    public static let bouncy = Spring(presetDuration: 0.5, bounce: 0.3)

    /// `.smooth` with another duration and `extraBounce` added to its bounce of 0.
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) throws -> Spring {
        try Spring(duration: duration, bounce: 0 + extraBounce)
    }

    /// `.snappy` with another duration and `extraBounce` added to its bounce of 0.15.
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) throws -> Spring {
        try Spring(duration: duration, bounce: 0.15 + extraBounce)
    }

    /// `.bouncy` with another duration and `extraBounce` added to its bounce of 0.3.
    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) throws -> Spring {
        try Spring(duration: duration, bounce: 0.3 + extraBounce)
    }

    /// A preset from constants known to be valid.
    private init(presetDuration duration: Double, bounce: Double) {
        let omega = 2 * Double.pi / duration
        self.init(unchecked: 1, omega * omega, 4 * .pi * Spring.dampingRatio(forBounce: bounce) / duration)
    }
}
