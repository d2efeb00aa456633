import CardEngine
import CardGeometry
import CardScenes
import CardTestScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// The defects a flat z-sorted frame caused, each checked on what the terminal shows or on the frames.
@Suite struct ViewTreeDefectTests {
    static let sizes = [(80, 24), (120, 40), (200, 60)]

    /// Mid re-sort, no card's text paints over another card: every card that overlaps a text node of another card
    /// paints after that text (the flat sort painted every text over every card: "Bobrlie").
    @Test func scoresTextNeverPaintsOverAnotherCardMidResort() {
        var engine = Engine(scene: try! SceneCatalog.standard.make("scores"), viewport: Size(width: 960, height: 624))
        for _ in 0..<3 { engine.handle(.key(KeyInput("right"), time: 0.1)) }
        var checked = 0
        for step in 0...20 {
            let frame = engine.frame(at: 0.1 + Double(step) * 0.03)
            let position = Dictionary(uniqueKeysWithValues: frame.nodes.enumerated().map { ($1.id, $0) })
            for (index, text) in frame.nodes.enumerated() where text.role == .text {
                guard let parent = text.parent, frame.node(parent)?.role == .card else { continue }
                for card in frame.nodes where card.role == .card && card.id != parent {
                    guard card.rect.intersects(text.rect), let cardIndex = position[card.id] else { continue }
                    checked += 1
                    #expect(cardIndex > index || cardIndex < position[parent]!, "\(text.id) over \(card.id)")
                }
            }
        }
        #expect(checked > 0, "the cards never overlapped: the test saw no re-sort")
    }

    /// Every hero line keeps its whole box outline at every size: the chips stay inside (they covered the top or
    /// bottom border, or a line lost its box).
    @Test(arguments: sizes)
    func heroChipsStayInsideTheirLineBoxes(columns: Int, rows: Int) {
        var driver = AppDriver(columns: columns, rows: rows)
        driver.app.open("hero", at: 0)
        let buffer = driver.draw(at: 2)
        let lines = (0..<buffer.height).map { buffer.text(row: $0) }
        // The focused line (the first) is drawn heavy.
        let tops = lines.indices.filter { lines[$0].contains("╭") || lines[$0].contains("┏") }
        let bottoms = lines.indices.filter { lines[$0].contains("╰") || lines[$0].contains("┗") }
        #expect(
            tops.count == 3 && bottoms.count == 3, "\(columns)x\(rows): \(tops.count) tops, \(bottoms.count) bottoms")
        for row in tops + bottoms {
            let border = lines[row].trimmingCharacters(in: .whitespaces)
            #expect(border.unicodeScalars.allSatisfy { "╭╮╰╯─┏┓┗┛━".unicodeScalars.contains($0) }, "\(row): \(border)")
        }
        for (top, bottom) in zip(tops, bottoms) {
            #expect(bottom - top == bottoms[0] - tops[0], "every line box has the same height")
        }
    }

    /// The wallet's history tiles stay readable: merchant, amount and date each on their own line of the tile, in
    /// that order ("2026-11-02gon" once ran into the merchant), every date whole, and the card's holder line
    /// inside the card.
    @Test(arguments: sizes)
    func walletHistoryRowsStayIntact(columns: Int, rows: Int) {
        var driver = AppDriver(columns: columns, rows: rows)
        driver.app.open("wallet", at: 0)
        driver.draw(at: 3)
        driver.key("enter", at: 3)
        let buffer = driver.draw(at: 6)
        let lines = (0..<buffer.height).map { buffer.text(row: $0) }
        let merchant = lines.firstIndex { $0.contains("Golden D") }
        let amount = lines.firstIndex { $0.contains("$24.50") }
        let date = lines.firstIndex { $0.contains("2026-11-02") }
        #expect(
            merchant.map { m in amount.map { a in date.map { d in m < a && a < d } ?? false } ?? false } == true,
            "\(columns)x\(rows): merchant \(String(describing: merchant)), amount \(String(describing: amount)), date \(String(describing: date))"
        )
        if let merchant, let apple = lines[merchant].range(of: "Apple S") {
            // The amount under the merchant, in the same tile's columns.
            let column = lines[merchant].distance(from: lines[merchant].startIndex, to: apple.lowerBound)
            let below = Array(lines[merchant + 1])
            #expect(String(below[max(0, column - 2)..<min(below.count, column + 10)]).contains("$1299.00"))
        }
        if let date {
            // Every date on the row is whole (a tile is as wide as its widest date).
            #expect(!lines[date].trimmingCharacters(in: .whitespaces).dropLast(12).contains("…"), "\(lines[date])")
        }
        let holder = lines.firstIndex { $0.contains("Simon Ng") }
        let holderLine = holder.map { lines[$0].trimmingCharacters(in: .whitespaces) } ?? ""
        // Light edges, or heavy ones when the selected card has the focus.
        let edges: Set<Character> = ["│", "┃"]
        #expect(
            holderLine.first.map(edges.contains) == true && holderLine.last.map(edges.contains) == true,
            "the holder line is inside the card")
    }

    /// The deck's header reads "12 cards" after scrolling: the titles under the translucent header do not show
    /// through as extra letters ("12 cardsts").
    @Test func deckHeaderStaysIntactWhenScrolled() {
        var driver = AppDriver(columns: 120, rows: 40)
        driver.app.open("deck", at: 0)
        driver.draw(at: 0)
        for notch in 0..<10 {
            driver.mouse(MouseInput(.wheel, button: 1, column: 60, row: 20), at: 0.1 + Double(notch) * 0.02)
        }
        let buffer = driver.draw(at: 3)
        // The last column is the scroll indicator's.
        let header = (0..<buffer.height).map { buffer.text(row: $0) }.first { $0.contains("12 cards") } ?? ""
        #expect(header.dropLast().trimmingCharacters(in: .whitespaces) == "12 cards")
    }

    /// The first flashcard's prompt is shown whole, wrapped inside the card, at every size.
    @Test(arguments: sizes)
    func theFirstFlashcardPromptIsShownWhole(columns: Int, rows: Int) {
        var driver = AppDriver(columns: columns, rows: rows)
        driver.app.open("flashcards", at: 0)
        let buffer = driver.draw(at: 1)
        // The scene's rows (the status line's hints may end in "…").
        let shown = (0..<(buffer.height - 1)).map { buffer.text(row: $0) }
            .map { $0.replacingOccurrences(of: "│", with: " ").trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.contains("─") }
            .joined(separator: " ")
        let prompt = "What is the speed of light in vacuum, in km/s (rounded)?"
        #expect(shown.contains(prompt), "\(columns)x\(rows): \(shown)")
        #expect(!shown.contains("…"))
    }
}

/// Every scene of the catalogue (the throwaway sixth too), laid out in terminal cells at each size the TUI is
/// checked at, passes the whole frame lint once at rest (text fits its node in cells, sibling texts do not overlap,
/// children stay inside their parents), at the start and after its main key interactions: those chosen here, or
/// for a scene without a choice, the keys its descriptor declares, in turn.
@Suite struct TerminalLayoutLintTests {
    static let mainKeys: [String: [String]] = [
        "scores": ["right", "down", "enter"], "flashcards": ["space"], "wallet": ["down", "enter"],
        "hero": ["down", "enter"], "deck": ["s", "down", "enter"],
    ]

    static var tours: [(scene: String, keys: [String])] {
        SceneCatalog.testing.descriptors.map { descriptor in
            (descriptor.name, mainKeys[descriptor.name] ?? descriptor.keyHelp.flatMap(\.names))
        }
    }

    @Test(arguments: ViewTreeDefectTests.sizes)
    func everySceneAtRestPassesTheLint(columns: Int, rows: Int) throws {
        for tour in Self.tours {
            var driver = AppDriver(columns: columns, rows: rows, catalog: .testing)
            driver.app.open(tour.scene, at: 0)
            let scale = driver.app.scale
            let measurer = CellTextMeasurer(scale: scale, ascii: false)
            // Nodes snap to whole cells: what rounds into its cells fits (half a row of tolerance).
            let lint = FrameLint(measurer: measurer, tolerance: scale.pointsPerRow / 2)
            var time = 3.0
            var engine = try #require(driver.app.engine)
            var findings = lint.findings(in: engine.frame(at: time))
            for key in tour.keys {
                time += 0.1
                driver.key(key, at: time)
            }
            time += 5
            engine = try #require(driver.app.engine)
            let settled = engine.frame(at: time)
            #expect(!settled.isAnimating)
            findings += lint.findings(in: settled)
            var kinds: [String: Int] = [:]
            for finding in findings { kinds[finding.kind.rawValue, default: 0] += 1 }
            #expect(findings.isEmpty, "\(tour.scene) \(columns)x\(rows): \(kinds) \(findings.prefix(3))")
        }
    }
}
