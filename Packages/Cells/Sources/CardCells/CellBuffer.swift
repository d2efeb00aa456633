/// A grid of cells, row-major: what a frame looks like on the terminal.
public struct CellBuffer: Sendable, Hashable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// `width × height` cells, row by row.
    public var cells: [Cell]

    /// A buffer of `width × height` copies of `fill` (negative sizes are treated as 0).
    public init(width: Int, height: Int, fill: Cell = .blank) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: fill, count: self.width * self.height)
    }

    /// The cell at (`column`, `row`); positions outside the grid read as blank and writes to them are dropped.
    public subscript(column: Int, row: Int) -> Cell {
        get {
            guard contains(column: column, row: row) else { return .blank }
            return cells[row * width + column]
        }
        set {
            guard contains(column: column, row: row) else { return }
            cells[row * width + column] = newValue
        }
    }

    /// Whether (`column`, `row`) lies on the grid.
    public func contains(column: Int, row: Int) -> Bool {
        column >= 0 && row >= 0 && column < width && row < height
    }

    /// Sets every cell to `cell`.
    public mutating func clear(to cell: Cell = .blank) {
        for index in cells.indices { cells[index] = cell }
    }

    /// The characters of one row as a string (trailing spaces kept; a wide character once, for its two cells).
    public func text(row: Int) -> String {
        guard row >= 0, row < height else { return "" }
        var line = ""
        for column in 0..<width where !cells[row * width + column].isWideContinuation {
            let glyph = cells[row * width + column].character
            if let scalar = glyph.scalar {
                line.unicodeScalars.append(scalar)
            } else {
                line += glyph.string
            }
        }
        return line
    }

    /// Every row's characters, joined by newlines.
    public var text: String { (0..<height).map { text(row: $0) }.joined(separator: "\n") }

    /// Writes `string` from (`column`, `row`) rightwards with the given style, clipped to the grid and to
    /// `maxColumn` (exclusive), grapheme cluster by grapheme cluster (`GlyphMapper.glyph`): a wide cluster takes two
    /// cells (a space where only one is left), a zero-width one none. Returns the column after the last cluster
    /// written.
    @discardableResult
    public mutating func put(
        _ string: String, column: Int, row: Int, foreground: CellColor, background: CellColor? = nil,
        attributes: CellAttributes = [], maxColumn: Int? = nil
    ) -> Int {
        let limit = min(maxColumn ?? width, width)
        var x = column
        guard row >= 0, row < height else { return x }
        func set(_ x: Int, _ character: Glyph) {
            guard x >= 0, x < limit else { return }
            let index = row * width + x
            cells[index].character = character
            cells[index].foreground = foreground
            if let background { cells[index].background = background }
            cells[index].attributes = attributes
        }
        for cluster in string {
            if x >= limit { break }
            guard let glyph = GlyphMapper.glyph(cluster) else { continue }
            if glyph.columns == 2 {
                if x + 1 < limit && x >= 0 {
                    set(x, glyph.glyph)
                    set(x + 1, Cell.wideContinuation)
                } else {
                    set(x, " ")
                    set(x + 1, " ")
                }
                x += 2
            } else {
                set(x, glyph.glyph)
                x += 1
            }
        }
        repairWideCharacters(row: row)
        return x
    }

    /// Makes every wide character in `row` whole again after cells were overwritten: a wide character whose right
    /// half is gone, or a right half whose character is gone, becomes a space (in its own style), and a right half
    /// takes its character's style (the terminal draws both halves in one). O(width).
    public mutating func repairWideCharacters(row: Int) {
        guard row >= 0, row < height else { return }
        let base = row * width
        var column = 0
        while column < width {
            let cell = cells[base + column]
            if cell.isWideContinuation {
                cells[base + column].character = " "  // a right half with nothing on its left
            } else if cell.isWide {
                if column + 1 < width && cells[base + column + 1].isWideContinuation {
                    cells[base + column + 1] = cell
                    cells[base + column + 1].character = Cell.wideContinuation
                    column += 1  // a whole pair
                } else {
                    cells[base + column].character = " "
                }
            }
            column += 1
        }
    }

    /// Whether some wide character lacks a half (what `repairWideCharacters()` would change). O(cells).
    public var hasBrokenWideCharacters: Bool {
        let width = self.width
        return cells.withUnsafeBufferPointer { cells in
            for row in 0..<height {
                let base = row * width
                var column = 0
                while column < width {
                    let value = cells[base + column].character.rawValue
                    column += 1
                    // Most cells are below U+1100, where nothing is wide, and are not the U+0000 of a right half
                    // (interned clusters have the top bit set, so they are above).
                    guard value >= 0x1100 || value == 0 else { continue }
                    if value == 0 { return true }
                    if cells[base + column - 1].isWide {
                        guard column < width && cells[base + column].isWideContinuation else { return true }
                        column += 1
                    }
                }
            }
            return false
        }
    }

    /// `repairWideCharacters(row:)` for every row.
    public mutating func repairWideCharacters() {
        for row in 0..<height { repairWideCharacters(row: row) }
    }
}
