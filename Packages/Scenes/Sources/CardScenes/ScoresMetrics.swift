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
///
/// On a grid the cards keep a gap of at least one row (the seed's stack is separate cards: rounded to none, the
/// five made one striped block at 60x20 and 80x24). A card is as many rows as the seed's 56 points make, or fewer
/// when the collapsed cards and their gaps would not fit the list's room, but not fewer than two: its name sits on
/// its second row, inside the box an expanded card is drawn as (a one-row card's name went under the border as
/// its chart opened). A card too short for a box (under three rows) is focused by a ring that closes through
/// the gap rows around it (`Rasterizer`), so the list keeps a gap's row above the first card and below the last
/// (`listInset`). When two-row cards do not fit that way (60x20), the list takes the blank rows around it: from
/// the row under the header's line to the slider's track, which moves down to the scene's last two rows.
///
/// So: four-row cards and one-row gaps at 120x40 and 200x60 (as before), two-row cards with one-row gaps and
/// insets at 80x24 (16 rows of room: 1 + 5·2 + 4 + 1) and at 60x20 (16 rows once the list takes the blank rows).
/// Why shorter cards rather than no gap: the gap is how the seed's stack looks at every size (separate rounded
/// cards), and a card's height is padding around one line of text, which the two rows keep. Why not a scroll: at
/// rest the seed shows every card. Why not a half-row gap: the terminal draws whole cells at rest. Below that (a
/// 40x12 cells host) the cards keep the seed's rounded height and touch, as before: all five in view come first.
struct ScoresMetrics {
    var grid: LayoutGrid
    /// A collapsed card's height.
    var rowHeight: Double
    /// The gap between cards (at least a row on a grid, but for the smallest grids: see the type).
    var spacing: Double
    /// The room above the first card and below the last inside the list: on a grid a gap's row when the cards are
    /// too short for a box, where the focus ring closes (see the type); else 0.
    var listInset: Double
    /// From a collapsed card's top to its name's: on a grid at least a row when the card has two (see the type).
    var nameTop: Double
    /// A bar's height, and the distance from one bar's top to the next.
    var barHeight: Double
    var barStep: Double
    /// The room under the last bar: at least a row on a grid, where a card's border takes its bottom row (T10
    /// was drawn under the border at 80x24).
    var chartBottom: Double
    /// The card list's room: from under the header to above the slider (see the type for 60x20).
    var listTop: Double
    var listHeight: Double
    /// The slider's track: its ends (the thumb's centre at tests 1 and 10) and its centre line.
    var track: (minX: Double, maxX: Double, y: Double)
    /// The widths of the slider's thumb and of a tick label, both centred on a tick: on a grid an odd number of
    /// columns, so that the knob and its label land in the same column.
    var thumbWidth: Double
    var tickWidth: Double

    /// The geometry for `viewport` on `grid`, with `cards` collapsed cards to fit in the list (see the type).
    init(viewport: Size, grid: LayoutGrid, cards: Int = 5) {
        typealias Scene = ScoresScene
        self.grid = grid
        spacing = grid.height(Scene.spacing)
        barHeight = grid.height(Scene.barHeight)
        barStep = barHeight + grid.height(Scene.barSpacing, keepsNonZero: false)
        chartBottom = grid.height(8)
        listTop = grid.y(Scene.padding + Scene.headerHeight + Scene.spacing)
        var sliderTop = grid.y(viewport.height - Scene.sliderHeight)
        listHeight = max(sliderTop - listTop, 0)
        listInset = 0
        rowHeight = grid.height(Scene.rowHeight)
        nameTop = (rowHeight - 24) / 2
        if grid.rowHeight > 0, cards > 0 {
            let row = grid.rowHeight
            let seedRows = rowHeight
            let spacing = spacing
            // The tallest card (in whole rows, at most the seed's) that fits `room` with its gaps and `inset` above
            // the first card and below the last (a millionth of a row over: rows times a row's height in floating
            // point is not always whole rows again).
            func fitting(_ room: Double, inset: Double) -> Double {
                let height = (room - 2 * inset - Double(cards - 1) * spacing) / Double(cards)
                let rows = grid.height(height + row / 1_000_000, rounded: .down)
                return min(seedRows, rows)
            }
            rowHeight = fitting(listHeight, inset: 0)
            if rowHeight < 3 * row {
                // Too short for a box: the focus ring closes through the rows around the card, so the first card
                // and the last have a gap's row inside the list too.
                listInset = spacing
                rowHeight = fitting(listHeight, inset: spacing)
            }
            if rowHeight < 2 * row {
                // The list takes the blank rows around it: from the row under the header's line to the slider's
                // track, which moves down to the scene's last two rows.
                let top = grid.height(Scene.padding, rounded: .up)
                let lowered = grid.height(viewport.height - Scene.sliderHeight, rounded: .up)
                let room = grid.y(lowered + 24) - top
                if fitting(room, inset: spacing) >= 2 * row {
                    listTop = top
                    listHeight = room
                    sliderTop = lowered
                    rowHeight = fitting(room, inset: spacing)
                }
            }
            if rowHeight < 2 * row {
                // Smaller still (a 40x12 cells host): every card in view comes first, so the cards touch again, as
                // one-row cards with the seed's gap rounded (to none).
                self.spacing = grid.height(Scene.spacing, keepsNonZero: false)
                listInset = 0
                rowHeight = seedRows
            }
            nameTop = grid.y((rowHeight - 24) / 2)
            if rowHeight >= 2 * row { nameTop = max(nameTop, row) }
        }
        // On a grid the track's centre line is the middle of a row, so the line, the thumb's row and the tick
        // labels under them round to the same rows at every cell size.
        let trackY = grid.rowHeight > 0 ? grid.y(sliderTop + 24) + grid.rowHeight / 2 : sliderTop + 24
        // Ten ticks nine equal steps apart: on a grid each step is whole columns (rounded down, so the track stays
        // inside the padding), and the track is centred.
        let room = viewport.width - 2 * (Scene.padding + 14)
        let step = grid.width(room / 9, rounded: .down)
        // On a grid each tick is the middle of a column.
        let minX = grid.x((viewport.width - 9 * step) / 2) + grid.columnWidth / 2
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
