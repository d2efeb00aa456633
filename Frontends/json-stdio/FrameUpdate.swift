import CardCells
import CardEngine
import CardGeometry

/// A frame on its way to the host: the sampled nodes, the notification sequence number, and whether it must be
/// sent whole. `OutboundEncoder` encodes it (in delta mode, diffing against what the host will have) as it is
/// queued, and takes back a pending `frame` notification when a newer one replaces it under back-pressure.
public struct FrameUpdate: Sendable {
    public var seq: Int
    public var time: Double
    public var viewport: Size
    public var nodes: [FrameNode]
    public var isAnimating: Bool
    /// Sent whole even in delta mode (the first frame of a scene, `scene.frame`).
    public var forceFull: Bool
    /// The session asked for delta frames.
    public var deltaMode: Bool
    /// A cells session's frame (`frames: "cells"`): the grid drawn, sent as changed rows (the nodes are then empty).
    public var cells: CellBuffer?
    /// The points per cell of `cells` (the mapping a pointer in a cell is converted with).
    public var cellScale = CellScale()

    public init(seq: Int, frame: Frame, forceFull: Bool, deltaMode: Bool) {
        self.deltaMode = deltaMode
        self.seq = seq
        self.time = frame.time
        self.viewport = frame.viewport
        self.nodes = frame.nodes
        self.isAnimating = frame.isAnimating
        self.forceFull = forceFull
    }
}

/// Something the server asks the writer to put on stdout, in order.
public enum Outbound: Sendable {
    /// A complete message (a response or a notification that is never dropped), without the newline.
    case message([UInt8])
    /// A `frame` notification; a pending one is replaced by a newer one when the host reads slowly.
    case frameNotification(FrameUpdate)
    /// A message with frames inside (a response whose result carries a frame, or a batch): never merged.
    case composite([OutboundPart])
    /// A message whose `head` is written while its `tail` is still being computed: a million-card sort's
    /// `deck.changed`, whose sources travel while the server counts the diff's moves (`ReorderDiff.moveCount`).
    /// The line is `head` followed by what `tail` returns; nothing else is written between them.
    case streamed(head: [UInt8], tail: OutboundTail)
}

/// The rest of a `streamed` message, computed by the serving thread once the head is queued.
public struct OutboundTail: Sendable {
    private let make: @Sendable () -> [UInt8]

    /// A tail that `make` computes (once, when the message is written or encoded).
    init(_ make: @escaping @Sendable () -> [UInt8]) { self.make = make }

    /// The tail's bytes.
    func callAsFunction() -> [UInt8] { make() }
}

extension Outbound {
    /// A message of a megabyte or more (a million-card change's source slots, a large page).
    var isLarge: Bool {
        switch self {
        case .message(let bytes): bytes.count >= 1 << 20
        case .composite(let parts):
            parts.contains { if case .bytes(let bytes) = $0 { bytes.count >= 1 << 20 } else { false } }
        case .streamed(let head, _): head.count >= 1 << 20
        case .frameNotification: false
        }
    }
}
