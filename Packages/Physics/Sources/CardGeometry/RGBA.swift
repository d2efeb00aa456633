/// A colour as red, green, blue and alpha components in 0…1 (sRGB, not premultiplied). Components are not
/// clamped here, so animation may overshoot; clamp when displaying.
public struct RGBA: Sendable, Hashable, Codable {
    /// The red component, 0…1.
    public var red: Double
    /// The green component, 0…1.
    public var green: Double
    /// The blue component, 0…1.
    public var blue: Double
    /// The opacity, from 0 (transparent) to 1 (opaque).
    public var alpha: Double

    /// A colour from components in 0…1; opaque unless `alpha` says otherwise.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Transparent black.
    public static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = RGBA(red: 0, green: 0, blue: 0)
    /// Opaque white.
    public static let white = RGBA(red: 1, green: 1, blue: 1)

    /// The colour with every component clamped to 0…1.
    public var clamped: RGBA {
        RGBA(
            red: min(max(red, 0), 1), green: min(max(green, 0), 1), blue: min(max(blue, 0), 1),
            alpha: min(max(alpha, 0), 1))
    }
}
