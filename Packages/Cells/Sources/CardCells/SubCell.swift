import CardEngine

/// How much of a moving node's fill lies beyond its box, in eighths of a cell, on each side (0: none).
///
/// A box of cells can only move by whole cells, but the Unicode block elements split a cell in eighths: ▁▂▃▄▅▆▇
/// (U+2581–2587, the lower one to seven eighths) and ▏▎▍▌▋▊▉ (U+258F–2589, the left one to seven eighths). Drawn
/// in the fill's colour over what is under the node — or in the colour under it over the fill, for the sides the
/// elements do not come in (upper, right) — they put an edge at any eighth of a cell. A moving node keeps its box
/// (border, text, children) on whole cells, anchored at its leading edge, and draws that edge's remainder with one
/// of these: a card moving by 2 points at the base scale (⅛ of a 16-point row) changes the screen.
struct SubCellEdges: Sendable, Hashable {
    /// Fill in the bottom `top` eighths of the row above the box.
    var top = 0
    /// Fill in the top `bottom` eighths of the row below the box.
    var bottom = 0
    /// Fill in the right `left` eighths of the column left of the box.
    var left = 0
    /// Fill in the left `right` eighths of the column right of the box.
    var right = 0

    var isEmpty: Bool { top == 0 && bottom == 0 && left == 0 && right == 0 }

    /// The lower `eighths` (1…7) eighths of a cell: ▁ … ▇.
    static func lower(_ eighths: Int) -> Unicode.Scalar {
        Unicode.Scalar(UInt32(0x2580 + min(max(eighths, 1), 7)))!
    }

    /// The left `eighths` (1…7) eighths of a cell: ▏ … ▉.
    static func left(_ eighths: Int) -> Unicode.Scalar {
        Unicode.Scalar(UInt32(0x2590 - min(max(eighths, 1), 7)))!
    }

    /// The eighths (0…8) of a cell a fraction (0…1) covers, rounded to the nearest.
    static func eighths(_ fraction: Double) -> Int {
        guard fraction.isFinite else { return 0 }
        return Int((min(max(fraction, 0), 1) * 8).rounded())
    }
}

/// Which nodes move between two frames, and which of their edges leads.
///
/// A node's edges are compared with the same node's in the previous frame, less its parent's movement (a chip
/// riding on a moving card does not move within it, so it stays on its card's cells). Along each axis the edge in
/// the direction of travel leads: the bottom edge when a node moves down or grows downwards, the top edge when it
/// moves up or grows upwards.
/// O(nodes) per frame, one dictionary of the previous frame's nodes.
struct SubCellMotion {
    /// The edge of a node drawn at its exact position, per axis.
    struct Direction: Sendable, Hashable {
        enum Edge: Sendable, Hashable {
            case none
            /// The top or the left edge.
            case leading
            /// The bottom or the right edge.
            case trailing
        }
        var horizontal = Edge.none
        var vertical = Edge.none

        static let still = Direction()
    }

    /// Where each node of the previous frame was drawn: its scaled rectangle's edges, in points.
    private var previous: [NodeID: Edges] = [:]
    /// How far each node of this frame moved, in points: its top-left corner's displacement.
    private var moved: [NodeID: (dx: Double, dy: Double)] = [:]

    struct Edges {
        var left: Double
        var right: Double
        var top: Double
        var bottom: Double

        init(_ node: FrameNode) {
            let scale = node.scale.isFinite ? max(0, node.scale) : 1
            let rect = node.rect.standardized
            let center = rect.center
            left = center.x - rect.width * scale / 2
            right = center.x + rect.width * scale / 2
            top = center.y - rect.height * scale / 2
            bottom = center.y + rect.height * scale / 2
        }
    }

    /// Motion relative to `previous` (nil: nothing moves).
    init(previous: Frame?) {
        guard let previous else { return }
        self.previous.reserveCapacity(previous.nodes.count)
        for node in previous.nodes where !node.isLeaving || node.opacity > 0 {
            self.previous[node.id] = Edges(node)
        }
        moved.reserveCapacity(previous.nodes.count)
    }

    /// The leading edges of `node`; call for parents before their children (frame order does).
    mutating func direction(of node: FrameNode) -> Direction {
        guard let before = previous[node.id] else { return .still }
        let now = Edges(node)
        guard now.left.isFinite, now.right.isFinite, now.top.isFinite, now.bottom.isFinite else { return .still }
        let own = (dx: now.left - before.left, dy: now.top - before.top)
        moved[node.id] = own
        let carried = node.parent.flatMap { moved[$0] } ?? (0, 0)
        // Movement within the parent, per edge.
        let dLeft = now.left - before.left - carried.dx
        let dRight = now.right - before.right - carried.dx
        let dTop = now.top - before.top - carried.dy
        let dBottom = now.bottom - before.bottom - carried.dy
        let threshold = 1e-3
        /// The edge in the direction of travel; for a node growing or shrinking in place, the far edge.
        func lead(_ leading: Double, _ trailing: Double) -> Direction.Edge {
            guard abs(leading) > threshold || abs(trailing) > threshold else { return .none }
            let travel = leading + trailing
            if abs(travel) > threshold { return travel < 0 ? .leading : .trailing }
            return .trailing
        }
        return Direction(horizontal: lead(dLeft, dRight), vertical: lead(dTop, dBottom))
    }
}

extension PaintContext.Extent {
    /// Moves the box so that its leading edge (per `direction`) is the last whole cell inside the exact edge, and
    /// records the remainder in eighths. The box keeps its size; the trailing edge follows in whole cells.
    mutating func anchor(
        exactLeft: Double, exactRight: Double, exactTop: Double, exactBottom: Double,
        moving direction: SubCellMotion.Direction
    ) {
        guard exactLeft.isFinite, exactRight.isFinite, exactTop.isFinite, exactBottom.isFinite else { return }
        (top, bottom, edges.top, edges.bottom) = Self.anchor(
            low: top, high: bottom, exactLow: exactTop, exactHigh: exactBottom, lead: direction.vertical)
        (left, right, edges.left, edges.right) = Self.anchor(
            low: left, high: right, exactLow: exactLeft, exactHigh: exactRight, lead: direction.horizontal)
    }

    /// One axis of `anchor`: the cells `low..<high` moved (keeping their count) so that the leading edge is the
    /// last whole cell inside its exact position, and the eighths beyond it on the low and the high side.
    static func anchor(
        low: Int, high: Int, exactLow: Double, exactHigh: Double, lead: SubCellMotion.Direction.Edge
    ) -> (low: Int, high: Int, lowEighths: Int, highEighths: Int) {
        let size = high - low
        switch lead {
        case .none:
            return (low, high, 0, 0)
        case .trailing:
            let edge = Int(exactHigh.rounded(.down))
            let eighths = SubCellEdges.eighths(exactHigh - Double(edge))
            let end = eighths == 8 ? edge + 1 : edge
            return (end - size, end, 0, eighths == 8 ? 0 : eighths)
        case .leading:
            let edge = Int(exactLow.rounded(.up))
            let eighths = SubCellEdges.eighths(Double(edge) - exactLow)
            let start = eighths == 8 ? edge - 1 : edge
            return (start, start + size, eighths == 8 ? 0 : eighths, 0)
        }
    }
}

extension PaintContext {
    /// Paints the partial cells of `extent.edges` beside the box, in `color` with coverage `alpha` over what is
    /// there. A rounded box's strips stop a cell short of its corners, as its rounded border does. O(box perimeter).
    func paintEdges(color: RGB8, alpha: Double, rounded: Bool, extent: Extent, into buffer: inout CellBuffer) {
        let edges = extent.edges
        let width = buffer.width
        let page = self.page
        let columnInset = rounded && extent.right - extent.left >= 4 ? 1 : 0
        let rowInset = rounded && extent.bottom - extent.top >= 3 ? 1 : 0
        let clip = self.clip.intersection(CellClip(left: 0, right: width, top: 0, bottom: rowLimit))
        /// One partial cell: `glyph` with the fill as its foreground (`fillIsForeground`) or as its background;
        /// the fill covers `eighths` of the cell.
        func put(column: Int, row: Int, glyph: Unicode.Scalar, fillIsForeground: Bool, eighths: Int) {
            guard clip.contains(column: column, row: row) else { return }
            let index = row * width + column
            // A partial cell cannot show part of a letter: where the edge covers less than half a cell holding
            // text, the letter is kept on its own node's colour (the edge passes behind it); from half on, the node
            // in front covers it, unless the letter would still show through it (`showsThrough`, as under the
            // node's own fill). (Keeping every letter left the title of the card behind in a rectangle of its
            // card's colour inside the strip of the card in front, up to seven eighths of a row tall.)
            let under = RGB8(buffer.cells[index].background, fallback: page)
            let fill = color.over(under, alpha: alpha).cellColor
            if Self.holdsText(buffer.cells[index]) {
                let text = color.over(RGB8(buffer.cells[index].foreground, fallback: .black), alpha: alpha).cellColor
                if eighths < 4 || Self.showsThrough(foreground: text, background: fill, alpha: alpha, page: page) {
                    return
                }
            }
            buffer.cells[index].character = Glyph(glyph)
            buffer.cells[index].foreground = fillIsForeground ? fill : under.cellColor
            buffer.cells[index].background = fillIsForeground ? under.cellColor : fill
            buffer.cells[index].attributes = []
        }
        if edges.top > 0 {
            for column in (extent.left + columnInset)..<max(extent.left + columnInset, extent.right - columnInset) {
                put(
                    column: column, row: extent.top - 1, glyph: SubCellEdges.lower(edges.top), fillIsForeground: true,
                    eighths: edges.top)
            }
        }
        if edges.bottom > 0 {
            for column in (extent.left + columnInset)..<max(extent.left + columnInset, extent.right - columnInset) {
                put(
                    column: column, row: extent.bottom, glyph: SubCellEdges.lower(8 - edges.bottom),
                    fillIsForeground: false, eighths: edges.bottom)
            }
        }
        if edges.left > 0 {
            for row in (extent.top + rowInset)..<max(extent.top + rowInset, extent.bottom - rowInset) {
                put(
                    column: extent.left - 1, row: row, glyph: SubCellEdges.left(8 - edges.left),
                    fillIsForeground: false, eighths: edges.left)
            }
        }
        if edges.right > 0 {
            for row in (extent.top + rowInset)..<max(extent.top + rowInset, extent.bottom - rowInset) {
                put(
                    column: extent.right, row: row, glyph: SubCellEdges.left(edges.right), fillIsForeground: true,
                    eighths: edges.right)
            }
        }
    }

    /// Whether a cell shows text: anything but a blank, a box-drawing character or a block element
    /// (U+2500–U+259F), or the right half of a wide character.
    static func holdsText(_ cell: Cell) -> Bool {
        if cell.isWideContinuation { return true }
        guard let scalar = cell.character.scalar else { return true }
        return scalar != " " && !(0x2500...0x259F).contains(scalar.value)
    }
}
