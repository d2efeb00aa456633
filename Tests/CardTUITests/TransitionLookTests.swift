import CardEngine
import CardGeometry
import CardScenes
import Foundation
import Testing

@testable import CardCells
@testable import CardTUI

/// Transitions as a person sees them in the terminal (issue 46, items 8, 9 and 10): every frame of a transition
/// at `--slow-motion 10` (the app's clock stepped by a tenth of a 60 Hz frame), at the four sizes the issue was
/// seen at.
@Suite struct TransitionLookTests {
    static let allSizes = [(60, 20), (80, 24), (120, 40), (200, 60)]
    /// One frame at 60 Hz under `--slow-motion 10`, in the app's seconds.
    static let slowFrame = 1.0 / 600

    /// The rows of the buffer as text.
    static func lines(_ buffer: CellBuffer) -> [String] {
        (0..<buffer.height).map { buffer.text(row: $0) }
    }

    /// How often `word` shows in `text` as a whole word (not inside a longer run of letters).
    static func wholeWords(_ word: String, in text: String) -> Int {
        let pattern = "(?<![A-Za-z])" + word + "(?![A-Za-z])"
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return 0 }
        return regex.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
    }

    /// How often `label` shows in `text` whole, or nil when two copies of it are drawn over each other (a cell or
    /// more apart: "SSunny", "SuSunny"). A flying label may pass over another one's letters ("eRain" over "Fire").
    static func labels(_ label: String, in text: String) -> Int? {
        for length in 1..<label.count where text.contains(label.prefix(length) + label) { return nil }
        return text.components(separatedBy: label).count - 1
    }

    // MARK: Item 8: the hero's flight

    /// The first line's items: icon glyphs and labels, as the terminal draws them.
    static let heroItems = [("☀", "Sunny"), ("☁", "Cloudy"), ("☂", "Rain"), ("❄", "Snow")]

    /// Every frame while the first line opens and then closes: each of its items shows its icon and its whole
    /// label exactly once (no "☀☀ SSunny", no "☀ S", no missing "Snow"), and the label's cells show it (its
    /// colour is not its background's: a chip is never a bare block). Before, the chips' colours covered their
    /// icons and labels as the flight began, the entering copies drew a label a cell off the leaving one, and a
    /// chip's clip cut its label. Items off screen at rest at a size (Snow's details row at 60x20) are checked
    /// while they show at both ends.
    @Test(arguments: allSizes)
    func heroChipsCrossFadeWholeInEveryFrame(columns: Int, rows: Int) {
        var driver = AppDriver(columns: columns, rows: rows)
        _ = driver.app.open("hero", at: 0)
        driver.draw(at: 0)
        // The items that show at rest in the overview (all) and in the details (those the screen has room for).
        driver.key("enter", at: 0.5)
        let details = driver.draw(at: 2.5).text
        let checked = Self.heroItems.filter { Self.wholeWords($0.1, in: details) == 1 }
        #expect(checked.count >= 3, "the details show \(checked.map(\.1)) at \(columns)x\(rows)\n\(details)")
        driver.key("escape", at: 3)
        driver.draw(at: 5)
        var frames = 0
        Self.everyHeroFlightFrame(of: &driver, from: 6) { key, step, buffer in
            let text = buffer.text
            let picture = Self.lines(buffer).joined(separator: "\n")
            let when =
                "\(columns)x\(rows) \(key) +\(String(format: "%.1f", Double(step) * Self.slowFrame * 1000)) ms"
            for (icon, label) in checked {
                let icons = text.filter { String($0) == icon }.count
                let labels = Self.labels(label, in: text)
                #expect(
                    icons == 1 && labels == 1,
                    "\(when): \(icon) ×\(icons), \(label) ×\(labels.map(String.init) ?? "2, drawn over each other")\n\(picture)"
                )
                guard labels == 1,
                    let row = (0..<buffer.height).first(where: { buffer.text(row: $0).contains(label) })
                else { continue }
                guard let start = Self.column(of: label, in: buffer, row: row) else { continue }
                let cell = buffer[start, row]
                #expect(cell.foreground != cell.background, "\(when): \(label) is drawn in its background's colour")
            }
            frames += 1
        }
        #expect(frames == 2 * (Int(0.8 / Self.slowFrame) + 1))
    }

    /// Opens the hero's first line at `time` and closes it 3 s later (its items fly both ways), calling `body` with
    /// the key, the step and the buffer of every frame of the first 0.8 s of each at `--slow-motion 10`.
    static func everyHeroFlightFrame(
        of driver: inout AppDriver, from time: Double, _ body: (String, Int, CellBuffer) -> Void
    ) {
        var time = time
        for key in ["enter", "escape"] {
            driver.key(key, at: time)
            for step in 0...Int(0.8 / slowFrame) { body(key, step, driver.draw(at: time + Double(step) * slowFrame)) }
            time += 3
        }
    }

    /// The deck opened at the four sizes with a pointer pressed on its top card's title ("Inbox"), at 2 s; nil
    /// (recorded) when the title is not on screen.
    static func deckPressedOnItsTop(columns: Int, rows: Int) -> (driver: AppDriver, row: Int)? {
        var driver = AppDriver(columns: columns, rows: rows)
        _ = driver.app.open("deck", at: 0)
        let rest = driver.draw(at: 1)
        guard let start = (0..<rest.height).first(where: { rest.text(row: $0).contains("Inbox") }) else {
            Issue.record("\(columns)x\(rows): no Inbox\n\(rest.text)")
            return nil
        }
        driver.mouse(MouseInput(.press, column: columns / 2, row: start), at: 2)
        return (driver, start)
    }

    // MARK: Item 9: the deck's expand

    /// Every frame while the fourth card ("Travel") expands and then closes: it is in front and solid from the first
    /// frame to the last, both ways, as in the seed (SwiftUI draws a matched pair at the front copy's place): the
    /// cells inside its box, off its text rows, are all one colour with nothing of the stack through them, and its
    /// title shows. Before helper-8's change it jumped in front at once, pale, over the three cards in front of it,
    /// and a half-transparent detail grew with the stack showing through; after it, it grew behind the cards in
    /// front of it (their titles over it) and jumped in front half-way.
    @Test(arguments: allSizes)
    func deckCardGrowsInFrontAndSolidBothWays(columns: Int, rows: Int) {
        var driver = AppDriver(columns: columns, rows: rows)
        _ = driver.app.open("deck", at: 0)
        for step in 0..<3 { driver.key("down", at: 0.1 + Double(step) * 0.1) }
        let rest = driver.draw(at: 2)
        guard let frame = driver.app.lastFrame,
            let tapped = frame.nodes.first(where: { $0.role == .card && $0.text.first?.run.text == "Travel" }),
            let matched = tapped.matchedGeometryID
        else {
            Issue.record("\(columns)x\(rows): no Travel card\n\(rest.text)")
            return
        }
        let front = frame.nodes.filter { $0.role == .card && $0.parent == tapped.parent && $0.z > tapped.z }
            .compactMap { $0.text.first?.run.text }
            .filter { Self.wholeWords($0, in: rest.text) == 1 }
        #expect(!front.isEmpty, "\(columns)x\(rows): no card in front of Travel shows its title")
        var frames: [(buffer: CellBuffer, rect: Rect, when: String)] = []
        for (key, time) in [("enter", 3.0), ("escape", 6.0)] {
            driver.key(key, at: time)
            for step in 0...Int(1.2 / Self.slowFrame) {
                let buffer = driver.draw(at: time + Double(step) * Self.slowFrame)
                // While it flies: two copies (once the collapse lands, the card is back in the stack, behind).
                let copies = driver.app.lastFrame?.nodes.filter { $0.matchedGeometryID == matched } ?? []
                guard let rect = copies.first?.rect, copies.count == 2 || key == "enter" else { continue }
                let when =
                    "\(columns)x\(rows) \(key) +\(String(format: "%.1f", Double(step) * Self.slowFrame * 1000)) ms"
                frames.append((buffer, rect, when))
            }
        }
        let scale = driver.app.scale
        var checked = 0
        for (buffer, rect, when) in frames {
            // Inside the box (a cell in from its border on every side), on rows without text.
            let left = Int((rect.minX / scale.pointsPerColumn).rounded(.up)) + 1
            let right = Int((rect.maxX / scale.pointsPerColumn).rounded(.down)) - 1
            let top = Int((rect.minY / scale.pointsPerRow).rounded(.up)) + 1
            let bottom = min(Int((rect.maxY / scale.pointsPerRow).rounded(.down)) - 1, rows - 1)
            guard left < right, top < bottom else { continue }
            checked += 1
            var colours: Set<CellColor> = []
            var glyphs: Set<String> = []
            var intruders: [String] = []
            for row in top..<bottom {
                let text = (left..<right).map { buffer[$0, row].character.string }.joined()
                if text.allSatisfy({ $0 == " " }) {
                    for column in left..<right { colours.insert(buffer[column, row].background) }
                }
                for glyph in ["╭", "╮", "│", "─", "┃", "━"] where text.contains(glyph) { glyphs.insert(glyph) }
                intruders += front.filter { Self.wholeWords($0, in: text) > 0 }
            }
            #expect(
                colours.count <= 1 && glyphs.isEmpty && intruders.isEmpty,
                "\(when): the stack shows through Travel (\(colours.count) colours, \(glyphs), \(intruders))\n\(buffer.text)"
            )
            #expect(
                Self.wholeWords("Travel", in: buffer.text) == 1, "\(when): Travel's title is not whole\n\(buffer.text)")
        }
        #expect(checked > 100, "\(columns)x\(rows): \(checked) frames checked")
    }

    // MARK: Item 10: the deck's pull-to-fan

    /// The seed deck's titles, top first.
    static let deckTitles = [
        "Inbox", "Reading List", "Recipes", "Travel", "Workouts", "Projects", "Groceries", "Movies", "Music", "Ideas",
    ]

    /// Every frame while a pointer pulls the stack open from its top, a row at a time: the rows between one card's
    /// title and the next one's never shrink while the pull grows (they jittered between 3 and 4 rows), and every
    /// cell of a title has its own card's colour behind it (mid-motion a title kept a rectangle of another card's
    /// colour).
    @Test(arguments: allSizes)
    func deckFanOpensSteadilyAndTitlesKeepTheirCardsColour(columns: Int, rows: Int) {
        guard let pressed = Self.deckPressedOnItsTop(columns: columns, rows: rows) else { return }
        var driver = pressed.driver
        let start = pressed.row
        var time = 2.0
        var previous: [String: Int] = [:]
        var checkedGaps = 0
        for step in 1...(rows / 2) {
            time += 0.05
            driver.mouse(MouseInput(.drag, column: columns / 2, row: start + step), at: time)
            for frame in 0..<6 {
                let buffer = driver.draw(at: time + Double(frame) * Self.slowFrame * 5)
                let when = "\(columns)x\(rows) pull \(step) rows +\(frame)"
                guard let nodes = driver.app.lastFrame?.nodes else { continue }
                var titleRows: [(String, Int)] = []
                for title in Self.deckTitles {
                    guard
                        let row = (0..<(rows - 1)).first(where: { Self.column(of: title, in: buffer, row: $0) != nil }),
                        let column = Self.column(of: title, in: buffer, row: row),
                        let fill = nodes.first(where: { $0.role == .card && $0.text.first?.run.text == title })?.fill
                    else { continue }
                    titleRows.append((title, row))
                    let colour = RGB8(fill).cellColor
                    let wrong = (column..<(column + title.count)).filter { buffer[$0, row].background != colour }
                    #expect(
                        wrong.isEmpty, "\(when): \(title) has another colour behind columns \(wrong)\n\(buffer.text)")
                }
                for ((upper, top), (_, bottom)) in zip(titleRows, titleRows.dropFirst()) {
                    let gap = bottom - top
                    if let last = previous[upper] {
                        checkedGaps += 1
                        #expect(
                            gap >= last, "\(when): the gap under \(upper) shrank from \(last) to \(gap)\n\(buffer.text)"
                        )
                    }
                    previous[upper] = gap
                }
            }
        }
        #expect(checkedGaps > 0)
    }

    /// Every frame while the stack springs closed after a pull (the mouse let go): no letter keeps a rectangle of
    /// its own card's colour inside a partial edge of the card in front of it. A card moving up draws its top edge
    /// in eighths over the row above its box, which is often the title row of the card behind it; the title's cells
    /// were skipped, so "Travel" sat in a notch of green inside Workouts' teal strip, the width of the word and up
    /// to seven eighths of a row tall (issue 46, item 10's "rectangle of the wrong card's colour behind text").
    /// Now a strip covering half a cell or more is drawn over the letter (the card in front hides it).
    @Test(arguments: allSizes)
    func deckFanClosesWithoutNotchesBehindTitles(columns: Int, rows: Int) {
        guard var driver = Self.deckPulledOpenAndLetGo(columns: columns, rows: rows) else { return }
        var strips = 0
        let time = Self.letGoTime(rows: rows)
        for step in 0...Int(1.0 / Self.slowFrame) {
            let buffer = driver.draw(at: time + Double(step) * Self.slowFrame)
            for row in 0..<(rows - 1) {
                for column in 1..<(columns - 1) {
                    let cell = buffer[column, row]
                    guard cell.character.string.first?.isLetter == true else { continue }
                    for neighbour in [column - 1, column + 1] {
                        // A partial row beside the letter (▁ … ▇): its glyph's colour covers `eighths` of the cell.
                        let beside = buffer[neighbour, row]
                        guard let scalar = beside.character.scalar, (0x2581...0x2587).contains(scalar.value) else {
                            continue
                        }
                        strips += 1
                        let eighths = Int(scalar.value) - 0x2580
                        let (most, least) =
                            eighths >= 4
                            ? (beside.foreground, beside.background) : (beside.background, beside.foreground)
                        #expect(
                            cell.background == most || cell.background != least,
                            "\(columns)x\(rows) +\(step): the letter at \(column),\(row) keeps the colour of the card behind inside the edge \(beside.character.string) of the card in front\n\(buffer.text)"
                        )
                    }
                }
            }
        }
        // At 120x40 and 200x60 the cards are tall enough that no edge passes a title row.
        #expect(strips > 0 || columns > 80, "\(columns)x\(rows): no partial edge beside a letter while the fan closed")
    }

    /// The deck pulled open from its top a row at a time, over half the screen's rows, held for 0.5 s, and let go
    /// at `letGoTime(rows:)`.
    static func deckPulledOpenAndLetGo(columns: Int, rows: Int) -> AppDriver? {
        guard let pressed = deckPressedOnItsTop(columns: columns, rows: rows) else { return nil }
        var driver = pressed.driver
        for step in 1...(rows / 2) {
            let time = 2 + Double(step) * 0.05
            driver.mouse(MouseInput(.drag, column: columns / 2, row: pressed.row + step), at: time)
            _ = driver.draw(at: time)
        }
        _ = driver.draw(at: letGoTime(rows: rows))
        driver.mouse(
            MouseInput(.release, column: columns / 2, row: pressed.row + rows / 2), at: letGoTime(rows: rows))
        return driver
    }

    /// When `deckPulledOpenAndLetGo` lets go.
    static func letGoTime(rows: Int) -> Double { 2 + Double(rows / 2) * 0.05 + 0.5 }

    /// The column at which `word` (one cell per character) starts on `row`.
    static func column(of word: String, in buffer: CellBuffer, row: Int) -> Int? {
        let target = word.map(String.init)
        guard buffer.width >= target.count else { return nil }
        return (0...(buffer.width - target.count)).first { start in
            target.indices.allSatisfy { buffer[start + $0, row].character.string == target[$0] }
        }
    }
}
