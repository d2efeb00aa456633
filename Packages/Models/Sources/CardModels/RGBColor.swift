/// An opaque sRGB colour with 8-bit channels. In JSON it is a `"#RRGGBB"` string.
public struct RGBColor: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The red channel, 0…255.
    public var red: UInt8
    /// The green channel, 0…255.
    public var green: UInt8
    /// The blue channel, 0…255.
    public var blue: UInt8

    /// A colour from three 8-bit sRGB channels.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `"#RRGGBB"` or `"RRGGBB"` (hex digits in either case); nil for anything else.
    public init?(hex: some StringProtocol) {
        var text = Substring(hex)
        if text.first == "#" { text = text.dropFirst() }
        guard text.count == 6, text.allSatisfy(\.isHexDigit), let value = UInt32(text, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// `"#RRGGBB"` in upper case.
    public var hex: String {
        let value = UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
        let digits = String(value, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    public var description: String { hex }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = RGBColor(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a colour must be \"#RRGGBB\", got '\(text)'")
        }
        self = color
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}

extension RGBColor {
    // The iOS system colours in sRGB, as SwiftUI's `Color.red` etc. render them in light mode
    // (Apple Human Interface Guidelines, "Color", system colors table).
    /// System red, #FF3B30.
    public static let red = RGBColor(red: 255, green: 59, blue: 48)
    /// System orange, #FF9500.
    public static let orange = RGBColor(red: 255, green: 149, blue: 0)
    /// System yellow, #FFCC00.
    public static let yellow = RGBColor(red: 255, green: 204, blue: 0)
    /// System green, #34C759.
    public static let green = RGBColor(red: 52, green: 199, blue: 89)
    /// System mint, #00C7BE.
    public static let mint = RGBColor(red: 0, green: 199, blue: 190)
    /// System teal, #30B0C7.
    public static let teal = RGBColor(red: 48, green: 176, blue: 199)
    /// System cyan, #32ADE6.
    public static let cyan = RGBColor(red: 50, green: 173, blue: 230)
    /// System blue, #007AFF.
    public static let blue = RGBColor(red: 0, green: 122, blue: 255)
    /// System indigo, #5856D6.
    public static let indigo = RGBColor(red: 88, green: 86, blue: 214)
    /// System purple, #AF52DE.
    public static let purple = RGBColor(red: 175, green: 82, blue: 222)
    /// System pink, #FF2D55.
    public static let pink = RGBColor(red: 255, green: 45, blue: 85)
    /// System brown, #A2845E.
    public static let brown = RGBColor(red: 162, green: 132, blue: 94)
    /// System gray, #8E8E93.
    public static let gray = RGBColor(red: 142, green: 142, blue: 147)
    /// White, #FFFFFF.
    public static let white = RGBColor(red: 255, green: 255, blue: 255)
    /// Black, #000000.
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
}
