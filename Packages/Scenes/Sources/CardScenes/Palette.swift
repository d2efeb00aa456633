import CardGeometry
import CardModels

extension RGBA {
    /// The same colour as an opaque `RGBA`.
    public init(_ color: RGBColor) {
        self.init(red: Double(color.red) / 255, green: Double(color.green) / 255, blue: Double(color.blue) / 255)
    }

    /// The colour with its alpha multiplied by `opacity`.
    public func opacity(_ opacity: Double) -> RGBA {
        RGBA(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }
}

/// Colours the scenes share (iOS system colours in light mode).
enum Palette {
    static let background = RGBA(red: 0.95, green: 0.95, blue: 0.97)
    static let text = RGBA.black
    static let secondaryText = RGBA(red: 0.56, green: 0.56, blue: 0.58)
    static let white = RGBA.white
    static let hairline = RGBA(red: 0.78, green: 0.78, blue: 0.8)
    static let accent = RGBA(RGBColor.blue)
    static let focus = RGBA(red: 1, green: 0.8, blue: 0)
}
