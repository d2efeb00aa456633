/// A scene's content as assistive technologies see it, in AccessKit's model: nodes by id, from a root (the scene,
/// role `window`) through each node's `children`, and the node that has the keyboard focus.
///
/// The engine derives it from the scene's layout and what the scene says about it (`Engine.accessibilityTree()`,
/// `Scene.accessibilitySemantics(of:)`); a host keeps its copy current with `AccessibilityTreeUpdate`s
/// (`changes(from:)` computes one, `applying(_:)` applies it).
public struct AccessibilityTree: Sendable, Hashable {
    /// The root's id, which no layout node uses (a node id never starts with `#`).
    public static let rootID: NodeID = "#root"

    /// Every node of the tree, by id.
    public private(set) var nodes: [NodeID: AccessibilityNode]
    /// The node with the keyboard focus, if any (a node of the tree).
    public private(set) var focus: NodeID?

    /// The tree of `nodes` (which must hold the root, `rootID`) focused on `focus`. Debug builds check that every
    /// child exists and is reached once, from the root, and that the focus is a node of the tree.
    public init(nodes: [NodeID: AccessibilityNode], focus: NodeID?) {
        self.nodes = nodes
        self.focus = focus
        _checkInvariants()
    }

    /// The root node.
    public var root: AccessibilityNode { nodes[Self.rootID]! }

    /// The node `id`, if the tree holds it.
    public subscript(id: NodeID) -> AccessibilityNode? { nodes[id] }

    /// The nodes in reading order: depth-first from the root, each node before its children. O(n).
    public var readingOrder: [AccessibilityNode] {
        var result: [AccessibilityNode] = []
        result.reserveCapacity(nodes.count)
        var stack: [NodeID] = [Self.rootID]
        while let id = stack.popLast() {
            guard let node = nodes[id] else { continue }
            result.append(node)
            stack.append(contentsOf: node.children.reversed())
        }
        return result
    }

    /// The update that turns `old` into this tree: every node that is new or differs in any property, the ids of
    /// the nodes that are gone (sorted), and the focus. Nodes are listed in this tree's reading order, so a parent
    /// comes before a child it gained. O(n) in the nodes of both trees; nil when the trees are equal.
    public func changes(from old: AccessibilityTree) -> AccessibilityTreeUpdate? {
        var changed: [AccessibilityNode] = []
        for node in readingOrder where old.nodes[node.id] != node {
            changed.append(node)
        }
        let removed = old.nodes.keys.filter { nodes[$0] == nil }.sorted()
        guard !changed.isEmpty || !removed.isEmpty || old.focus != focus else { return nil }
        return AccessibilityTreeUpdate(nodes: changed, removed: removed, focus: focus)
    }

    /// The tree with `update` applied: its nodes replace or add nodes, its removed ids leave, its focus becomes the
    /// focus. Applying `changes(from: old)` to `old` gives this tree back. O(update).
    public func applying(_ update: AccessibilityTreeUpdate) -> AccessibilityTree {
        var nodes = self.nodes
        for id in update.removed { nodes[id] = nil }
        for node in update.nodes { nodes[node.id] = node }
        return AccessibilityTree(nodes: nodes, focus: update.focus)
    }

    /// Checks, in debug builds, that the root is present, every child id names a node, every node but the root is
    /// some node's child exactly once and reached from the root, and the focus is a node. O(n).
    @inline(__always)
    func _checkInvariants() {
        #if DEBUG
            precondition(nodes[Self.rootID] != nil, "an accessibility tree without its root")
            var seen: Set<NodeID> = [Self.rootID]
            var stack: [NodeID] = [Self.rootID]
            while let id = stack.popLast() {
                for child in nodes[id]!.children {
                    precondition(nodes[child] != nil, "node \(id) has a child \(child) that is not in the tree")
                    precondition(seen.insert(child).inserted, "node \(child) is reached twice")
                    stack.append(child)
                }
            }
            precondition(seen.count == nodes.count, "\(nodes.count - seen.count) nodes are not reached from the root")
            if let focus { precondition(nodes[focus] != nil, "the focus \(focus) is not a node of the tree") }
        #endif
    }
}

/// What changed in an accessibility tree (AccessKit's `TreeUpdate`, plus the removed ids, which AccessKit leaves a
/// host to infer from the children lists): the nodes that are new or changed, whole; the ids of the nodes that
/// left; and the focus, in every update.
public struct AccessibilityTreeUpdate: Sendable, Hashable {
    /// New and changed nodes, whole, in the new tree's reading order.
    public var nodes: [AccessibilityNode]
    /// The ids of nodes that left the tree, sorted.
    public var removed: [NodeID]
    /// The focused node after the update, if any.
    public var focus: NodeID?

    /// An update of `nodes`, `removed` and `focus`.
    public init(nodes: [AccessibilityNode], removed: [NodeID], focus: NodeID?) {
        self.nodes = nodes
        self.removed = removed
        self.focus = focus
    }
}
