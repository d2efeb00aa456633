import CardGeometry
import CardGestures
import CardJSON

/// The protocol's encoding of a frame (`docs/protocol.md`, the `frame` notification): the one source of the bytes
/// `cardistry stdio` sends a host and of the bytes a recording's frame digest is taken over
/// (`InputLog.digest(of:)`). A recording therefore checks what a host would have received, and renaming a Swift
/// field or a new toolchain changes neither.
///
/// The stdio server's `FrameEncoder` writes full frames with `fullFrame` and delta frames with `head` and `node`.
/// Any change to these bytes is a change of the wire format and of the recording format: `FrameDigestTests` pins
/// the bytes of a frame with every field, so such a change fails there until `InputLog.formatVersion` is raised.
/// Encoding is O(nodes + text).
package enum FrameJSON {
    /// Writes the full frame object `{"seq":…,"t":…,"full":true,"animating":…,"viewport":{…},"nodes":[…]}`.
    package static func fullFrame(
        seq: Int, time: Double, isAnimating: Bool, viewport: Size, nodes: [FrameNode], into out: inout JSONOutput
    ) {
        head(seq: seq, time: time, full: true, isAnimating: isAnimating, viewport: viewport, into: &out)
        out.nextKey("nodes")
        out.byte(UInt8(ascii: "["))
        for (index, node) in nodes.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            Self.node(node, into: &out)
        }
        out.byte(UInt8(ascii: "]"))
        out.byte(UInt8(ascii: "}"))
    }

    /// Writes the members every frame object starts with, `{"seq":…,"t":…,"full":…,"animating":…,"viewport":{…}`,
    /// leaving the object open for the nodes (or a delta's `changed`, `removed` and `order`).
    package static func head(
        seq: Int, time: Double, full: Bool, isAnimating: Bool, viewport: Size, into out: inout JSONOutput
    ) {
        out.raw("{\"seq\":")
        out.integer(seq)
        out.nextKey("t")
        out.number(time)
        out.nextKey("full")
        out.bool(full)
        out.nextKey("animating")
        out.bool(isAnimating)
        out.nextKey("viewport")
        out.raw("{\"width\":")
        out.number(viewport.width)
        out.raw(",\"height\":")
        out.number(viewport.height)
        out.byte(UInt8(ascii: "}"))
    }

    /// Writes one node object. Optional fields are omitted when absent (`card`, `parent`, `fill`, `stroke`,
    /// `shadow`, `text`, `runs`, `matched`, `label`, `gestures`, `focus`); `leaving`, `clips` and `mayOverflow`
    /// only when true.
    package static func node(_ node: FrameNode, into out: inout JSONOutput) {
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
        geometryMembers(of: node, into: &out)
        paintMembers(of: node, into: &out)
        if !node.text.isEmpty { textMembers(of: node, into: &out) }
        semanticMembers(of: node, into: &out)
        out.byte(UInt8(ascii: "}"))
    }

    /// Writes the node's frame and the members every node has: `x`, `y`, `width`, `height`, `z`, `opacity`,
    /// `rotation`, `scale`, `cornerRadius`.
    private static func geometryMembers(of node: FrameNode, into out: inout JSONOutput) {
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
    }

    /// Writes the node's `fill`, `stroke` and `shadow`, each when it has one.
    private static func paintMembers(of node: FrameNode, into out: inout JSONOutput) {
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
    }

    /// Writes the node's `text` (its runs' text joined) and `runs`.
    private static func textMembers(of node: FrameNode, into out: inout JSONOutput) {
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
            run(text, into: &out)
        }
        out.byte(UInt8(ascii: "]"))
    }

    /// Writes what the node means and how it is used, each when present or true: `matched`, `leaving`, `clips`,
    /// `mayOverflow`, `label`, `gestures`, `focus`.
    private static func semanticMembers(of node: FrameNode, into out: inout JSONOutput) {
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
    }

    /// Writes one text run object: its text, style, colour, weight and alignment, the flags and limit it has, its
    /// laid-out lines (not for a symbol) and, while its digits roll, what they roll from.
    private static func run(_ text: FrameText, into out: inout JSONOutput) {
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
    private static func kinds(of gesture: Gesture, into kinds: inout [String]) {
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
    package static func color(_ color: RGBA, into out: inout JSONOutput) {
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
