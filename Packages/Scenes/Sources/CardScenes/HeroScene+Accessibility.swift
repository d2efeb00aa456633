import CardEngine
import CardModels

/// The hero scene as assistive technologies see it: the lines a list of options, each opening its details (a
/// dialog with a close button) by its default action.
extension HeroScene {
    public func accessibilitySemantics(of layout: [Node]) -> SceneSemantics {
        var semantics = SceneSemantics()
        let open = selectedLine != nil
        for (position, card) in deck.enumerated() {
            var line = NodeSemantics(
                role: .listBoxOption, isExpanded: card.id == selectedLine, isDisabled: open,
                positionInSet: position + 1, sizeOfSet: deck.count)
            if !open {
                let action = SceneAction("open", ["line": .string(card.id.description)])
                line.actions = [.default: action, .expand: action]
                line.takesFocus = true
            }
            semantics.nodes[Self.lineNode(card.id)] = line
        }
        if open {
            let close = SceneAction("close")
            semantics.nodes["details"] = NodeSemantics(
                role: .dialog, name: "Details", isExpanded: true, actions: [.collapse: close])
            semantics.nodes["details.close"] = NodeSemantics(actions: [.default: close])
            semantics.focus = "details.close"
        } else {
            semantics.focus = focused.map(Self.lineNode)
        }
        return semantics
    }

    public mutating func accessibilityFocus(on node: NodeID, context: inout SceneContext) -> Bool {
        guard selectedLine == nil, let card = deck.first(where: { Self.lineNode($0.id) == node }) else {
            return false
        }
        focused = card.id
        return true
    }
}
