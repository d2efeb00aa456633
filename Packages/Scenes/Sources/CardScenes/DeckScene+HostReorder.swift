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
        // `applyMove` makes the order the user's (also when the card stays: the default's `replaceDeck` does)
        // and records `.move` for the persisted state.
        applyMove(from: from, to: destination)
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
        guard key != .sortOrder || !manualRankIsPosition || sort != nil || descending else {
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
        let sorted: SortedOrder
        switch key {
        case .title, .sortOrder:
            let sceneSort = DeckSort(key == .title ? .title : .sortOrder, descending: descending)
            sorted = sortedOrder(by: sceneSort.key, descending: descending)
            install(sorted)
            // The scene's own sort gives the same order; an in-place move then makes it the user's order, exactly
            // as a restore will replay it.
            record(.sort(sceneSort), cost: sortCost)
            applyMove(from: 0, to: 0)
        case .id, .color:
            sorted = applyHostSort(by: key, descending: descending)
        }
        focus = slot(of: focusedCard)
        // A sort's sources are a permutation by construction: the diff skips checking that, and the placement
        // counted what the diff's pass over them would.
        sorted.report(to: &context)
    }

    public var deckIDs: [CardID] { currentIDs() }

    public var deckCount: Int { order.count }

    public func deckCards(_ range: Range<Int>) -> [Card] {
        range.map { slot in
            let index = self.card(at: slot)
            var card = base[index]
            // The user's order is the display order, or kept apart.
            if manualRankIsPosition {
                card.sortOrder = slot
            } else if let storedManualRank {
                card.sortOrder = Int(storedManualRank[index])
            }
            return card
        }
    }

    /// What every host reorder does first, as `replaceDeck` does: a drag in progress ends, the sort plan goes.
    private mutating func prepareForHostReorder() {
        if case .reordering = mode { mode = .browsing }
        sortPlan = nil
    }

    /// Sorts by a key the scene does not sort by itself (`id`, `color`: the number 0xRRGGBB), makes the result the
    /// user's order and records it; returns the sorted order (for each new slot, the old slot of its card, and what
    /// the placement counted). The ranks are cached, so a sort costs a counting sort, O(n).
    @discardableResult
    mutating func applyHostSort(by key: DeckSortKey, descending: Bool) -> SortedOrder {
        let keyRanks = key == .id ? idRanks() : hostColorRanks()
        let sorted = sortedOrder(by: keyRanks, descending: descending)
        install(sorted)
        makeOrderTheUsersOrder()
        sort = nil
        record(.hostSort(key, descending: descending), cost: sortCost)
        return sorted
    }

    /// The dense ranks of the card ids (unique, so a permutation): an LSD radix sort of the 64-bit ids
    /// (`DenseRanks(sortedBy:)`), O(n) — generated ids are random 64-bit values, so no order can be assumed. Cached;
    /// `prepareRanks()` computes them when a large deck opens.
    mutating func idRanks() -> DenseRanks {
        if let ranks = keyRanks.id { return ranks }
        let ranks = DenseRanks(sortedBy: ids.map { $0.rawValue }).indexedByRank(ids: ids)
        keyRanks.id = ranks
        return ranks
    }

    /// The dense ranks of the colours as numbers (`DeckSortKey.colorKey`): their few distinct values are ranked,
    /// O(n + d log d). Cached.
    mutating func hostColorRanks() -> DenseRanks {
        if let ranks = keyRanks.hostColor { return ranks }
        let ranks = Self.colorRanks(base) { $0 }.compacted()
        keyRanks.hostColor = ranks
        return ranks
    }
}
