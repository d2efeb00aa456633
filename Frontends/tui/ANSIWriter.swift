import CardCells

/// Turns cell buffers into the bytes that bring a terminal from the previous frame to the next: only changed
/// cells are written, the cursor is moved only where changed cells are not contiguous, and SGR codes are sent
/// only where the style changes. One call gives one frame's bytes, written by the caller with one `write`.
///
/// The writer assumes autowrap is off (DECAWM reset), so writing the last column leaves the cursor there; it
/// then forgets the cursor position and moves explicitly before the next cell. A cell's glyph is written whole (a
/// grapheme cluster of several scalars as all of them, so that the terminal joins them again); a wide character is
/// written once for its two cells, and the cursor counted two columns on. Complexity: O(cells) per frame.
public struct ANSIWriter: Sendable {
    /// The depth used for colour codes (cells should already be converted to it; see `ColorDepth.convert`).
    public var depth: ColorDepth
    /// Wraps each non-empty frame in DECSET/DECRST 2026 (synchronized output).
    public var synchronizedOutput: Bool
    /// What the screen shows now, or nil when unknown (start-up, resize, resume): the next frame repaints all.
    public private(set) var screen: CellBuffer?
    private var cursorColumn = -1
    private var cursorRow = -1
    /// The SGR state the terminal is in, or nil when unknown.
    private var pen: Cell?

    public init(depth: ColorDepth = .trueColor, synchronizedOutput: Bool = false) {
        self.depth = depth
        self.synchronizedOutput = synchronizedOutput
    }

    /// Forgets what the screen shows, so that the next frame is a full repaint (after a resize or a resume).
    public mutating func invalidate() {
        screen = nil
        cursorColumn = -1
        cursorRow = -1
        pen = nil
    }

    /// Appends to `output` the bytes that draw `next`, and remembers it as the screen. Appends nothing when
    /// `next` equals the screen. A size change repaints everything (after clearing the screen). Half a wide
    /// character without its other half is drawn as a space (see `CellBuffer.repairWideCharacters()`).
    public mutating func render(_ next: CellBuffer, into output: inout [UInt8]) {
        if next.hasBrokenWideCharacters {
            // Half a wide character shows as a space: remember the screen as it shows, so that later diffs hold.
            var repaired = next
            repaired.repairWideCharacters()
            render(repaired, into: &output)
            return
        }
        let start = output.count
        if synchronizedOutput { output.append(contentsOf: ANSI.beginSynchronized) }
        let bodyStart = output.count
        var previous = screen
        if let existing = previous, existing.width != next.width || existing.height != next.height {
            previous = nil
        }
        if previous == nil {
            pen = nil
            output.append(contentsOf: ANSI.resetStyle)
            output.append(contentsOf: ANSI.clearScreen)
            cursorColumn = -1
            cursorRow = -1
        }
        let width = next.width
        next.cells.withUnsafeBufferPointer { nextCells in
            if let previous {
                previous.cells.withUnsafeBufferPointer { oldCells in
                    for row in 0..<next.height {
                        let base = row * width
                        var drawnTo = 0  // columns before this one are drawn already (a wide character's right half)
                        for column in 0..<width
                        where !Self.looksSame(nextCells[base + column], oldCells[base + column]) {
                            guard column >= drawnTo else { continue }
                            // Rewriting a short gap of unchanged cells in the pen's style is cheaper than moving
                            // the cursor over it (ESC [ n C is four bytes or more).
                            if row == cursorRow, column > cursorColumn, column - cursorColumn <= 3,
                                let pen,
                                (cursorColumn..<column).allSatisfy({
                                    let cell = nextCells[base + $0]
                                    return cell.character.isASCII && cell.character.rawValue >= 0x20
                                        && (cell.hasSameStyle(as: pen)
                                            || (cell.hidesForeground && cell.background == pen.background
                                                && cell.attributes == pen.attributes))
                                })
                            {
                                var gap = cursorColumn
                                while gap < column {
                                    gap = draw(
                                        row: nextCells[base..<(base + width)], column: gap, row: row, into: &output)
                                }
                            }
                            // A changed right half redraws its whole character, from the left half.
                            let from =
                                nextCells[base + column].isWideContinuation && column > 0
                                    && nextCells[base + column - 1].isWide ? column - 1 : column
                            drawnTo = draw(row: nextCells[base..<(base + width)], column: from, row: row, into: &output)
                        }
                    }
                }
            } else {
                for row in 0..<next.height {
                    let base = row * width
                    var column = 0
                    while column < width {
                        column = draw(row: nextCells[base..<(base + width)], column: column, row: row, into: &output)
                    }
                }
            }
        }
        if output.count == bodyStart {
            output.removeSubrange(start...)
        } else if synchronizedOutput {
            output.append(contentsOf: ANSI.endSynchronized)
        }
        screen = next
    }

    /// The bytes of a full repaint of `buffer` from an unknown screen (what an undiffed renderer writes).
    public static func fullRepaint(_ buffer: CellBuffer, depth: ColorDepth) -> [UInt8] {
        var writer = ANSIWriter(depth: depth)
        var output: [UInt8] = []
        writer.render(buffer, into: &output)
        return output
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

    /// Whether two cells show the same on screen: equal, or both blanks of one background and attributes (a
    /// blank's foreground is invisible). O(1).
    package static func looksSame(_ a: Cell, _ b: Cell) -> Bool {
        a == b
            || (a.hidesForeground && b.hidesForeground && a.background == b.background
                && a.attributes == b.attributes)
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
