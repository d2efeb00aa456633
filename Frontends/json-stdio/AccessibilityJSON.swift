import CardEngine
import CardGeometry
import CardJSON

/// The accessibility tree and its updates as the protocol writes them (docs/protocol.md, "Accessibility"): AccessKit's
/// model in camelCase, nodes in reading order, members absent when empty, false or unknown.
enum AccessibilityJSON {
    /// `{"root": "#root", "focus": id|null, "nodes": [node…]}`, the nodes in reading order. O(n).
    static func tree(_ tree: AccessibilityTree, into out: inout JSONOutput) {
        out.raw("{\"root\":")
        out.string(AccessibilityTree.rootID.rawValue)
        out.raw(",\"focus\":")
        focus(tree.focus, into: &out)
        out.raw(",\"nodes\":[")
        for (index, node) in tree.readingOrder.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            self.node(node, into: &out)
        }
        out.raw("]}")
    }

    /// The members of an `a11y.update` after its header: `nodes` (changed and added, whole), `removed` and `focus`.
    static func update(_ update: AccessibilityTreeUpdate, into out: inout JSONOutput) {
        out.nextKey("nodes")
        out.byte(UInt8(ascii: "["))
        for (index, node) in update.nodes.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            self.node(node, into: &out)
        }
        out.raw("],\"removed\":")
        out.strings(update.removed.map(\.rawValue))
        out.raw(",\"focus\":")
        focus(update.focus, into: &out)
    }

    static func focus(_ id: NodeID?, into out: inout JSONOutput) {
        if let id { out.string(id.rawValue) } else { out.raw("null") }
    }

    /// One node: `id`, `role`, `bounds` always; the rest only when set (flags only when true, `selected` and
    /// `expanded` whenever the node can be either).
    static func node(_ node: AccessibilityNode, into out: inout JSONOutput) {
        out.raw("{\"id\":")
        out.string(node.id.rawValue)
        out.raw(",\"role\":")
        out.string(node.role.rawValue)
        optional("name", node.name, into: &out)
        optional("value", node.value, into: &out)
        optional("stateDescription", node.stateDescription, into: &out)
        optional("selected", node.isSelected, into: &out)
        optional("expanded", node.isExpanded, into: &out)
        if node.isDisabled { out.raw(",\"disabled\":true") }
        if node.isHidden { out.raw(",\"hidden\":true") }
        optional("positionInSet", node.positionInSet, into: &out)
        optional("sizeOfSet", node.sizeOfSet, into: &out)
        out.raw(",\"bounds\":{\"x\":")
        out.number(node.bounds.minX)
        out.raw(",\"y\":")
        out.number(node.bounds.minY)
        out.raw(",\"width\":")
        out.number(node.bounds.width)
        out.raw(",\"height\":")
        out.number(node.bounds.height)
        out.byte(UInt8(ascii: "}"))
        if !node.children.isEmpty {
            out.raw(",\"children\":")
            out.strings(node.children.map(\.rawValue))
        }
        if !node.actions.isEmpty {
            out.raw(",\"actions\":")
            out.strings(node.actions.map(\.rawValue))
        }
        if !node.customActions.isEmpty {
            out.raw(",\"customActions\":[")
            for (index, custom) in node.customActions.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.raw("{\"id\":")
                out.integer(custom.id)
                out.raw(",\"description\":")
                out.string(custom.description)
                out.byte(UInt8(ascii: "}"))
            }
            out.byte(UInt8(ascii: "]"))
        }
        out.byte(UInt8(ascii: "}"))
    }

    /// `,"key":value` when there is a value.
    private static func optional(_ key: StaticString, _ value: String?, into out: inout JSONOutput) {
        guard let value else { return }
        member(key, into: &out)
        out.string(value)
    }

    private static func optional(_ key: StaticString, _ value: Bool?, into out: inout JSONOutput) {
        guard let value else { return }
        member(key, into: &out)
        out.bool(value)
    }

    private static func optional(_ key: StaticString, _ value: Int?, into out: inout JSONOutput) {
        guard let value else { return }
        member(key, into: &out)
        out.integer(value)
    }

    /// `,"key":`.
    private static func member(_ key: StaticString, into out: inout JSONOutput) {
        out.raw(",\"")
        out.raw(key)
        out.raw("\":")
    }
}
