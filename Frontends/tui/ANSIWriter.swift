import CardCells

/// Encodes cell diffs as the bytes that bring a terminal from one frame to the next: the terminal UI's
/// `CellBackend`. It only encodes — `CellScreen` diffs each frame against what is on screen (`CellDiff`) and hands it
/// the diff — and keeps only the terminal's state between frames: where the cursor is and the SGR pen. It writes
/// the diff's runs, moving the cursor only where runs are not contiguous and sending SGR codes only where the style
/// changes; a short gap of unchanged cells in the pen's style is rewritten rather than jumped over. A repaint first
/// resets the style and clears the screen. One frame's bytes accumulate in `bytes`, written by the caller with one
/// `write`.
///
/// The writer assumes autowrap is off (DECAWM reset), so writing the last column leaves the cursor there; it
/// then forgets the cursor position and moves explicitly before the next cell. A cell's glyph is written whole (a
/// grapheme cluster of several scalars as all of them, so that the terminal joins them again); a wide character is
/// written once for its two cells, and the cursor counted two columns on. Complexity: O(cells of the runs) a frame.
public struct ANSIWriter: CellBackend, Sendable {
    /// The depth used for colour codes (cells should already be converted to it; see `ColorDepth.convert`).
    public var depth: ColorDepth
    /// Wraps each non-empty frame in DECSET/DECRST 2026 (synchronized output).
    public var synchronizedOutput: Bool
    /// The bytes encoded and not yet written: each diff's are appended.
    package var bytes: [UInt8] = []
    private var cursorColumn = -1
    private var cursorRow = -1
    /// The SGR state the terminal is in, or nil when unknown.
    private var pen: Cell?

    public init(depth: ColorDepth = .trueColor, synchronizedOutput: Bool = false) {
        self.depth = depth
        self.synchronizedOutput = synchronizedOutput
    }

    /// Appends to `bytes` the encoding of `diff`: nothing for an empty diff; for a repaint, a style reset and a
    /// cleared screen first (the cursor and the pen unknown).
    package mutating func draw(_ diff: CellDiff, of next: CellBuffer) {
        guard !diff.isEmpty else { return }
        // The frame is encoded into a local array (the buffer's own storage, swapped out and back), so that the
        // drawing functions, which change the cursor and the pen, can append to it.
        var output: [UInt8] = []
        swap(&output, &bytes)
        defer { swap(&output, &bytes) }
        if synchronizedOutput { output.append(contentsOf: ANSI.beginSynchronized) }
        if diff.isRepaint {
            pen = nil
            output.append(contentsOf: ANSI.resetStyle)
            output.append(contentsOf: ANSI.clearScreen)
            cursorColumn = -1
            cursorRow = -1
        }
        let width = next.width
        next.cells.withUnsafeBufferPointer { nextCells in
            for run in diff.runs {
                let cells = nextCells[(run.row * width)..<(run.row * width + width)]
                // Up to the first changed cell: a run widened to the left half of a wide character (never ASCII)
                // gets no gap rewritten, only a cursor move.
                rewriteGap(before: run.changed.lowerBound, of: cells, row: run.row, into: &output)
                var column = run.columns.lowerBound
                while column < run.columns.upperBound {
                    column = draw(row: cells, column: column, row: run.row, into: &output)
                }
            }
        }
        if synchronizedOutput { output.append(contentsOf: ANSI.endSynchronized) }
    }

    /// Rewrites the cells from the cursor to `column` when they are few (three or fewer) printable ASCII cells the
    /// pen draws as they are, which is cheaper than moving the cursor over them (ESC [ n C is four bytes or more).
    private mutating func rewriteGap(
        before column: Int, of cells: Slice<UnsafeBufferPointer<Cell>>, row: Int, into output: inout [UInt8]
    ) {
        guard row == cursorRow, column > cursorColumn, column - cursorColumn <= 3, let pen else { return }
        let base = cells.startIndex
        let drawnAsTheyAre = (cursorColumn..<column).allSatisfy {
            let cell = cells[base + $0]
            return cell.character.isASCII && cell.character.rawValue >= 0x20
                && (cell.hasSameStyle(as: pen)
                    || (cell.hidesForeground && cell.background == pen.background && cell.attributes == pen.attributes))
        }
        guard drawnAsTheyAre else { return }
        var gap = cursorColumn
        while gap < column { gap = draw(row: cells, column: gap, row: row, into: &output) }
    }

    /// The bytes of a full repaint of `buffer` from an unknown screen (what an undiffed renderer writes).
    /// Moves the cursor to (`column`, `row`) to rest there between frames (the focused item, which screen readers
    /// and braille displays follow), appending the move to `bytes`; nothing when it is there already.
    package mutating func restCursor(column: Int, row: Int) {
        guard column != cursorColumn || row != cursorRow else { return }
        ANSI.moveCursor(column: column, row: row, into: &bytes)
        cursorColumn = column
        cursorRow = row
    }

    public static func fullRepaint(_ buffer: CellBuffer, depth: ColorDepth) -> [UInt8] {
        var screen = CellScreen(backend: ANSIWriter(depth: depth))
        screen.present(buffer)
        return screen.backend.bytes
    }

    /// Draws the character at `column` of a row of cells and returns the column after it: a wide character and its
    /// right half as one, two columns on; half a wide character without its other half as a space.
    private mutating func draw(
        row cells: Slice<UnsafeBufferPointer<Cell>>, column: Int, row: Int, into output: inout [UInt8]
    ) -> Int {
        let width = cells.count
        var cell = cells[cells.startIndex + column]
        var columns = 1
        if cell.isWideContinuation {
            cell.character = " "  // its left half was not a wide character (or this is the first column)
        } else if cell.isWide {
            if column + 1 < width && cells[cells.startIndex + column + 1].isWideContinuation {
                columns = 2
            } else {
                cell.character = " "
            }
        }
        // A blank's foreground shows nowhere: keep the pen's, saving a colour code.
        if let pen, cell.hidesForeground { cell.foreground = pen.foreground }
        draw(cell, column: column, row: row, width: width, columns: columns, into: &output)
        return column + columns
    }

    private mutating func draw(
        _ cell: Cell, column: Int, row: Int, width: Int, columns: Int, into output: inout [UInt8]
    ) {
        if row != cursorRow || column != cursorColumn {
            if row == cursorRow && column > cursorColumn {
                ANSI.cursorForward(column - cursorColumn, into: &output)
            } else {
                ANSI.moveCursor(column: column, row: row, into: &output)
            }
        }
        if pen.map({ !$0.hasSameStyle(as: cell) }) ?? true {
            writeStyle(cell, into: &output)
            pen = cell
        }
        if columns == 2 && cell.character.isCluster {
            // A terminal that draws this cluster one column wide leaves the second cell as it was: give both cells
            // the cell's background first (two spaces), then write the cluster from the first.
            output.append(UInt8(ascii: " "))
            output.append(UInt8(ascii: " "))
            ANSI.moveCursor(column: column, row: row, into: &output)
        }
        cell.character.appendUTF8(into: &output)
        cursorRow = row
        // With autowrap off the cursor stays on the last column; treat its position as unknown there. After a
        // cluster of several scalars it is unknown too: terminals disagree on their widths (tmux 3.3 gives a
        // zero-width-joiner sequence a cell per emoji, many give ❤️ one column), so the next cell is placed with an
        // explicit move and a disagreement never shifts the rest of the row.
        cursorColumn = column + columns < width && !cell.character.isCluster ? column + columns : -1
        if cursorColumn < 0 { cursorRow = -1 }
    }

    /// Emits the SGR sequence that changes the pen to `cell`'s style: only the parts that differ, or a reset
    /// plus the new style when an attribute must be turned off.
    private func writeStyle(_ cell: Cell, into output: inout [UInt8]) {
        var parameters: [UInt8] = []
        let old = pen
        let needsReset = old.map { !$0.attributes.subtracting(cell.attributes).isEmpty } ?? true
        var setForeground = true
        var setBackground = true
        var added = cell.attributes
        if needsReset {
            parameters.append(UInt8(ascii: "0"))
            setForeground = cell.foreground != .terminalDefault
            setBackground = cell.background != .terminalDefault
        } else if let old {
            setForeground = old.foreground != cell.foreground
            setBackground = old.background != cell.background
            added = cell.attributes.subtracting(old.attributes)
        }
        func separator() {
            if !parameters.isEmpty { parameters.append(UInt8(ascii: ";")) }
        }
        let attributeCodes: [(CellAttributes, UInt8)] = [(.bold, 1), (.dim, 2), (.underline, 4), (.reverse, 7)]
        for (attribute, code) in attributeCodes where added.contains(attribute) {
            separator()
            ANSI.appendDecimal(Int(code), into: &parameters)
        }
        if setForeground {
            separator()
            colorCode(cell.foreground, background: false, into: &parameters)
        }
        if setBackground {
            separator()
            colorCode(cell.background, background: true, into: &parameters)
        }
        output.append(0x1B)
        output.append(UInt8(ascii: "["))
        output.append(contentsOf: parameters)
        output.append(UInt8(ascii: "m"))
    }

    private func colorCode(_ color: CellColor, background: Bool, into parameters: inout [UInt8]) {
        switch color.kind {
        case .terminalDefault:
            ANSI.appendDecimal(background ? 49 : 39, into: &parameters)
        case .indexed(let index) where index < 16:
            let base = index < 8 ? (background ? 40 : 30) : (background ? 100 : 90)
            ANSI.appendDecimal(base + Int(index % 8), into: &parameters)
        case .indexed(let index):
            ANSI.appendDecimal(background ? 48 : 38, into: &parameters)
            parameters.append(contentsOf: Array(";5;".utf8))
            ANSI.appendDecimal(Int(index), into: &parameters)
        case .rgb(let red, let green, let blue):
            ANSI.appendDecimal(background ? 48 : 38, into: &parameters)
            parameters.append(contentsOf: Array(";2;".utf8))
            ANSI.appendDecimal(Int(red), into: &parameters)
            parameters.append(UInt8(ascii: ";"))
            ANSI.appendDecimal(Int(green), into: &parameters)
            parameters.append(UInt8(ascii: ";"))
            ANSI.appendDecimal(Int(blue), into: &parameters)
        }
    }
}
