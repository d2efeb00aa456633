extension DeckOrder {
    /// One change of the order, as a large deck's saved state records it and a restore replays it.
    public enum Record: Sendable, Hashable {
        /// A scene's sort (`install(_:sortedBy:)`), shown on top of the user's order.
        case sort(Sort)
        /// The card with this id moved to this slot (`move(from:to:)`).
        case move(CardID, to: Int)
        /// A host's sort by `id` or `colorNumber` (`hostSort(by:descending:)`): the result becomes the user's order.
        case hostSort(Key, descending: Bool)

        /// Whether replaying it costs a sort (O(n)), which the journal's compaction counts.
        public var isSort: Bool {
            switch self {
            case .sort, .hostSort: true
            case .move: false
            }
        }
    }

    /// The most records kept as the operations since the initial order; beyond, the saved state is the whole order.
    public static let operationsLimit = 1_000
    /// The most replay work the operations, or the journal since its snapshot, may hold, in card steps per card of
    /// the deck (`record(_:cost:)`: a sort 2n, a move the distance it shifts cards): replaying costs about 1.2 ns a
    /// step, so each list replays in at most about 0.25 s for a million cards. Beyond, the whole order is saved.
    public static let replayCostLimit = 200
    /// Journal records (and sorts among them) handed out since the last snapshot beyond which the next save is a
    /// snapshot, so that reopening replays little: a sort of a million cards replays in about 8 ms.
    static let journalCompaction = 1024
    static let journalSortCompaction = 4
    /// The most replay work the journal since its snapshot may hold, in card steps per card (as `replayCostLimit`):
    /// about 30 ms for a million cards at 1.2 ns a step, so that a reopening can stay within 150 ms (issue 48).
    /// Random moves of a million cards (a third of the deck apart on average) reach it every 70 moves or so; the
    /// snapshot the next save then writes is 5.3 MB, on the saver's thread.
    static let journalReplayCostLimit = 24

    /// What a large deck's saved state needs besides the order.
    struct Journal: Sendable {
        /// The records since the initial order, for a saved state that replays them (nil once too many or too costly).
        var operations: [Record]? = []
        /// Their replay cost (`replayCostLimit`).
        var operationsCost = 0
        /// The records not yet handed to the saver (`takeJournal()`), and their replay cost.
        var pending: [Record] = []
        var pendingCost = 0
        /// Set by a change no record expresses (an arbitrary order): the next save is a snapshot.
        var broken = false
        /// The records, sorts and replay cost handed out since the last snapshot.
        var sinceSnapshot = 0
        var sortsSinceSnapshot = 0
        var costSinceSnapshot = 0

        /// After a change no record expresses: the operations are dropped and the next save is a snapshot.
        mutating func breakRecords() {
            operations = nil
            broken = true
        }
    }

    /// The records since the initial order, for a large deck's saved state; nil once too many or too costly to
    /// replay (or after a change no record expresses): then the saved state is the whole order.
    public var operations: [Record]? { journal.operations }

    /// Notes a record for a large deck's saved state, with the work replaying it costs (card steps: a sort 2n, a
    /// move the distance it shifts cards), dropping the operations once too many or too costly. O(1) amortised.
    mutating func record(_ record: Record, cost: Int) {
        guard count > Self.largeCount else { return }
        journal.pending.append(record)
        journal.pendingCost += cost
        guard journal.operations != nil else { return }
        journal.operations?.append(record)
        journal.operationsCost += cost
        if (journal.operations?.count ?? 0) > Self.operationsLimit
            || journal.operationsCost > Self.replayCostLimit * count
        {
            journal.operations = nil
        }
    }

    /// The replay cost of a sort (`record(_:cost:)`).
    var sortCost: Int { 2 * count }

    /// The records made since the last call, for the saver's journal, or nil when the next save must be a snapshot:
    /// a deck of at most `largeCount` cards, a change no record expresses, no records, or every
    /// `journalCompaction`-th record, `journalSortCompaction`-th sort or `journalReplayCostLimit` of replay work since the
    /// last snapshot (the journal is then compacted). O(records).
    public mutating func takeJournal() -> [Record]? {
        defer {
            journal.pending.removeAll()
            journal.pendingCost = 0
            journal.broken = false
        }
        let sorts = journal.pending.count(where: \.isSort)
        guard count > Self.largeCount, !journal.broken, !journal.pending.isEmpty,
            journal.sinceSnapshot + journal.pending.count <= Self.journalCompaction,
            journal.sortsSinceSnapshot + sorts <= Self.journalSortCompaction,
            journal.costSinceSnapshot + journal.pendingCost <= Self.journalReplayCostLimit * count
        else {
            journal.sinceSnapshot = 0
            journal.sortsSinceSnapshot = 0
            journal.costSinceSnapshot = 0
            return nil
        }
        journal.sinceSnapshot += journal.pending.count
        journal.sortsSinceSnapshot += sorts
        journal.costSinceSnapshot += journal.pendingCost
        return journal.pending
    }

    /// Whether the user's order is kept apart from the display order and differs from it (a saved whole order then
    /// saves the user's order too). O(1), or O(n) with moves pending.
    public var keepsUsersOrderApart: Bool {
        guard !manualRankIsPosition, let storedManualRank else { return false }
        return storedManualRank != settledPositions()
    }

    /// The user's order of a saved state.
    public enum UsersOrder: Sendable, Hashable {
        /// The sortOrders the cards were given.
        case given
        /// The display order (after a move or a host sort).
        case display
        /// Its ranks: card index → sortOrder.
        case ranks([Int32])
    }

    /// Restores a saved whole order: `order` (slot → card index, a permutation), the user's order and the sort.
    /// The records start afresh and the operations are dropped (the saved state stays a whole order). O(n).
    public mutating func restore(order: [Int32], usersOrder: UsersOrder, sort: Sort?) {
        setOrder(order)
        switch usersOrder {
        case .given: setManualRank(nil)
        case .display: makeOrderTheUsersOrder()
        case .ranks(let ranks): setManualRank(ranks)
        }
        self.sort = sort
        journal = Journal(operations: nil)
        dropKeptUsersOrder()
        _checkInvariants()
    }

    /// Restores a saved list of operations: the initial order with `records` replayed on it, as when they were
    /// made. Throws, leaving the order partly replayed, when a record moves an unknown card or to a slot outside the
    /// deck. O(n + the records' replay cost).
    public mutating func restore(replaying records: [Record]) throws(ModelError) {
        setOrder((0..<count).map { Int32(truncatingIfNeeded: $0) })
        setManualRank(nil)
        sort = nil
        journal = Journal()
        for record in records { try apply(record) }
        journal.pending = []
        journal.pendingCost = 0
        dropKeptUsersOrder()
    }

    /// Replays the journal's records on a restored order. The records replayed stay in the journal on disk: they
    /// count towards its next compaction. Throws, leaving the order partly replayed, as `restore(replaying:)`.
    public mutating func replayJournal(_ records: [Record]) throws(ModelError) {
        for record in records { try apply(record) }
        journal.sinceSnapshot += journal.pending.count
        journal.sortsSinceSnapshot += journal.pending.count(where: \.isSort)
        journal.costSinceSnapshot += journal.pendingCost
        journal.pending = []
        journal.pendingCost = 0
        dropKeptUsersOrder()
    }

    /// Applies a record as when it was made (and records it again).
    mutating func apply(_ record: Record) throws(ModelError) {
        switch record {
        case .sort(let sort):
            apply(sort)
        case .move(let id, let to):
            guard let card = cardIndex(of: id) else { throw .unknownID(id) }
            guard (0..<count).contains(to) else { throw .indexOutOfRange(index: to, limit: count) }
            move(from: slot(of: card), to: to)
        case .hostSort(let key, let descending):
            hostSort(by: key, descending: descending)
        }
    }

    /// A copy for encoding the saved state on another thread: its own copy of `slots` (which moves shift in place)
    /// and no `displayIDs` (which moves shift too, and encoding never reads), so the next move writes arrays the
    /// live order alone holds. Only the saved state's reads (`slots`, `manualRank`, `keepsUsersOrderApart`, `sort`,
    /// `operations`) are meaningful on it. O(n): a copy of the order, about a millisecond for a million cards.
    public func snapshot() -> DeckOrder {
        var copy = self
        copy.slots = slots.withUnsafeBufferPointer { Array($0) }
        copy.displayIDs = []
        return copy
    }
}
