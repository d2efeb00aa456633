import CardEngine
import CardGeometry
import CardModels
import CardScenes
import Testing

@testable import CardCells
@testable import CardTUI

/// Sub-cell motion: a moving node's leading edge drawn in eighths of a cell, soft shadows, whole cells at rest and
/// with `--ascii`.
@Suite struct SubCellTests {
    static let blocks: Set<Unicode.Scalar> = Set((0x2581...0x2587).map { Unicode.Scalar($0)! })
        .union((0x2589...0x258F).map { Unicode.Scalar($0)! })

    static func render(
        _ nodes: [FrameNode], after previous: [FrameNode]?, columns: Int = 40, rows: Int = 12, ascii: Bool = false
    ) -> CellBuffer {
        var buffer = CellBuffer(width: columns, height: rows)
        var frame = TestFrames.frame(nodes)
        frame.isAnimating = true
        Rasterizer(ascii: ascii).render(frame, into: &buffer, previous: previous.map { TestFrames.frame($0) })
        return buffer
    }

    static func rgb(_ color: CellColor) -> [Int] {
        color.components.map { [$0.0, $0.1, $0.2] } ?? []
    }

    static func blockCount(_ buffer: CellBuffer) -> Int {
        buffer.cells.filter { $0.character.scalar.map(blocks.contains) ?? false }.count
    }

    @Test func aTwoPointMoveChangesTheScreen() {
        // 2 points is an eighth of a 16-point row: whole cells cannot show it.
        let before = TestFrames.node("a", x: 16, y: 16, width: 96, height: 48, cornerRadius: 0)
        let after = TestFrames.node("a", x: 16, y: 18, width: 96, height: 48, cornerRadius: 0)
        #expect(Self.render([after], after: nil) == Self.render([before], after: nil))
        let moved = Self.render([after], after: [before])
        #expect(moved != Self.render([before], after: [before]))
        // The card moves down: its bottom edge leads, an eighth of a cell into row 4 (66 / 16 = 4.125).
        let cell = moved[5, 4]
        #expect(cell.character == "▇")
        #expect(Self.rgb(cell.background) == [255, 0, 0])
        #expect(Self.rgb(cell.foreground) == [255, 255, 255])
        // The box keeps its three rows (1…3) and its border.
        #expect(moved[2, 1].character == "┌")
        #expect(moved[2, 3].character == "└")
    }

    @Test func movingUpLeadsWithTheTopEdge() {
        let before = TestFrames.node("a", x: 16, y: 40, width: 96, height: 48, cornerRadius: 0)
        let after = TestFrames.node("a", x: 16, y: 36, width: 96, height: 48, cornerRadius: 0)
        let moved = Self.render([after], after: [before])
        // Top at 36 / 16 = 2.25 rows: the box starts at row 3, and the lower ¾ of row 2 is the fill.
        #expect(moved[5, 2].character == "▆")
        #expect(Self.rgb(moved[5, 2].foreground) == [255, 0, 0])
        #expect(moved[2, 3].character == "┌")
        #expect(moved[2, 5].character == "└")
    }

    @Test func sidewaysMotionUsesLeftEighths() {
        let before = TestFrames.node("a", x: 16, y: 16, width: 96, height: 48, cornerRadius: 0)
        let right = Self.render(
            [TestFrames.node("a", x: 19, y: 16, width: 96, height: 48, cornerRadius: 0)], after: [before])
        // Right edge at (19 + 96) / 8 = 14.375 columns: column 14 is ⅜ fill from the left.
        #expect(right[14, 2].character == "▍")
        #expect(Self.rgb(right[14, 2].foreground) == [255, 0, 0])
        let left = Self.render(
            [TestFrames.node("a", x: 13, y: 16, width: 96, height: 48, cornerRadius: 0)], after: [before])
        // Left edge at 13 / 8 = 1.625 columns: column 1's right ⅜ is fill (its left ⅝ stays white).
        #expect(left[1, 2].character == "▋")
        #expect(Self.rgb(left[1, 2].foreground) == [255, 255, 255])
        #expect(Self.rgb(left[1, 2].background) == [255, 0, 0])
    }

    @Test func theSettlingFrameIsWholeCells() {
        // The engine's frame at the settle time says it no longer animates: no partial edge may stay on screen.
        let before = TestFrames.node("a", x: 16, y: 16, width: 96, height: 48)
        let after = TestFrames.node("a", x: 16, y: 21, width: 96, height: 48)
        var buffer = CellBuffer(width: 40, height: 12)
        Rasterizer().render(TestFrames.frame([after]), into: &buffer, previous: TestFrames.frame([before]))
        #expect(Self.blockCount(buffer) == 0)
    }

    @Test func atRestAndWithAsciiEverythingIsWholeCells() {
        let before = TestFrames.node("a", x: 16, y: 16, width: 96, height: 48)
        let after = TestFrames.node("a", x: 16, y: 21, width: 96, height: 48)
        #expect(Self.render([after], after: [after]) == Self.render([after], after: nil))
        #expect(Self.blockCount(Self.render([after], after: [before])) > 0)
        #expect(Self.blockCount(Self.render([after], after: [before], ascii: true)) == 0)
    }

    @Test func aSpringsOvershootIsVisible() {
        // The last frames of a bouncy spring settling at y = 100: a 3-point overshoot and back.
        let positions: [Double] = [92, 98, 101.5, 103, 102, 100.5, 100, 100]
        var screens: [CellBuffer] = []
        var previous: FrameNode?
        for y in positions {
            let node = TestFrames.node("a", x: 16, y: y, width: 96, height: 48, cornerRadius: 0)
            screens.append(Self.render([node], after: previous.map { [$0] }, rows: 14))
            previous = node
        }
        // Whole cells show 101.5, 103, 102 and 100.5 as one picture (row 6); eighths tell them apart. Once still
        // (the last frame repeats the one before), the card is whole cells again.
        #expect(Set(screens.suffix(6).dropLast()).count >= 4)
        #expect(Self.blockCount(screens.last!) == 0)
    }

    @Test func softShadowsFallOff() {
        let shadow = Shadow(
            color: RGBA(red: 0, green: 0, blue: 0, alpha: 0.5), radius: 24, offset: Vector(dx: 0, dy: 4))
        let node = TestFrames.node("a", x: 16, y: 16, width: 96, height: 64, shadow: shadow)
        let buffer = Self.render([node], after: nil)
        // Right of the card (columns 14…) on a middle row, the shadow lightens cell by cell to the page.
        let levels = (14...17).map { Self.rgb(buffer[$0, 3].background).first ?? -1 }
        #expect(levels.first! < 255)
        #expect(levels.last! == 255)
        #expect(Set(levels).count >= 3, "levels: \(levels)")
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// Seeded property test of the anchoring: whatever the exact edges and the direction, the leading edge lands
    /// within a sixteenth of a cell of its exact position, the box keeps its size, and the remainder is 0…7
    /// eighths.
    @Test func theLeadingEdgeIsExactAndTheBoxKeepsItsSize() {
        var random = SplitMix64(seed: 0x5AB_CE11)
        for _ in 0..<5000 {
            let width = Int(random.next() % 30) + 1
            let height = Int(random.next() % 20) + 1
            let left = Int(random.next() % 60) - 20
            let top = Int(random.next() % 40) - 10
            let exactLeft = Double(left) + Double(random.next() % 1000) / 1000 - 0.5
            let exactTop = Double(top) + Double(random.next() % 1000) / 1000 - 0.5
            let exactWidth = Double(width) + Double(random.next() % 1000) / 1000 - 0.5
            let exactHeight = Double(height) + Double(random.next() % 1000) / 1000 - 0.5
            let edges: [SubCellMotion.Direction.Edge] = [.none, .leading, .trailing]
            let direction = SubCellMotion.Direction(
                horizontal: edges[Int(random.next() % 3)], vertical: edges[Int(random.next() % 3)])
            var extent = PaintContext.Extent(
                left: left, right: left + width, top: top, bottom: top + height, centerY: 0, shearPerPoint: 0,
                isHorizontalLine: false, isVerticalLine: false)
            extent.anchor(
                exactLeft: exactLeft, exactRight: exactLeft + exactWidth, exactTop: exactTop,
                exactBottom: exactTop + exactHeight, moving: direction)
            #expect(extent.right - extent.left == width && extent.bottom - extent.top == height)
            let strips = [extent.edges.top, extent.edges.bottom, extent.edges.left, extent.edges.right]
            #expect(strips.allSatisfy { (0...7).contains($0) })
            switch direction.vertical {
            case .none: #expect(extent.top == top && extent.edges.top == 0 && extent.edges.bottom == 0)
            case .trailing:
                #expect(
                    abs(Double(extent.bottom) + Double(extent.edges.bottom) / 8 - (exactTop + exactHeight)) <= 1 / 16)
            case .leading: #expect(abs(Double(extent.top) - Double(extent.edges.top) / 8 - exactTop) <= 1 / 16)
            }
            switch direction.horizontal {
            case .none: #expect(extent.left == left && extent.edges.left == 0 && extent.edges.right == 0)
            case .trailing:
                #expect(abs(Double(extent.right) + Double(extent.edges.right) / 8 - (exactLeft + exactWidth)) <= 1 / 16)
            case .leading: #expect(abs(Double(extent.left) - Double(extent.edges.left) / 8 - exactLeft) <= 1 / 16)
            }
        }
    }

    /// Seeded property test through the rasteriser: a chip riding on a moving card stays strictly inside the
    /// card's border, and its own partial cells too when it moves within the card.
    @Test func childrenStayInsideAMovingBox() {
        var random = SplitMix64(seed: 0xC41_B0C5)
        let cardColor = RGBA(red: 0, green: 0.4, blue: 1)
        let chipColor = RGBA(red: 1, green: 0.8, blue: 0)
        func nodes(x: Double, y: Double, chipX: Double, chipY: Double) -> [FrameNode] {
            var card = TestFrames.node("card", x: x, y: y, width: 160, height: 96, fill: cardColor)
            card.parent = nil
            var chip = TestFrames.node(
                "chip", role: .chip, x: x + chipX, y: y + chipY, width: 48, height: 16, cornerRadius: 0, fill: chipColor
            )
            chip.parent = NodeID("card")
            return [card, chip]
        }
        for _ in 0..<2000 {
            // The card stays on the grid (60 × 20 cells, 480 × 320 points) whatever it moves by.
            let x = 24 + Double(random.next() % 2700) / 10
            let y = 24 + Double(random.next() % 1400) / 10
            let chipX = 16 + Double(random.next() % 900) / 10
            let chipY = 16 + Double(random.next() % 600) / 10
            let dx = Double(Int(random.next() % 400) - 200) / 10
            let dy = Double(Int(random.next() % 400) - 200) / 10
            let chipDX = random.next() % 2 == 0 ? 0 : Double(Int(random.next() % 80) - 40) / 10
            let before = nodes(x: x, y: y, chipX: chipX, chipY: chipY)
            let after = nodes(x: x + dx, y: y + dy, chipX: max(16, min(chipX + chipDX, 96)), chipY: chipY)
            let buffer = Self.render(after, after: before, columns: 60, rows: 20)
            let border: Set<Unicode.Scalar> = ["╭", "╮", "╰", "╯", "─", "│"]
            var box = (left: Int.max, right: Int.min, top: Int.max, bottom: Int.min)
            var chipCells: [(Int, Int)] = []
            let chip = RGB8(chipColor).cellColor
            for row in 0..<buffer.height {
                for column in 0..<buffer.width {
                    let cell = buffer[column, row]
                    if cell.character.scalar.map(border.contains) ?? false {
                        box = (min(box.left, column), max(box.right, column), min(box.top, row), max(box.bottom, row))
                    }
                    if cell.background == chip || cell.foreground == chip { chipCells.append((column, row)) }
                }
            }
            for (column, row) in chipCells {
                #expect(
                    column > box.left && column < box.right && row > box.top && row < box.bottom,
                    "chip cell \(column),\(row) outside the card's border \(box)")
            }
        }
    }

    /// The wallet's select animation through the app: partial cells while cards move, none at rest, and the
    /// box of every card keeps its height in every frame.
    @Test func theWalletMovesInEighths() {
        var app = TUIApp(columns: 120, rows: 40, configuration: TUIApp.Configuration(catalog: .standard))
        let opened = app.open("wallet", at: 0)
        #expect(opened)
        var buffer = CellBuffer(width: 120, height: 40)
        _ = app.draw(at: 1, into: &buffer)
        _ = app.handle(KeyInput("enter"), at: 1)
        var counts: [Int] = []
        var time = 1.0
        while time < 3 {
            time += 1.0 / 60
            _ = app.draw(at: time, into: &buffer)
            counts.append(Self.blockCount(buffer))
        }
        #expect(counts.contains { $0 > 0 })
        #expect(counts.last == 0)
    }
}
