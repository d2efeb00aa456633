import CardEngine
import CardGeometry
import CardScenes
import Foundation
import Testing

@testable import CardCells
@testable import CardTUI

/// Text under something fading, as a person sees it in the terminal (issue 46, left open after stop 49): every
/// frame at `--slow-motion 10`, at the four sizes.
@Suite struct FadeLookTests {
    static let allSizes = TransitionLookTests.allSizes
    static let slowFrame = TransitionLookTests.slowFrame

    // MARK: The hero's overlay

    /// The labels of the lines the first line's details cover (the second and third lines).
    static let otherLabels = ["Leaf", "Fire", "Water", "Star", "Heart", "Bolt", "Moon"]

    /// Every frame while the first line's white details fade in over the overview: while the overlay is still at
    /// most 65 % opaque, every label of the other lines that showed at rest still shows (fainter). Before, every
    /// letter under the overlay went at once when it reached half opacity.
    @Test(arguments: allSizes)
    func heroOtherLinesFadeUnderTheOverlay(columns: Int, rows: Int) {
        var driver = AppDriver(columns: columns, rows: rows)
        _ = driver.app.open("hero", at: 0)
        let rest = driver.draw(at: 1).text
        let shown = Self.otherLabels.filter { TransitionLookTests.wholeWords($0, in: rest) == 1 }
        #expect(shown.count >= 3, "\(columns)x\(rows): the other lines show \(shown)\n\(rest)")
        let restBuffer = driver.draw(at: 1.5)
        var places: [String: (Int, Int)] = [:]
        for label in shown {
            for row in 0..<rows {
                if let column = TransitionLookTests.column(of: label, in: restBuffer, row: row) {
                    places[label] = (column, row)
                }
            }
        }
        driver.key("enter", at: 2)
        var checked = 0
        for step in 0...Int(0.8 / Self.slowFrame) {
            let buffer = driver.draw(at: 2 + Double(step) * Self.slowFrame)
            guard let overlay = driver.app.lastFrame?.nodes.first(where: { $0.id == "details" }),
                (0.5...0.65).contains(overlay.opacity)
            else { continue }
            checked += 1
            // A label an element of the first line flies over is covered, not faded.
            // (Every chip has a matched id; those in flight have two copies, one leaving.)
            let nodes = driver.app.lastFrame?.nodes ?? []
            let pairs = Set(nodes.filter(\.isLeaving).compactMap(\.matchedGeometryID))
            let flying = nodes.filter { $0.matchedGeometryID.map(pairs.contains) == true }.map(\.rect)
            let scale = driver.app.scale
            func isFlownOver(_ label: String) -> Bool {
                guard let (column, row) = places[label] else { return false }
                let cells = Rect(
                    x: Double(column) * scale.pointsPerColumn, y: Double(row) * scale.pointsPerRow,
                    width: Double(label.count) * scale.pointsPerColumn, height: scale.pointsPerRow)
                return flying.contains { $0.intersects(cells) }
            }
            let missing = shown.filter {
                TransitionLookTests.wholeWords($0, in: buffer.text) != 1 && !isFlownOver($0)
            }
            #expect(
                missing.isEmpty,
                "\(columns)x\(rows) +\(step) (overlay \(String(format: "%.2f", overlay.opacity))): \(missing) gone\n\(buffer.text)"
            )
        }
        #expect(checked > 0, "\(columns)x\(rows): no frame with the overlay at 50–65 %")
    }

    /// Every frame while the first line opens and closes: each of its labels that shows whole is drawn in one
    /// tone, all its letters light or all dark (a label flying off its chip onto the white details had its letters over the chip in white and the
    /// others in grey: it read two-tone).
    @Test(arguments: allSizes)
    func heroFlyingLabelsReadInOneColour(columns: Int, rows: Int) {
        var driver = AppDriver(columns: columns, rows: rows)
        _ = driver.app.open("hero", at: 0)
        _ = driver.draw(at: 1)
        var checked = 0
        TransitionLookTests.everyHeroFlightFrame(of: &driver, from: 2) { key, step, buffer in
            for (_, label) in TransitionLookTests.heroItems {
                guard TransitionLookTests.labels(label, in: buffer.text) == 1,
                    let row = (0..<buffer.height).first(where: { buffer.text(row: $0).contains(label) }),
                    let start = TransitionLookTests.column(of: label, in: buffer, row: row)
                else { continue }
                checked += 1
                // Light or dark: letters blended at a little under full opacity over different cells differ
                // by a few levels, which no one sees.
                let tones = Set(
                    (start..<(start + label.count)).map { column -> Bool in
                        RGB8(buffer[column, row].foreground, fallback: .black).rgba.relativeLuminance > 0.4
                    })
                #expect(
                    tones.count == 1,
                    "\(columns)x\(rows) \(key) +\(step): \(label) drawn light and dark\n\(buffer.text)")
            }
        }
        #expect(checked > 100)
    }

    // MARK: The flashcards' swipe

    /// Every frame while the top flashcard is swiped away (keys both ways, and a mouse drag held mid-way): no
    /// single letter of the cards under it goes missing between letters that show on both sides of it. The cards
    /// under it are the frame drawn without the flying card (and its children). Before, the flying card, fading,
    /// let the prompt under it show through but its border took a letter: "How many │ides", "Who p inted".
    @Test(arguments: allSizes)
    func flashcardSwipeBlanksNoLetterOfTheCardUnder(columns: Int, rows: Int) {
        var checked = 0
        for swipe in ["right", "left", "drag"] {
            var driver = AppDriver(columns: columns, rows: rows)
            _ = driver.app.open("flashcards", at: 0)
            _ = driver.draw(at: 1)
            guard let top = driver.app.lastFrame?.nodes.filter({ $0.role == .card }).max(by: { $0.z < $1.z })?.id
            else {
                Issue.record("\(columns)x\(rows): no card")
                return
            }
            let time = 2.0
            var frames: [CellBuffer] = []
            var under: [CellBuffer] = []
            var owns: [CellBuffer] = []
            func record(_: CellBuffer) {
                guard let frame = driver.app.lastFrame else { return }
                var removed: Set<NodeID> = [top]
                var without = frame
                without.nodes = frame.nodes.filter { node in
                    if removed.contains(node.id) { return false }
                    if let parent = node.parent, removed.contains(parent) {
                        removed.insert(node.id)
                        return false
                    }
                    return true
                }
                // Both drawn alike (without the previous frame: no partial edges), so the cards under it are in the
                // same cells.
                let rasterizer = Rasterizer(scale: driver.app.scale)
                var rest = CellBuffer(width: columns, height: rows)
                rasterizer.render(without, into: &rest, rows: rows - 1)
                var whole = CellBuffer(width: columns, height: rows)
                rasterizer.render(frame, into: &whole, rows: rows - 1)
                // The flying card alone: where its own letters are, a letter that matches one under it is chance
                // ("rounded" over "painted").
                var flying = frame
                flying.nodes = frame.nodes.filter { removed.contains($0.id) }
                var own = CellBuffer(width: columns, height: rows)
                rasterizer.render(flying, into: &own, rows: rows - 1)
                frames.append(whole)
                under.append(rest)
                owns.append(own)
            }
            if swipe == "drag" {
                guard let row = Self.promptRow(driver.draw(at: 1.5), rows: rows) else { continue }
                let start = columns / 2
                driver.mouse(MouseInput(.press, column: start, row: row), at: time)
                for step in 1...(columns / 3) {
                    driver.mouse(MouseInput(.drag, column: start + step, row: row), at: time + Double(step) * 0.02)
                    record(driver.draw(at: time + Double(step) * 0.02 + 0.01))
                }
            } else {
                driver.key(swipe, at: time)
                // Every other frame (three renders each).
                for step in stride(from: 0, through: Int(0.8 / Self.slowFrame), by: 2) {
                    record(driver.draw(at: time + Double(step) * Self.slowFrame))
                }
            }
            for index in frames.indices {
                let (buffer, rest, own) = (frames[index], under[index], owns[index])
                for row in 0..<(rows - 1) {
                    let gaps = Self.lettersTaken(
                        rest: (0..<columns).map { rest[$0, row].character.string },
                        now: (0..<columns).map {
                            PaintContext.holdsText(own[$0, row]) ? "" : buffer[$0, row].character.string
                        })
                    checked += 1
                    #expect(
                        gaps.isEmpty,
                        "\(columns)x\(rows) \(swipe) frame \(index): letters at \(gaps) of \"\(rest.text(row: row))\" taken\n\(buffer.text)"
                    )
                }
            }
        }
        #expect(checked > 100)
    }

    /// The first row with a word of three letters or more (a prompt).
    static func promptRow(_ buffer: CellBuffer, rows: Int) -> Int? {
        (0..<(rows - 1)).first { row in
            buffer.text(row: row).range(of: "[A-Za-z]{3,} [A-Za-z]", options: .regularExpression) != nil
        }
    }

    /// The columns where `rest` has a letter that `now` does not show while the nearest two letters of `rest` on
    /// each side (the nearest within two columns, then the next one) do: a letter taken out of text that otherwise
    /// shows.
    static func lettersTaken(rest: [String], now: [String]) -> [Int] {
        func isLetter(_ text: String) -> Bool { text.count == 1 && text.first?.isLetter == true }
        func shows(_ column: Int) -> Bool { now[column] == rest[column] }
        func nearestLetter(from column: Int, by delta: Int) -> Int? {
            var index = column + delta
            while index >= 0, index < rest.count, abs(index - column) <= 2 {
                if isLetter(rest[index]) { return index }
                index += delta
            }
            return nil
        }
        return rest.indices.filter { column in
            guard isLetter(rest[column]), !shows(column),
                let left = nearestLetter(from: column, by: -1), let right = nearestLetter(from: column, by: 1)
            else { return false }
            guard let beyondLeft = nearestLetter(from: left, by: -1),
                let beyondRight = nearestLetter(from: right, by: 1)
            else { return false }
            return shows(left) && shows(beyondLeft) && shows(right) && shows(beyondRight)
        }
    }
}
