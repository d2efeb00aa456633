import CardCells
import CardEngine
import CardGeometry
import CardModels
import CardScenes
import CardTUI
import Testing

/// Wide characters (CJK, emoji) take two cells — the character, then `Cell.wideContinuation` — and reach the
/// terminal as one character; zero-width scalars take none; half a wide character is drawn as a space.
@Suite struct WideCharacterTests {
    @Test func putGivesAWideCharacterTwoCells() {
        var buffer = CellBuffer(width: 10, height: 1)
        let end = buffer.put("日本x", column: 1, row: 0, foreground: .terminalDefault)
        #expect(end == 6)
        #expect(buffer[1, 0].character == "日")
        #expect(buffer[2, 0].isWideContinuation)
        #expect(buffer[3, 0].character == "本")
        #expect(buffer[4, 0].isWideContinuation)
        #expect(buffer[5, 0].character == "x")
        #expect(buffer.text(row: 0) == " 日本x    ")
    }

    @Test func aWideCharacterThatDoesNotFitBecomesASpace() {
        var buffer = CellBuffer(width: 10, height: 1, fill: Cell("."))
        buffer.put("日本", column: 0, row: 0, foreground: .terminalDefault, maxColumn: 3)
        #expect(buffer.text(row: 0) == "日 .......")
        // At the right edge of the buffer, and half off its left edge.
        buffer.put("語", column: 9, row: 0, foreground: .terminalDefault)
        #expect(buffer[9, 0].character == " ")
        buffer.put("語x", column: -1, row: 0, foreground: .terminalDefault)
        #expect(buffer[0, 0].character == " ")
        #expect(buffer[1, 0].character == "x")
    }

    @Test func zeroWidthScalarsJoinTheirClusterAndTakeNoCellOfTheirOwn() {
        var buffer = CellBuffer(width: 8, height: 1)
        // A combining acute accent, a zero-width joiner and a variation selector (after a letter: no emoji, so
        // narrow), each kept in its letter's cell; a zero-width space alone is dropped.
        buffer.put("e\u{301}a\u{200D}b\u{FE0F}\u{200B}c", column: 0, row: 0, foreground: .terminalDefault)
        #expect(buffer.text(row: 0) == "e\u{301}a\u{200D}b\u{FE0F}c    ")
        #expect(buffer[3, 0].character == "c")
    }

    @Test func overwritingHalfAWideCharacterLeavesASpace() {
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.put("日本語", column: 0, row: 0, foreground: .terminalDefault)
        buffer[1, 0] = Cell("x")  // the right half of 日
        buffer[4, 0] = Cell("y")  // the left half of 語
        buffer.repairWideCharacters()
        #expect(buffer.text(row: 0) == " x本y ")
        #expect(!buffer[5, 0].isWideContinuation)
    }

    /// A card with a Japanese title: the title is laid out in columns (two per character), centred, and cut with an
    /// ellipsis where the card is too narrow.
    @Test func rasterizedCardTitlesUseTwoColumnsPerCharacter() {
        func frame(width: Double, title: String) -> Frame {
            let node = FrameNode(
                id: "card.1", role: .card, card: nil, parent: nil, rect: Rect(x: 0, y: 0, width: width, height: 48),
                z: 0, opacity: 1, rotation: 0, scale: 1, cornerRadius: 8, fill: .white, stroke: nil, shadow: nil,
                text: [FrameText(run: TextRun(title, alignment: .center))], matchedGeometryID: nil, isLeaving: false)
            return Frame(time: 0, viewport: Size(width: 320, height: 96), nodes: [node], events: [], isAnimating: false)
        }
        var buffer = CellBuffer(width: 40, height: 6)
        Rasterizer().render(frame(width: 160, title: "日本語"), into: &buffer)
        let row = (0..<buffer.height).first { buffer.text(row: $0).contains("日本語") }
        #expect(row != nil)
        if let row {
            let start = (0..<buffer.width).first { buffer[$0, row].character == "日" }!
            #expect(buffer[start + 1, row].isWideContinuation)
            #expect(buffer[start + 2, row].character == "本")
            #expect(buffer[start + 4, row].character == "語")
            // Centred in the 20-column card: 6 columns of text inside a 16-column text area starting at 2.
            #expect(start == 7)
        }
        Rasterizer().render(frame(width: 64, title: "日本語テキスト"), into: &buffer)
        #expect((0..<buffer.height).contains { buffer.text(row: $0).contains("日…") })
    }

    /// Random frames of narrow and wide characters, with single cells overwritten at random (which cuts pairs in
    /// two): the screen decoded from the writer's diffs always equals the buffer as a terminal shows it.
    @Test func randomWideFramesDecodeExactly() {
        var random = SplitMix64(seed: 77)
        var writer = CellScreen(backend: ANSIWriter())
        var model = ScreenModel(width: 30, height: 8)
        var buffer = CellBuffer(width: 30, height: 8)
        let words = ["日本", "語", "a", "漢字テスト", "😀x", "b c", "한국어", "…", "🚀", "e\u{301}", "👨‍👩‍👧‍👦", "❤️", "🇫🇷x"]
        let singles: [Glyph] = ["z", " ", "─", "日", Cell.wideContinuation, Glyph("e\u{301}"), Glyph("🇫🇷")]
        for _ in 0..<1_500 {
            for _ in 0..<random.below(6) {
                buffer.put(
                    words[random.below(words.count)], column: random.below(32) - 1, row: random.below(8),
                    foreground: .indexed(UInt8(random.below(256))), background: .indexed(UInt8(random.below(256))))
            }
            for _ in 0..<random.below(4) {
                buffer[random.below(30), random.below(8)] = Cell(
                    singles[random.below(singles.count)], foreground: .indexed(UInt8(random.below(256))))
            }
            var output: [UInt8] = []
            writer.render(buffer, into: &output)
            model.apply(output)
            var shown = buffer
            shown.repairWideCharacters()
            if let index = shown.cells.indices.first(where: {
                !model.screen.cells[$0].looksSame(as: shown.cells[$0])
            }) {
                let row = index / 30
                Issue.record(
                    """
                    cell \(index % 30),\(row): screen \(model.screen.cells[index]) buffer \(shown.cells[index])
                    screen: \(model.screen.text(row: row))
                    buffer: \(shown.text(row: row))
                    """)
                break
            }
        }
        #expect(model.unexpected.isEmpty)
    }
}
