import CardEngine
import CardJSON

/// Encodes frames as protocol JSON by hand, remembering what the host was last sent so that delta frames carry
/// only changed and removed nodes (and the paint order when it changed).
///
/// Encoding a node is O(fields + text); a delta frame costs one dictionary lookup and one comparison per node.
public struct FrameEncoder: Sendable {
    private var sentNodes: [NodeID: FrameNode] = [:]
    private var sentOrder: [NodeID] = []
    /// Whether the host holds a frame a delta can apply to.
    private var hasSent = false

    public init() {}

    /// Turns one outbound item into its line (without the newline).
    public mutating func encode(_ item: Outbound) -> [UInt8] {
        switch item {
        case .message(let bytes): return bytes
        case .frameNotification(let frame):
            var out = JSONOutput(capacity: 256 + frame.nodes.count * 200)
            out.raw("{\"jsonrpc\":\"2.0\",\"method\":\"frame\",\"params\":")
            encode(frame, into: &out)
            out.byte(UInt8(ascii: "}"))
            return out.bytes
        case .composite(let parts):
            var out = JSONOutput(capacity: 1024)
            for part in parts {
                switch part {
                case .bytes(let bytes): out.rawBytes(bytes)
                case .frame(let frame): encode(frame, into: &out)
                }
            }
            return out.bytes
        }
    }

    /// Writes the frame object `{seq, t, full, animating, ...}` (the engine's `FrameJSON`, the bytes a recording's
    /// digests are taken over) and records it as what the host has.
    mutating func encode(_ frame: FrameUpdate, into out: inout JSONOutput) {
        if !frame.deltaMode || frame.forceFull || !hasSent {
            FrameJSON.fullFrame(
                seq: frame.seq, time: frame.time, isAnimating: frame.isAnimating, viewport: frame.viewport,
                nodes: frame.nodes, into: &out)
        } else {
            FrameJSON.head(
                seq: frame.seq, time: frame.time, full: false, isAnimating: frame.isAnimating,
                viewport: frame.viewport, into: &out)
            encodeDelta(frame, into: &out)
            out.byte(UInt8(ascii: "}"))
        }
        if frame.deltaMode { remember(frame) }
    }

    private mutating func remember(_ frame: FrameUpdate) {
        var nodes: [NodeID: FrameNode] = [:]
        nodes.reserveCapacity(frame.nodes.count)
        for node in frame.nodes { nodes[node.id] = node }
        sentNodes = nodes
        sentOrder = frame.nodes.map(\.id)
        hasSent = true
    }

    private func encodeDelta(_ frame: FrameUpdate, into out: inout JSONOutput) {
        out.nextKey("changed")
        out.byte(UInt8(ascii: "["))
        var first = true
        for node in frame.nodes where sentNodes[node.id] != node {
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            FrameJSON.node(node, into: &out)
        }
        out.byte(UInt8(ascii: "]"))
        out.nextKey("removed")
        out.byte(UInt8(ascii: "["))
        var present: Set<NodeID> = []
        present.reserveCapacity(frame.nodes.count)
        for node in frame.nodes { present.insert(node.id) }
        first = true
        for id in sentOrder where !present.contains(id) {
            if !first { out.byte(UInt8(ascii: ",")) }
            first = false
            out.string(id.rawValue)
        }
        out.byte(UInt8(ascii: "]"))
        let orderChanged = frame.nodes.count != sentOrder.count || zip(frame.nodes, sentOrder).contains { $0.id != $1 }
        if orderChanged {
            out.nextKey("order")
            out.byte(UInt8(ascii: "["))
            for (index, node) in frame.nodes.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.string(node.id.rawValue)
            }
            out.byte(UInt8(ascii: "]"))
        }
    }
}
