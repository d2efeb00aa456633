import CardEngine
import CardGeometry

/// Colour arithmetic on 8-bit RGB triples, for blending nodes into cells.
struct RGB8: Sendable, Hashable {
    var red: Double
    var green: Double
    var blue: Double

    init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour of an `RGBA` (components clamped to 0…1), ignoring alpha.
    init(_ color: RGBA) {
        let clamped = color.clamped
        red = clamped.red.isFinite ? clamped.red * 255 : 0
        green = clamped.green.isFinite ? clamped.green * 255 : 0
        blue = clamped.blue.isFinite ? clamped.blue * 255 : 0
    }

    /// The colour of a cell colour, or `fallback` for a non-RGB colour.
    init(_ color: CellColor, fallback: RGB8) {
        if case .rgb(let red, let green, let blue) = color.kind {
            self.init(red: Double(red), green: Double(green), blue: Double(blue))
        } else {
            self = fallback
        }
    }

    static let white = RGB8(red: 255, green: 255, blue: 255)
    static let black = RGB8(red: 0, green: 0, blue: 0)

    /// `self` over `under` with coverage `alpha` (0…1): straight linear interpolation in sRGB, as a terminal can
    /// only show one colour per cell.
    func over(_ under: RGB8, alpha: Double) -> RGB8 {
        let a = alpha.isFinite ? min(max(alpha, 0), 1) : 0
        return RGB8(
            red: under.red + (red - under.red) * a, green: under.green + (green - under.green) * a,
            blue: under.blue + (blue - under.blue) * a)
    }

    /// Relative luminance estimate (Rec. 709 weights) in 0…255, to choose contrasting outlines.
    var luminance: Double { 0.2126 * red + 0.7152 * green + 0.0722 * blue }

    /// The opaque `RGBA` of this colour.
    var rgba: RGBA { RGBA(red: red / 255, green: green / 255, blue: blue / 255) }

    var cellColor: CellColor {
        .rgb(
            UInt8(min(max(red.rounded(), 0), 255)), UInt8(min(max(green.rounded(), 0), 255)),
            UInt8(min(max(blue.rounded(), 0), 255)))
    }
}
