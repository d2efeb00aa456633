import CardModels

/// A host's reorders (`deck.move`, `deck.sort`) without building a `Deck`: the same result as the default
/// implementations (`replaceDeck` of the reordered copy — the new order becomes the user's order, sortOrder =
/// position, any scene sort dropped, the focus follows its card), but a move costs O(|from − to|) in the order and
/// a sort the scene's own counting sort over cached key ranks, and both are recorded as operations so a large
/// deck's persisted state stays incremental. The change report's id list is O(n) (`DeckChange.ids`).
extension DeckScene {
    public mutating func moveCard(_ id: CardID, to destination: Int, context: inout SceneContext) throws(SceneError) {
        guard let card = cardIndex(of: id) else { throw .unknownCard(id) }
        guard (0..<count).contains(destination) else {
            throw .invalidArgument(action: "deck.move", argument: "to", reason: "must be in 0…\(count - 1)")
        }
        let focusedCard = order[min(focus, count - 1)]
        prepareForHostReorder()
        let from = position[card]
        // `applyMove` makes the order the user's (also when the card stays: the default's `replaceDeck` does)
        // and records `.move` for the persisted state.
        applyMove(from: from, to: destination)
        focus = position[focusedCard]
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
        context.stateChanged = true
        guard count > 0 else { return }
        let focusedCard = order[min(focus, count - 1)]
        prepareForHostReorder()
        let keyRanks: DenseRanks
        var sceneSort: DeckSort?
        switch key {
        case .title:
            keyRanks = ranks(for: .title)
            sceneSort = DeckSort(.title, descending: descending)
        case .sortOrder:
            keyRanks = ranks(for: .sortOrder)
            sceneSort = DeckSort(.sortOrder, descending: descending)
        case .id:
            keyRanks = idRanks()
        case .color:
            keyRanks = DenseRanks(count: base.count) { DeckSortKey.colorKey(base[$0].color) }
        }
        let (newOrder, sources) = Self.sorted(order, by: keyRanks, descending: descending)
        setOrder(newOrder)
        focus = position[focusedCard]
        if let sceneSort {
            // The scene's own sort gives the same order; an in-place move then makes it the user's order, exactly
            // as a restore will replay it.
            record(.sort(sceneSort))
            applyMove(from: 0, to: 0)
        } else {
            // Sorting by id or by the colour number is not an operation the persisted state knows: from now on a
            // large deck persists its whole order (as after any `replaceDeck`).
            manualRank = position
            sort = nil
            if count > Self.persistListLimit {
                operations = nil
                journalBroken = true
            }
        }
        // A sort's sources are a permutation by construction, so this cannot throw.
        if let diff = try? ReorderDiff(permutation: sources), !diff.isEmpty {
            context.deckChanged(to: currentIDs(), diff: diff)
        }
    }

    public var deckIDs: [CardID] { currentIDs() }

    public func deckCards(_ range: Range<Int>) -> [Card] {
        range.map { slot in
            var card = base[order[slot]]
            if let manualRank { card.sortOrder = manualRank[order[slot]] }
            return card
        }
    }

    /// What every host reorder does first, as `replaceDeck` does: a drag in progress ends, the sort plan goes.
    private mutating func prepareForHostReorder() {
        if case .reordering = mode { mode = .browsing }
        sortPlan = nil
    }

    /// The dense ranks of the card ids: the identity when the ids ascend with the card index (every generated
    /// deck), O(n); otherwise O(n log n).
    private func idRanks() -> DenseRanks {
        let ascending = ids.withUnsafeBufferPointer { ids in
            ids.indices.dropFirst().allSatisfy { ids[$0 - 1] < ids[$0] }
        }
        if ascending { return DenseRanks(permutation: Array(0..<ids.count)) }
        return DenseRanks(count: ids.count) { ids[$0] }
    }
}
