import CardEngine
import CardGeometry
import CardModels

/// The deck as assistive technologies see it: the column is a list box of every card (its size is the deck's, a
/// million for a million cards, while the tree holds the cards in view); each card an option with its place,
/// "expand" as its default action and the moves as custom actions; the expanded card a dialog that collapses (the
/// cards behind it, or behind a card held for a reorder, take no action until it closes). While browsing, the
/// column scrolls and fans by its own custom actions: "scroll up", "scroll down", "scroll to top", "scroll to bottom"
/// (the keys page up, page down, home and end, pressed) and "open the fan" or "close the fan" (`pull` to the
/// distance `p` pulls, or to 0).
extension DeckScene {
    public func accessibilitySemantics(of layout: [Node]) -> SceneSemantics {
        var semantics = SceneSemantics()
        semantics.nodes["column"] = NodeSemantics(
            role: .listBox, name: "Cards", sizeOfSet: count, customActions: columnActions())
        let expanded = expandedCard
        var focusedInView = false
        let focusedCard = count > 0 ? base[card(at: min(focus, count - 1))].id : nil
        for node in layout where node.role == .card {
            guard let id = node.card else { continue }
            if node.id == Self.detailNode(id) {
                semantics.nodes[node.id] = NodeSemantics(
                    role: .dialog, isExpanded: true,
                    actions: [.default: SceneAction("collapse"), .collapse: SceneAction("collapse")])
                semantics.focus = node.id
            } else if let index = cardIndex(of: id) {
                semantics.nodes[node.id] = cardSemantics(id, slot: slot(of: index), expanded: expanded == id)
                if id == focusedCard { focusedInView = true }
            }
        }
        guard let focusedCard, expanded == nil else { return semantics }
        semantics.focus = Self.node(focusedCard)
        if !focusedInView, let index = cardIndex(of: focusedCard) {
            // The focused card scrolled out of view: it stays in the tree, hidden, just outside the column on its
            // side, so that the focus always names a node.
            let column = layout.first { $0.id == "column" }?.rect ?? Rect(x: 0, y: 0, width: 0, height: 0)
            let visible = layout.first { $0.role == .card && $0.parent == "column" }
            let firstSlot = visible?.card.flatMap(cardIndex(of:)).map(slot(of:)) ?? 0
            let height = visible?.rect.height ?? 0
            let above = slot(of: index) < firstSlot
            let rect = Rect(
                x: visible?.rect.minX ?? column.minX, y: above ? column.minY - height : column.maxY,
                width: visible?.rect.width ?? column.width, height: height)
            semantics.additionalNodes.append(cardNode(index, rect: rect, z: 0))
            semantics.nodes[Self.node(focusedCard)] = cardSemantics(
                focusedCard, slot: slot(of: index), expanded: false)
        }
        return semantics
    }

    /// The column's own actions while browsing a deck that has cards: the scroll keys, and the fan.
    func columnActions() -> [CustomSemanticAction] {
        guard case .browsing = mode, count > 0 else { return [] }
        return [
            CustomSemanticAction("scroll up", .key("pageup")),
            CustomSemanticAction("scroll down", .key("pagedown")),
            CustomSemanticAction("scroll to top", .key("home")),
            CustomSemanticAction("scroll to bottom", .key("end")),
            pull > 0
                ? CustomSemanticAction("close the fan", SceneAction("pull", ["distance": .number(0)]))
                : CustomSemanticAction("open the fan", SceneAction("pull", ["distance": .number(Self.keyPull)])),
        ]
    }

    /// A card of the column: an option at its place, expanded or not, with its actions.
    func cardSemantics(_ id: CardID, slot: Int, expanded: Bool) -> NodeSemantics {
        guard case .browsing = mode else {
            // Behind the expanded card, or while a card is held: shown, but nothing to do with them now.
            return NodeSemantics(
                role: .listBoxOption, isExpanded: expanded, isDisabled: true, positionInSet: slot + 1, sizeOfSet: count)
        }
        var customs: [CustomSemanticAction] = []
        let card = ActionValue.string(id.description)
        if slot > 0 {
            customs.append(
                CustomSemanticAction("move up", SceneAction("move", ["card": card, "to": .number(Double(slot - 1))])))
        }
        if slot < count - 1 {
            customs.append(
                CustomSemanticAction("move down", SceneAction("move", ["card": card, "to": .number(Double(slot + 1))])))
        }
        if slot > 0 {
            customs.append(CustomSemanticAction("move to top", SceneAction("move", ["card": card, "to": .number(0)])))
        }
        if slot < count - 1 {
            customs.append(
                CustomSemanticAction(
                    "move to bottom", SceneAction("move", ["card": card, "to": .number(Double(count - 1))])))
        }
        let expand = SceneAction("expand", ["card": card])
        return NodeSemantics(
            role: .listBoxOption, isExpanded: expanded, positionInSet: slot + 1, sizeOfSet: count,
            actions: [.default: expand, .expand: expand], takesFocus: true, customActions: customs)
    }

    public mutating func accessibilityFocus(on node: NodeID, context: inout SceneContext) -> Bool {
        guard node.rawValue.hasPrefix("card."), let id = CardID.canonical(String(node.rawValue.dropFirst(5))),
            let index = cardIndex(of: id), expandedCard == nil
        else { return false }
        if case .reordering = mode { return false }
        setFocus(
            slot(of: index), context: &context, metrics: DeckMetrics(viewport: context.viewport, grid: context.grid))
        return true
    }
}
