import CardEngine

/// A frame on its way to the host: the sampled nodes, the notification sequence number, and whether it must be
/// sent whole. Encoding (and, in delta mode, diffing against what the host already has) happens when it is
/// written, so pending frame notifications can be merged — the latest one wins — under back-pressure.
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

    public init(seq: Int, frame: Frame, forceFull: Bool, deltaMode: Bool) {
        self.deltaMode = deltaMode
        self.seq = seq
        self.time = frame.time
        self.viewport = frame.viewport
        self.nodes = frame.nodes
        self.isAnimating = frame.isAnimating
        self.forceFull = forceFull
    }

    /// Merges a newer pending frame into this one: the newer state wins; it must be whole if either had to be.
    mutating func merge(newer: FrameUpdate) {
        let full = forceFull || newer.forceFull
        self = newer
        forceFull = full
    }
}

/// Something the server asks the writer to put on stdout, in order.
public enum Outbound: Sendable {
    /// A complete message (a response or a notification that is never dropped), without the newline.
    case message([UInt8])
    /// A `frame` notification; pending ones are merged when the host reads slowly.
    case frameNotification(FrameUpdate)
    /// A message with frames inside (a response whose result carries a frame, or a batch): never merged.
    case composite([OutboundPart])

    var isMergeableFrame: Bool {
        if case .frameNotification = self { return true }
        return false
    }
}
