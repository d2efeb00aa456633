import CardEngine
import CardGeometry
import Testing

@testable import CardCells

/// A focused card too short for a box (two rows: the scores' cards at 60x20 and 80x24) is ringed through the free
/// rows around it (issue 46: its focus had shrunk to two ticks), and keeps the two bars where those rows are taken.
@Suite struct ShortCardFocusRingTests {
    static let ring = RGBA.black

    /// A two-row card on columns 2…25, rows `row` and `row + 1`, focused.
    static func card(_ id: String, row: Int, focused: Bool = true) -> FrameNode {
        TestFrames.node(
            id, x: 16, y: Double(row) * 16, width: 192, height: 32, stroke: focused ? ring : nil)
    }

    @Test func theRingClosesThroughTheFreeRowsAboveAndBelow() {
        let buffer = TestFrames.render([Self.card("a", row: 3)])
        #expect(buffer.text(row: 2).contains("┏━━━━━━━━━━━━━━━━━━━━━━┓"), "\(buffer.text)")
        #expect(buffer.text(row: 5).contains("┗━━━━━━━━━━━━━━━━━━━━━━┛"), "\(buffer.text)")
        for row in 3...4 {
            #expect(buffer[2, row].character == "┃" && buffer[25, row].character == "┃", "\(buffer.text)")
        }
        // The ring's rows keep the page behind them, in the ring's colour.
        #expect(buffer[10, 2].background == buffer[0, 2].background)
        #expect(buffer[10, 2].foreground == RGB8(Self.ring).cellColor)
    }

    @Test func aTakenRowLeavesTheTwoBars() {
        // Another card right above: no room for the ring's top, so no ring rows at all (a half ring would read as
        // an underline), only the bars down the card's sides.
        let buffer = TestFrames.render([Self.card("above", row: 1, focused: false), Self.card("a", row: 3)])
        let text = buffer.text
        #expect(!text.contains("┏") && !text.contains("┗"), "\(text)")
        #expect(buffer[2, 3].character == "┃" && buffer[25, 4].character == "┃", "\(text)")
        // At the buffer's top edge there is no row above either.
        let top = TestFrames.render([Self.card("a", row: 0)])
        #expect(!top.text.contains("┏") && !top.text.contains("┗"), "\(top.text)")
    }

    @Test func asciiRingsWithHashesAndEquals() {
        let buffer = TestFrames.render([Self.card("a", row: 3)], ascii: true)
        #expect(buffer.text(row: 2).contains("#======================#"), "\(buffer.text)")
        #expect(buffer.text(row: 5).contains("#======================#"), "\(buffer.text)")
    }
}
