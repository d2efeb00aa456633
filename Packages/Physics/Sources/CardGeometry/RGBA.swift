/// A colour as red, green, blue and alpha components in 0…1 (sRGB, not premultiplied). Components are not
/// clamped here, so animation may overshoot; clamp when displaying.
public struct RGBA: Sendable, Hashable, Codable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Transparent black.
    public static let clear = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = RGBA(red: 0, green: 0, blue: 0)
    public static let white = RGBA(red: 1, green: 1, blue: 1)

    /// The colour with every component clamped to 0…1.
    public var clamped: RGBA {
        RGBA(
            red: min(max(red, 0), 1), green: min(max(green, 0), 1), blue: min(max(blue, 0), 1),
            alpha: min(max(alpha, 0), 1))
    }
}
