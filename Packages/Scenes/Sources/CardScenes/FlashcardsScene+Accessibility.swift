import CardEngine
import CardModels

/// The flashcards as assistive technologies see them: each card an item of the stack, counted from the top ("card
/// 1 of 10" is the one to answer); the top card has the focus, opens to show its answer (expanded) and is
/// dismissed to either side; the cards under it are shown but take no action. An empty stack focuses its restart
/// button.
extension FlashcardsScene {
    public func accessibilitySemantics(of layout: [Node]) -> SceneSemantics {
        var semantics = SceneSemantics()
        let count = deck.count
        for (position, card) in deck.enumerated() {
            let id = card.id
            let shown = revealed.contains(id)
            var described = NodeSemantics(
                role: .listItem, stateDescription: shown ? "answer shown" : "answer hidden", isExpanded: shown,
                positionInSet: count - position, sizeOfSet: count)
            if position == count - 1 {
                let reveal = SceneAction("reveal", ["card": .string(id.description)])
                described.actions = [.default: reveal, shown ? .collapse : .expand: reveal]
                described.customActions = [
                    CustomSemanticAction(shown ? "hide answer" : "reveal answer", reveal),
                    CustomSemanticAction(
                        "dismiss left",
                        SceneAction("swipe", ["card": .string(id.description), "direction": .string("left")])),
                    CustomSemanticAction(
                        "dismiss right",
                        SceneAction("swipe", ["card": .string(id.description), "direction": .string("right")])),
                ]
                described.takesFocus = true
                semantics.focus = Self.node(id)
            } else {
                described.isDisabled = true
            }
            semantics.nodes[Self.node(id)] = described
        }
        if deck.isEmpty {
            semantics.nodes["restart"] = NodeSemantics(
                actions: [.default: SceneAction("restart")], takesFocus: true)
            semantics.focus = "restart"
        }
        return semantics
    }

    public mutating func accessibilityFocus(on node: NodeID, context: inout SceneContext) -> Bool {
        // Only the top card (or the restart button) takes the focus, and it has it already.
        node == (deck.last.map { Self.node($0.id) } ?? "restart")
    }
}
