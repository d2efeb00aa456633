import CardEngine
import CardGeometry

/// How points map to terminal cells.
///
/// One column is `pointsPerColumn` points wide and one row `pointsPerRow` points tall, always in the ratio 1 : 2
/// (terminal cells are about twice as tall as wide, so shapes keep their proportions). The base scale is 8 × 16
/// points per cell. The scene's viewport is derived from the terminal: `columns × sx` by `rows × sy` points for
/// the rows above the status line, so a scene lays itself out for the terminal it is shown on and a larger
/// terminal simply gets more room (1600 × 944 points at 200 × 60). When a scene needs more height than the
/// terminal gives at 16 points per row (its descriptor's design height: a scene that needs 500 points, where
/// 80 × 24 has 23 rows = 368 points), `fitting(height:rows:)` grows the scale just enough — sy = height / rows,
/// sx = sy / 2 — so the whole layout fits (21.7 × 10.9 points per cell at 80 × 24, a 870 × 500 viewport). A cell
/// covers the points
/// `[column·sx, (column+1)·sx) × [row·sy, (row+1)·sy)`; a pointer in a cell is at the cell's centre.
public struct CellScale: Sendable, Hashable {
    /// The width of a column, in points.
    public var pointsPerColumn: Double
    /// The height of a row, in points.
    public var pointsPerRow: Double

    /// A scale of `pointsPerColumn` × `pointsPerRow` points per cell (the base scale: 8 × 16).
    public init(pointsPerColumn: Double = 8, pointsPerRow: Double = 16) {
        self.pointsPerColumn = pointsPerColumn
        self.pointsPerRow = pointsPerRow
    }

    /// The viewport, in points, of a `columns × rows` cell area.
    public func viewport(columns: Int, rows: Int) -> Size {
        Size(width: Double(max(0, columns)) * pointsPerColumn, height: Double(max(0, rows)) * pointsPerRow)
    }

    /// The centre of a cell, in points.
    public func point(column: Int, row: Int) -> Point {
        Point(x: (Double(column) + 0.5) * pointsPerColumn, y: (Double(row) + 0.5) * pointsPerRow)
    }

    /// The cell containing a point (may lie outside the grid).
    public func cell(at point: Point) -> (column: Int, row: Int) {
        (Int((point.x / pointsPerColumn).rounded(.down)), Int((point.y / pointsPerRow).rounded(.down)))
    }

    /// The base scale, grown (keeping the 1 : 2 ratio) so that `height` points fit in `rows` rows.
    public static func fitting(height: Double, rows: Int, base: CellScale = CellScale()) -> CellScale {
        guard height.isFinite, rows > 0 else { return base }
        let pointsPerRow = max(base.pointsPerRow, height / Double(rows))
        let factor = pointsPerRow / base.pointsPerRow
        return CellScale(pointsPerColumn: base.pointsPerColumn * factor, pointsPerRow: pointsPerRow)
    }
}
