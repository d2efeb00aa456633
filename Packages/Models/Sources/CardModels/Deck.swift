/// An ordered collection of cards whose ids are unique by construction, with the position of any id in O(1).
///
/// Every mutating operation validates first and then changes the deck, so a throwing call leaves it unchanged.
/// Costs: lookups O(1); `move`, `insert` and `remove` O(n) in the distance they shift (like `Array`);
/// `sort` O(n log n); `apply` O(n).
public struct Deck: Sendable, Hashable, Codable, RandomAccessCollection {
    /// The cards in deck order (read-only: change the deck through its mutating methods, which keep ids unique).
    public private(set) var cards: [Card]
    /// Card id → index in `cards`.
    private var positions: Positions
    /// Whether the cards are exactly as `DeckGenerator` made them (ids, titles, sortOrders): `DeckOrder` then takes
    /// the title and sortOrder ranks as known instead of computing them. Every change clears it.
    private(set) var isAsGenerated = false

    /// How a deck finds the index of an id.
    private enum Positions: Sendable {
        /// A flat open-addressing table (`CardIndexTable`), not a `Dictionary`: 12 bytes a slot, one `mix64` a
        /// lookup.
        case table(CardIndexTable)
        /// A generated deck whose card `i` has the id `mix64(seed &+ i)` (`DeckGenerator`): the index of an id is
        /// `unmix64(id) &- seed`, so the deck needs no table until a change moves its cards (a million cards' table
        /// took a fifth of opening the deck in a new process, issue 48).
        case mixed(seed: UInt64)
    }

    /// An empty deck.
    public init() {
        cards = []
        positions = .table(CardIndexTable())
    }

    /// A deck of `cards` in the given order; throws `ModelError.duplicateID` if an id repeats.
    public init(_ cards: [Card]) throws(ModelError) {
        var positions = CardIndexTable(capacity: cards.count)
        for (index, card) in cards.enumerated() {
            guard positions.updateValue(index, forKey: card.id) == nil else { throw .duplicateID(card.id) }
        }
        self.cards = cards
        self.positions = .table(positions)
        _checkInvariants()
    }

    /// The generated deck whose card `i` has the id `mix64(seed &+ i)`, as `DeckGenerator` makes it: ids unique by
    /// construction (`mix64` is a bijection), found by inverting the mix. O(1).
    init(generated cards: [Card], seed: UInt64) {
        self.cards = cards
        self.positions = .mixed(seed: seed)
        self.isAsGenerated = true
        _checkInvariants()
    }

    // MARK: Collection

    public var startIndex: Int { 0 }
    public var endIndex: Int { cards.count }
    public subscript(position: Int) -> Card { cards[position] }

    /// The ids in deck order.
    public var ids: [CardID] { cards.map(\.id) }

    /// The position of `id`, or nil when it is not in the deck. O(1).
    public func index(of id: CardID) -> Int? {
        switch positions {
        case .table(let table):
            return table.position(of: id)
        case .mixed(let seed):
            let index = unmix64(id.rawValue) &- seed
            return index < UInt64(cards.count) ? Int(index) : nil
        }
    }

    /// Whether a card with `id` is in the deck. O(1).
    public func contains(id: CardID) -> Bool { index(of: id) != nil }

    /// The card with `id`, or nil. O(1).
    public subscript(id id: CardID) -> Card? {
        index(of: id).map { cards[$0] }
    }

    // MARK: Changes

    /// Moves the card with `id` so that it ends at `destination` (an index in the resulting deck, `0..<count`).
    public mutating func move(_ id: CardID, to destination: Int) throws(ModelError) {
        guard let source = index(of: id) else { throw .unknownID(id) }
        try move(from: source, to: destination)
    }

    /// Moves the card at `source` so that it ends at `destination`; both are in `0..<count`.
    public mutating func move(from source: Int, to destination: Int) throws(ModelError) {
        guard cards.indices.contains(source) else { throw .indexOutOfRange(index: source, limit: cards.count) }
        guard cards.indices.contains(destination) else {
            throw .indexOutOfRange(index: destination, limit: cards.count)
        }
        guard source != destination else { return }
        makeTable()
        let card = cards.remove(at: source)
        cards.insert(card, at: destination)
        reindex(Swift.min(source, destination)...Swift.max(source, destination))
    }

    /// Inserts `card` at `index` (`0...count`); throws on a duplicate id or a bad index.
    public mutating func insert(_ card: Card, at index: Int) throws(ModelError) {
        guard (0...cards.count).contains(index) else { throw .indexOutOfRange(index: index, limit: cards.count) }
        guard self.index(of: card.id) == nil else { throw .duplicateID(card.id) }
        makeTable()
        cards.insert(card, at: index)
        reindex(index..<cards.count)
    }

    /// Appends `card`; throws on a duplicate id.
    public mutating func append(_ card: Card) throws(ModelError) {
        try insert(card, at: cards.count)
    }

    /// Removes and returns the card with `id`.
    @discardableResult
    public mutating func remove(_ id: CardID) throws(ModelError) -> Card {
        guard let index = index(of: id) else { throw .unknownID(id) }
        return try remove(at: index)
    }

    /// Removes and returns the card at `index`.
    @discardableResult
    public mutating func remove(at index: Int) throws(ModelError) -> Card {
        guard cards.indices.contains(index) else { throw .indexOutOfRange(index: index, limit: cards.count) }
        makeTable()
        let card = cards.remove(at: index)
        if case .table(var table) = positions {
            positions = .table(CardIndexTable())  // so that `table` is the only reference while it changes
            table.remove(card.id)
            positions = .table(table)
        }
        reindex(index..<cards.count)
        return card
    }

    /// Replaces the card that has `card.id` with `card` (same position).
    public mutating func update(_ card: Card) throws(ModelError) {
        guard let index = index(of: card.id) else { throw .unknownID(card.id) }
        isAsGenerated = false
        cards[index] = card
        _checkInvariants()
    }

    /// Sorts the deck by `key`, keeping the current order among equal keys (a stable sort). O(n log n).
    public mutating func sort<Key: Comparable>(by key: (Card) -> Key, descending: Bool = false) {
        let keys = cards.map(key)
        let order = cards.indices.sorted { lhs, rhs in
            if keys[lhs] != keys[rhs] { return descending ? keys[lhs] > keys[rhs] : keys[lhs] < keys[rhs] }
            return lhs < rhs
        }
        makeTable()
        cards = order.map { cards[$0] }
        reindex(cards.indices)
    }

    /// Sets every card's `sortOrder` to its position, so the order survives a reload that sorts by it.
    public mutating func renumberSortOrder() {
        isAsGenerated = false
        for index in cards.indices { cards[index].sortOrder = index }
    }

    /// Applies `diff` (read as one batch update) to the deck. `insertedCards` are the cards for
    /// `diff.insertions`, in the same order. Throws `ModelError.diffMismatch` when the diff was made for a deck
    /// of another size, or a duplicate id error when an inserted card is already in the deck. O(n).
    public mutating func apply(_ diff: ReorderDiff, inserting insertedCards: [Card] = []) throws(ModelError) {
        guard diff.oldCount == cards.count else {
            throw .diffMismatch("made for \(diff.oldCount) cards, the deck has \(cards.count)")
        }
        guard insertedCards.count == diff.insertions.count else {
            throw .diffMismatch("\(diff.insertions.count) insertions but \(insertedCards.count) cards to insert")
        }
        let reordered = try diff.applied(to: cards, inserting: insertedCards)
        self = try Deck(reordered)
    }

    private mutating func reindex(_ range: some Sequence<Int>) {
        guard case .table(var table) = positions else { return _checkInvariants() }
        positions = .table(CardIndexTable())  // so that `table` is the only reference while it changes
        for index in range { table.updateValue(index, forKey: cards[index].id) }
        positions = .table(table)
        _checkInvariants()
    }

    /// Before a change that moves cards: a generated deck's ids leave their generated places, so it gets a table.
    /// O(1) with a table already, else O(n).
    private mutating func makeTable() {
        isAsGenerated = false
        guard case .mixed = positions else { return }
        var table = CardIndexTable(capacity: cards.count)
        for (index, card) in cards.enumerated() { table.updateValue(index, forKey: card.id) }
        positions = .table(table)
    }

    /// Checks, in debug builds, that `positions` indexes exactly the cards (one entry per card, each at its card's
    /// index), as swift-collections' `_checkInvariants`. Compiled out of release builds. O(n) up to 4,096 cards;
    /// beyond, the count and 1,024 evenly spaced cards, so that debug builds of million-card decks stay usable.
    @inline(__always)
    func _checkInvariants() {
        #if DEBUG
            if case .table(let table) = positions {
                precondition(table.count == cards.count, "\(table.count) positions for \(cards.count) cards")
            }
            let stride = Swift.max(1, cards.count / 1024)
            for index in Swift.stride(from: 0, to: cards.count, by: cards.count <= 4096 ? 1 : stride) {
                precondition(
                    self.index(of: cards[index].id) == index, "card \(cards[index].id) is not at index \(index)")
            }
        #endif
    }

    // MARK: Equality and coding (the position index is derived, so it takes no part)

    public static func == (lhs: Deck, rhs: Deck) -> Bool { lhs.cards == rhs.cards }

    public func hash(into hasher: inout Hasher) { hasher.combine(cards) }

    private enum CodingKeys: String, CodingKey { case cards }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let cards = try container.decode([Card].self, forKey: .cards)
        do {
            try self.init(cards)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .cards, in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(cards, forKey: .cards)
    }
}
