import CardEngine

/// How points map to terminal cells.
///
/// One column is `pointsPerColumn` points wide (8 by default) and one row `pointsPerRow` points tall (16 by
/// default): terminal cells are about twice as tall as wide, so 8 × 16 keeps shapes in proportion. The scene's
/// viewport is derived from the terminal: `columns × 8` by `rows × 16` points (640 × 368 for the 80 × 23 rows an
/// 80 × 24 terminal has above its status line, 1600 × 944 at 200 × 60), so a scene lays itself out for the
/// terminal it is shown on and larger terminals simply get more room. A cell covers the points
/// `[column·8, (column+1)·8) × [row·16, (row+1)·16)`; a pointer in a cell is at the cell's centre.
public struct CellScale: Sendable, Hashable {
    public var pointsPerColumn: Double
    public var pointsPerRow: Double

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
}
