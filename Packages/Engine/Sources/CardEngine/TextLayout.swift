import Foundation

/// Measures text for layout: the front end's seam for text metrics, so scenes lay text out knowing its size.
///
/// Widths are taken to add up: the width of "a b" is the width of "a", of " " and of "b" (true of a terminal's
/// cells and, but for kerning, of a proportional font), so line breaking measures each word once.
///
/// The terminal UI measures in cells (each grapheme cluster is 0, 1 or 2 columns wide, a line is one row); a
/// graphical host measures with its fonts, or uses `StandardTextMeasurer`, whose metrics the stdio protocol
/// documents. Widths and heights are in points.
public protocol TextMeasurer: Sendable {
    /// The advance width of `text` on one line, in points.
    func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double
    /// The height of one line of `style`, in points (the distance from one baseline to the next).
    func lineHeight(of style: TextStyle) -> Double
    /// The grid the front end draws on, which scenes lay out on (`LayoutGrid`): a terminal's cells, or
    /// `LayoutGrid.continuous` (the default) for a graphical host.
    var layoutGrid: LayoutGrid { get }
}

extension TextMeasurer {
    /// No grid: a graphical host's layouts are not rounded.
    public var layoutGrid: LayoutGrid { .continuous }
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
        // ASCII is one cluster a byte, never wide: no grapheme breaking needed.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return Double(text.utf8.count) * narrow }
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
    /// Explicit newlines always break. Spaces at a line break are dropped. Each word is measured once (widths
    /// add up, see `TextMeasurer`): O(characters), plus O(length · log length) for a word broken across lines.
    public static func lines(
        _ text: String, width: Double, style: TextStyle, weight: TextWeight, lineLimit: Int? = nil,
        measurer: any TextMeasurer
    ) -> [String] {
        if let caching = measurer as? CachingTextMeasurer {
            return caching.lines(
                CachingTextMeasurer.Key(text: text, width: width, style: style, weight: weight, lineLimit: lineLimit))
        }
        return breakLines(text, width: width, style: style, weight: weight, lineLimit: lineLimit, measurer: measurer)
    }

    /// `lines(_:width:style:weight:lineLimit:measurer:)` without a cache.
    static func breakLines(
        _ text: String, width: Double, style: TextStyle, weight: TextWeight, lineLimit: Int?,
        measurer: any TextMeasurer
    ) -> [String] {
        let maximum = max(0, width)
        func measure(_ line: Substring) -> Double { measurer.width(of: line, style: style, weight: weight) }
        let space = measure(" ")
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            var currentWidth = 0.0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let wordWidth = measure(word)
                let candidateWidth = current.isEmpty ? wordWidth : currentWidth + space + wordWidth
                if candidateWidth <= maximum {
                    current = current.isEmpty ? String(word) : current + " " + word
                    currentWidth = candidateWidth
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
                currentWidth = measure(rest)
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

    /// Whether a grapheme cluster takes two columns in a terminal and about 1 em in a proportional font
    /// (`columns(of:)` is 2).
    public static func isWide(_ cluster: Character) -> Bool { columns(of: cluster) == 2 }

    /// The columns a grapheme cluster (UAX #29, as Swift's `Character` segments text) takes in a terminal: 0, 1
    /// or 2, by the conventions of `wcwidth` (Markus Kuhn's reference implementation) and UAX #11, extended to
    /// whole clusters as terminals that draw clusters do (kitty, WezTerm, foot):
    /// - an emoji that asks for emoji presentation with VARIATION SELECTOR-16 (U+FE0F, UTS #51 §4) is 2 (❤️, the
    ///   keycap 1️⃣);
    /// - a flag, two regional indicators (UTS #51 §1.4.5), is 2;
    /// - a zero-width-joiner sequence or a modifier sequence of emoji (👨‍👩‍👧‍👦, 👍🏽) is 2, the width of one emoji;
    /// - any other cluster is the sum of its scalars' widths (`columns(of:)` for scalars: combining marks and
    ///   joiners 0, so "e\u{301}" is 1; a Hangul syllable of conjoining jamo 2), at most 2.
    ///
    /// O(scalars of the cluster).
    public static func columns(of cluster: Character) -> Int {
        let scalars = cluster.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let first = iterator.next() else { return 0 }
        guard let second = iterator.next() else { return columns(of: first) }
        if isRegionalIndicator(first) && isRegionalIndicator(second) { return 2 }
        // Emoji (UTS #51): digits, # and * are emoji only as keycaps, with U+FE0F.
        let emoji = first.properties.isEmoji && (first.value >= 0x80 || second.value == 0xFE0F)
        var total = columns(of: first) + columns(of: second)
        if emoji && (second.value == 0xFE0F || second.value == 0x200D || second.properties.isEmojiModifier) {
            return 2
        }
        while let scalar = iterator.next() {
            if emoji && (scalar.value == 0xFE0F || scalar.value == 0x200D) { return 2 }
            total += columns(of: scalar)
        }
        return min(total, 2)
    }

    /// The columns one scalar takes in a terminal: 0 for combining and enclosing marks, format characters (the
    /// zero-width space and joiners, marks of direction), variation selectors and Hangul medial vowels and final
    /// consonants (U+1160–U+11FF, U+D7B0–U+D7FF, which join the initial consonant before them: `wcwidth`); 2 for
    /// `isWide(_:)`; else 1 (control characters included: the terminal UI draws them as spaces).
    public static func columns(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return 1 }
        if isWide(scalar) { return 2 }
        if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    /// Whether `scalar` is a regional indicator (U+1F1E6–U+1F1FF): two of them make a flag.
    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool { (0x1F1E6...0x1F1FF).contains(scalar.value) }

    /// Whether `scalar` takes two columns: East Asian Wide and Fullwidth (UAX #11) — Hangul Jamo initials, CJK
    /// radicals to Yi, Hangul syllables, compatibility ideographs, vertical and fullwidth forms, the supplementary
    /// ideographic planes — and the emoji blocks terminals draw wide (Miscellaneous Symbols and Pictographs,
    /// Emoticons, Transport and Map, Supplemental Symbols and Pictographs, Symbols and Pictographs Extended-A), plus
    /// every other scalar with default emoji presentation (Emoji_Presentation=Yes, UTS #51; UAX #11 gives them all
    /// East Asian Width W: ⌚, ☕, ⭐, 🀄) except the regional indicators, which are wide only in pairs. Coarse
    /// ranges, as `wcwidth` implementations use. The one table both the engine's measurers and the terminal UI's
    /// cells use.
    public static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        if value >= 0x1160 && value < 0x2E80 {
            // Jamo vowels … punctuation: none but the emoji-presentation symbols of U+231A–U+2B55 (box drawing and
            // block elements, U+2500–U+25FC, are answered without a property look-up).
            guard value >= 0x231A && value <= 0x2B55 && !(value >= 0x2500 && value < 0x25FD) else { return false }
            return scalar.properties.isEmojiPresentation
        }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F680...0x1F6FF, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            return true
        case 0x1F000...0x1F2FF, 0x1F650...0x1F67F, 0x1F700...0x1F8FF:
            return !isRegionalIndicator(scalar) && scalar.properties.isEmojiPresentation
        default:
            return false
        }
    }
}

/// A measurer that remembers the lines it has broken, for the engine's layouts: a scene laid out again on every
/// pointer move wraps the same texts in the same widths each time. Wraps another measurer; the cache holds at most
/// `capacity` entries (it starts over when full) and is shared by copies of the engine (its entries depend only on
/// their key and the wrapped measurer).
final class CachingTextMeasurer: TextMeasurer, @unchecked Sendable {
    struct Key: Hashable {
        var text: String
        var width: Double
        var style: TextStyle
        var weight: TextWeight
        var lineLimit: Int?
    }

    let base: any TextMeasurer
    let capacity: Int
    private let lock = NSLock()
    private var cache: [Key: [String]] = [:]

    init(_ base: any TextMeasurer, capacity: Int = 4096) {
        self.base = base
        self.capacity = capacity
    }

    func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double {
        base.width(of: text, style: style, weight: weight)
    }

    func lineHeight(of style: TextStyle) -> Double { base.lineHeight(of: style) }

    var layoutGrid: LayoutGrid { base.layoutGrid }

    /// The lines of `key`'s text, from the cache or broken now with the wrapped measurer.
    func lines(_ key: Key) -> [String] {
        if let lines = lock.withLock({ cache[key] }) { return lines }
        let lines = TextLayout.breakLines(
            key.text, width: key.width, style: key.style, weight: key.weight, lineLimit: key.lineLimit,
            measurer: base)
        lock.withLock {
            if cache.count >= capacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = lines
        }
        return lines
    }
}
