/// The characters boxes and lines are drawn with: rounded or square box-drawing, or plain ASCII for `--ascii`
/// (box-drawing characters are East Asian "ambiguous width" and render double-wide in some locales).
struct BoxGlyphs: Sendable {
    var horizontal: Unicode.Scalar
    var vertical: Unicode.Scalar
    var topLeft: Unicode.Scalar
    var topRight: Unicode.Scalar
    var bottomLeft: Unicode.Scalar
    var bottomRight: Unicode.Scalar

    static let rounded = BoxGlyphs(
        horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯")
    static let square = BoxGlyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
    static let ascii = BoxGlyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")
}

/// Maps text to what one terminal cell can show.
enum GlyphMapper {
    /// Whether `scalar` takes two columns (East Asian Wide / Fullwidth and emoji blocks; UAX #11, coarse ranges).
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// A single-width stand-in for `scalar`: control characters become spaces, wide characters a bullet, and in
    /// ASCII mode everything outside printable ASCII an ASCII look-alike or `?`.
    static func cell(_ scalar: Unicode.Scalar, ascii: Bool) -> Unicode.Scalar {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return " " }
        if value < 0x7F { return scalar }
        if ascii {
            switch scalar {
            case "…", "·", "•": return scalar == "…" ? "." : "*"
            case "×", "✕", "✗": return "x"
            case "—", "–", "−", "─": return "-"
            case "’", "‘": return "'"
            case "“", "”": return "\""
            case "→": return ">"
            case "←": return "<"
            case "↑": return "^"
            case "↓": return "v"
            default: return "?"
            }
        }
        if isWide(scalar) || (value >= 0xFE00 && value <= 0xFE0F) || (value >= 0x200B && value <= 0x200F) {
            return "•"
        }
        return scalar
    }
}

/// SF Symbols names (what the seeds' `Image(systemName:)` icons are called) as one terminal cell: a single-width
/// text-presentation glyph for the symbols the seeds use, else the name's first letter (always in ASCII mode).
enum SymbolGlyphs {
    static let table: [String: Unicode.Scalar] = [
        "sun": "☀", "cloud": "☁", "rain": "☂", "snow": "❄", "snowflake": "❄", "leaf": "❦", "flame": "♨",
        "drop": "◆", "star": "★", "heart": "♥", "bolt": "ϟ", "moon": "☾", "plus": "⊕", "music": "♪", "cross": "✚",
        "book": "▤", "film": "▦", "cart": "▣", "bag": "◘", "tram": "▥", "cup": "▿", "fork": "ψ", "applelogo": "◉",
        "fuelpump": "▮", "figure": "☺", "xmark": "✕",
    ]

    /// Whether `name` looks like an SF Symbols name with a known glyph (for buttons, whose text may be a label).
    static func isKnownSymbol(_ name: String) -> Bool {
        name.split(separator: ".").contains { table[String($0)] != nil }
    }

    /// The glyph for an SF Symbols `name` (`cloud.rain.fill` → ☂: the most specific known component wins).
    static func glyph(for name: String, ascii: Bool) -> String {
        let parts = name.split(separator: ".").map(String.init)
        guard let first = parts.first, !first.isEmpty else { return name }
        if ascii {
            switch first {
            case "plus": return "+"
            case "xmark": return "x"
            default: return String(first.prefix(1)).uppercased()
            }
        }
        for part in parts.reversed() {
            if let glyph = table[part] { return String(glyph) }
        }
        return String(first.prefix(1)).uppercased()
    }
}
