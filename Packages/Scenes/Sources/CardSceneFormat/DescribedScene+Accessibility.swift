import CardEngine
import CardGeometry
import CardModels

/// A described scene as assistive technologies see it: each card's and node's `accessibility` (roles, states,
/// positions, actions) evaluated with the values its layout read; the focus is the first card, else the first
/// node, whose `focus` holds. A description without `accessibility` gets the engine's defaults, as before.
extension DescribedScene {
    /// The semantics of the cards and nodes whose description has `accessibility`; none without it. O(cards ×
    /// expression size).
    public func accessibilitySemantics(of layout: [Node]) -> SceneSemantics {
        var semantics = SceneSemantics()
        let description = self.description
        guard description.card.accessibility != nil || description.nodes.contains(where: { $0.accessibility != nil })
        else { return semantics }
        let viewport = layout.first { $0.id == "background" }?.rect.size ?? Size(width: 0, height: 0)
        if let spec = description.card.accessibility {
            place(viewport: viewport) { _, card, placement, values in
                let id = node(card.id, layout: placement.layout)
                let (node, focus) = self.semantics(spec, card: card, values: values)
                semantics.nodes[id] = node
                if focus, semantics.focus == nil { semantics.focus = id }
            }
        }
        let base = baseValues(viewport: viewport)
        for fixed in description.nodes where Self.holds(fixed.when, base) {
            guard let spec = fixed.accessibility else { continue }
            let (node, focus) = self.semantics(spec, card: nil, values: base)
            semantics.nodes[NodeID(fixed.name)] = node
            if focus, semantics.focus == nil { semantics.focus = NodeID(fixed.name) }
        }
        return semantics
    }

    /// A node's semantics under `spec`, and whether it takes the focus.
    func semantics(_ spec: SceneDescription.AccessibilitySpec, card: Card?, values: [UInt64]) -> (NodeSemantics, Bool) {
        func number(_ expression: Expression?) -> Int? {
            expression.map { expression in Int(values.withUnsafeBufferPointer { expression.number($0) }.rounded()) }
        }
        let focus = spec.focus.map { Self.holds($0, values) } ?? false
        var node = NodeSemantics(
            role: spec.role,
            stateDescription: Self.text(spec.stateDescription, card: card, count: deck.count, values: values),
            isExpanded: spec.expanded.map { Self.holds($0, values) },
            isDisabled: spec.disabled.map { Self.holds($0, values) } ?? false,
            positionInSet: number(spec.positionInSet),
            sizeOfSet: number(spec.sizeOfSet), takesFocus: focus)
        for item in spec.actions where Self.holds(item.when, values) {
            var arguments = item.arguments
            let takesCard = description.actions.first { $0.info.name == item.action }?.info.argument("card") != nil
            if takesCard, let card { arguments["card"] = .string(card.id.description) }
            let action = SceneAction(item.action, arguments)
            switch item.kind {
            case .standard(let kind): node.actions[kind] = action
            case .custom(let name): node.customActions.append(CustomSemanticAction(name, action))
            }
        }
        return (node, focus)
    }

    /// Whether `node` is where the description puts the focus (moving it elsewhere is not the scene's to allow).
    public mutating func accessibilityFocus(on node: NodeID, context: inout SceneContext) -> Bool {
        // The focus is where the description puts it; a request for it there is already met.
        guard description.card.accessibility != nil || description.nodes.contains(where: { $0.accessibility != nil })
        else { return false }
        let layout = [
            Node(
                id: "background", role: .background,
                rect: Rect(x: 0, y: 0, width: context.viewport.width, height: context.viewport.height))
        ]
        return accessibilitySemantics(of: layout).focus == node
    }
}
