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
    static let lineGestures = [GestureAttachment("open", TapGesture())]
    static let closeGestures = [GestureAttachment("close", TapGesture())]

    /// z of the layers: the overview at 0 (rows) and 1 (chips: the colour, then icon and text over it in layout
    /// order), the details overlay at 10 and everything on it at 12 (so each layout is in paint order already).
    static let overlayZ = 10.0

    public func layout(in viewport: Size) -> [Node] { layout(in: viewport, text: StandardTextMeasurer()) }

    public func layout(in viewport: Size, text measurer: any TextMeasurer) -> [Node] {
        let width = viewport.width
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
            let y = Self.padding + Self.titleHeight + Self.rowSpacing + Double(row) * (Self.rowHeight + Self.rowSpacing)
            let rowRect = Rect(
                x: Self.padding, y: y, width: max(width - 2 * Self.padding, 1), height: Self.rowHeight)
            nodes.append(
                Node(
                    id: Self.lineNode(card.id), role: .card, card: card.id, rect: rowRect, cornerRadius: 10,
                    fill: Palette.white, stroke: focused == card.id ? Palette.focusRing(on: Palette.white) : nil,
                    gestures: Self.lineGestures,
                    accessibilityLabel: line.items.map(\.text).joined(separator: ", ")))
            if card.id != selectedLine {
                chips += overviewChips(line, in: rowRect, parent: Self.lineNode(card.id), text: measurer)
            }
        }
        nodes += chips
        if let selectedLine, case .itemLine(let line)? = deck[id: selectedLine]?.payload {
            nodes += detailsNodes(line, in: viewport)
        }
        return nodes
    }

    /// One row of chips, left to right from the row's leading inset; each chip (the colour) holds its icon and
    /// text, measured with the front end's metrics; when the chips would overflow the row the texts are narrowed by
    /// one common factor (never below zero) and cut with "…". O(items).
    func overviewChips(_ line: ItemLine, in row: Rect, parent: NodeID, text measurer: any TextMeasurer) -> [Node] {
        let fixed = 2 * Self.chipPadding + Self.iconSize + Self.chipSpacing
        let texts = line.items.map { measurer.width(of: $0.text[...], style: .body, weight: .regular).rounded(.up) }
        let available =
            row.width - 2 * Self.chipSpacing - Double(max(line.items.count - 1, 0)) * Self.chipSpacing
            - Double(line.items.count) * fixed
        let total = texts.reduce(0, +)
        let factor = total > 0 && total > available ? max(available, 0) / total : 1
        let lineHeight = max(Self.lineHeight, measurer.lineHeight(of: .body))
        let chipHeight = lineHeight + 2 * Self.chipPadding
        let chipY = row.minY + (row.height - chipHeight) / 2
        let contentY = chipY + Self.chipPadding
        var x = row.minX + Self.chipSpacing
        var nodes: [Node] = []
        nodes.reserveCapacity(line.items.count * 3)
        for (item, textWidth) in zip(line.items, texts) {
            let text = textWidth * factor
            let chip = Rect(x: x, y: chipY, width: fixed + text, height: chipHeight)
            let iconX = x + Self.chipPadding
            let chipID = NodeID("overview.\(item.id).color")
            // Icon and text share the chip's content row (one rect height), so they line up at any cell size.
            nodes += [
                Node(
                    id: chipID, role: .chip, parent: parent, rect: chip, z: 1, cornerRadius: 8,
                    fill: RGBA(item.color), transition: .opacity, matchedGeometryID: "\(item.id).color",
                    isHitTestable: false, clipsContent: true),
                Node(
                    id: NodeID("overview.\(item.id).icon"), role: .icon, parent: chipID,
                    rect: Rect(x: iconX, y: contentY, width: Self.iconSize, height: lineHeight),
                    text: [TextRun(item.icon, color: Palette.white, alignment: .center)], transition: .opacity,
                    matchedGeometryID: "\(item.id).icon", isHitTestable: false),
                Node(
                    id: NodeID("overview.\(item.id).text"), role: .text, parent: chipID,
                    rect: Rect(
                        x: iconX + Self.iconSize + Self.chipSpacing, y: contentY, width: max(text, 1),
                        height: lineHeight),
                    text: [TextRun(item.text, color: Palette.white, lineLimit: 1)], transition: .opacity,
                    matchedGeometryID: "\(item.id).text", isHitTestable: false),
            ]
            x += chip.width + Self.chipSpacing
        }
        return nodes
    }

    /// The details overlay: white over the whole viewport (it takes the touches meant for the overview), a close
    /// button, and one row per item with a hairline between rows.
    func detailsNodes(_ line: ItemLine, in viewport: Size) -> [Node] {
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
        let textX = Self.padding + Self.squareSize + Self.chipSpacing + 24 + Self.chipSpacing
        for (row, item) in line.items.enumerated() {
            let top = Self.detailsTop + Double(row) * (Self.detailsRowHeight + 1)
            let contentY = top + Self.padding
            nodes += [
                Node(
                    id: NodeID("details.\(item.id).color"), role: .chip, parent: "details",
                    rect: Rect(x: Self.padding, y: contentY, width: Self.squareSize, height: Self.squareSize),
                    z: z + 2, cornerRadius: 8, fill: RGBA(item.color), transition: .opacity,
                    matchedGeometryID: "\(item.id).color", isHitTestable: false),
                Node(
                    id: NodeID("details.\(item.id).icon"), role: .icon, parent: "details",
                    rect: Rect(
                        x: Self.padding + Self.squareSize + Self.chipSpacing, y: contentY + 3, width: 24, height: 24
                    ),
                    z: z + 2, text: [TextRun(item.icon, color: Palette.text, alignment: .center)], transition: .opacity,
                    matchedGeometryID: "\(item.id).icon", isHitTestable: false),
                Node(
                    id: NodeID("details.\(item.id).text"), role: .text, parent: "details",
                    // The icon's row (y and height), so that both round to the same cells.
                    rect: Rect(x: textX, y: contentY + 3, width: max(width - textX - Self.padding, 1), height: 24),
                    z: z + 2, text: [TextRun(item.text, color: Palette.text, lineLimit: 1)], transition: .opacity,
                    matchedGeometryID: "\(item.id).text", isHitTestable: false),
            ]
            if row < line.items.count - 1 {
                nodes.append(
                    Node(
                        id: NodeID("details.\(item.id).hairline"), role: .hairline, parent: "details",
                        rect: Rect(
                            x: Self.padding, y: top + Self.detailsRowHeight, width: max(width - Self.padding, 1),
                            height: 1), z: z + 2, fill: Palette.hairline, transition: .opacity, isHitTestable: false))
            }
        }
        return nodes
    }
}
