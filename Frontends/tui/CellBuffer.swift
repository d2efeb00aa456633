/// A grid of cells, row-major: what a frame looks like on the terminal.
public struct CellBuffer: Sendable, Hashable {
    public let width: Int
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

    public func contains(column: Int, row: Int) -> Bool {
        column >= 0 && row >= 0 && column < width && row < height
    }

    /// Sets every cell to `cell`.
    public mutating func clear(to cell: Cell = .blank) {
        for index in cells.indices { cells[index] = cell }
    }

    /// The characters of one row as a string (trailing spaces kept).
    public func text(row: Int) -> String {
        guard row >= 0, row < height else { return "" }
        var line = String.UnicodeScalarView()
        for column in 0..<width { line.append(cells[row * width + column].character) }
        return String(line)
    }

    /// Every row's characters, joined by newlines.
    public var text: String { (0..<height).map { text(row: $0) }.joined(separator: "\n") }

    /// Writes `string` from (`column`, `row`) rightwards with the given style, clipped to the grid and to
    /// `maxColumn` (exclusive). Returns the column after the last character written.
    @discardableResult
    public mutating func put(
        _ string: String, column: Int, row: Int, foreground: CellColor, background: CellColor? = nil,
        attributes: CellAttributes = [], maxColumn: Int? = nil
    ) -> Int {
        let limit = min(maxColumn ?? width, width)
        var x = column
        guard row >= 0, row < height else { return x }
        for scalar in string.unicodeScalars {
            if x >= limit { break }
            if x >= 0 {
                let index = row * width + x
                cells[index].character = scalar
                cells[index].foreground = foreground
                if let background { cells[index].background = background }
                cells[index].attributes = attributes
            }
            x += 1
        }
        return x
    }
}
