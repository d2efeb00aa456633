import CardEngine
import CardGeometry
import CardModels
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// Every glyph the terminal UI draws is legible (issue 28): the contrast lint over the cell buffer, for every scene
/// at rest and after its main keys, at every tour size, the home screen and the help overlay included; the seeds' own
/// colour pairs are not exempt (issue 46: white on the deck's yellow card was 1.5:1).
@Suite struct ContrastLintTests {
    static let sizes = [(60, 20), (80, 24), (120, 40), (200, 60)]

    /// Each scene's main keys, in order; the screen is linted at rest after each.
    static let tours: [String: [String]] = [
        "scores": ["right", "enter", "escape"],
        "flashcards": ["enter", "left"],
        "wallet": ["enter", "escape"],
        "hero": ["down", "enter", "escape"],
        "deck": ["p", "p", "s", "enter"],
    ]

    /// The cells `rect` touches.
    static func cells(of rect: Rect, scale: CellScale) -> (columns: Range<Int>, rows: Range<Int>) {
        let first = scale.cell(at: Point(x: rect.minX, y: rect.minY))
        let columns = Int((rect.maxX / scale.pointsPerColumn).rounded(.up))
        let rows = Int((rect.maxY / scale.pointsPerRow).rounded(.up))
        return (first.column..<max(first.column, columns), first.row..<max(first.row, rows))
    }

    /// Lints the app's screen: icons count as graphics (3:1), and what a scrim covers is inactive (WCAG 2.2 1.4.3's
    /// exception for inactive components: the deck's backdrop dims the page behind an expanded card on purpose).
    static func violations(_ driver: AppDriver, _ buffer: CellBuffer) -> [ContrastLint.Violation] {
        let frame = driver.app.lastFrame
        let scale = driver.app.scale
        var graphic: Set<Int> = []
        var inactive: Set<Int> = []
        let width = buffer.width
        for node in frame?.nodes ?? [] where node.role == .icon {
            let cells = cells(of: node.rect, scale: scale)
            for row in cells.rows { for column in cells.columns { graphic.insert(row * width + column) } }
        }
        for scrim in frame?.nodes ?? [] where scrim.role == .overlay && scrim.fill != nil {
            let above = frame?.nodes.filter { $0.z > scrim.z && $0.role != .text } ?? []
            let cells = cells(of: scrim.rect, scale: scale)
            for row in cells.rows {
                for column in cells.columns {
                    let point = scale.point(column: column, row: row)
                    if !above.contains(where: { $0.rect.contains(point) }) { inactive.insert(row * width + column) }
                }
            }
        }
        return ContrastLint.violations(
            in: buffer, isGraphic: { graphic.contains($1 * width + $0) },
            exempt: { column, row, _, _ in
                inactive.contains(row * width + column)
            })
    }

    @Test(arguments: sizes)
    func everyGlyphIsLegible(columns: Int, rows: Int) {
        var pairs: [String: String] = [:]
        func lint(_ driver: inout AppDriver, at time: Double, _ context: String) {
            let buffer = driver.draw(at: time)
            for violation in Self.violations(driver, buffer) {
                let key =
                    "\(ContrastLint.Violation.hex(violation.foreground)) on "
                    + ContrastLint.Violation.hex(violation.background)
                if pairs[key] == nil { pairs[key] = "\(context): \(violation)" }
            }
        }
        var home = AppDriver(columns: columns, rows: rows)
        lint(&home, at: 1, "home")
        for descriptor in SceneCatalog.standard.descriptors {
            var driver = AppDriver(columns: columns, rows: rows)
            driver.app.open(descriptor.name, at: 0)
            var time = 3.0
            lint(&driver, at: time, descriptor.name)
            for key in Self.tours[descriptor.name] ?? [] {
                driver.key(key, at: time)
                time += 4
                lint(&driver, at: time, "\(descriptor.name) after \(key)")
            }
            driver.key("?", at: time)
            lint(&driver, at: time + 1, "\(descriptor.name) help")
        }
        #expect(pairs.isEmpty, "\(columns)x\(rows):\n\(pairs.values.sorted().joined(separator: "\n"))")
    }

    /// The lint itself: text needs 4.5:1, a graphic 3:1, a faint cell counts at half its colour, shapes and blanks
    /// are not checked.
    @Test func theLintMeasuresWhatItShould() {
        var buffer = CellBuffer(width: 6, height: 1)
        func put(_ column: Int, _ glyph: Unicode.Scalar, _ fg: (UInt8, UInt8, UInt8), dim: Bool = false) {
            var cell = buffer[column, 0]
            cell.character = Glyph(glyph)
            cell.foreground = .rgb(fg.0, fg.1, fg.2)
            cell.background = .rgb(255, 255, 255)
            if dim { cell.attributes.insert(.dim) }
            buffer[column, 0] = cell
        }
        put(0, "a", (0x76, 0x76, 0x76))  // 4.54:1: passes
        put(1, "b", (0x77, 0x77, 0x77))  // 4.48:1: fails
        put(2, "★", (0x94, 0x94, 0x94))  // 3.03:1, a graphic: passes
        put(3, "─", (0xFF, 0xFF, 0xFF))  // a shape: not checked
        put(4, "c", (0x00, 0x00, 0x00), dim: true)  // black at half over white: 3.95:1, fails
        put(5, "1", (0x94, 0x94, 0x94))  // 3.03:1 text: fails
        let found = ContrastLint.violations(in: buffer).map(\.column)
        #expect(found == [1, 4, 5], "\(ContrastLint.violations(in: buffer))")
        #expect(ContrastLint.violations(in: buffer, isGraphic: { column, _ in column == 5 }).map(\.column) == [1, 4])
    }
}
