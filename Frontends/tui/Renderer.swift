import CardCells

/// Where finished cell buffers go: the terminal (`ANSIRenderer`: CardCells' `CellScreen` diffs, the `ANSIWriter`
/// encodes) or a test's grid (`HeadlessRenderer`, which keeps the last buffer whole; `CellTestBackend` is the
/// headless backend that sees the diffs).
public protocol Renderer {
    /// Shows `buffer` (already converted to the output's colour depth).
    mutating func present(_ buffer: CellBuffer)
    /// Forgets what is on screen, so the next `present` repaints everything (resize, resume).
    mutating func invalidate()
}

/// Renders into memory: keeps the last buffer presented and counts frames, for tests and golden files.
public struct HeadlessRenderer: Renderer, Sendable {
    public private(set) var buffer: CellBuffer?
    public private(set) var framesPresented = 0

    public init() {}

    public mutating func present(_ buffer: CellBuffer) {
        self.buffer = buffer
        framesPresented += 1
    }

    public mutating func invalidate() {}
}

/// Renders to a byte sink: a `CellScreen` diffs each buffer against what is on screen and its `ANSIWriter` encodes
/// the diff; one call of `sink` per frame that changed anything, none for an identical frame.
public struct ANSIRenderer: Renderer {
    private var screen: CellScreen<ANSIWriter>
    private let sink: ([UInt8]) -> Void
    /// Bytes handed to the sink so far.
    public private(set) var bytesWritten = 0

    public init(writer: ANSIWriter, sink: @escaping ([UInt8]) -> Void) {
        self.screen = CellScreen(backend: writer)
        self.sink = sink
    }

    /// The encoder.
    public var writer: ANSIWriter { screen.backend }

    public mutating func present(_ buffer: CellBuffer) {
        screen.backend.bytes.removeAll(keepingCapacity: true)
        screen.present(buffer)
        guard !screen.backend.bytes.isEmpty else { return }
        bytesWritten += screen.backend.bytes.count
        sink(screen.backend.bytes)
    }

    public mutating func invalidate() { screen.invalidate() }

    /// Leaves the cursor on `cell` (the focused item: a screen reader or a braille display follows the cursor),
    /// writing the move only when the cursor is elsewhere (an idle screen writes nothing).
    public mutating func restCursor(on cell: (column: Int, row: Int)) {
        screen.backend.bytes.removeAll(keepingCapacity: true)
        screen.backend.restCursor(column: cell.column, row: cell.row)
        guard !screen.backend.bytes.isEmpty else { return }
        bytesWritten += screen.backend.bytes.count
        sink(screen.backend.bytes)
    }
}

extension CellScreen where Backend == ANSIWriter {
    /// Presents `next` and appends the writer's bytes for it to `output` (nothing when no cell changed). O(cells).
    package mutating func render(_ next: CellBuffer, into output: inout [UInt8]) {
        swap(&output, &backend.bytes)
        present(next)
        swap(&output, &backend.bytes)
    }
}
