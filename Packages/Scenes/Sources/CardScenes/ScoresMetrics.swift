import CardEngine
import CardGeometry
import CardModels

/// The scores scene's geometry for one viewport and grid, in points.
///
/// The seed's lengths (a row 56 tall, 10 between cards, bars 16 tall 6 apart, 8 under the chart) on a
/// `LayoutGrid`: on a terminal's cells each becomes whole rows, so every card takes the same rows and every gap
/// is the same (the cards touched and then Charlie sat a row apart; at 60x20 the gaps alternated 1 and 0), the
/// chart's bars come one a row instead of in groups of three and two, and the slider's ticks are the same columns
/// apart. On `LayoutGrid.continuous` the lengths are the seed's.
struct ScoresMetrics {
    var grid: LayoutGrid
    /// A collapsed card's height.
    var rowHeight: Double
    /// The gap between cards (may be 0 on a coarse grid: cards then touch, all alike).
    var spacing: Double
    /// A bar's height, and the distance from one bar's top to the next.
    var barHeight: Double
    var barStep: Double
    /// The room under the last bar: at least a row on a grid, where a card's border takes its bottom row (T10
    /// was drawn under the border at 80x24).
    var chartBottom: Double
    /// The card list's room: from under the header to above the slider.
    var listTop: Double
    var listHeight: Double
    /// The slider's track: its ends (the thumb's centre at tests 1 and 10) and its centre line.
    var track: (minX: Double, maxX: Double, y: Double)
    /// The widths of the slider's thumb and of a tick label, both centred on a tick: on a grid an odd number of
    /// columns, so that the knob and its label land in the same column.
    var thumbWidth: Double
    var tickWidth: Double

    init(viewport: Size, grid: LayoutGrid) {
        typealias Scene = ScoresScene
        self.grid = grid
        rowHeight = grid.height(Scene.rowHeight)
        spacing = grid.height(Scene.spacing, keepsNonZero: false)
        barHeight = grid.height(Scene.barHeight)
        barStep = barHeight + grid.height(Scene.barSpacing, keepsNonZero: false)
        chartBottom = grid.height(8)
        listTop = grid.y(Scene.padding + Scene.headerHeight + Scene.spacing)
        let sliderTop = grid.y(viewport.height - Scene.sliderHeight)
        listHeight = max(sliderTop - listTop, 0)
        // Ten ticks nine equal steps apart: on a grid each step is whole columns (rounded down, so the track stays
        // inside the padding), and the track is centred.
        let room = viewport.width - 2 * (Scene.padding + 14)
        let step = grid.width(room / 9, rounded: .down)
        // On a grid each tick is the middle of a column.
        let minX = grid.x((viewport.width - 9 * step) / 2) + grid.columnWidth / 2
        // On a grid the track's centre line is the middle of a row, so the line, the thumb's row and the tick
        // labels under them round to the same rows at every cell size.
        let trackY = grid.rowHeight > 0 ? grid.y(sliderTop + 24) + grid.rowHeight / 2 : sliderTop + 24
        track = (minX, minX + 9 * step, trackY)
        thumbWidth = Self.oddColumns(28, grid: grid)
        tickWidth = Self.oddColumns(24, grid: grid)
    }

    /// `width` as an odd number of columns on a grid (at least one), else as it is.
    static func oddColumns(_ width: Double, grid: LayoutGrid) -> Double {
        guard grid.columnWidth > 0 else { return width }
        let columns = max(1, (width / grid.columnWidth).rounded())
        return (columns.truncatingRemainder(dividingBy: 2) == 0 ? columns + 1 : columns) * grid.columnWidth
    }

    /// An expanded card's height: the row, ten bars and the room under them.
    var expandedHeight: Double {
        rowHeight + Double(StudentScores.testCount) * barStep + chartBottom
    }

    /// The test (1…10) whose tick is nearest to `x`.
    func test(atX x: Double) -> Int {
        let fraction = (x - track.minX) / max(1, track.maxX - track.minX)
        return min(max(Int((fraction * 9).rounded()) + 1, 1), 10)
    }
}
