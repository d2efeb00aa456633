import CardEngine
import CardModels

/// A host's reorders (`deck.move`, `deck.sort`) without building a `Deck`: the same result as the default
/// implementations (`replaceDeck` of the reordered copy — the new order becomes the user's order, sortOrder =
/// position, any scene sort dropped, the focus follows its card), but a move costs O(|from − to|) in the order and
/// a sort the scene's own counting sort over cached key ranks, and both are recorded as operations so a large
/// deck's persisted state stays incremental. The change report's id list (`DeckChange.ids`) is the scene's own
/// `displayIDs`, shared, not gathered: O(1); a sort's report carries its sources (`DeckChange.sources`), so the
/// wire sends them without rebuilding them from the moves.
extension DeckScene {
    public mutating func moveCard(_ id: CardID, to destination: Int, context: inout SceneContext) throws(SceneError) {
        guard let card = cardIndex(of: id) else { throw .unknownCard(id) }
        guard (0..<count).contains(destination) else {
            throw .invalidArgument(action: "deck.move", argument: "to", reason: "must be in 0…\(count - 1)")
        }
        let focusedCard = self.card(at: min(focus, count - 1))
        prepareForHostReorder()
        let from = slot(of: card)
        // The move makes the order the user's (also when the card stays: the default's `replaceDeck` does) and
        // records it for the persisted state.
        order.move(from: from, to: destination)
        focus = slot(of: focusedCard)
        context.stateChanged = true
        guard from != destination else { return }
        context.deckChanged(
            to: currentIDs(),
            diff: ReorderDiff(
                oldCount: count, newCount: count, removals: [], insertions: [],
                moves: [ReorderDiff.Move(from: from, to: destination)]))
    }

    public mutating func sortDeck(by key: DeckSortKey, descending: Bool, context: inout SceneContext)
        throws(SceneError)
    {
        guard key != .sortOrder || !order.manualRankIsPosition || order.sort != nil || descending else {
            // The user's order is the display order (a move or a host sort made it so): sorting by it ascending
            // changes nothing, and costs nothing (no pass, no journal record, no state to save). Only a drag in
            // progress ends, as with any host reorder.
            prepareForHostReorder()
            return
        }
        context.stateChanged = true
        guard count > 0 else { return }
        let focusedCard = card(at: min(focus, count - 1))
        prepareForHostReorder()
        // By title or the user's order the scene's own sort gives the same order, recorded as that sort and an
        // in-place move that makes it the user's order, exactly as a restore will replay it.
        let orderKey: DeckOrder.Key =
            switch key {
            case .title: .title
            case .sortOrder: .sortOrder
            case .id: .id
            case .color: .colorNumber
            }
        let sorted = order.hostSort(by: orderKey, descending: descending)
        focus = slot(of: focusedCard)
        // A sort's sources are a permutation by construction: the diff skips checking that, and the placement
        // counted what the diff's pass over them would.
        sorted.report(to: &context)
    }

    public var deckIDs: [CardID] { currentIDs() }

    public var deckCount: Int { count }

    public func deckCards(_ range: Range<Int>) -> [Card] {
        range.map { slot in
            var card = base[self.card(at: slot)]
            // The user's order is the display order, or kept apart.
            if let rank = order.manualRank(ofCardAt: slot) { card.sortOrder = rank }
            return card
        }
    }

    /// What every host reorder does first, as `replaceDeck` does: a drag in progress ends, the sort plan goes.
    private mutating func prepareForHostReorder() {
        if case .reordering = mode { mode = .browsing }
        sortPlan = nil
    }
}

extension DeckOrder.SortedOrder {
    /// Reports the change (`diff`) to `context` with its sources and, when known, its checksum. Nothing when the
    /// order did not change.
    func report(to context: inout SceneContext) {
        let diff = diff
        guard !diff.isEmpty else { return }
        context.deckChanged(to: displayIDs, diff: diff, sources: sources, checksum: checksum)
    }
}
