import CardEngine
import CardModels
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

@Suite struct ANSIWriterTests {
    static let red = CellColor.rgb(220, 40, 40)
    static let page = CellColor.rgb(242, 242, 247)

    /// An 80 × 24 page with a 12 × 4 red card at (`column`, `row`) labelled "Card".
    static func scene(cardAt column: Int, row: Int, width: Int = 80, height: Int = 24) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height, fill: Cell(" ", background: page))
        for y in row..<(row + 4) {
            for x in column..<(column + 12) { buffer[x, y] = Cell(" ", background: red) }
        }
        buffer.put("Card", column: column + 2, row: row + 1, foreground: .rgb(255, 255, 255), attributes: [.bold])
        return buffer
    }

    @Test func anIdleFrameWritesNothing() {
        var writer = CellScreen(backend: ANSIWriter())
        var output: [UInt8] = []
        writer.render(Self.scene(cardAt: 10, row: 5), into: &output)
        #expect(!output.isEmpty)
        output.removeAll()
        writer.render(Self.scene(cardAt: 10, row: 5), into: &output)
        #expect(output.isEmpty)
        writer.backend.synchronizedOutput = true
        writer.render(Self.scene(cardAt: 10, row: 5), into: &output)
        #expect(output.isEmpty, "no synchronized-output markers around an empty frame either")
    }

    @Test func oneCardMovingOneCellWritesUnderOneKilobyte() {
        var writer = CellScreen(backend: ANSIWriter(depth: .trueColor, synchronizedOutput: true))
        var output: [UInt8] = []
        writer.render(Self.scene(cardAt: 10, row: 5), into: &output)
        let full = output.count
        output.removeAll()
        writer.render(Self.scene(cardAt: 11, row: 5), into: &output)
        #expect(output.count > 0)
        #expect(output.count < 1024)
        #expect(output.count * 5 < full)
    }

    @Test func diffDecodedCellByCellEqualsAFullRepaint() {
        var writer = CellScreen(backend: ANSIWriter())
        var model = ScreenModel(width: 80, height: 24)
        for step in 0..<30 {
            var output: [UInt8] = []
            let frame = Self.scene(cardAt: 3 + step * 2, row: 2 + step % 7)
            writer.render(frame, into: &output)
            model.apply(output)
            var repaint = ScreenModel(width: 80, height: 24)
            repaint.apply(ANSIWriter.fullRepaint(frame, depth: .trueColor))
            #expect(model.screen.looksSame(as: frame))
            #expect(repaint.screen.looksSame(as: frame))
        }
        #expect(model.unexpected.isEmpty)
    }

    /// Random edits of random styles, at every colour depth: the screen decoded from the diffs always equals the
    /// buffer drawn.
    @Test(arguments: ColorDepth.allCases)
    func randomFramesDecodeExactly(depth: ColorDepth) {
        var random = SplitMix64(seed: 2026)
        var writer = CellScreen(backend: ANSIWriter(depth: depth, synchronizedOutput: random.below(2) == 0))
        var model = ScreenModel(width: 40, height: 12)
        var buffer = CellBuffer(width: 40, height: 12)
        let glyphs: [Unicode.Scalar] = ["a", "B", " ", "╭", "─", "é", "9", "…"]
        for _ in 0..<1_000 {
            for _ in 0..<random.below(30) {
                let attributes = CellAttributes(rawValue: UInt8(random.below(16)))
                let foreground: CellColor =
                    random.below(4) == 0
                    ? .terminalDefault
                    : .rgb(UInt8(random.below(256)), UInt8(random.below(256)), UInt8(random.below(256)))
                let background: CellColor = random.below(3) == 0 ? .terminalDefault : .indexed(UInt8(random.below(256)))
                buffer[random.below(40), random.below(12)] = Cell(
                    glyphs[random.below(glyphs.count)], foreground: foreground, background: background,
                    attributes: attributes)
            }
            var converted = buffer
            depth.convert(&converted)
            var output: [UInt8] = []
            writer.render(converted, into: &output)
            model.apply(output)
            #expect(model.screen.looksSame(as: converted))
        }
        #expect(model.unexpected.isEmpty)
    }

    @Test func styleCodesOnlyWhereTheStyleChanges() {
        var buffer = CellBuffer(width: 20, height: 1)
        buffer.put("abcdefghij", column: 0, row: 0, foreground: .rgb(1, 2, 3), background: .rgb(4, 5, 6))
        let bytes = ANSIWriter.fullRepaint(buffer, depth: .trueColor)
        let text = String(decoding: bytes, as: UTF8.self)
        // The reset before the clear, one SGR for the ten styled cells, one back to the default style.
        #expect(text.components(separatedBy: "m").count - 1 == 3)
        #expect(text.contains("abcdefghij"))
    }

    @Test func cursorMovesOnlyBetweenNonContiguousCells() {
        var writer = CellScreen(backend: ANSIWriter())
        var output: [UInt8] = []
        var buffer = CellBuffer(width: 30, height: 3)
        writer.render(buffer, into: &output)
        buffer.put("xyz", column: 4, row: 1, foreground: .terminalDefault)
        buffer.put("w", column: 11, row: 1, foreground: .terminalDefault)
        buffer.put("v", column: 15, row: 1, foreground: .terminalDefault)
        output.removeAll()
        writer.render(buffer, into: &output)
        // One absolute move to (4, 1), the three contiguous cells, a forward move of 4 columns (from 7 to 11), 'w';
        // then the three unchanged blanks before 'v' rewritten (3 bytes, cheaper than ESC [ 3 C), and 'v'.
        #expect(String(decoding: output, as: UTF8.self) == "\u{1B}[2;5Hxyz\u{1B}[4Cw   v")
    }

    @Test func aBlankKeepsThePensForeground() {
        var writer = CellScreen(backend: ANSIWriter())
        var output: [UInt8] = []
        var buffer = CellBuffer(width: 10, height: 1)
        writer.render(buffer, into: &output)
        buffer[0, 0] = Cell("a", foreground: .rgb(200, 0, 0), background: .rgb(0, 0, 200))
        buffer[1, 0] = Cell(" ", foreground: .rgb(0, 200, 0), background: .rgb(0, 0, 200))
        output.removeAll()
        writer.render(buffer, into: &output)
        // One SGR: the blank's green foreground shows nowhere, so the pen stays red.
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.components(separatedBy: "m").count - 1 == 1, "\(text.debugDescription)")
        // A blank whose invisible foreground alone changes is not redrawn.
        buffer[1, 0].foreground = .rgb(1, 2, 3)
        output.removeAll()
        writer.render(buffer, into: &output)
        #expect(output.isEmpty)
    }

    @Test func aResizeOrInvalidateRepaintsEverything() {
        var writer = CellScreen(backend: ANSIWriter())
        var output: [UInt8] = []
        writer.render(CellBuffer(width: 10, height: 2), into: &output)
        output.removeAll()
        writer.invalidate()
        writer.render(CellBuffer(width: 10, height: 2), into: &output)
        #expect(String(decoding: output, as: UTF8.self).filter { $0 == " " }.count == 20)
        output.removeAll()
        writer.render(CellBuffer(width: 12, height: 2), into: &output)
        #expect(String(decoding: output, as: UTF8.self).contains("\u{1B}[2J"))
    }

    @Test func colourCodesForEachDepth() {
        var buffer = CellBuffer(width: 1, height: 1)
        buffer[0, 0] = Cell("x", foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 0))
        func text(_ depth: ColorDepth) -> String {
            var converted = buffer
            depth.convert(&converted)
            return String(decoding: ANSIWriter.fullRepaint(converted, depth: depth), as: UTF8.self)
        }
        #expect(text(.trueColor).contains("38;2;255;0;0;48;2;0;0;0m"))
        #expect(text(.palette256).contains("38;5;196;48;5;16m"))
        #expect(text(.basic16).contains("91;40m"))
        #expect(!text(.none).contains("38;"))
        #expect(!text(.none).contains("91"))
    }
}
