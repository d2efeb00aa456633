import CardGeometry

extension AccessibilityTree {
    /// The tree of a laid-out scene: its nodes (`layout`, in layout order, which is reading order) read with what
    /// the scene says about them (`semantics`), under a root of role `window` named `name` with the viewport's
    /// bounds.
    ///
    /// Which layout nodes become accessibility nodes: a node the scene describes; else a node whose role means
    /// something to a reader (a card, text, a chip, a button, a slider, a title, a row, or an icon with a label) and
    /// that has a name. A fully transparent node never does, nor a node inside a leaf (a node whose role is not a
    /// container: a card's title and answer are its name, not nodes of their own) unless the scene describes it.
    /// Each node's parent is its nearest ancestor in the tree, else the root. `semantics.additionalNodes` join as
    /// hidden nodes. O(n · depth).
    public static func derive(layout: [Node], semantics: SceneSemantics, viewport: Size, name: String)
        -> AccessibilityTree
    {
        var all = layout
        let hiddenFrom = all.count
        all += semantics.additionalNodes
        var position: [NodeID: Int] = [:]
        position.reserveCapacity(all.count)
        for (index, node) in all.enumerated() where position[node.id] == nil { position[node.id] = index }

        // Per node, in order: its accessibility node (nil: not in the tree). A parent comes before its children in
        // a layout, but not necessarily, so inclusion is decided node by node from the ancestors' own roles.
        var included: [AccessibilityNode?] = Array(repeating: nil, count: all.count)
        for index in all.indices where position[all[index].id] == index {
            let node = all[index]
            let described = semantics.nodes[node.id]
            guard node.opacity > 0, described != nil || isMeaningful(node) else { continue }
            if described == nil, insideLeaf(node, all: all, position: position, semantics: semantics) { continue }
            included[index] = accessibilityNode(node, described: described, hidden: index >= hiddenFrom)
        }

        var nodes: [NodeID: AccessibilityNode] = [:]
        nodes.reserveCapacity(all.count + 1)
        var root = AccessibilityNode(
            id: rootID, role: .window, name: name,
            bounds: Rect(x: 0, y: 0, width: viewport.width, height: viewport.height))
        var children: [NodeID: [NodeID]] = [:]
        for index in all.indices {
            guard let node = included[index] else { continue }
            let parent = nearestIncludedAncestor(all[index], all: all, position: position, included: included)
            if let parent { children[parent, default: []].append(node.id) } else { root.children.append(node.id) }
            nodes[node.id] = node
        }
        for (parent, ids) in children { nodes[parent]?.children = ids }
        nodes[rootID] = root
        let focus = semantics.focus.flatMap { nodes[$0] == nil ? nil : $0 }
        return AccessibilityTree(nodes: nodes, focus: focus)
    }

    /// The role a node has when the scene does not say: a card is an item of a list, a title a heading, text a
    /// label, an icon an image, an overlay a dialog; a background, bar, line or tick a mere group.
    public static func defaultRole(of role: NodeRole) -> AccessibilityRole {
        switch role {
        case .card, .row: .listItem
        case .text, .chip: .label
        case .icon: .image
        case .button: .button
        case .slider: .slider
        case .title: .heading
        case .overlay: .dialog
        case .background, .bar, .sliderThumb, .tick, .hairline: .group
        }
    }

    /// Roles that hold other nodes; a node of any other role is a leaf, whose descendants are part of it.
    static let containerRoles: Set<AccessibilityRole> = [.window, .group, .list, .listBox, .dialog, .scrollView, .grid]

    /// A node that is in the tree without the scene describing it: a meaningful role and a name.
    static func isMeaningful(_ node: Node) -> Bool {
        switch node.role {
        case .card, .text, .chip, .button, .slider, .title, .row: name(of: node) != nil
        case .icon: node.accessibilityLabel?.isEmpty == false
        case .background, .bar, .sliderThumb, .tick, .hairline, .overlay: false
        }
    }

    /// The node's label, else its text (runs joined as `FrameNode.plainText` joins them); nil when empty or for an
    /// icon without a label (its text is a symbol's name).
    static func name(of node: Node) -> String? {
        if let label = node.accessibilityLabel { return label.isEmpty ? nil : label }
        guard node.role != .icon else { return nil }
        var text = ""
        for run in node.text {
            if !text.isEmpty && text.last?.isWhitespace != true { text += " " }
            text += run.text
        }
        return text.isEmpty ? nil : text
    }

    /// Whether an ancestor of `node` is a leaf of the tree (a meaningful or described node whose role is not a
    /// container), so that `node` is part of it.
    static func insideLeaf(_ node: Node, all: [Node], position: [NodeID: Int], semantics: SceneSemantics) -> Bool {
        var cursor = node.parent
        var steps = 0
        while let id = cursor, let index = position[id], steps < all.count {
            let ancestor = all[index]
            let described = semantics.nodes[id]
            if described != nil || isMeaningful(ancestor) {
                let role = described?.role ?? defaultRole(of: ancestor.role)
                if !containerRoles.contains(role) { return true }
            }
            cursor = ancestor.parent
            steps += 1
        }
        return false
    }

    /// The id of the nearest ancestor of `node` that is in the tree, if any.
    static func nearestIncludedAncestor(
        _ node: Node, all: [Node], position: [NodeID: Int], included: [AccessibilityNode?]
    ) -> NodeID? {
        var cursor = node.parent
        var steps = 0
        while let id = cursor, let index = position[id], steps < all.count {
            if included[index] != nil { return id }
            cursor = all[index].parent
            steps += 1
        }
        return nil
    }

    /// The accessibility node for a layout node, with what the scene says about it.
    static func accessibilityNode(_ node: Node, described: NodeSemantics?, hidden: Bool) -> AccessibilityNode {
        var result = AccessibilityNode(
            id: node.id, role: described?.role ?? defaultRole(of: node.role),
            name: described?.name ?? name(of: node), isHidden: hidden, bounds: node.rect)
        guard let described else { return result }
        result.value = described.value
        result.stateDescription = described.stateDescription
        result.isSelected = described.isSelected
        result.isExpanded = described.isExpanded
        result.isDisabled = described.isDisabled
        result.positionInSet = described.positionInSet
        result.sizeOfSet = described.sizeOfSet
        var actions = Set(described.actions.keys)
        actions.remove(.customAction)
        actions.remove(.focus)
        if described.takesFocus { actions.insert(.focus) }
        if !described.customActions.isEmpty { actions.insert(.customAction) }
        result.actions = actions.sorted()
        result.customActions = described.customActions.enumerated().map {
            AccessibilityCustomAction(id: $0.offset, description: $0.element.description)
        }
        return result
    }
}
