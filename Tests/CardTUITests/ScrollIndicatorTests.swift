import CardEngine
import CardGeometry
import CardModels
import Testing

@testable import CardCells
@testable import CardTUI

/// Every scrollable list shows where you are (issue 28): a proportional thumb in eighths of a cell in the list's
/// last column, the 12-card deck, a 1,000,000-card deck and the scores list included.
@Suite struct ScrollIndicatorTests {
    static let thumbGlyphs: Set<Glyph> = ["█", "▁", "▂", "▃", "▄", "▅", "▆", "▇"]

    /// The thumb's rows in the last column (a row counts when any eighth of it is thumb), top first.
    static func thumbRows(_ buffer: CellBuffer, rows: Int) -> [Int] {
        (0..<rows).filter { thumbGlyphs.contains(buffer[buffer.width - 1, $0].character) }
    }

    @Test(arguments: [(60, 20), (80, 24), (120, 40), (200, 60)])
    func theDeckShowsWhereItIsScrolled(columns: Int, rows: Int) {
        for cards in [12, 1_000_000] {
            var driver = AppDriver(columns: columns, rows: rows)
            driver.app = TUIApp(
                columns: columns, rows: rows,
                configuration: TUIApp.Configuration(catalog: .standard, sceneOptions: SceneOptions(cardCount: cards)))
            driver.app.open("deck", at: 0)
            let top = Self.thumbRows(driver.draw(at: 3), rows: rows - 1)
            #expect(!top.isEmpty, "\(cards) cards \(columns)x\(rows): no thumb at the top")
            driver.key("end", at: 3)
            let bottom = Self.thumbRows(driver.draw(at: 9), rows: rows - 1)
            #expect(!bottom.isEmpty, "\(cards) cards \(columns)x\(rows): no thumb at the end")
            if let first = top.first, let last = bottom.last { #expect(last > first) }
            if cards == 1_000_000 { #expect(top.count <= 2, "a million cards: the thumb is one cell (two when split)") }
        }
    }

    /// The thumb stays inside its track, is at least a cell long, covers the visible share of the content and
    /// moves monotonically from the top (offset at the range's start) to the bottom (at its end). Seeded, 5,000
    /// cases.
    @Test func theThumbIsProportionalAndMonotone() {
        var generator = SplitMix64(seed: 0x5C_0011)
        for _ in 0..<5_000 {
            let length = Int.random(in: 1...80, using: &generator)
            let visible = Double.random(in: 1...2_000, using: &generator)
            let scrollable = Double.random(in: 0.5...10_000_000, using: &generator)
            let range = 0...scrollable
            let a = Double.random(in: 0...scrollable, using: &generator)
            let b = Double.random(in: 0...scrollable, using: &generator)
            let (startA, lengthA) = Rasterizer.scrollThumb(length: length, visible: visible, range: range, offset: a)
            let (startB, _) = Rasterizer.scrollThumb(length: length, visible: visible, range: range, offset: b)
            #expect(lengthA >= min(8, length * 8) && startA >= 0 && startA + lengthA <= length * 8)
            if a < b { #expect(startA <= startB) }
            let share = Double(length * 8) * visible / (visible + scrollable)
            #expect(abs(Double(lengthA) - max(8, share)) <= 1 || lengthA == length * 8)
        }
        #expect(Rasterizer.scrollThumb(length: 10, visible: 100, range: 0...100, offset: 0) == (0, 40))
        #expect(Rasterizer.scrollThumb(length: 10, visible: 100, range: 0...100, offset: 100) == (40, 40))
    }
}
