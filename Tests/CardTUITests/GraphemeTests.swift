import CardEngine
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// Text is drawn grapheme cluster by grapheme cluster (UAX #29) with its display width: combining marks, zero-width
/// joiner sequences, variation selectors and flags stay whole in one cell (two for a wide cluster), reach the
/// terminal whole, and are measured for the engine exactly as they are drawn.
@Suite struct GraphemeTests {
    static let decomposed = "Cafe\u{301}"  // "Café" with a combining acute accent
    static let family = "👨‍👩‍👧‍👦"  // man ZWJ woman ZWJ girl ZWJ boy
    static let heart = "\u{2764}\u{FE0F}"  // ❤ with VARIATION SELECTOR-16: emoji presentation
    static let flag = "🇫🇷"  // two regional indicators

    @Test func clusterWidths() {
        #expect(TextLayout.columns(of: Character("e\u{301}")) == 1)
        #expect(TextLayout.columns(of: Character(Self.family)) == 2)
        #expect(TextLayout.columns(of: Character(Self.heart)) == 2)
        #expect(TextLayout.columns(of: Character("\u{2764}")) == 1, "text presentation by default")
        #expect(TextLayout.columns(of: Character(Self.flag)) == 2)
        #expect(TextLayout.columns(of: Character("👍🏽")) == 2, "an emoji modifier sequence")
        #expect(TextLayout.columns(of: Character("1\u{FE0F}\u{20E3}")) == 2, "a keycap")
        #expect(TextLayout.columns(of: Character("\u{1112}\u{1161}\u{11AB}")) == 2, "a Hangul syllable of jamo")
        #expect(TextLayout.columns(of: Character("\u{231A}")) == 2, "⌚ has emoji presentation (EAW W)")
        #expect(TextLayout.columns(of: Character("\u{301}")) == 0, "a lone combining mark")
        #expect(TextLayout.columns(of: Character("─")) == 1)
        #expect(TextLayout.isWide(Character(Self.heart)))
    }

    @Test func aCellHoldsAWholeClusterAndCellsCompareByValue() {
        let table = GlyphTable(capacity: 2)
        let first = Glyph(Character(Self.family), table: table)
        #expect(first.isCluster && first.isWide)
        #expect(table.cluster(at: 0) == Self.family)
        #expect(Glyph(Character(Self.family), table: table) == first, "equal clusters are one entry")
        let second = Glyph(Character("e\u{301}"), table: table)
        #expect(second.isCluster && !second.isWide && second != first)
        // Full: a stand-in of the cluster's width.
        let standIn = Glyph(Character(Self.flag), table: table)
        #expect(!standIn.isCluster && standIn.isWide)
        #expect(table.count == 2)
        // One-scalar clusters are their scalar; the shared table interns the rest once.
        #expect(Glyph(Character("é")) == "é")
        #expect(Glyph(Character(Self.heart)) == Glyph(Character(Self.heart)))
        #expect(MemoryLayout<Cell>.size <= 13)
    }

    @Test func putKeepsEveryClusterWholeAtItsWidth() {
        var buffer = CellBuffer(width: 16, height: 1)
        let end = buffer.put(
            Self.decomposed + Self.family + Self.heart + Self.flag + "!", column: 0, row: 0,
            foreground: .terminalDefault)
        #expect(end == 11)
        #expect(buffer[3, 0].character.string == "e\u{301}")
        #expect(buffer[4, 0].character.string == Self.family)
        #expect(buffer[5, 0].isWideContinuation)
        #expect(buffer[6, 0].character.string == Self.heart)
        #expect(buffer[7, 0].isWideContinuation)
        #expect(buffer[8, 0].character.string == Self.flag)
        #expect(buffer[9, 0].isWideContinuation)
        #expect(buffer[10, 0].character == "!")
        #expect(buffer.text(row: 0) == Self.decomposed + Self.family + Self.heart + Self.flag + "!     ")
        // Half of a wide cluster cut off by a box edge is repaired to a space, like any wide character.
        buffer[5, 0] = Cell("|")
        buffer.repairWideCharacters()
        #expect(buffer[4, 0].character == " ")
    }

    /// The writer's bytes carry whole clusters: all their scalars, once per cluster, with the cursor counted by the
    /// cluster's width; a terminal that joins clusters shows exactly the buffer.
    @Test func theWriterWritesWholeClusters() {
        var buffer = CellBuffer(width: 12, height: 2)
        buffer.put(Self.decomposed + " " + Self.heart + "x", column: 0, row: 0, foreground: .terminalDefault)
        buffer.put(Self.family + Self.flag + "y", column: 1, row: 1, foreground: .terminalDefault)
        var writer = CellScreen(backend: ANSIWriter())
        var output: [UInt8] = []
        writer.render(buffer, into: &output)
        // Each cluster of several scalars is followed by an explicit cursor move (terminals disagree on their
        // widths: the rest of the row stays where it belongs either way); a wide one is preceded by two spaces in
        // its style, so that a terminal drawing it one column wide still shows the second cell's background.
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("Cafe\u{301}\u{1B}[1;5H   \u{1B}[1;6H\(Self.heart)\u{1B}[1;8Hx"))
        #expect(text.contains("  \u{1B}[2;2H\(Self.family)\u{1B}[2;4H  \u{1B}[2;4H\(Self.flag)\u{1B}[2;6Hy"))
        var model = ScreenModel(width: 12, height: 2)
        model.apply(output)
        #expect(model.screen == buffer)
        #expect(model.unexpected.isEmpty)
        // A changed cluster alone is written whole, after one cursor move.
        buffer.put("a\u{308}", column: 3, row: 0, foreground: .terminalDefault)  // "ä", decomposed
        output.removeAll()
        writer.render(buffer, into: &output)
        #expect(output == Array("\u{1B}[1;4Ha\u{308}".utf8))
        model.apply(output)
        #expect(model.screen == buffer)
    }

    static func card(_ title: String, width: Double = 160) -> Frame {
        TestFrames.frame(
            [TestFrames.node("card", x: 0, y: 0, width: width, height: 48, text: [TestFrames.run(title)])],
            width: 320, height: 96)
    }

    static func row(containing text: String, in buffer: CellBuffer) -> String? {
        (0..<buffer.height).map { buffer.text(row: $0) }.first { $0.contains(text) }
    }

    @Test func theRasterizerDrawsClustersWhole() {
        var buffer = CellBuffer(width: 40, height: 6)
        let title = Self.decomposed + " " + Self.family + Self.heart + Self.flag
        Rasterizer().render(Self.card(title), into: &buffer)
        let row = Self.row(containing: title, in: buffer)
        #expect(row != nil)
        // "Café ", then three wide clusters: 5 + 6 columns of the 16 inside, and the box edge where it belongs.
        if let row {
            #expect(row.hasPrefix("│ " + title + String(repeating: " ", count: 6) + "│"))
        }
    }

    /// `--ascii` keeps the user's text (decoration only is ASCII); a terminal that shows only ASCII gets it
    /// transliterated: diacritics stripped through the canonical decomposition, "?" for the rest.
    @Test func asciiKeepsTheUsersTextAndTransliteratesOnlyForAnASCIITerminal() {
        var buffer = CellBuffer(width: 40, height: 6)
        Rasterizer(ascii: true).render(Self.card("énd " + Self.decomposed + " 日本…"), into: &buffer)
        #expect(Self.row(containing: "énd " + Self.decomposed + " 日本.", in: buffer) != nil)
        #expect(buffer.text.contains("+--"))
        Rasterizer(ascii: true, encoding: .ascii).render(Self.card("énd " + Self.decomposed + " 日本…"), into: &buffer)
        #expect(Self.row(containing: "end Cafe ??.", in: buffer) != nil)
        #expect(buffer.cells.allSatisfy { $0.character.isASCII })
    }

    @Test func theLocaleDecidesWhetherTheTerminalShowsUnicode() {
        #expect(TextEncoding.detect(environment: [:]) == .unicode)
        #expect(TextEncoding.detect(environment: ["LANG": "en_US.UTF-8"]) == .unicode)
        #expect(TextEncoding.detect(environment: ["LANG": "C.utf8"]) == .unicode)
        #expect(TextEncoding.detect(environment: ["LANG": "C"]) == .ascii)
        #expect(TextEncoding.detect(environment: ["LANG": "en_US.UTF-8", "LC_ALL": "POSIX"]) == .ascii)
        #expect(TextEncoding.detect(environment: ["LANG": "C", "LC_CTYPE": "de_DE.UTF-8"]) == .unicode)
        #expect(TextEncoding.detect(environment: ["LANG": "de_DE.ISO-8859-1"]) == .ascii)
    }

    /// The engine wraps with the TUI's measurer: widths are the drawn widths, and a line never ends inside a
    /// cluster.
    @Test func theMeasurerAgreesWithTheCellsAndWrappingKeepsClustersWhole() {
        let measurer = CellTextMeasurer(scale: CellScale(), ascii: false)
        let column = CellScale().pointsPerColumn
        #expect(measurer.width(of: Substring(Self.decomposed), style: .body, weight: .regular) == 4 * column)
        #expect(measurer.width(of: Substring(Self.family + Self.heart), style: .body, weight: .regular) == 4 * column)
        #expect(measurer.width(of: Substring(Self.flag), style: .body, weight: .regular) == 2 * column)
        let word = String(repeating: Self.family, count: 3) + String(repeating: "e\u{301}", count: 4)
        let lines = TextLayout.lines(word, width: 5 * column, style: .body, weight: .regular, measurer: measurer)
        #expect(lines == [Self.family + Self.family, Self.family + "e\u{301}e\u{301}e\u{301}", "e\u{301}"])
        for line in lines {
            var buffer = CellBuffer(width: 5, height: 1)
            let end = buffer.put(line, column: 0, row: 0, foreground: .terminalDefault)
            #expect(end == Int(measurer.width(of: Substring(line), style: .body, weight: .regular) / column))
            #expect(buffer.text(row: 0).hasPrefix(line))
        }
        let ascii = CellTextMeasurer(scale: CellScale(), ascii: true, encoding: .ascii)
        #expect(ascii.width(of: Substring(Self.family + "日"), style: .body, weight: .regular) == 2 * column)
    }
}
