import CardEngine

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
    /// Whether `scalar` takes two columns (the engine's table, `TextLayout.isWide`, so that text the engine wraps
    /// in cells and the cells drawn agree).
    static func isWide(_ scalar: Unicode.Scalar) -> Bool { TextLayout.isWide(scalar) }

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
