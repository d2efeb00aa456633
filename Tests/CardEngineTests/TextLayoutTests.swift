import CardEngine
import CardModels
import Testing

/// A terminal-like measurer: one point per cluster, two for wide ones, one point per line.
struct CellMeasurer: TextMeasurer {
    func width(of text: Substring, style: TextStyle, weight: TextWeight) -> Double {
        text.reduce(0) { $0 + (TextLayout.isWide($1) ? 2 : 1) }
    }
    func lineHeight(of style: TextStyle) -> Double { 1 }
}

@Suite struct TextLayoutTests {
    let measurer = CellMeasurer()

    func lines(_ text: String, _ width: Double, limit: Int? = nil) -> [String] {
        TextLayout.lines(text, width: width, style: .body, weight: .regular, lineLimit: limit, measurer: measurer)
    }

    @Test func wrapsAtWordBoundaries() {
        #expect(lines("What is the capital of France?", 12) == ["What is the", "capital of", "France?"])
        #expect(lines("short", 12) == ["short"])
        #expect(lines("", 12) == [""])
        #expect(lines("one\ntwo three", 20) == ["one", "two three"])
    }

    @Test func breaksAWordLongerThanALineBetweenClusters() {
        #expect(lines("Supercalifragilistic", 8) == ["Supercal", "ifragili", "stic"])
        // A combining accent stays with its letter; a family emoji is one cluster of width 2.
        #expect(lines("e\u{301}e\u{301}e\u{301}", 2) == ["e\u{301}e\u{301}", "e\u{301}"])
        #expect(lines("👨‍👩‍👧‍👦👨‍👩‍👧‍👦", 3) == ["👨‍👩‍👧‍👦", "👨‍👩‍👧‍👦"])
    }

    @Test func truncatesTheLastAllowedLineWithAnEllipsisOnlyWhenTextIsLeft() {
        #expect(lines("What is the capital of France?", 12, limit: 2) == ["What is the", "capital of…"])
        #expect(lines("What is the capital of France?", 12, limit: 3) == ["What is the", "capital of", "France?"])
        #expect(lines("What is the capital of France?", 30, limit: 1) == ["What is the capital of France?"])
        #expect(lines("What is the capital of France?", 10, limit: 1) == ["What is t…"])
    }

    /// Seeded property test: lines fit, no word is lost or reordered, the limit holds, and "…" appears exactly when
    /// the text did not fit the limit.
    @Test func propertiesHoldForRandomText() {
        var random = SplitMix64(seed: 0x7E47)
        let words = ["a", "to", "the", "card", "deck", "spring", "élan", "渋谷", "🂡", "reorder", "matched-geometry"]
        for _ in 0..<3000 {
            let count = Int(random.next() % 12)
            let text = (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
            let width = Double(4 + random.next() % 20)
            let unlimited = lines(text, width)
            for line in unlimited where line.count > 1 {
                #expect(measurer.width(of: line[...], style: .body, weight: .regular) <= width, "\(line) in \(width)")
            }
            #expect(
                unlimited.joined().replacingOccurrences(of: " ", with: "")
                    == text.replacingOccurrences(of: " ", with: ""))
            let limit = 1 + Int(random.next() % 3)
            let limited = lines(text, width, limit: limit)
            #expect(limited.count <= limit)
            let cut = unlimited.count > limit
            #expect(limited.last?.hasSuffix(TextLayout.ellipsis) == cut, "\(text) in \(width) × \(limit)")
            if !cut { #expect(limited == unlimited) }
            for line in limited {
                #expect(measurer.width(of: line[...], style: .body, weight: .regular) <= max(width, 2))
            }
        }
    }

    @Test func theStandardMeasurerFollowsTheSystemFontSizes() {
        let standard = StandardTextMeasurer()
        #expect(StandardTextMeasurer.pointSize(of: .largeTitle) == 34)
        #expect(standard.lineHeight(of: .body) == 17 * 1.2)
        #expect(standard.width(of: "abcd", style: .body, weight: .regular) == 4 * 0.55 * 17)
        #expect(standard.width(of: "渋", style: .caption, weight: .bold) == 12)
    }
}
