import CardEngine
import CardGestures
import CardModels

/// The scores as assistive technologies see them: the list a list box of the students in rank order, each an
/// option whose name is its score for the chosen test, opening to its chart; the test a slider stepped by increment
/// and decrement. A list taller than its room scrolls by its custom actions "scroll up", "scroll down", "scroll to
/// top" and "scroll to bottom" (the keys page up, page down, home and end, pressed), each offered where it moves it.
extension ScoresScene {
    public func accessibilitySemantics(of layout: [Node]) -> SceneSemantics {
        var semantics = SceneSemantics()
        semantics.nodes["list"] = NodeSemantics(
            role: .listBox, name: "Students", sizeOfSet: deck.count,
            customActions: listActions(layout.first { $0.id == "list" }))
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

    /// The list's own scroll actions, each only where it moves the list (its place and range as the layout gave them
    /// to the list's scroll gesture): "scroll up" and "scroll to top" (the keys page up and home) when it is
    /// scrolled down, "scroll down" and "scroll to bottom" (page down and end) when more lies below. O(1).
    func listActions(_ list: Node?) -> [CustomSemanticAction] {
        guard let list,
            case .scroll(let scroll) = list.gestures.first(where: { $0.name == "scroll" })?.gesture
        else { return [] }
        var actions: [CustomSemanticAction] = []
        if scroll.contentOffset > scroll.offsetRange.lowerBound {
            actions += [
                CustomSemanticAction("scroll up", .key("pageup")), CustomSemanticAction("scroll to top", .key("home")),
            ]
        }
        if scroll.contentOffset < scroll.offsetRange.upperBound {
            actions += [
                CustomSemanticAction("scroll down", .key("pagedown")),
                CustomSemanticAction("scroll to bottom", .key("end")),
            ]
        }
        return actions
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
