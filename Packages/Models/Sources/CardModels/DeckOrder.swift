/// The order of a deck of up to a million cards: which card is in each display slot, where each card is, the user's
/// own order (`Card.sortOrder` after manual reorders), the sort shown on top of it, the key ranks sorts use, and the
/// records a large deck's saved state replays. A value type with no UI: the deck scene holds one and delegates to it,
/// and a described deck can hold the same.
///
/// Cards are named by their *card index*, their place in the deck as given (`base`); a *slot* is a display position.
///
/// - Reads: `card(at:)` O(1); `slot(of:)` O(pending moves) ≤ 256 steps; `displayIDs` O(1) (kept in step, shared).
/// - A move (`move(from:to:)`) shifts the slots between its ends in `slots` and `displayIDs` (two memmoves) and
///   joins the pending moves instead of rewriting every shifted card's position: O(|to − from|), plus O(n) every
///   256th move when the positions are settled.
/// - A sort is a stable counting sort over the key's cached dense ranks (`DenseRanks`), writing the new order, each
///   new slot's old slot (the diff's permutation), the positions and the ids in the passes that place the cards:
///   O(n + distinct keys), split between two threads from `TwoThreads.minimumCount` cards (`DeckOrder+Sort.swift`).
///   A key's ranks are computed once (titles O(n log n), colours O(n + d log d), integers and ids O(n)); a deck of
///   more than `largeCount` cards computes every key's ranks when it is made, so even its first sort costs only the
///   sort.
/// - The user's order costs nothing to keep while it is the display order (`manualRankIsPosition`: the positions
///   serve); a sort that replaces it keeps the arrays it replaces, not copies (`DeckOrder+Moves.swift`).
/// - A deck of more than `largeCount` cards records its changes (`Record`) for its saved state: the operations since
///   the initial order while they are few and cheap to replay, and the journal records not yet saved
///   (`DeckOrder+Journal.swift`).
///
/// `_checkInvariants()` checks all of it in debug builds (`DeckOrder+Invariants.swift`).
public struct DeckOrder: Sendable {
    /// Above this many cards, every key's ranks are computed when the order is made, and the order records its
    /// changes for an incremental saved state; at most this many, the saved state is the whole order.
    public static let largeCount = 10_000
    /// The most moves kept pending: a position read walks them all (256 steps, well under a microsecond), and
    /// settling them rewrites at most every slot once (a few milliseconds for a million cards, one move in 256).
    static let pendingMoveLimit = 256

    /// The cards as given, by card index (the order `slots` permutes).
    public let base: Deck
    /// The card ids by card index (contiguous, for the id lists of huge decks).
    public let ids: [CardID]
    /// Display slot → card index.
    public internal(set) var slots: [Int32]
    /// Display slot → card id: `ids[slots[slot]]`, kept in step with `slots` by every change (a move shifts only the
    /// slots between its source and destination, a sort writes it in the pass that writes `slots`), so a change
    /// reports the new order by sharing this array instead of gathering a million ids. O(1) to read.
    public internal(set) var displayIDs: [CardID]
    /// Card index → display slot, as of the moves in `pendingMoves` not yet applied to it. 32-bit (at most a million
    /// cards): a sort by distinct keys reads it at random, and at half the bytes a million cards' gather took 3.1 ms
    /// on one thread where 64-bit positions took 4.3. `slot(of:)` reads a position through the pending moves;
    /// `settlePositions()` brings the whole array up to date (a sort, a snapshot's copy).
    var positionBase: [Int32]
    /// The moves made since `positionBase` was last settled, in order (fewer than `pendingMoveLimit`).
    var pendingMoves: [PendingMove] = []
    /// Slots of `slots` and `displayIDs` (and of `positionBase`, when written) written since the order was made: a
    /// move adds its distance + 1, a whole new order the card count, settling the slots it rewrites. Tests read it
    /// to prove a move is O(distance).
    var orderSlotWrites = 0
    /// Card index → the user's sortOrder after a manual reorder, when it is not the display order; nil while the
    /// cards keep their given sortOrder or while `manualRankIsPosition`.
    var storedManualRank: [Int32]?
    /// With `storedManualRank`, when the user's order was the display order until a scene sort replaced it: that
    /// order (slot → card, the ranks' inverse) and its ids, the arrays the change would have freed, kept
    /// (`keepDisplayOrderAsUsersOrder()`). Sorting back by the user's order then gathers them in sequence
    /// (`ranks(for: .sortOrder)`) instead of scattering by the ranks. nil for a user's order given whole, and after
    /// any restore (`dropKeptUsersOrder()`).
    var storedManualOrder: (order: [Int32], ids: [CardID])?
    /// Whether the user's order is the display order itself (after a move or a host sort): the positions serve as
    /// its ranks, so a move does not copy a million ranks.
    public internal(set) var manualRankIsPosition = false
    /// The scene sort shown on top of the user's order, if any (a move or a host sort drops it).
    public internal(set) var sort: Sort?
    /// Cached dense ranks of the sort keys (computed on first use, or all at once for a large deck).
    public internal(set) var keyRanks: Ranks
    /// The checksum of an order of ids as the wire carries it (the engine's `OrderChecksum.of`), injected: the ranks
    /// of a key with distinct values keep the checksums of the two orders a sort by it gives.
    let checksum: @Sendable ([CardID]) -> UInt32
    /// What a large deck's saved state needs: the operations since the initial order and the journal.
    var journal = Journal()

    /// What the cards are sorted by: a scene's keys (`title`, `color`, `sortOrder`) and a host's (`id`, and
    /// `colorNumber`, the colour as the number 0xRRGGBB).
    public enum Key: Sendable, Hashable, CaseIterable {
        /// The title, in Swift's `String` order.
        case title
        /// Greys first (dark to light), then by hue, then by lightness (`hueKey(_:)`).
        case color
        /// The user's own order: the sortOrder manual reorders last set, else the one the cards were given.
        case sortOrder
        /// The card id, numerically.
        case id
        /// The colour as the number `red << 16 | green << 8 | blue`.
        case colorNumber
    }

    /// A stable sort by a key, ascending unless `descending`.
    public struct Sort: Sendable, Hashable {
        /// The key the cards are compared by.
        public var key: Key
        /// Whether the largest key comes first.
        public var descending: Bool

        /// A sort by `key`, ascending unless `descending`.
        public init(_ key: Key, descending: Bool = false) {
            self.key = key
            self.descending = descending
        }
    }

    /// The order of `deck` as given, with `ranks` already computed for it (a cached generated deck's), computing the
    /// rest of every key's ranks when the deck has more than `largeCount` cards. `checksum` is the wire's checksum of
    /// an order of ids (`OrderChecksum.of`). O(n), plus the ranks of a large deck (about 100 ms for a million cards,
    /// most of it the titles' comparison sort).
    public init(_ deck: Deck, ranks: Ranks = Ranks(), checksum: @escaping @Sendable ([CardID]) -> UInt32) {
        base = deck
        let ids = deck.ids
        self.ids = ids
        slots = (0..<deck.count).map { Int32(truncatingIfNeeded: $0) }
        // Its own storage, not shared with `ids`: the first move would otherwise copy it.
        displayIDs = ids.withUnsafeBufferPointer { Array($0) }
        // Its own storage, not shared with `slots`: the first sort would otherwise copy it.
        positionBase = (0..<deck.count).map { Int32(truncatingIfNeeded: $0) }
        keyRanks = ranks
        self.checksum = checksum
        if deck.count > Self.largeCount { prepareRanks() }
    }

    /// The number of cards.
    public var count: Int { slots.count }

    /// The card index in display slot `slot`. O(1).
    @inline(__always)
    public func card(at slot: Int) -> Int { Int(slots[slot]) }

    /// The display slot of `card`: its settled position carried through the pending moves. O(pending moves), at most
    /// `pendingMoveLimit`.
    public func slot(of card: Int) -> Int {
        var slot = Int(positionBase[card])
        for move in pendingMoves { slot = move.carry(slot) }
        return slot
    }

    /// The card index of `id`. O(1).
    public func cardIndex(of id: CardID) -> Int? { base.index(of: id) }

    /// Card index → the user's sortOrder, nil while the cards keep their given sortOrder. O(1) unless the user's
    /// order is the display order with moves pending: then O(n) (`settledPositions()`).
    public var manualRank: [Int32]? {
        manualRankIsPosition ? settledPositions() : storedManualRank
    }

    /// `card`'s sortOrder in the user's order, nil while the cards keep their given sortOrder. O(pending moves).
    public func manualRank(of card: Int) -> Int? {
        manualRankIsPosition ? slot(of: card) : storedManualRank.map { Int($0[card]) }
    }

    /// The sortOrder of the card in `slot` in the user's order, nil while the cards keep their given sortOrder. O(1).
    public func manualRank(ofCardAt slot: Int) -> Int? {
        manualRankIsPosition ? slot : storedManualRank.map { Int($0[card(at: slot)]) }
    }

    /// The cards in display order, each with its current sortOrder. O(n) (builds a `Deck`).
    public var deck: Deck {
        var cards: [Card] = []
        cards.reserveCapacity(count)
        let manualRank = manualRank
        for index in slots {
            var card = base[Int(index)]
            if let manualRank { card.sortOrder = Int(manualRank[Int(index)]) }
            cards.append(card)
        }
        return (try? Deck(cards)) ?? base
    }
}
