import CardEngine
import Foundation

/// The characters boxes and lines are drawn with: rounded or square box-drawing, or plain ASCII for `--ascii`
/// (box-drawing characters are East Asian "ambiguous width" and render double-wide in some locales).
package struct BoxGlyphs: Sendable {
    package var horizontal: Glyph
    package var vertical: Glyph
    package var topLeft: Glyph
    package var topRight: Glyph
    package var bottomLeft: Glyph
    package var bottomRight: Glyph

    package static let rounded = BoxGlyphs(
        horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯")
    package static let square = BoxGlyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘")
    package static let ascii = BoxGlyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+")
}

/// How text reaches the terminal's cells.
///
/// `--ascii` limits the TUI's own decoration (boxes, symbols, bars, typographic punctuation) to ASCII and keeps the
/// user's text; only a terminal that cannot show non-ASCII text at all (a locale whose character set is not UTF-8,
/// see `TextEncoding.detect`) gets transliterated text.
public enum TextEncoding: Sendable, Hashable {
    /// The terminal shows any text (a UTF-8 locale).
    case unicode
    /// The terminal shows ASCII only: text is transliterated (`GlyphMapper.transliterated`).
    case ascii

    /// The encoding the locale environment asks for: the first non-empty of `LC_ALL`, `LC_CTYPE` and `LANG`
    /// (POSIX.1-2017 §8.2, "Internationalization Variables", in that order of precedence) names the character
    /// set; "C" and "POSIX" (the portable character set) and a locale whose codeset is not UTF-8
    /// ("en_US.ISO-8859-1") are ASCII. With none set, a UTF-8 terminal is assumed (every current terminal is one;
    /// containers often leave the locale unset).
    public static func detect(environment: [String: String]) -> TextEncoding {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let locale else { return .unicode }
        let lowered = locale.lowercased()
        if lowered.contains("utf-8") || lowered.contains("utf8") { return .unicode }
        return .ascii
    }
}

/// Maps text to what terminal cells show: grapheme cluster by grapheme cluster (UAX #29, as Swift's `Character`
/// segments text), each as one `Glyph` of its display width (`TextLayout.columns(of:)`: 1 or 2 columns), or
/// dropped when it takes none.
package enum GlyphMapper {
    /// Whether `scalar` takes two columns (the engine's table, `TextLayout.isWide`, so that text the engine wraps
    /// in cells and the cells drawn agree).
    package static func isWide(_ scalar: Unicode.Scalar) -> Bool { TextLayout.isWide(scalar) }

    /// The ASCII look-alikes of the typographic characters the TUI's own text uses (kept out of `--ascii` screens:
    /// most are East Asian "ambiguous width" and drawn double-wide in some locales).
    package static let decorationLookAlikes: [Unicode.Scalar: Unicode.Scalar] = [
        "…": ".", "·": "*", "•": "*", "×": "x", "✕": "x", "✗": "x", "—": "-", "–": "-", "−": "-", "─": "-",
        "’": "'", "‘": "'", "“": "\"", "”": "\"", "→": ">", "←": "<", "↑": "^", "↓": "v",
    ]

    /// What `cluster` looks like on a terminal: the glyph to write and the columns it takes (1 or 2), or nil for a
    /// cluster that takes none (a lone combining mark, a zero-width space: dropped, so that every cell the buffer
    /// holds is a column on screen). Control characters become spaces. With `decoration`, typographic characters
    /// become their ASCII look-alikes (`decorationLookAlikes`); with `encoding` `.ascii`, everything outside ASCII is
    /// transliterated (`transliterated(_:)`). O(scalars of the cluster).
    package static func glyph(_ cluster: Character, decoration: Bool = false, encoding: TextEncoding = .unicode) -> (
        glyph: Glyph, columns: Int
    )? {
        let scalars = cluster.unicodeScalars
        guard let first = scalars.first else { return nil }
        let value = first.value
        if value < 0x20 || (value >= 0x7F && value < 0xA0) { return (" ", 1) }
        if value < 0x7F && scalars.count == 1 { return (Glyph(first), 1) }
        if decoration, scalars.count == 1, let lookAlike = decorationLookAlikes[first] { return (Glyph(lookAlike), 1) }
        let columns = TextLayout.columns(of: cluster)
        guard columns > 0 else { return nil }
        if encoding == .ascii { return (Glyph(transliterated(cluster)), 1) }
        return (Glyph(cluster), columns)
    }

    /// `cluster` in ASCII, for a terminal that shows nothing else: its canonical decomposition (UAX #15, NFD)
    /// without the combining marks ("é" and "e\u{301}" → "e", "Å" → "A"), a look-alike for typographic
    /// characters (`decorationLookAlikes`), else "?". One ASCII character.
    package static func transliterated(_ cluster: Character) -> Character {
        if let ascii = cluster.unicodeScalars.first, ascii.isASCII, ascii.value >= 0x20 { return Character(ascii) }
        for scalar in String(cluster).decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.isASCII && scalar.value >= 0x20 { return Character(scalar) }
        }
        if let first = cluster.unicodeScalars.first, let lookAlike = decorationLookAlikes[first] {
            return Character(lookAlike)
        }
        return "?"
    }

    /// The columns `text` takes once mapped (`glyph`). O(characters); ASCII text without a cluster walk.
    package static func columns(of text: Substring, decoration: Bool = false, encoding: TextEncoding = .unicode) -> Int
    {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.reduce(0) { $0 + (glyph($1, decoration: decoration, encoding: encoding)?.columns ?? 0) }
    }

    /// `columns(of:)` for a `String`.
    package static func columns(of text: String, decoration: Bool = false, encoding: TextEncoding = .unicode) -> Int {
        columns(of: text[...], decoration: decoration, encoding: encoding)
    }

    /// `text` with control characters as spaces, zero-width clusters dropped and, with `decoration` or an ASCII
    /// `encoding`, look-alikes: what `CellBuffer.put` lays out (wide clusters stay; `put` gives them two cells).
    package static func displayed(_ text: String, decoration: Bool = false, encoding: TextEncoding = .unicode) -> String
    {
        var result = ""
        for cluster in text {
            if let glyph = glyph(cluster, decoration: decoration, encoding: encoding) {
                result += glyph.glyph.string
            }
        }
        return result
    }
}

/// SF Symbols names (what the seeds' `Image(systemName:)` icons are called) as one terminal cell, from the table
/// every front end shares (`Symbols`): its single-width glyph, or its ASCII character in ASCII mode. A name not in
/// the table shows its first letter; no scene draws one (`TerminalModeTests` and `WireContractTests` check every symbol
/// each scene of the catalogue draws).
enum SymbolGlyphs {
    /// The cell for the symbol `name`. O(1).
    static func glyph(for name: String, ascii: Bool) -> String {
        guard let symbol = Symbols.named(name) else { return String(name.prefix(1)).uppercased() }
        return String(ascii ? symbol.asciiGlyph : symbol.cellGlyph)
    }
}
