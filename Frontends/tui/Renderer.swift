import CardCells

/// Where finished cell buffers go: the terminal (through the diffing `ANSIRenderer`) or a test's grid
/// (`HeadlessRenderer`), as ratatui's backends and Bubble Tea's renderers separate drawing from output.
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

/// Renders to a byte sink through an `ANSIWriter`: one call of `sink` per frame that changed anything, none for
/// an identical frame.
public struct ANSIRenderer: Renderer {
    public var writer: ANSIWriter
    private let sink: ([UInt8]) -> Void
    private var scratch: [UInt8] = []
    /// Bytes handed to the sink so far.
    public private(set) var bytesWritten = 0

    public init(writer: ANSIWriter, sink: @escaping ([UInt8]) -> Void) {
        self.writer = writer
        self.sink = sink
    }

    public mutating func present(_ buffer: CellBuffer) {
        scratch.removeAll(keepingCapacity: true)
        writer.render(buffer, into: &scratch)
        guard !scratch.isEmpty else { return }
        bytesWritten += scratch.count
        sink(scratch)
    }

    public mutating func invalidate() { writer.invalidate() }
}
