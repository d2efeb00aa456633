/// What changed between two cell buffers of one size: the runs of changed cells, row by row — the one diff that
/// every output of cell buffers uses (the terminal writer through `CellScreen`, the stdio server's cells frames
/// through `CellRows.spans(of:)`), as ratatui's `Buffer::diff` feeds its backends.
///
/// Two cells differ when they do not look the same (`Cell.looksSame(as:)`: the one rule). A run is a maximal stretch
/// of changed cells of one row (`changed`), and the columns an output redraws for it (`columns`): the changed cells
/// widened to whole wide characters (a changed right half takes its left half, a changed left half its right half),
/// so an output never draws half a character. Without a previous buffer of the same size the diff is a repaint:
/// every row is one run of all its cells.
///
/// Computing a diff is O(cells) (one comparison per cell, no allocation once `runs` has grown to its frame's size);
/// its size is O(runs).
package struct CellDiff: Sendable, Hashable {
    /// A maximal run of changed cells in one row.
    package struct Run: Sendable, Hashable {
        /// The row.
        package var row: Int
        /// The cells that changed: every one of them, and only them.
        package var changed: Range<Int>
        /// The columns to redraw: `changed` widened by a column on either side that holds the other half of a
        /// changed wide character.
        package var columns: Range<Int>

        package init(row: Int, changed: Range<Int>, columns: Range<Int>) {
            self.row = row
            self.changed = changed
            self.columns = columns
        }
    }

    /// Columns of the buffer the diff leads to.
    package private(set) var width = 0
    /// Rows of the buffer the diff leads to.
    package private(set) var height = 0
    /// Whether there was no previous buffer of this size: the output starts over, and every cell is in `runs`.
    package private(set) var isRepaint = true
    /// The runs, by row, then by column; none overlap.
    package private(set) var runs: [Run] = []

    /// An empty diff (a repaint of a 0 × 0 buffer), to compute into.
    package init() {}

    /// The diff that brings `previous` to `next` (a repaint when `previous` is nil or of another size).
    package init(from previous: CellBuffer?, to next: CellBuffer) {
        compute(from: previous, to: next)
    }

    /// Whether an output has nothing to do: not a repaint, and no cell changed.
    package var isEmpty: Bool { !isRepaint && runs.isEmpty }

    /// Makes this the diff from `previous` to `next`, keeping the storage of `runs`. O(cells).
    package mutating func compute(from previous: CellBuffer?, to next: CellBuffer) {
        width = next.width
        height = next.height
        runs.removeAll(keepingCapacity: true)
        guard let previous, previous.width == width, previous.height == height else {
            isRepaint = true
            if width > 0 {
                for row in 0..<height { runs.append(Run(row: row, changed: 0..<width, columns: 0..<width)) }
            }
            _checkInvariants(next)
            return
        }
        isRepaint = false
        let width = self.width
        next.cells.withUnsafeBufferPointer { new in
            previous.cells.withUnsafeBufferPointer { old in
                for row in 0..<height {
                    let base = row * width
                    var column = 0
                    while column < width {
                        guard !new[base + column].looksSame(as: old[base + column]) else {
                            column += 1
                            continue
                        }
                        let start = column
                        column += 1
                        while column < width && !new[base + column].looksSame(as: old[base + column]) { column += 1 }
                        runs.append(Self.run(row: row, changed: start..<column, in: new[base..<(base + width)]))
                    }
                }
            }
        }
        _checkInvariants(next)
    }

    /// The run of the changed cells `changed` of a row, widened to whole wide characters. O(1).
    @inline(__always)
    private static func run(row: Int, changed: Range<Int>, in cells: Slice<UnsafeBufferPointer<Cell>>) -> Run {
        let base = cells.startIndex
        var lower = changed.lowerBound
        var upper = changed.upperBound
        if lower > 0 && cells[base + lower].isWideContinuation && cells[base + lower - 1].isWide { lower -= 1 }
        if upper < cells.count && cells[base + upper - 1].isWide && cells[base + upper].isWideContinuation {
            upper += 1
        }
        return Run(row: row, changed: changed, columns: lower..<upper)
    }

    /// Applies the diff to `buffer`, the buffer it was computed from (any buffer for a repaint), taking the cells of
    /// its runs from `next`, the buffer it leads to: afterwards `buffer` looks the same as `next`
    /// (`CellBuffer.looksSame(as:)`). What a backend that keeps a grid does with a diff. O(cells of the runs).
    package func apply(to buffer: inout CellBuffer, from next: CellBuffer) {
        precondition(next.width == width && next.height == height, "the diff leads to a buffer of another size")
        if isRepaint || buffer.width != width || buffer.height != height {
            buffer = CellBuffer(width: width, height: height)
        }
        for run in runs {
            let base = run.row * width
            for column in run.columns { buffer.cells[base + column] = next.cells[base + column] }
        }
    }

    /// Checks, in debug builds, that the runs fit `next`, come in order without overlapping, widen their changed
    /// cells only to whole wide characters, and, for a repaint, cover every cell. Compiled out of release builds.
    /// O(runs).
    @inline(__always)
    func _checkInvariants(_ next: CellBuffer) {
        #if DEBUG
            precondition(width == next.width && height == next.height, "a diff of another size")
            var end = (row: -1, column: 0)
            for run in runs {
                precondition(run.row >= 0 && run.row < height, "run outside the rows: \(run)")
                precondition(!run.changed.isEmpty && run.columns.lowerBound >= 0 && run.columns.upperBound <= width)
                precondition(run.changed.lowerBound - run.columns.lowerBound <= 1, "widened by more than a cell")
                precondition(run.columns.upperBound - run.changed.upperBound <= 1, "widened by more than a cell")
                precondition(run.columns.lowerBound <= run.changed.lowerBound)
                precondition(run.columns.upperBound >= run.changed.upperBound)
                precondition(run.row > end.row || run.columns.lowerBound >= end.column, "runs out of order: \(run)")
                end = (run.row, run.columns.upperBound)
            }
            if isRepaint { precondition(runs.count == (width > 0 ? height : 0), "a repaint leaves rows out") }
        #endif
    }
}

extension Cell {
    /// Whether two cells look the same on screen: the same character, background and attributes, and the same
    /// foreground where it shows (a cell that `hidesForeground` shows none). The one rule by which every diff of
    /// cells (`CellDiff`) and every check of what a screen shows compares them. O(1).
    @inline(__always)
    package func looksSame(as other: Cell) -> Bool {
        self == other
            || (character == other.character && background == other.background && attributes == other.attributes
                && hidesForeground)
    }
}

extension CellBuffer {
    /// Whether two buffers have one size and look the same cell for cell (`Cell.looksSame(as:)`). O(cells).
    package func looksSame(as other: CellBuffer) -> Bool {
        guard width == other.width, height == other.height else { return false }
        if self == other { return true }
        return cells.withUnsafeBufferPointer { cells in
            other.cells.withUnsafeBufferPointer { others in
                for index in cells.indices where !cells[index].looksSame(as: others[index]) { return false }
                return true
            }
        }
    }
}
