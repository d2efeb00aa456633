import CardEngine
import CardScenes
import Foundation
import Testing

@testable import CardCells
@testable import CardTUI

/// The scores scene as a person sees it in the terminal (issue 46, items 2 and 3): the chart opens and closes below
/// its card's name, and the five cards stand apart at every size.
@Suite struct ScoresLookTests {
    static let smallSizes = [(60, 20), (80, 24)]
    static let allSizes = [(60, 20), (80, 24), (120, 40), (200, 60)]
    /// The students in their test 1 order, with their test 1 scores (the seed's data).
    static let ranked = [("Diana", "92"), ("Bob", "90"), ("Alice", "85"), ("Eve", "85"), ("Charlie", "78")]

    /// A scores scene at `columns` × `rows`, drawn once (the first card has the focus).
    static func driver(columns: Int, rows: Int) -> AppDriver {
        var driver = AppDriver(columns: columns, rows: rows)
        _ = driver.app.open("scores", at: 0)
        driver.draw(at: 0)
        return driver
    }

    /// The rows of the buffer as text.
    static func lines(_ driver: AppDriver) -> [String] {
        guard let buffer = driver.renderer.buffer else { return [] }
        return (0..<buffer.height).map { buffer.text(row: $0) }
    }

    /// Every frame while card `index` (in test 1's order) opens and then closes, every 20 ms: its name and score
    /// are whole on one row in every frame, and no bar label ("T7") is drawn on that row. The chart was drawn over
    /// the name ("T7an", "T5a … 95▃78") when opening scrolled the list: the bars came in from their final place
    /// while the card was still on its way there.
    @Test(arguments: smallSizes)
    func theChartNeverCoversTheNameWhileItOpensAndCloses(columns: Int, rows: Int) {
        for (index, (name, score)) in Self.ranked.enumerated() {
            var driver = Self.driver(columns: columns, rows: rows)
            var time = 0.1
            for _ in 0..<index {
                driver.key("down", at: time)
                time += 0.01
            }
            driver.draw(at: time + 1)
            time += 1
            var framesSeen = 0
            for phase in ["open", "close"] {
                driver.key("enter", at: time)
                for step in 0...40 {
                    driver.draw(at: time + Double(step) * 0.02)
                    let lines = Self.lines(driver)
                    let label = Self.barLabel(in: lines)
                    let nameRow = lines.firstIndex { Self.startsWithWord($0, name) }
                    #expect(
                        nameRow != nil,
                        "\(columns)x\(rows) \(name) \(phase) +\(step * 20) ms: the name is not whole\n\(lines.joined(separator: "\n"))"
                    )
                    guard let nameRow else { continue }
                    let row = lines[nameRow]
                    #expect(
                        row.range(of: "[^0-9]\(score)[^0-9A-Za-z]*$", options: .regularExpression) != nil,
                        "\(columns)x\(rows) \(name) \(phase) +\(step * 20) ms: the score is covered: \(row)")
                    #expect(
                        label.map { $0 != nameRow } ?? true,
                        "\(columns)x\(rows) \(name) \(phase) +\(step * 20) ms: a bar label on the name's row: \(row)")
                    #expect(
                        row.range(of: #"T[0-9]+[A-Za-z]"#, options: .regularExpression) == nil,
                        "\(columns)x\(rows) \(name) \(phase) +\(step * 20) ms: a bar label over the name: \(row)")
                    framesSeen += 1
                }
                time += 2
            }
            #expect(framesSeen == 82)
        }
    }

    /// The first row holding a bar label ("T1" … "T10" after the card's left edge), if any.
    static func barLabel(in lines: [String]) -> Int? {
        lines.firstIndex { $0.range(of: #"^.{0,4}T[0-9]"#, options: .regularExpression) != nil }
    }

    /// Whether `line`, past a card's left edge (spaces and border glyphs), starts with `word` followed by a
    /// non-letter.
    static func startsWithWord(_ line: String, _ word: String) -> Bool {
        let pattern = #"^[ │┃|#]{1,4}"# + word + #"([^A-Za-z]|$)"#
        return line.range(of: pattern, options: .regularExpression) != nil
    }

    /// At rest, at every size, a row of the page shows between each card and the next in the middle column: the
    /// seed's stack has a gap (at 60x20 and 80x24 the cards touched and made one striped block).
    @Test(arguments: allSizes)
    func cardsStandApartAtEverySize(columns: Int, rows: Int) {
        let driver = Self.driver(columns: columns, rows: rows)
        guard let buffer = driver.renderer.buffer else {
            Issue.record("nothing drawn")
            return
        }
        let lines = Self.lines(driver)
        let page = buffer[columns / 2, 0].background
        var nameRows: [Int] = []
        for (name, _) in Self.ranked {
            guard let row = lines.firstIndex(where: { Self.startsWithWord($0, name) }) else {
                Issue.record("\(columns)x\(rows): \(name) is not shown\n\(lines.joined(separator: "\n"))")
                return
            }
            nameRows.append(row)
        }
        #expect(nameRows == nameRows.sorted(), "the cards are not in test 1's order: \(nameRows)")
        for (upper, lower) in zip(nameRows, nameRows.dropFirst()) {
            let between = (upper + 1)..<lower
            let gap = between.contains { buffer[columns / 2, $0].background == page }
            let picture = lines.joined(separator: "\n")
            #expect(gap, "\(columns)x\(rows): no gap between the cards on rows \(upper) and \(lower)\n\(picture)")
        }
        // Every card alike: the same rows from one name to the next.
        let steps = Set(zip(nameRows, nameRows.dropFirst()).map { $1 - $0 })
        #expect(steps.count == 1, "\(columns)x\(rows): the cards are not evenly spaced: \(nameRows)")
    }
}
