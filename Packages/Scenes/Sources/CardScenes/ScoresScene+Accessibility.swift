import CardEngine
import CardModels

/// The scores as assistive technologies see them: the list a list box of the students in rank order, each an
/// option whose name is its score for the chosen test, opening to its chart; the test a slider stepped by increment
/// and decrement.
extension ScoresScene {
    public func accessibilitySemantics(of layout: [Node]) -> SceneSemantics {
        var semantics = SceneSemantics()
        semantics.nodes["list"] = NodeSemantics(role: .listBox, name: "Students", sizeOfSet: deck.count)
        for (rank, card) in deck.enumerated() {
            let toggle = SceneAction("toggle", ["card": .string(card.id.description)])
            let open = card.id == expanded
            semantics.nodes[Self.cardNode(card.id)] = NodeSemantics(
                role: .listBoxOption, isExpanded: open, positionInSet: rank + 1, sizeOfSet: deck.count,
                actions: [.default: toggle, open ? .collapse : .expand: toggle], takesFocus: true)
        }
        var slider = NodeSemantics(value: "test \(selectedTest) of 10")
        if selectedTest < 10 { slider.actions[.increment] = SceneAction("next") }
        if selectedTest > 1 { slider.actions[.decrement] = SceneAction("previous") }
        semantics.nodes["slider"] = slider
        semantics.focus = focused.map(Self.cardNode)
        return semantics
    }

    public mutating func accessibilityFocus(on node: NodeID, context: inout SceneContext) -> Bool {
        guard let card = deck.first(where: { Self.cardNode($0.id) == node }) else { return false }
        if focused != card.id {
            focused = card.id
            reveal(card.id, in: metrics(in: context.viewport, grid: context.grid))
            context.animation = .smooth
        }
        return true
    }
}
