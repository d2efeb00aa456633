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

/// Row diffs of cell buffers: which cells of each row changed between two buffers, and those cells as runs.
///
/// The cells a host must redraw are found row by row: from the first cell that differs to the last, widened so
/// that a wide character is never cut in half. Cells are compared by what shows: the foreground of a cell that
/// shows none (a space without underline or reverse video, `Cell.hidesForeground`) does not count, as in the
/// terminal UI's writer. O(cells) per comparison; O(cells of the span) per run list.
package enum CellRows {
    /// Whether two cells look the same: character, background and attributes, and the foreground where it shows.
    @inline(__always)
    package static func looksSame(_ a: Cell, _ b: Cell) -> Bool {
        a.character == b.character && a.background == b.background && a.attributes == b.attributes
            && (a.foreground == b.foreground || a.hidesForeground)
    }

    /// Whether two buffers of one size look the same cell for cell (`looksSame`).
    package static func looksSame(_ a: CellBuffer, _ b: CellBuffer) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        if a == b { return true }
        for index in a.cells.indices where !looksSame(a.cells[index], b.cells[index]) { return false }
        return true
    }

    /// Unchanged cells that end a span: a gap this long costs more to send than a new span's header.
    package static let spanGap = 12

    /// The changed spans of each row of `new` whose cells differ from `old`'s: from a changed cell to the last
    /// changed cell before `spanGap` unchanged ones (whole wide characters), so a row may have several. Every row in
    /// full when there is no `old` or it has another size.
    package static func changedSpans(from old: CellBuffer?, to new: CellBuffer) -> [(row: Int, columns: Range<Int>)] {
        let width = new.width
        guard width > 0 else { return [] }
        guard let old, old.width == width, old.height == new.height else {
            return (0..<new.height).map { ($0, 0..<width) }
        }
        var spans: [(row: Int, columns: Range<Int>)] = []
        new.cells.withUnsafeBufferPointer { cells in
            old.cells.withUnsafeBufferPointer { before in
                for row in 0..<new.height {
                    let base = row * width
                    var first = -1
                    var last = -1
                    func close() {
                        guard first >= 0 else { return }
                        if first > 0 && cells[base + first].isWideContinuation { first -= 1 }
                        if last + 1 < width && cells[base + last].isWide { last += 1 }
                        if let previous = spans.last, previous.row == row, previous.columns.upperBound > first {
                            spans[spans.count - 1].columns = previous.columns.lowerBound..<(last + 1)
                        } else {
                            spans.append((row, first..<(last + 1)))
                        }
                        first = -1
                    }
                    for column in 0..<width where !looksSame(cells[base + column], before[base + column]) {
                        if first >= 0 && column - last > spanGap { close() }
                        if first < 0 { first = column }
                        last = column
                    }
                    close()
                }
            }
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
