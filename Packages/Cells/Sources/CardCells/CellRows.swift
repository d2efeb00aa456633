/// The colours and attributes of a cell, without its character: what a run of a cells frame shares.
package struct CellStyle: Sendable, Hashable {
    package var foreground: CellColor
    package var background: CellColor
    package var attributes: CellAttributes

    package init(foreground: CellColor, background: CellColor, attributes: CellAttributes) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The style of `cell`.
    package init(_ cell: Cell) {
        self.init(foreground: cell.foreground, background: cell.background, attributes: cell.attributes)
    }
}

/// A piece of a row in one style, as a host draws it: either text of which every scalar takes one cell, or one
/// grapheme cluster that does not (a wide character, a cluster of several scalars) with the cells it takes.
package struct CellRun: Sendable, Hashable {
    package var style: CellStyle
    package var text: String
    /// The cells `text` takes when it is a single cluster that is not one cell per scalar; nil for plain text.
    package var width: Int?
}

/// Cells frames' rows: a diff's runs (`CellDiff`) grouped into the spans a frame sends, and those cells as styled runs.
///
/// A span joins the runs of a row that lie fewer than `spanGap` unchanged cells apart (a short gap costs less to
/// resend than a new span's header), so a row may have several. O(runs) per grouping; O(cells of the span) per run
/// list.
package enum CellRows {
    /// Unchanged cells that end a span: a gap this long costs more to send than a new span's header.
    package static let spanGap = 12

    /// The spans of `diff`: its runs of each row joined while fewer than `spanGap` unchanged cells lie between their
    /// changed cells, each from the first run's first column to the last run's last (whole wide characters). Every
    /// row in full for a repaint.
    package static func spans(of diff: CellDiff) -> [(row: Int, columns: Range<Int>)] {
        var spans: [(row: Int, columns: Range<Int>)] = []
        var lastChanged = -1  // the last changed column of the span being built
        for run in diff.runs {
            if let last = spans.last, last.row == run.row, run.changed.lowerBound - lastChanged <= spanGap {
                spans[spans.count - 1].columns =
                    last.columns.lowerBound..<max(last.columns.upperBound, run.columns.upperBound)
            } else {
                spans.append((run.row, run.columns))
            }
            lastChanged = run.changed.upperBound - 1
        }
        return spans
    }

    /// The cells of `row` in `columns` as runs: neighbouring cells of one style joined, the right half of a wide
    /// character skipped (its left half's run says it takes two cells). A cell that shows no foreground joins the
    /// run before it when its background and attributes match, and otherwise gets its background as foreground,
    /// so such cells make no runs and no styles of their own.
    package static func runs(of buffer: CellBuffer, row: Int, columns: Range<Int>) -> [CellRun] {
        var runs: [CellRun] = []
        var current: CellRun?
        let base = row * buffer.width
        for column in columns where column >= 0 && column < buffer.width {
            let cell = buffer.cells[base + column]
            if cell.isWideContinuation { continue }
            var style = CellStyle(cell)
            if cell.hidesForeground {
                if let run = current, run.width == nil, run.style.background == style.background,
                    run.style.attributes == style.attributes
                {
                    style.foreground = run.style.foreground
                } else {
                    style.foreground = style.background
                }
            }
            let glyph = cell.character
            if let scalar = glyph.scalar, !cell.isWide {
                if current?.style == style && current?.width == nil {
                    current?.text.unicodeScalars.append(scalar)
                } else {
                    if let finished = current { runs.append(finished) }
                    current = CellRun(style: style, text: String(Character(scalar)), width: nil)
                }
            } else {
                if let finished = current { runs.append(finished) }
                runs.append(CellRun(style: style, text: glyph.string, width: cell.isWide ? 2 : 1))
                current = nil
            }
        }
        if let finished = current { runs.append(finished) }
        return runs
    }
}
