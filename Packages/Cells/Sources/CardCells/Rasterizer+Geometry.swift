import CardEngine
import CardGeometry
import Foundation

/// The cells a node may paint: columns `left..<right`, rows `top..<bottom`.
struct CellClip: Sendable, Hashable {
    var left: Int
    var right: Int
    var top: Int
    var bottom: Int

    func intersection(_ other: CellClip) -> CellClip {
        CellClip(
            left: max(left, other.left), right: min(right, other.right), top: max(top, other.top),
            bottom: min(bottom, other.bottom))
    }

    func contains(column: Int, row: Int) -> Bool {
        column >= left && column < right && row >= top && row < bottom
    }
}

/// The per-frame constants of painting, and the painting of one node.
struct PaintContext {
    let scale: CellScale
    let glyphs: BoxGlyphs
    let square: BoxGlyphs
    let ascii: Bool
    let encoding: TextEncoding
    let monochrome: Bool
    let page: RGB8
    let rowLimit: Int
    let cardTextAtTop: Bool
    /// The cells the node being painted may change (its clipping ancestors' cells, the buffer, the rows).
    var clip: CellClip
    /// For a flying label (`MatchedFlights.labelColours`), its copies' own text colours: a letter whose colour
    /// reads under 1.5:1 against its cell is drawn in the one of these that reads best there.
    var textAlternatives: [RGBA] = []
    /// Where the parent of the node being painted was placed: a child's cells are counted from its parent's, so
    /// rounding never moves a child out of its box and equal sizes always take equal cells.
    var parent: Placement?

    /// A node's cells and the point its cell grid is anchored at (its top-left corner after scaling).
    struct Placement {
        var extent: Extent
        var origin: Point
    }

    /// The top-left corner of a node after its scale about the centre, in points.
    func visualOrigin(of node: FrameNode) -> Point {
        let nodeScale = node.scale.isFinite ? max(0, node.scale) : 1
        let rect = node.rect.standardized
        return Point(x: rect.center.x - rect.width * nodeScale / 2, y: rect.center.y - rect.height * nodeScale / 2)
    }

    /// The cell extent of a node: rows `top..<bottom`, columns `left..<right` before shearing.
    struct Extent {
        var left: Int
        var right: Int
        var top: Int
        var bottom: Int
        var centerY: Double
        var shearPerPoint: Double
        var isHorizontalLine: Bool
        var isVerticalLine: Bool
        /// The fill beyond the box on the side the node moves to, in eighths of a cell (0: none): at the bottom of
        /// row `top − 1`, the top of row `bottom`, the right of column `left − 1`, the left of column `right`.
        var edges = SubCellEdges()

        /// The column shift of `row` (rotation approximated as a shear about the node's centre).
        func shift(_ row: Int, scale: CellScale) -> Int {
            guard shearPerPoint != 0 else { return 0 }
            let dy = (Double(row) + 0.5) * scale.pointsPerRow - centerY
            let value = -dy * shearPerPoint / scale.pointsPerColumn
            return value.isFinite ? Int(value.rounded()) : 0
        }
    }

    func extent(of node: FrameNode, moving direction: SubCellMotion.Direction = .still) -> Extent? {
        let nodeScale = node.scale.isFinite ? max(0, node.scale) : 1
        let rect = node.rect.standardized
        let width = rect.width * nodeScale
        let height = rect.height * nodeScale
        let center = rect.center
        guard width.isFinite, height.isFinite, center.x.isFinite, center.y.isFinite, width > 0 || height > 0,
            abs(center.x) < 1e7, abs(center.y) < 1e7, width < 1e7, height < 1e7
        else { return nil }
        let sx = scale.pointsPerColumn
        let sy = scale.pointsPerRow
        // The position rounds to the nearest cell (from the parent's cells when there is a parent) and the size
        // separately, so that nodes of one size take the same number of cells wherever they are.
        let originX = center.x - width / 2
        let originY = center.y - height / 2
        var left: Int
        var top: Int
        if let parent {
            left = parent.extent.left + Int(((originX - parent.origin.x) / sx).rounded())
            top = parent.extent.top + Int(((originY - parent.origin.y) / sy).rounded())
        } else {
            left = Int((originX / sx).rounded())
            top = Int((originY / sy).rounded())
        }
        var right = left + Int((width / sx).rounded())
        var bottom = top + Int((height / sy).rounded())
        // Nodes thinner than half a cell are lines (hairlines, slider tracks), drawn with line characters.
        let horizontalLine = height < sy / 2
        let verticalLine = !horizontalLine && width < sx / 2
        if bottom <= top || horizontalLine {
            top = Int((center.y / sy).rounded(.down))
            bottom = top + 1
        }
        if right <= left || verticalLine {
            left = Int((center.x / sx).rounded(.down))
            right = left + 1
        }
        let radians = node.rotation.isFinite ? node.rotation * .pi / 180 : 0
        var extent = Extent(
            left: left, right: right, top: top, bottom: bottom, centerY: center.y, shearPerPoint: sin(radians),
            isHorizontalLine: horizontalLine, isVerticalLine: verticalLine)
        if direction != .still, !horizontalLine, !verticalLine, radians == 0 {
            // The exact edges in cells, counted like the box (from the parent's cells when there is one).
            let x0 = parent.map { Double($0.extent.left) + (originX - $0.origin.x) / sx } ?? originX / sx
            let y0 = parent.map { Double($0.extent.top) + (originY - $0.origin.y) / sy } ?? originY / sy
            extent.anchor(
                exactLeft: x0, exactRight: x0 + width / sx, exactTop: y0, exactBottom: y0 + height / sy,
                moving: direction)
        }
        return extent
    }
}

extension PaintContext {
    func visit(
        _ extent: Extent, offsetColumns: Int = 0, offsetRows: Int = 0, into buffer: inout CellBuffer,
        _ body: (inout Cell, _ column: Int, _ row: Int) -> Void
    ) {
        let top = max(extent.top + offsetRows, 0, clip.top)
        let bottom = min(extent.bottom + offsetRows, rowLimit, clip.bottom)
        guard top < bottom else { return }
        let width = buffer.width
        let clip = self.clip
        buffer.cells.withUnsafeMutableBufferPointer { cells in
            for row in top..<bottom {
                let shift = extent.shift(row - offsetRows, scale: scale) + offsetColumns
                let left = max(extent.left + shift, 0, clip.left)
                let right = min(extent.right + shift, width, clip.right)
                guard left < right else { continue }
                for column in left..<right {
                    body(&cells[row * width + column], column - shift, row - offsetRows)
                }
            }
        }
    }
}
