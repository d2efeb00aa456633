import CardEngine
import CardGeometry
import CardScenes
import CardTestScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// The modes a terminal user expects: the status line cut at word boundaries with clickable keys, the home screen
/// whole at 80 columns, cues other than colour under `NO_COLOR`, and no UI on a terminal without cursor addressing.
@Suite struct TerminalModeTests {
    @Test func statusHintsAreWholeHintsWithAnEllipsis() {
        let hints = ["space flip the card", "← → swipe the card away", "u undo"]
        #expect(TUIApp.statusHints(hints, separator: " · ", width: 80, ascii: false) == hints.joined(separator: " · "))
        // Room for the first hint and two words of the second: the second is left out whole, never its keys alone
        // without what they do (issue 46: "enter space…").
        #expect(TUIApp.statusHints(hints, separator: " · ", width: 30, ascii: false) == "space flip the card …")
        // The first hint wider than the line is cut at a word boundary.
        #expect(TUIApp.statusHints(hints, separator: " · ", width: 13, ascii: true) == "space flip...")
        // Not a word of the first fits: nothing, never half a word.
        #expect(TUIApp.statusHints(hints, separator: " · ", width: 4, ascii: false) == "")
        for width in 0..<60 {
            let line = TUIApp.statusHints(hints, separator: " · ", width: width, ascii: false)
            #expect(GlyphMapper.columns(of: line) <= width)
            #expect(line.isEmpty || line.hasSuffix("…") || hints.contains { line.hasSuffix($0) })
        }
    }

    /// Today the hints were cut mid-word ("← → swipe th") at 80 columns.
    @Test func theStatusLineNeverEndsInHalfAWord() {
        for name in SceneCatalog.testing.names {
            var driver = AppDriver(catalog: .testing)
            driver.app.open(name, at: 0)
            let buffer = driver.draw(at: 0)
            let status = buffer.text(row: 23)
            let hints = status.components(separatedBy: "? keys")[0].trimmingCharacters(in: .whitespaces)
            let lastWord = hints.split(separator: " ").last.map(String.init) ?? ""
            let words = Set(
                (driver.app.sceneDescriptor?.keyHelp ?? []).flatMap { "\($0.keys) \($0.summary)".split(separator: " ") }
                    .map(String.init))
            #expect(
                lastWord.hasSuffix("…") || words.contains(lastWord) || lastWord == driver.app.sceneDescriptor?.title,
                "\(name): \(status)")
            #expect(status.hasSuffix("? keys  q back "))
        }
    }

    @Test func clickingTheStatusLineKeysOpensHelpAndQuits() {
        var driver = AppDriver()
        driver.draw(at: 0)
        let targets = driver.app.statusTargets()
        #expect(driver.text.split(separator: "\n").last?.hasSuffix("? keys  q quit ") == true)
        driver.mouse(MouseInput(.press, column: targets.help.lowerBound + 2, row: 23), at: 0.1)
        #expect(driver.app.showsHelp)
        driver.mouse(MouseInput(.press, column: 5, row: 5), at: 0.2)
        #expect(!driver.app.showsHelp)
        driver.app.open("scores", at: 0.3)
        driver.mouse(MouseInput(.press, column: targets.quit.lowerBound, row: 23), at: 0.4)
        #expect(driver.app.engine == nil, "q back goes home")
        #expect(driver.effects.isEmpty)
        driver.mouse(MouseInput(.press, column: targets.quit.upperBound - 1, row: 23), at: 0.5)
        #expect(driver.effects == [.quit])
    }

    /// Today the descriptions were right-aligned and cut ("(seed 0…").
    @Test func theHomeScreenShowsNamesAndDescriptionsAlignedAndWholeAt80Columns() {
        var driver = AppDriver(columns: 80, rows: 24, catalog: .testing)
        let buffer = driver.draw(at: 0)
        var starts: Set<Int> = []
        var nameStarts: Set<Int> = []
        for descriptor in SceneCatalog.testing.descriptors {
            let row = (0..<buffer.height).first { buffer.text(row: $0).contains(descriptor.summary) }
            #expect(row != nil, "\(descriptor.name)'s description is shown whole")
            guard let row else { continue }
            let line = buffer.text(row: row)
            starts.insert(line.distance(from: line.startIndex, to: line.range(of: descriptor.summary)!.lowerBound))
            nameStarts.insert(
                line.distance(from: line.startIndex, to: line.range(of: " \(descriptor.name) ")!.lowerBound))
        }
        #expect(starts.count == 1, "descriptions start in one column")
        #expect(nameStarts.count == 1, "names start in one column")
        #expect(!buffer.text.contains("…"))
        // Wide enough, the seed numbers come back.
        var wide = AppDriver(columns: 120, rows: 40)
        #expect(wide.draw(at: 0).text.contains("(seed 004)"))
    }

    /// Under NO_COLOR every colour becomes the terminal's default: a focused card (its stroke colour) and bars
    /// (fills) still show, by glyphs and attributes.
    @Test func withoutColourFocusAndBarsStayVisible() {
        let focused = TestFrames.node(
            "card", x: 0, y: 0, width: 160, height: 64, fill: RGBA(red: 1, green: 0.6, blue: 0),
            stroke: RGBA(red: 1, green: 0.8, blue: 0))
        let bar = TestFrames.node(
            "bar", role: .bar, x: 16, y: 80, width: 80, height: 16, cornerRadius: 0, fill: .white)
        let track = TestFrames.node(
            "track", role: .bar, x: 16, y: 120, width: 160, height: 4, cornerRadius: 0,
            fill: RGBA(red: 0.78, green: 0.78, blue: 0.8))
        let fill = TestFrames.node(
            "fill", role: .bar, x: 16, y: 120, width: 64, height: 4, cornerRadius: 0,
            fill: RGBA(red: 0, green: 0.48, blue: 1))
        func render(monochrome: Bool) -> CellBuffer {
            var buffer = CellBuffer(width: 40, height: 10)
            Rasterizer(monochrome: monochrome).render(TestFrames.frame([focused, bar, track, fill]), into: &buffer)
            ColorDepth.none.convert(&buffer)
            return buffer
        }
        let today = render(monochrome: false)
        #expect(today[2, 5].character == " ", "a bar is only a background colour, gone without colour")
        let cues = render(monochrome: true)
        #expect(cues[0, 0].character == "┏" && cues[1, 0].character == "━" && cues[0, 1].character == "┃")
        #expect(cues[0, 0].attributes.contains(.bold))
        #expect(cues[2, 5].character == "█" && cues[13, 5].character == " ")
        #expect(cues[3, 7].character == "━", "the slider's filled part")
        #expect(cues[15, 7].character == "─", "its track")
        // The status line stands apart in reverse video.
        var driver = AppDriver()
        driver.app = TUIApp(
            columns: 80, rows: 24, configuration: TUIApp.Configuration(catalog: .standard, monochrome: true))
        let home = driver.draw(at: 0)
        #expect(home[3, 23].attributes.contains(.reverse))
        // The selected scene on the home screen: a heavy box (the accent fill is gone).
        let selected = (0..<23).first { home.text(row: $0).contains("> 1 scores") }
        #expect(selected.map { home.text(row: $0 - 1).contains("┏━━") } == true)
        #expect(!home.text.contains("┏━━") || home.text.components(separatedBy: "┏").count == 2)
    }

    /// Every symbol a scene of the catalogue draws (the throwaway sixth's star too) has its own cell from the one
    /// table, `Symbols`, not the first letter the terminal shows for a name it does not know.
    @Test func everySymbolTheScenesDrawHasItsGlyphFromTheTable() throws {
        for name in SceneCatalog.testing.names {
            for symbol in try SceneSymbols.drawn(by: name, in: .testing) {
                let info = Symbols.named(symbol)
                #expect(info != nil, "\(name) draws \(symbol), which is not in Symbols")
                #expect(SymbolGlyphs.glyph(for: symbol, ascii: false) == info.map { String($0.cellGlyph) })
                #expect(SymbolGlyphs.glyph(for: symbol, ascii: true) == info.map { String($0.asciiGlyph) })
            }
        }
    }

    @Test func terminalsWithoutCursorAddressingAreRefused() {
        for term in ["", "dumb", "DUMB", "unknown"] { #expect(TUIFrontend.lacksCursorAddressing(term: term)) }
        for term in ["xterm", "xterm-256color", "tmux-256color", "screen", "linux", "vt100"] {
            #expect(!TUIFrontend.lacksCursorAddressing(term: term))
        }
    }
}
