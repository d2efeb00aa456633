import CardEngine
import CardModels

/// The wallet as assistive technologies see it: the stack a list box of the payment cards, front first; a card is
/// chosen (selected, and expanded: its history shows) by its default action, and moved up or down the stack by custom
/// actions while none is chosen; the chosen card's history is a scroll view that scrolls by custom actions (the keys
/// ←, →, home and end, pressed).
extension WalletScene {
    /// The history's custom actions: its scroll keys.
    static let historyActions = [
        CustomSemanticAction("scroll history back", .key("left")),
        CustomSemanticAction("scroll history forward", .key("right")),
        CustomSemanticAction("scroll history to start", .key("home")),
        CustomSemanticAction("scroll history to end", .key("end")),
    ]

    public func accessibilitySemantics(of layout: [Node]) -> SceneSemantics {
        var semantics = SceneSemantics()
        let ids = deck.ids
        for (index, id) in ids.enumerated() {
            let card = ActionValue.string(id.description)
            var described = NodeSemantics(
                role: .listBoxOption, isSelected: id == selected, isExpanded: id == selected,
                positionInSet: index + 1, sizeOfSet: ids.count, takesFocus: true)
            if id == selected {
                described.actions = [.default: SceneAction("deselect"), .collapse: SceneAction("deselect")]
            } else {
                let select = SceneAction("select", ["card": card])
                described.actions = [.default: select, .expand: select]
            }
            if selected == nil {
                if index + 1 < ids.count {
                    described.customActions.append(
                        CustomSemanticAction(
                            "move up", SceneAction("move", ["card": card, "to": .number(Double(index + 1))])))
                }
                if index > 0 {
                    described.customActions.append(
                        CustomSemanticAction(
                            "move down", SceneAction("move", ["card": card, "to": .number(Double(index - 1))])))
                }
            }
            semantics.nodes[Self.node(id)] = described
        }
        if layout.contains(where: { $0.id == "history.scroll" }) {
            semantics.nodes["history.scroll"] = NodeSemantics(
                role: .scrollView, customActions: Self.historyActions)
        }
        semantics.focus = (focused ?? selected).map(Self.node)
        return semantics
    }

    public mutating func accessibilityFocus(on node: NodeID, context: inout SceneContext) -> Bool {
        guard let id = deck.ids.first(where: { Self.node($0) == node }) else { return false }
        focused = id
        return true
    }
}
