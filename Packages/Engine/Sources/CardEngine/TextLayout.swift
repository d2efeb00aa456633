/// Measures text for layout: the front end's seam for text metrics, so scenes lay text out knowing its size.
///
/// The terminal UI measures in cells (each grapheme cluster is 0, 1 or 2 columns wide, a line is one row); a
/// graphical host measures with its fonts, or uses `StandardTextMeasurer`, whose metrics the stdio protocol
/// documents. Widths and heights are in points.
public protocol TextMeasurer: Sendable {
    /// The advance width of `text` on one line, in points.
    func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double
    /// The height of one line of `style`, in points (the distance from one baseline to the next).
    func lineHeight(of style: TextStyle) -> Double
}

/// Metrics of Apple's system font at the default dynamic-type size, as a host without its own fonts can assume:
/// point sizes per text style (largeTitle 34, title 28, headline 17, body 17, footnote 13, caption 12: Apple's Human
/// Interface Guidelines, "Typography", large size), an average advance of 0.55 em per grapheme cluster (0.6 em bold
/// or heavy; wide clusters such as CJK and emoji 1 em) and a line height of 1.2 em.
public struct StandardTextMeasurer: TextMeasurer, Hashable {
    /// A measurer with the standard metrics.
    public init() {}

    /// The point size of `style`.
    public static func pointSize(of style: TextStyle) -> Double {
        switch style {
        case .largeTitle: 34
        case .title: 28
        case .headline, .body: 17
        case .footnote: 13
        case .caption: 12
        }
    }

    public func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double {
        let size = Self.pointSize(of: style)
        let narrow = (weight == .regular ? 0.55 : 0.6) * size
        var width = 0.0
        for cluster in text {
            width += TextLayout.isWide(cluster) ? size : narrow
        }
        return width
    }

    public func lineHeight(of style: TextStyle) -> Double { 1.2 * Self.pointSize(of: style) }
}

/// Line breaking: wraps text at word boundaries inside a width, breaks a word longer than a line between grapheme
/// clusters, and ends the last allowed line with "…" only when text is left over (SwiftUI's `Text` with
/// `.lineLimit(n)` and the default tail truncation).
public enum TextLayout {
    /// The ellipsis that ends a truncated line.
    public static let ellipsis = "…"

    /// The lines `text` takes inside `width` points, at most `lineLimit` of them (nil: as many as it needs).
    /// Explicit newlines always break. Spaces at a line break are dropped. O(characters × log(word length)).
    public static func lines(
        _ text: String, width: Double, style: TextStyle, weight: TextWeight, lineLimit: Int? = nil,
        measurer: any TextMeasurer
    ) -> [String] {
        let maximum = max(0, width)
        func measure(_ line: Substring) -> Double { measurer.width(of: line, style: style, weight: weight) }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if measure(candidate[...]) <= maximum {
                    current = candidate
                    continue
                }
                if !current.isEmpty { lines.append(current) }
                // The word alone: break it between clusters while it is wider than a line.
                var rest = word
                while rest.count > 1, measure(rest) > maximum {
                    let cut = longestPrefix(of: rest, fitting: maximum, measure: measure)
                    lines.append(String(rest[..<cut]))
                    rest = rest[cut...]
                }
                current = String(rest)
            }
            lines.append(current)
        }
        guard let lineLimit, lines.count > max(1, lineLimit) else { return lines }
        // Over the limit: the last allowed line takes the rest of the text, cut to fit with "…".
        let kept = max(1, lineLimit)
        let rest = lines[(kept - 1)...].joined(separator: " ")
        return Array(lines[..<(kept - 1)]) + [elided(rest, width: maximum, measure: measure)]
    }

    /// `line` shortened so that it and a trailing "…" fit `width` (the ellipsis alone if nothing else fits).
    static func elided(_ line: String, width: Double, measure: (Substring) -> Double) -> String {
        var kept = Substring(line)
        while !kept.isEmpty, measure((kept + ellipsis)[...]) > width {
            kept = kept.dropLast()
        }
        while kept.last == " " { kept = kept.dropLast() }
        return String(kept) + ellipsis
    }

    /// The end of the longest non-empty prefix of `word` no wider than `width` (at least one cluster).
    static func longestPrefix(of word: Substring, fitting width: Double, measure: (Substring) -> Double)
        -> Substring.Index
    {
        var low = 1
        var high = word.count
        while low < high {
            let middle = (low + high + 1) / 2
            if measure(word.prefix(middle)) <= width { low = middle } else { high = middle - 1 }
        }
        return word.index(word.startIndex, offsetBy: low)
    }

    /// Whether a grapheme cluster takes two columns in a terminal and about 1 em in a proportional font: East
    /// Asian wide and fullwidth characters and emoji presentation (Unicode UAX #11 and UTS #51, by block).
    public static func isWide(_ cluster: Character) -> Bool {
        guard let scalar = cluster.unicodeScalars.first else { return false }
        if cluster.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return true }  // emoji presentation
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
