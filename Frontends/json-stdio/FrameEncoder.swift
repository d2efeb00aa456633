import CardEngine
import CardGeometry
import CardGestures
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

    /// Writes the frame object `{seq, t, full, animating, ...}` and records it as what the host has.
    mutating func encode(_ frame: FrameUpdate, into out: inout JSONOutput) {
        let full = !frame.deltaMode || frame.forceFull || !hasSent
        out.raw("{\"seq\":")
        out.integer(frame.seq)
        out.nextKey("t")
        out.number(frame.time)
        out.nextKey("full")
        out.bool(full)
        out.nextKey("animating")
        out.bool(frame.isAnimating)
        out.nextKey("viewport")
        out.raw("{\"width\":")
        out.number(frame.viewport.width)
        out.raw(",\"height\":")
        out.number(frame.viewport.height)
        out.byte(UInt8(ascii: "}"))
        if full {
            out.nextKey("nodes")
            out.byte(UInt8(ascii: "["))
            for (index, node) in frame.nodes.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                Self.encode(node, into: &out)
            }
            out.byte(UInt8(ascii: "]"))
        } else {
            encodeDelta(frame, into: &out)
        }
        out.byte(UInt8(ascii: "}"))
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
            Self.encode(node, into: &out)
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

    /// Writes one node object. Optional fields are omitted when absent (`card`, `parent`, `fill`, `stroke`,
    /// `shadow`, `text`, `runs`, `matched`); `leaving`, `clips` and `mayOverflow` only when true.
    static func encode(_ node: FrameNode, into out: inout JSONOutput) {
        out.raw("{\"id\":")
        out.string(node.id.rawValue)
        out.nextKey("role")
        out.string(node.role.rawValue)
        if let card = node.card {
            out.nextKey("card")
            out.byte(UInt8(ascii: "\""))
            out.unsigned(card.rawValue)
            out.byte(UInt8(ascii: "\""))
        }
        if let parent = node.parent {
            out.nextKey("parent")
            out.string(parent.rawValue)
        }
        out.nextKey("x")
        out.number(node.rect.origin.x)
        out.nextKey("y")
        out.number(node.rect.origin.y)
        out.nextKey("width")
        out.number(node.rect.size.width)
        out.nextKey("height")
        out.number(node.rect.size.height)
        out.nextKey("z")
        out.number(node.z)
        out.nextKey("opacity")
        out.number(node.opacity)
        out.nextKey("rotation")
        out.number(node.rotation)
        out.nextKey("scale")
        out.number(node.scale)
        out.nextKey("cornerRadius")
        out.number(node.cornerRadius)
        if let fill = node.fill {
            out.nextKey("fill")
            color(fill, into: &out)
        }
        if let stroke = node.stroke {
            out.nextKey("stroke")
            color(stroke, into: &out)
        }
        if let shadow = node.shadow {
            out.nextKey("shadow")
            out.raw("{\"color\":")
            color(shadow.color, into: &out)
            out.raw(",\"radius\":")
            out.number(shadow.radius)
            out.raw(",\"dx\":")
            out.number(shadow.offset.dx)
            out.raw(",\"dy\":")
            out.number(shadow.offset.dy)
            out.byte(UInt8(ascii: "}"))
        }
        if !node.text.isEmpty {
            out.nextKey("text")
            if node.text.count == 1 {
                out.string(node.text[0].run.text)
            } else {
                out.string(node.plainText)
            }
            out.nextKey("runs")
            out.byte(UInt8(ascii: "["))
            for (index, text) in node.text.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                encode(text, into: &out)
            }
            out.byte(UInt8(ascii: "]"))
        }
        if let matched = node.matchedGeometryID {
            out.nextKey("matched")
            out.string(matched)
        }
        if node.isLeaving {
            out.nextKey("leaving")
            out.raw("true")
        }
        if node.clipsContent {
            out.nextKey("clips")
            out.raw("true")
        }
        if node.mayOverflow {
            out.nextKey("mayOverflow")
            out.raw("true")
        }
        if let label = node.accessibilityLabel ?? (node.text.isEmpty || node.role == .icon ? nil : node.plainText) {
            out.nextKey("label")
            out.string(label)
        }
        if !node.gestures.isEmpty {
            out.nextKey("gestures")
            out.byte(UInt8(ascii: "["))
            for (index, attachment) in node.gestures.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.raw("{\"name\":")
                out.string(attachment.name)
                out.raw(",\"kinds\":")
                var kinds: [String] = []
                Self.kinds(of: attachment.gesture, into: &kinds)
                out.strings(kinds)
                out.byte(UInt8(ascii: "}"))
            }
            out.byte(UInt8(ascii: "]"))
        }
        if let focus = node.focusOrder {
            out.nextKey("focus")
            out.integer(focus)
        }
        out.byte(UInt8(ascii: "}"))
    }

    private static func encode(_ text: FrameText, into out: inout JSONOutput) {
        let run = text.run
        out.raw("{\"text\":")
        out.string(run.text)
        out.nextKey("style")
        out.string(run.style.rawValue)
        out.nextKey("color")
        color(run.color, into: &out)
        out.nextKey("weight")
        out.string(run.weight.rawValue)
        out.nextKey("alignment")
        out.string(run.alignment.rawValue)
        if run.isNumeric {
            out.nextKey("numeric")
            out.raw("true")
        }
        if run.isSymbol {
            out.nextKey("symbol")
            out.raw("true")
        }
        if let limit = run.lineLimit {
            out.nextKey("lineLimit")
            out.integer(limit)
        }
        if !text.lines.isEmpty && !run.isSymbol {
            out.nextKey("lines")
            out.strings(text.lines)
        }
        if let from = text.rollingFrom {
            out.nextKey("rollingFrom")
            out.string(from)
            out.nextKey("digitProgress")
            out.byte(UInt8(ascii: "["))
            for (index, progress) in text.digitProgress.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.number(progress)
            }
            out.byte(UInt8(ascii: "]"))
        }
        out.byte(UInt8(ascii: "}"))
    }

    /// The input a gesture answers, as the primitive gestures it is composed of (`tap`, `longPress`, `drag`,
    /// `swipe`, `scroll`), each once, in the order they appear.
    static func kinds(of gesture: Gesture, into kinds: inout [String]) {
        func add(_ kind: String) { if !kinds.contains(kind) { kinds.append(kind) } }
        switch gesture {
        case .tap: add("tap")
        case .longPress: add("longPress")
        case .drag: add("drag")
        case .swipe: add("swipe")
        case .scroll: add("scroll")
        case .sequenced(let first, let second), .exclusive(let first, let second),
            .simultaneous(let first, let second):
            Self.kinds(of: first, into: &kinds)
            Self.kinds(of: second, into: &kinds)
        }
    }

    /// `"#rrggbbaa"`: each component clamped to 0…1 and rounded to 8 bits (a non-finite component is 0).
    static func color(_ color: RGBA, into out: inout JSONOutput) {
        let hexDigits: StaticString = "0123456789abcdef"
        let table = hexDigits.utf8Start
        out.byte(UInt8(ascii: "\""))
        out.byte(UInt8(ascii: "#"))
        func channel(_ component: Double) {
            let clamped = component.isFinite ? min(max(component, 0), 1) : 0
            let value = Int((clamped * 255).rounded())
            out.byte(table[value >> 4])
            out.byte(table[value & 0xF])
        }
        channel(color.red)
        channel(color.green)
        channel(color.blue)
        channel(color.alpha)
        out.byte(UInt8(ascii: "\""))
    }
}
