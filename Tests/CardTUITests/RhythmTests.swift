import CardEngine
import CardGeometry
import CardModels
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// Equal things are drawn equal at every tour size (issue 28). Scenes lay out on the terminal's grid
/// (`LayoutGrid`), so a step between cards, a row of a chart or a chip's padding is a whole number of cells, the same
/// for every sibling. Before: the deck's strips were 3/4/4/4/3 rows at 120x40, the scores' names 6, 10, 14, 18, 23,
/// the chart's bars in 3/3/2/2 groups, the expanded card's T10 and bottom border off screen, the hero's chips padded
/// on one side with gaps of 1 and 2 columns, and "Sunny" on its square's top row where the others sat on the bottom.
@Suite struct RhythmTests {
    static let sizes = [(60, 20), (80, 24), (120, 40), (200, 60)]

    /// The first row (of the scene's rows, not the status line) showing each of `words`, in the order given.
    static func rows(of words: [String], in buffer: CellBuffer) -> [Int?] {
        words.map { word in (0..<buffer.height - 1).first { buffer.text(row: $0).contains(word) } }
    }

    /// The differences between consecutive rows.
    static func steps(_ rows: [Int]) -> [Int] { zip(rows.dropFirst(), rows).map { $0 - $1 } }

    static func opened(_ scene: String, columns: Int, rows: Int, options: SceneOptions = SceneOptions()) -> AppDriver {
        var driver = AppDriver(columns: columns, rows: rows)
        driver.app = TUIApp(
            columns: columns, rows: rows, configuration: TUIApp.Configuration(catalog: .standard, sceneOptions: options)
        )
        driver.app.open(scene, at: 0)
        return driver
    }

    @Test(arguments: sizes)
    func theDecksCardsAreEquallySpaced(columns: Int, rows: Int) throws {
        var driver = Self.opened("deck", columns: columns, rows: rows)
        let buffer = driver.draw(at: 3)
        let titles = ["Inbox", "Reading List", "Recipes", "Travel", "Workouts", "Projects", "Groceries", "Movies"]
        // Every title on screen, but the last one shown (a scrolling list's next card may be cut by the status line).
        let found = Self.rows(of: titles, in: buffer).prefix { $0 != nil }.compactMap { $0 }.dropLast()
        #expect(found.count >= 3, "\(columns)x\(rows): \(found.count) titles\n\(buffer.text)")
        let steps = Self.steps(Array(found))
        #expect(Set(steps).count == 1, "\(columns)x\(rows): title rows \(Array(found)) steps \(steps)\n\(buffer.text)")
    }

    @Test(arguments: sizes)
    func theScoresCardsAreEquallySpacedAtRestAndAfterAResort(columns: Int, rows: Int) {
        var driver = Self.opened("scores", columns: columns, rows: rows)
        for (step, time) in [("at rest", 3.0), ("re-sorted", 9.0)] {
            if step == "re-sorted" { driver.key("right", at: 3) }
            let buffer = driver.draw(at: time)
            let found = Self.rows(of: ["Alice", "Bob", "Charlie", "Diana", "Eve"], in: buffer).compactMap { $0 }
                .sorted()
            #expect(found.count == 5, "\(columns)x\(rows) \(step)\n\(buffer.text)")
            let steps = Self.steps(found)
            #expect(
                Set(steps).count == 1, "\(columns)x\(rows) \(step): name rows \(found) steps \(steps)\n\(buffer.text)")
        }
    }

    /// The expanded card's chart: T1…T10 on consecutive equal steps, T10 on screen, and the card's bottom border
    /// on screen wherever the list is tall enough to hold the whole card (the list scrolls the card into view).
    @Test(arguments: sizes)
    func theExpandedScoresCardShowsEveryBarAndItsBorder(columns: Int, rows: Int) {
        var driver = Self.opened("scores", columns: columns, rows: rows)
        driver.draw(at: 1)
        driver.key("enter", at: 1)
        let buffer = driver.draw(at: 6)
        let labels = (1...10).map { "T\($0) " }
        let found = Self.rows(of: labels, in: buffer)
        #expect(found.allSatisfy { $0 != nil }, "\(columns)x\(rows): \(found)\n\(buffer.text)")
        let steps = Self.steps(found.compactMap { $0 })
        #expect(Set(steps).count == 1, "\(columns)x\(rows): bar rows \(found) steps \(steps)\n\(buffer.text)")
        guard let top = (0..<rows).first(where: { buffer.text(row: $0).contains("┏") }),
            let last = found.last ?? nil
        else {
            Issue.record("\(columns)x\(rows): no focused card\n\(buffer.text)")
            return
        }
        // The card is its border, the name row, the chart and the border again: it fits when the slider and the
        // status line leave that many rows below its top.
        let bottom = (0..<rows - 1).first { buffer.text(row: $0).contains("┗") }
        if rows >= 40 {
            #expect(
                bottom != nil, "\(columns)x\(rows): the expanded card's bottom border is off screen\n\(buffer.text)")
        }
        if let bottom { #expect(bottom > last && bottom > top) }
    }

    @Test(arguments: sizes)
    func theWalletsStackIsEquallySpaced(columns: Int, rows: Int) {
        var driver = Self.opened("wallet", columns: columns, rows: rows)
        let buffer = driver.draw(at: 3)
        let found = Self.rows(of: ["DISCOVER", "UnionPay", "AMEX", "Mastercard", "VISA"], in: buffer).compactMap { $0 }
        #expect(found.count == 5, "\(columns)x\(rows)\n\(buffer.text)")
        let steps = Self.steps(found)
        #expect(Set(steps).count == 1, "\(columns)x\(rows): brand rows \(found) steps \(steps)\n\(buffer.text)")
        // The brand ends as far from its card's right edge as the number starts from its left edge.
        for row in found {
            let line = Array(buffer.text(row: row))
            guard let right = line.lastIndex(where: { "│┃".contains($0) }),
                let end = line[..<right].lastIndex(where: { $0 != " " })
            else { continue }
            #expect(right - end - 1 >= 1, "\(columns)x\(rows): the brand touches its card's edge: \(String(line))")
        }
    }

    /// The runs of cells on `row` whose background differs from `page` (each a chip), as column ranges.
    static func runs(in buffer: CellBuffer, row: Int, from start: Int, to end: Int, page: CellColor) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var column = start
        while column < end {
            guard buffer[column, row].background != page else {
                column += 1
                continue
            }
            let first = column
            let colour = buffer[column, row].background
            while column < end, buffer[column, row].background == colour { column += 1 }
            runs.append(first..<column)
        }
        return runs
    }

    /// The hero's chips: each padded equally on both sides, with equal gaps between chips.
    @Test(arguments: sizes)
    func theHerosChipsHaveEvenPaddingAndGaps(columns: Int, rows: Int) throws {
        var driver = Self.opened("hero", columns: columns, rows: rows)
        let buffer = driver.draw(at: 3)
        let row = try #require((0..<rows).first { buffer.text(row: $0).contains("Sunny") }, "\(buffer.text)")
        // The line's own background is the colour just inside its right border (the chips start at the left one).
        let border = try #require((0..<columns).first { "┃│".contains(buffer[$0, row].character.string) })
        let end = try #require((border + 1..<columns).first { "┃│".contains(buffer[$0, row].character.string) })
        let line = buffer[end - 1, row].background
        let chips = Self.runs(in: buffer, row: row, from: border + 1, to: end, page: line)
        #expect(
            chips.count == 4,
            "\(columns)x\(rows): chips \(chips.map { $0.map { buffer[$0, row].character.string }.joined() })")
        let gaps = zip(chips.dropFirst(), chips).map { $0.lowerBound - $1.upperBound }
        #expect(Set(gaps).count == 1, "\(columns)x\(rows): gaps between chips \(gaps)")
        for chip in chips {
            let cells = chip.map { buffer[$0, row].character.string }
            let leading = cells.prefix { $0 == " " }.count
            let trailing = cells.reversed().prefix { $0 == " " }.count
            #expect(leading == trailing, "\(columns)x\(rows): chip \(cells.joined()) padded \(leading) and \(trailing)")
        }
    }

    /// The hero's details: every name on the same row of its colour square.
    @Test(arguments: sizes)
    func theHerosDetailRowsPutTheirTextOnTheSameRowOfTheirSquare(columns: Int, rows: Int) {
        var driver = Self.opened("hero", columns: columns, rows: rows)
        driver.draw(at: 1)
        driver.key("enter", at: 1)
        let buffer = driver.draw(at: 6)
        var offsets: [Int] = []
        for name in ["Sunny", "Cloudy", "Rain", "Snow"] {
            guard let row = (0..<rows - 1).first(where: { buffer.text(row: $0).contains(name) }) else { continue }
            // The square is the first cell of the row whose background is not the page's.
            let page = buffer[0, row].background
            guard let column = (0..<columns).first(where: { buffer[$0, row].background != page }) else { continue }
            let colour = buffer[column, row].background
            var top = row
            while top > 0, buffer[column, top - 1].background == colour { top -= 1 }
            offsets.append(row - top)
        }
        #expect(offsets.count >= 3, "\(columns)x\(rows)\n\(buffer.text)")
        #expect(
            Set(offsets).count == 1, "\(columns)x\(rows): text rows within their squares \(offsets)\n\(buffer.text)")
    }
}

extension RhythmTests {
    /// A swiped flashcard keeps its text through its flight (it vanished on the first frame of it).
    @Test(arguments: sizes)
    func aSwipedFlashcardKeepsItsTextAsItFlies(columns: Int, rows: Int) {
        var driver = Self.opened("flashcards", columns: columns, rows: rows)
        driver.draw(at: 2)
        driver.key("left", at: 2)
        for frame in 1...4 {
            let text = driver.draw(at: 2 + Double(frame) / 60).text
            #expect(text.contains("speed"), "\(columns)x\(rows) frame \(frame) of the flight:\n\(text)")
        }
    }
}
