import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics

/// The hero scene's layout, in points: the overview (always there) and the details overlay over it.
extension HeroScene {
    static let padding = 16.0
    static let titleHeight = 48.0
    static let rowHeight = 44.0
    static let rowSpacing = 8.0
    /// Chip: `.padding(4)` around an HStack (spacing 8) of an 18-point icon and the text.
    static let chipPadding = 4.0
    static let chipSpacing = 8.0
    static let iconSize = 18.0
    static let lineHeight = 20.0
    /// Details row: `.padding()` (16) around a 30-point colour square, the icon and the text; hairline under it.
    static let detailsTop = 72.0
    static let squareSize = 30.0
    static let detailsRowHeight = 62.0

    /// Shared gesture lists (the engine compares gesture lists; shared storage makes that a pointer check).
    static let lineGestures = [
        GestureAttachment("open", TapGesture()),
        // The press that highlights the row while a finger is on it (a List row's Button), alongside the tap.
        GestureAttachment("press", DragGesture(minimumDistance: 0), priority: .simultaneous),
    ]
    /// A pressed row's background: UIColor.systemGray4 in light mode (209, 209, 214), the highlight a List row's
    /// Button shows while it is pressed on iOS 17.
    static let pressedFill = RGBA(red: 209 / 255, green: 209 / 255, blue: 214 / 255)
    static let closeGestures = [GestureAttachment("close", TapGesture())]

    /// z of the layers: the overview at 0 (rows) and 1 (chips: the colour, then icon and text over it in layout
    /// order), the details overlay at 10 and everything on it at 12 (so each layout is in paint order already).
    static let overlayZ = 10.0

    public func layout(in viewport: Size) -> [Node] { layout(in: viewport, text: StandardTextMeasurer()) }

    public func layout(in viewport: Size, text measurer: any TextMeasurer) -> [Node] {
        let width = viewport.width
        // On a terminal's cells (`LayoutGrid`) every row is the same whole rows and every gap the same.
        let grid = measurer.layoutGrid
        let firstRowY = grid.y(Self.padding + Self.titleHeight + Self.rowSpacing)
        let rowHeight = grid.height(Self.rowHeight)
        let rowStep = rowHeight + grid.height(Self.rowSpacing, keepsNonZero: false)
        var nodes: [Node] = [
            Node(
                id: "background", role: .background, rect: Rect(x: 0, y: 0, width: width, height: viewport.height),
                z: -1, fill: Palette.background, isHitTestable: false),
            Node(
                id: "title", role: .title,
                rect: Rect(
                    x: Self.padding, y: Self.padding, width: max(width - 2 * Self.padding, 1),
                    height: Self.titleHeight),
                text: [TextRun("Lines", style: .largeTitle, weight: .bold)], isHitTestable: false),
        ]
        // Every row (z 0), then the chips over them (z 1), so the frame is in paint order already.
        var chips: [Node] = []
        for (row, card) in deck.enumerated() {
            guard case .itemLine(let line) = card.payload else { continue }
            let y = firstRowY + Double(row) * rowStep
            let rowRect = Rect(x: Self.padding, y: y, width: max(width - 2 * Self.padding, 1), height: rowHeight)
            nodes.append(
                Node(
                    id: Self.lineNode(card.id), role: .card, card: card.id, rect: rowRect, cornerRadius: 10,
                    fill: pressed == card.id ? Self.pressedFill : Palette.white,
                    stroke: focused == card.id ? Palette.focusRing(on: Palette.white) : nil,
                    gestures: Self.lineGestures,
                    accessibilityLabel: line.items.map(\.text).joined(separator: ", ")))
            if card.id != selectedLine {
                chips += overviewChips(line, in: rowRect, parent: Self.lineNode(card.id), text: measurer)
            }
        }
        nodes += chips
        if let selectedLine, case .itemLine(let line)? = deck[id: selectedLine]?.payload {
            nodes += detailsNodes(line, in: viewport, grid: grid)
        }
        return nodes
    }

    /// One row of chips, left to right from the row's leading inset; each chip (the colour) holds its icon and
    /// text, measured with the front end's metrics; when the chips would overflow the row the texts are narrowed by
    /// one common factor (never below zero) and cut with "…". O(items).
    func overviewChips(_ line: ItemLine, in row: Rect, parent: NodeID, text measurer: any TextMeasurer) -> [Node] {
        // Whole columns on a terminal (`LayoutGrid`): a chip's padding is the same on both sides and the gaps
        // between chips are equal (half-column lengths rounded one way here and the other there).
        let grid = measurer.layoutGrid
        let padding = grid.width(Self.chipPadding)
        let spacing = grid.width(Self.chipSpacing)
        let iconSize = grid.width(Self.iconSize)
        let fixed = 2 * padding + iconSize + spacing
        let texts = line.items.map { measurer.width(of: $0.text[...], style: .body, weight: .regular).rounded(.up) }
        let available =
            row.width - 2 * spacing - Double(max(line.items.count - 1, 0)) * spacing - Double(line.items.count) * fixed
        let total = texts.reduce(0, +)
        let factor = total > 0 && total > available ? max(available, 0) / total : 1
        let lineHeight = max(Self.lineHeight, measurer.lineHeight(of: .body))
        let chipHeight = lineHeight + 2 * Self.chipPadding
        let chipY = row.minY + grid.y((row.height - chipHeight) / 2)
        let contentY = chipY + Self.chipPadding
        var x = row.minX + spacing
        var nodes: [Node] = []
        nodes.reserveCapacity(line.items.count * 3)
        for (item, textWidth) in zip(line.items, texts) {
            let text = factor < 1 ? grid.width(textWidth * factor, rounded: .down) : textWidth
            let chip = Rect(x: x, y: chipY, width: fixed + text, height: chipHeight)
            let iconX = x + padding
            let chipID = NodeID("overview.\(item.id).color")
            // Icon and text share the chip's content row (one rect height), so they line up at any cell size.
            nodes += [
                Node(
                    id: chipID, role: .chip, parent: parent, rect: chip, z: 1, cornerRadius: 8,
                    fill: RGBA(item.color), transition: .opacity, matchedGeometryID: "\(item.id).color",
                    isHitTestable: false, clipsContent: true),
                Node(
                    id: NodeID("overview.\(item.id).icon"), role: .icon, parent: chipID,
                    rect: Rect(x: iconX, y: contentY, width: iconSize, height: lineHeight),
                    text: [TextRun(item.icon, color: Palette.label(on: RGBA(item.color)), alignment: .center)],
                    transition: .opacity,
                    matchedGeometryID: "\(item.id).icon", isHitTestable: false),
                Node(
                    id: NodeID("overview.\(item.id).text"), role: .text, parent: chipID,
                    rect: Rect(
                        x: iconX + iconSize + spacing, y: contentY, width: max(text, 1),
                        height: lineHeight),
                    text: [TextRun(item.text, color: Palette.label(on: RGBA(item.color)), lineLimit: 1)],
                    transition: .opacity,
                    matchedGeometryID: "\(item.id).text", isHitTestable: false),
            ]
            x += chip.width + spacing
        }
        return nodes
    }

    /// The details overlay: white over the whole viewport (it takes the touches meant for the overview), a close
    /// button, and one row per item with a hairline under each row (the last one too, as a plain List draws it).
    func detailsNodes(_ line: ItemLine, in viewport: Size, grid: LayoutGrid) -> [Node] {
        let width = viewport.width
        let z = Self.overlayZ
        var nodes: [Node] = [
            Node(
                id: "details", role: .overlay, rect: Rect(x: 0, y: 0, width: width, height: viewport.height), z: z,
                fill: Palette.white, transition: .opacity),
            Node(
                id: "details.close", role: .button, parent: "details",
                rect: Rect(x: width - Self.padding - 44, y: Self.padding, width: 44, height: 44), z: z + 2,
                text: [
                    TextRun("xmark.circle", style: .title, color: Palette.accent, alignment: .center, isSymbol: true)
                ],
                transition: .opacity, gestures: Self.closeGestures, accessibilityLabel: "Close"),
        ]
        nodes.reserveCapacity(2 + line.items.count * 4)
        // On a grid (`LayoutGrid`) each row is whole rows, and the icon and the text share the square's rows, so
        // every item's text sits on the same row of its square ("Sunny" sat on its square's top row, the others on
        // the bottom row).
        let rowStep = grid.height(Self.detailsRowHeight + 1)
        let square = grid.height(Self.squareSize)
        let iconInset = grid.y(3)
        let iconHeight = grid.isContinuous ? 24 : square
        let textX = Self.padding + Self.squareSize + Self.chipSpacing + 24 + Self.chipSpacing
        for (row, item) in line.items.enumerated() {
            let top = grid.y(Self.detailsTop) + Double(row) * rowStep
            let contentY = top + grid.y(Self.padding)
            nodes += [
                Node(
                    id: NodeID("details.\(item.id).color"), role: .chip, parent: "details",
                    rect: Rect(x: Self.padding, y: contentY, width: Self.squareSize, height: square),
                    z: z + 2, cornerRadius: 8, fill: RGBA(item.color), transition: .opacity,
                    matchedGeometryID: "\(item.id).color", isHitTestable: false),
                Node(
                    id: NodeID("details.\(item.id).icon"), role: .icon, parent: "details",
                    rect: Rect(
                        x: Self.padding + Self.squareSize + Self.chipSpacing, y: contentY + iconInset, width: 24,
                        height: iconHeight),
                    z: z + 2, text: [TextRun(item.icon, color: Palette.text, alignment: .center)], transition: .opacity,
                    matchedGeometryID: "\(item.id).icon", isHitTestable: false),
                Node(
                    id: NodeID("details.\(item.id).text"), role: .text, parent: "details",
                    // The icon's row (y and height), so that both round to the same cells.
                    rect: Rect(
                        x: textX, y: contentY + iconInset, width: max(width - textX - Self.padding, 1),
                        height: iconHeight),
                    z: z + 2, text: [TextRun(item.text, color: Palette.text, lineLimit: 1)], transition: .opacity,
                    matchedGeometryID: "\(item.id).text", isHitTestable: false),
            ]
            // A plain List draws a separator under every row, the last one too.
            nodes.append(
                Node(
                    id: NodeID("details.\(item.id).hairline"), role: .hairline, parent: "details",
                    rect: Rect(
                        x: Self.padding, y: top + grid.y(Self.detailsRowHeight),
                        width: max(width - Self.padding, 1),
                        height: 1), z: z + 2, fill: Palette.hairline, transition: .opacity, isHitTestable: false))
        }
        return nodes
    }
}
