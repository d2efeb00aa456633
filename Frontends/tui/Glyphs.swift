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

/// Maps text to what terminal cells show: each scalar as itself in one or two columns, or dropped when it takes
/// none.
enum GlyphMapper {
    /// Whether `scalar` takes two columns: East Asian Wide and Fullwidth (UAX #11) — Hangul Jamo initials, CJK
    /// radicals to Yi, Hangul syllables, compatibility ideographs, vertical and fullwidth forms, the supplementary
    /// ideographic planes — and the emoji blocks terminals draw wide (Miscellaneous Symbols and Pictographs,
    /// Emoticons, Transport and Map, Supplemental Symbols and Pictographs, Symbols and Pictographs Extended-A).
    /// Coarse ranges, as `wcwidth` implementations use: a terminal that disagrees about a scalar shifts the rest of
    /// that row by a column until the next cursor move.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x1100 else { return false }
        if scalar.value >= 0x1160 && scalar.value < 0x2E80 { return false }  // Jamo vowels … punctuation: none
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` takes no column of its own: a combining or enclosing mark (it joins the character before
    /// it), a format character (zero-width space and joiners, marks of direction, the byte-order mark) or a
    /// variation selector.
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.value >= 0x300 else { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// What `scalar` looks like on a terminal: the scalar to write and the columns it takes (1 or 2), or nil for
    /// one that takes none (`isZeroWidth`: it is dropped, so that every cell the buffer holds is a column on
    /// screen). Control characters become spaces; in ASCII mode everything outside printable ASCII becomes an
    /// ASCII look-alike or `?`, one column.
    static func glyph(_ scalar: Unicode.Scalar, ascii: Bool) -> (scalar: Unicode.Scalar, columns: Int)? {
        let value = scalar.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return (" ", 1) }
        if value < 0x7F { return (scalar, 1) }
        if isZeroWidth(scalar) { return nil }
        if ascii {
            switch scalar {
            case "…", "·", "•": return (scalar == "…" ? "." : "*", 1)
            case "×", "✕", "✗": return ("x", 1)
            case "—", "–", "−", "─": return ("-", 1)
            case "’", "‘": return ("'", 1)
            case "“", "”": return ("\"", 1)
            case "→": return (">", 1)
            case "←": return ("<", 1)
            case "↑": return ("^", 1)
            case "↓": return ("v", 1)
            default: return ("?", 1)
            }
        }
        return (scalar, isWide(scalar) ? 2 : 1)
    }

    /// The columns `text` takes once mapped (`glyph`).
    static func columns(of text: String, ascii: Bool) -> Int {
        text.unicodeScalars.reduce(0) { $0 + (glyph($1, ascii: ascii)?.columns ?? 0) }
    }

    /// `text` with control characters as spaces, zero-width scalars dropped and, in ASCII mode, look-alikes: what
    /// `CellBuffer.put` lays out (wide characters stay; `put` gives them two cells).
    static func displayed(_ text: String, ascii: Bool) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let glyph = glyph(scalar, ascii: ascii) { scalars.append(glyph.scalar) }
        }
        return String(scalars)
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
