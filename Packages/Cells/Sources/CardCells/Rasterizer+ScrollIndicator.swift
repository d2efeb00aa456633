import CardEngine
import CardGeometry
import CardGestures

/// Scroll indicators: every node that scrolls vertically (a `ScrollGesture` with somewhere to go) gets a thumb in
/// its rightmost column, proportional to how much of the content shows and placed where the content is scrolled
/// to, drawn in eighths of a cell so it moves smoothly even over 1,000,000 cards (where it is one cell long).
extension Rasterizer {
    /// The thumb's colour: ≥ 4.5:1 against the seeds' light page (#F2F2F7) and on white.
    static let scrollThumb = RGB8(red: 110, green: 110, blue: 115)
    /// The track's thin line: decoration, lighter than anything that carries meaning.
    static let scrollTrack = RGB8(red: 199, green: 199, blue: 204)

    /// A vertical scroll gesture among `gestures` (looked for inside compositions too), when it can move.
    static func verticalScroll(in gestures: [GestureAttachment]) -> ScrollGesture? {
        func find(_ gesture: Gesture) -> ScrollGesture? {
            switch gesture {
            case .scroll(let scroll): return scroll.axis == .vertical ? scroll : nil
            case .sequenced(let first, let second), .exclusive(let first, let second),
                .simultaneous(let first, let second):
                return find(first) ?? find(second)
            case .tap, .longPress, .drag, .swipe: return nil
            }
        }
        for attachment in gestures {
            if let scroll = find(attachment.gesture), scroll.offsetRange.upperBound > scroll.offsetRange.lowerBound {
                return scroll
            }
        }
        return nil
    }

    /// The thumb of a track `length` cells long, in eighths of a cell from the track's top: its start and its
    /// length (at least one cell), for content `visible` points tall of which `range` more can scroll, scrolled to
    /// `offset`. O(1).
    static func scrollThumb(length: Int, visible: Double, range: ClosedRange<Double>, offset: Double)
        -> (start: Int, length: Int)
    {
        let track = length * 8
        let scrollable = range.upperBound - range.lowerBound
        guard track > 0, visible > 0, scrollable > 0, scrollable.isFinite else { return (0, track) }
        let proportion = visible / (visible + scrollable)
        let thumb = min(track, max(8, Int((Double(track) * proportion).rounded())))
        let progress = min(max((offset - range.lowerBound) / scrollable, 0), 1)
        let start = Int((Double(track - thumb) * (progress.isFinite ? progress : 0)).rounded())
        return (start, thumb)
    }

    /// Paints the thumb of `scroll` for a node whose cells are `extent` (clipped to `clip`) in its last column.
    func paintScrollIndicator(
        _ scroll: ScrollGesture, visible: Double, extent: PaintContext.Extent, clip: CellClip,
        into buffer: inout CellBuffer
    ) {
        let column = min(extent.right, clip.right) - 1
        let top = max(extent.top, clip.top)
        let bottom = min(extent.bottom, clip.bottom)
        guard column >= max(extent.left, clip.left), column < buffer.width, bottom > top else { return }
        let (start, length) = Self.scrollThumb(
            length: bottom - top, visible: visible, range: scroll.offsetRange, offset: scroll.contentOffset)
        let end = start + length
        let thumb = monochrome ? CellColor.terminalDefault : Self.scrollThumb.cellColor
        let lane = RGB8(page).cellColor
        for row in top..<bottom {
            // The column is the indicator's lane: the page's colour, with a thin track where the thumb is not
            // (so it reads as a scroll bar, not as one more shadow beside the cards).
            var cell = buffer[column, row]
            cell.background = lane
            cell.character = ascii ? "|" : "│"
            cell.foreground = monochrome ? CellColor.terminalDefault : Self.scrollTrack.cellColor
            cell.attributes = []
            buffer[column, row] = cell
            // The eighths of this cell the thumb covers, from the cell's top.
            let cellTop = (row - top) * 8
            let from = max(start, cellTop) - cellTop
            let to = min(end, cellTop + 8) - cellTop
            guard to > from else { continue }
            if ascii {
                cell.character = "#"
                cell.foreground = thumb
            } else if from == 0 && to == 8 {
                cell.character = "█"
                cell.foreground = thumb
            } else if to == 8 {
                // The thumb fills the cell's lower part: a lower block of its colour.
                cell.character = Self.lowerBlocks[8 - from]
                cell.foreground = thumb
            } else {
                // The thumb fills the cell's upper part: the rest below is a lower block of the cell's own
                // background over the thumb's colour.
                cell.character = Self.lowerBlocks[8 - to]
                cell.foreground = cell.background
                cell.background = thumb
            }
            cell.attributes = []
            buffer[column, row] = cell
        }
    }

    /// Lower blocks by eighths: index k is k/8 of a cell filled from the bottom (0 is a space).
    static let lowerBlocks: [Glyph] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
}
