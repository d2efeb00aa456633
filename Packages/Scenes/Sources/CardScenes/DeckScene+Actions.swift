import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics

extension DeckScene {
    public mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        // An action takes the column over (a coast stops where it shows); a refused one changes nothing.
        let coasting = (column, scrollOffset, coastSlots)
        stopCoast(at: context.time, metrics: DeckMetrics(viewport: context.viewport, grid: context.grid))
        do {
            try performAction(action, context: &context)
        } catch {
            (column, scrollOffset, coastSlots) = coasting
            throw error
        }
    }

    mutating func performAction(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        let metrics = DeckMetrics(viewport: context.viewport, grid: context.grid)
        switch action.name {
        case "expand":
            let card = try cardArgument(of: action)
            try requireNotReordering(action.name)
            sortPlan = nil
            if case .expanded = mode { mode = .browsing }
            reveal(position: slot(of: card), metrics: metrics)
            expand(card, context: &context)
        case "collapse":
            guard case .expanded = mode else { throw .invalidState("no card is expanded") }
            sortPlan = nil
            collapse(context: &context, metrics: metrics)
        case "move":
            let card = try cardArgument(of: action)
            let destination = try action.int("to")
            guard (0..<count).contains(destination) else {
                throw .invalidArgument(action: "move", argument: "to", reason: "must be 0…\(count - 1)")
            }
            try requireNotReordering(action.name)
            sortPlan = nil
            move(from: slot(of: card), to: destination, context: &context)
            reveal(position: destination, metrics: metrics)
        case "scroll":
            let hasTo = action.has("to")
            guard hasTo != action.has("by") else {
                throw .invalidArgument(action: "scroll", argument: "to", reason: "give exactly one of 'to' and 'by'")
            }
            let target = hasTo ? try action.double("to") : scrollOffset + (try action.double("by"))
            try requireBrowsing(action.name)
            sortPlan = nil
            scroll(to: target, context: &context, metrics: metrics)
        case "pull":
            let distance = try action.double("distance")
            guard distance >= 0, distance <= 10_000 else {
                throw .invalidArgument(action: "pull", argument: "distance", reason: "must be 0…10000")
            }
            try requireBrowsing(action.name)
            sortPlan = nil
            setPull(distance, context: &context)
        case "sort":
            guard let key = DeckSort.Key(rawValue: try action.string("by")) else {
                throw .invalidArgument(action: "sort", argument: "by", reason: "must be title, color or sortOrder")
            }
            var descending = false
            if action.has("order") {
                switch try action.string("order") {
                case "ascending": descending = false
                case "descending": descending = true
                default:
                    throw .invalidArgument(action: "sort", argument: "order", reason: "must be ascending or descending")
                }
            }
            try requireNotReordering(action.name)
            sortDeck(DeckSort(key, descending: descending), context: &context, metrics: metrics)
        default:
            throw .unknownAction(action.name)
        }
    }

    /// The card index an action's `card` argument names.
    func cardArgument(of action: SceneAction) throws(SceneError) -> Int {
        let id = try action.card()
        guard let card = cardIndex(of: id) else { throw .unknownCard(id) }
        return card
    }

    func requireNotReordering(_ action: String) throws(SceneError) {
        if case .reordering = mode { throw .invalidState("\(action): a card is being dragged") }
    }

    func requireBrowsing(_ action: String) throws(SceneError) {
        guard case .browsing = mode else { throw .invalidState("\(action): close the card or finish the drag first") }
    }

    // MARK: Changes shared by actions, keys and gestures

    /// Moves the card at `from` to `to`, reports the one-move diff and persists the order.
    mutating func move(from: Int, to: Int, context: inout SceneContext, haptic: HapticEvent.Style = .selection) {
        guard from != to, (0..<count).contains(from), (0..<count).contains(to) else { return }
        let card = card(at: from)
        order.move(from: from, to: to)
        focus = to
        context.animation = context.animation ?? .spring
        context.deckChanged(
            to: currentIDs(),
            diff: ReorderDiff(
                oldCount: count, newCount: count, removals: [], insertions: [],
                moves: [ReorderDiff.Move(from: from, to: to)]))
        context.stateChanged = true
        context.haptic(haptic, target: Self.node(base[card].id), card: base[card].id)
    }

    /// The card ids in display order: `DeckOrder.displayIDs`, shared, not gathered. O(1).
    func currentIDs() -> [CardID] { order.displayIDs }

    /// Scrolls to `target` (clamped) with `.smooth`; reaching the top from a screen or more away bounces.
    mutating func scroll(to target: Double, context: inout SceneContext, metrics: DeckMetrics) {
        let clamped = min(max(target, 0), metrics.maxOffset(count: count))
        let wasFar = scrollOffset >= metrics.viewport.height
        guard clamped != scrollOffset else { return }
        scrollOffset = clamped
        context.animation = .smooth
        if clamped == 0, wasFar { bounce(context: &context, metrics: metrics) }
    }

    /// Pulls the stack open by `distance` (0 closes it) with `.spring`.
    mutating func setPull(_ distance: Double, context: inout SceneContext) {
        guard distance != pull else { return }
        if pull < Self.fanHapticPull, distance >= Self.fanHapticPull { context.haptic(.light, target: "column") }
        if distance == 0 { context.haptic(.soft, target: "column") }
        pull = distance
        context.animation = .spring
    }

    /// Sorts the whole deck (stable) and animates the window: cards in view before and after move to their new
    /// places; cards entering the view slide in from the side of their old place, cards leaving slide towards
    /// their new one. O(n) plus the diff; the plan is O(visible).
    mutating func sortDeck(_ sort: DeckSort, context: inout SceneContext, metrics: DeckMetrics) {
        let oldOrder = order.slots
        let sorted = order.sortedOrder(by: sort.orderSort.key, descending: sort.descending)
        let newOrder = sorted.order
        let window = metrics.visibleSlots(count: count, scroll: scrollOffset, pull: pull)
        let height = metrics.viewport.height
        let pitch = metrics.pitch(pull: pull)
        // Cards entering the window come from their old place (read before `install` changes the positions).
        var oldVisible: [Int: Int] = [:]
        for slot in window { oldVisible[Int(oldOrder[slot])] = slot }
        var entering: [Int: Double] = [:]
        for slot in window where oldVisible[Int(newOrder[slot])] == nil {
            let card = Int(newOrder[slot])
            entering[card] = min(max(Double(self.slot(of: card) - slot) * pitch, -height), height)
        }
        let focusedCard = count > 0 ? card(at: min(focus, count - 1)) : nil
        order.install(sorted, sortedBy: sort.orderSort)
        if let focusedCard { focus = slot(of: focusedCard) }
        // Cards leaving the window slide towards their new place.
        for (card, oldSlot) in oldVisible where !window.contains(slot(of: card)) {
            let offset = min(max(Double(slot(of: card) - oldSlot) * pitch, -height), height)
            context.removalTransitions[Self.node(base[card].id)] = .offset(Vector(dx: 0, dy: offset))
        }
        if case .expanded(let card, _) = mode { entering[card] = nil }
        sortPlan = SortPlan(entering: entering)
        context.animation = .smooth
        sorted.report(to: &context)
        context.stateChanged = true
        context.haptic(.success, target: "column")
    }
}
