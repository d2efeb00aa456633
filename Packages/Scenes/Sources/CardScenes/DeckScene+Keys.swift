import CardEngine
import CardGestures
import CardModels
import CardPhysics

extension DeckScene {
    /// The order `s` cycles through.
    static let sortCycle: [DeckSort] = [DeckSort(.title), DeckSort(.color), DeckSort(.sortOrder)]
    /// How far `p` pulls the stack open.
    static let keyPull = 160.0

    public mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool {
        // A key takes the column over (a coast stops where it shows); a key the deck does not use changes nothing.
        let coasting = (column, scrollOffset, coastSlots)
        stopCoast(at: context.time, metrics: DeckMetrics(viewport: context.viewport, grid: context.grid))
        guard handleKey(key, context: &context) else {
            (column, scrollOffset, coastSlots) = coasting
            return false
        }
        return true
    }

    mutating func handleKey(_ key: KeyInput, context: inout SceneContext) -> Bool {
        let metrics = DeckMetrics(viewport: context.viewport, grid: context.grid)
        if case .reordering = mode { return false }
        sortPlan = nil
        if case .expanded = mode {
            switch key.key {
            case "escape", "enter", "space":
                collapse(context: &context, metrics: metrics)
                return true
            default:
                return false
            }
        }
        guard count > 0 else { return false }
        switch (key.key, key.shift) {
        case ("up", false), ("backtab", _):
            setFocus(focus - 1, context: &context, metrics: metrics)
        case ("down", false), ("tab", _):
            setFocus(focus + 1, context: &context, metrics: metrics)
        case ("up", true), ("down", true):
            let from = min(focus, count - 1)
            let to = min(max(from + (key.key == "up" ? -1 : 1), 0), count - 1)
            guard to != from else { return false }
            move(from: from, to: to, context: &context)
            reveal(position: to, metrics: metrics)
        case ("enter", _), ("space", _):
            expand(card(at: min(focus, count - 1)), context: &context)
        case ("pageup", _), ("pagedown", _):
            let page = metrics.viewport.height - metrics.contentTop
            scroll(to: scrollOffset + (key.key == "pageup" ? -page : page), context: &context, metrics: metrics)
        case ("home", _):
            scroll(to: 0, context: &context, metrics: metrics)
        case ("end", _):
            scroll(to: metrics.maxOffset(count: count), context: &context, metrics: metrics)
        case ("s", _):
            let next =
                sort.flatMap { current in Self.sortCycle.firstIndex(of: current) }.map {
                    ($0 + 1) % Self.sortCycle.count
                }
                ?? 0
            sortDeck(Self.sortCycle[next], context: &context, metrics: metrics)
        case ("p", _):
            setPull(pull > 0 ? 0 : Self.keyPull, context: &context)
        default:
            return false
        }
        return true
    }

    /// Moves the focus to `target` (clamped) and scrolls it into view.
    mutating func setFocus(_ target: Int, context: inout SceneContext, metrics: DeckMetrics) {
        let clamped = min(max(target, 0), count - 1)
        guard clamped != focus else { return }
        focus = clamped
        reveal(position: clamped, metrics: metrics)
        context.animation = .smooth
        let id = base[card(at: clamped)].id
        context.haptic(.selection, target: Self.node(id), card: id)
    }

    /// Takes a host's reorder (`deck.move`, `deck.sort`): the same cards in another order become the user's order
    /// (sortOrder = position). Content changes are not taken; other cards are refused.
    public mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {
        guard deck.count == count else {
            throw .invalidState("the deck scene reorders its \(count) cards; it was given \(deck.count)")
        }
        var newOrder: [Int32] = []
        newOrder.reserveCapacity(count)
        for card in deck {
            guard let index = cardIndex(of: card.id) else { throw .unknownCard(card.id) }
            newOrder.append(Int32(truncatingIfNeeded: index))
        }
        if case .reordering = mode { mode = .browsing }
        sortPlan = nil
        let focusedCard = count > 0 ? card(at: min(focus, count - 1)) : nil
        // An arbitrary order cannot be logged compactly: a large deck persists it whole from now on.
        order.replace(with: newOrder)
        if let focusedCard { focus = slot(of: focusedCard) }
        context.stateChanged = true
    }
}
