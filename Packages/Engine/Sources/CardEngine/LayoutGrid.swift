/// The grid a front end draws on, for scenes that lay out on it: one *pixel* is `columnWidth` × `rowHeight` points.
///
/// SwiftUI rounds a layout's positions and sizes to the display's pixels (`displayScale`), so that an edge never
/// falls between two pixels. A terminal's pixel is a whole cell (8 × 16 points at the base scale), so rounding each
/// node on its own makes equal things unequal: cards 3.75 rows apart start 3, 4, 4, 4 and 3 rows apart. A scene
/// that lays out on the grid rounds its *metrics* instead (a step, a row's height, a gap), and places things at
/// whole multiples of them, so equal sizes and equal gaps stay equal in cells at every terminal size, and what a
/// pointer hits is exactly what is drawn. A graphical host's grid is `continuous` (no rounding): its frames do not
/// change.
///
/// Rounding is to the nearest multiple, halves away from zero. A length that is not zero keeps at least one pixel
/// when `keepsNonZero` (a 6-point gap between bars may close up, a 10-point border inset may not).
public struct LayoutGrid: Sendable, Hashable {
    /// The width of one pixel in points; 0: no grid horizontally.
    public var columnWidth: Double
    /// The height of one pixel in points; 0: no grid vertically.
    public var rowHeight: Double

    /// A grid of `columnWidth` × `rowHeight` points (a value that is not finite and positive means no grid on that
    /// axis).
    public init(columnWidth: Double, rowHeight: Double) {
        self.columnWidth = columnWidth.isFinite && columnWidth > 0 ? columnWidth : 0
        self.rowHeight = rowHeight.isFinite && rowHeight > 0 ? rowHeight : 0
    }

    /// No grid: every value is kept as it is (graphical hosts).
    public static let continuous = LayoutGrid(columnWidth: 0, rowHeight: 0)

    /// Whether this grid rounds anything.
    public var isContinuous: Bool { columnWidth == 0 && rowHeight == 0 }

    /// `x` rounded to the nearest column boundary.
    public func x(_ x: Double) -> Double { Self.round(x, to: columnWidth, keepsNonZero: false) }

    /// `y` rounded to the nearest row boundary.
    public func y(_ y: Double) -> Double { Self.round(y, to: rowHeight, keepsNonZero: false) }

    /// A width rounded to whole columns; one column at least when `keepsNonZero` and `width` is positive.
    public func width(_ width: Double, keepsNonZero: Bool = true) -> Double {
        Self.round(width, to: columnWidth, keepsNonZero: keepsNonZero)
    }

    /// A height rounded to whole rows; one row at least when `keepsNonZero` and `height` is positive.
    public func height(_ height: Double, keepsNonZero: Bool = true) -> Double {
        Self.round(height, to: rowHeight, keepsNonZero: keepsNonZero)
    }

    /// A width rounded to whole columns by `rule` (`.down`: room that must not overflow what holds it).
    public func width(_ width: Double, rounded rule: FloatingPointRoundingRule) -> Double {
        guard columnWidth > 0, width.isFinite else { return width }
        return (width / columnWidth).rounded(rule) * columnWidth
    }

    /// A height rounded to whole rows by `rule` (`.up`: room that must hold a border's row).
    public func height(_ height: Double, rounded rule: FloatingPointRoundingRule) -> Double {
        guard rowHeight > 0, height.isFinite else { return height }
        return (height / rowHeight).rounded(rule) * rowHeight
    }

    static func round(_ value: Double, to unit: Double, keepsNonZero: Bool) -> Double {
        guard unit > 0, value.isFinite else { return value }
        let rounded = (value / unit).rounded() * unit
        if keepsNonZero, rounded == 0, value > 0 { return unit }
        return rounded
    }
}
