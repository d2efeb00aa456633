import CardPersistence

/// The deck scene's persisted state (`stateName` "deck"), version 1.
///
/// - Up to 10,000 cards (and for larger decks whose history was too long or arbitrary to log):
///   `{"version": 1, "count": n, "order": [ids in display order], "sortOrder": [ids in the user's order],
///   "sort": {"by": "title|color|sortOrder", "order": "ascending|descending"}}` — `sortOrder` only after a manual
///   reorder, `sort` only while sorted.
/// - Larger decks: the operations since the deck's initial order, replayed on restore:
///   `{"version": 1, "count": n, "first": id of the initial first card, "operations": [{"sort": {...}},
///   {"move": [id, to]}, …]}`, at most 1,000 operations (beyond, the whole order is written as above).
///
/// A state for another deck (other count, unknown ids, another first card) is refused and changes nothing.
extension DeckScene {
    public func encodeState() -> [UInt8]? {
        var members: [JSONValue.Member] = [.init("version", .integer(1)), .init("count", .integer(count))]
        if count > Self.persistListLimit, let operations {
            members.append(.init("first", .string(base.first.map { $0.id.description } ?? "")))
            members.append(.init("operations", .array(operations.map(Self.encode))))
        } else {
            members.append(.init("order", .array(order.map { .string(base[$0].id.description) })))
            if let manualRank {
                var manual = [Int](repeating: 0, count: count)
                for (card, rank) in manualRank.enumerated() { manual[rank] = card }
                members.append(.init("sortOrder", .array(manual.map { .string(base[$0].id.description) })))
            }
            if let sort { members.append(.init("sort", Self.encode(sort))) }
        }
        return JSONValue.object(members).jsonBytes
    }

    public mutating func restoreState(_ json: [UInt8]) throws(SceneError) {
        guard let value = try? JSONValue(parsing: json), value["version"]?.integerValue == 1 else {
            throw .invalidState("the saved deck state is not a version 1 deck state")
        }
        guard value["count"]?.integerValue == count else {
            throw .invalidState("the saved deck state is for a deck of another size")
        }
        var restored = self
        restored.mode = .browsing
        restored.scrollOffset = 0
        restored.pull = 0
        restored.focus = 0
        restored.sortPlan = nil
        if case .array(let items)? = value["operations"] {
            guard value["first"]?.stringValue == base.first.map({ $0.id.description }) else {
                throw .invalidState("the saved deck state is for another deck")
            }
            restored.setOrder(Array(0..<count))
            restored.manualRank = nil
            restored.sort = nil
            restored.operations = []
            for item in items {
                switch try Self.decodeOperation(item) {
                case .sort(let sort):
                    restored.setOrder(
                        Self.sorted(restored.order, by: restored.ranks(for: sort.key), descending: sort.descending)
                            .order)
                    restored.sort = sort
                    restored.record(.sort(sort))
                case .move(let id, let to):
                    guard let card = cardIndex(of: id), (0..<count).contains(to) else {
                        throw .invalidState("the saved deck state moves an unknown card or to a bad position")
                    }
                    restored.applyMove(from: restored.position[card], to: to)
                }
            }
        } else {
            guard case .array(let items)? = value["order"] else {
                throw .invalidState("the saved deck state has neither an order nor operations")
            }
            restored.setOrder(try permutation(items))
            if case .array(let manual)? = value["sortOrder"] {
                let manualOrder = try permutation(manual)
                var ranks = [Int](repeating: 0, count: count)
                for (rank, card) in manualOrder.enumerated() { ranks[card] = rank }
                restored.manualRank = ranks
            } else {
                restored.manualRank = nil
            }
            restored.sort = try value["sort"].map(Self.decodeSort)
            if count > Self.persistListLimit { restored.operations = nil }
        }
        self = restored
    }

    /// Card indices for a list of ids that must be a permutation of the deck.
    func permutation(_ items: [JSONValue]) throws(SceneError) -> [Int] {
        guard items.count == count else { throw .invalidState("the saved deck order has the wrong number of cards") }
        var seen = [Bool](repeating: false, count: count)
        var result: [Int] = []
        result.reserveCapacity(count)
        for item in items {
            guard let text = item.stringValue, let id = CardID(text), let card = cardIndex(of: id), !seen[card] else {
                throw .invalidState("the saved deck order names an unknown or repeated card")
            }
            seen[card] = true
            result.append(card)
        }
        return result
    }

    static func encode(_ sort: DeckSort) -> JSONValue {
        .object([
            .init("by", .string(sort.key.rawValue)),
            .init("order", .string(sort.descending ? "descending" : "ascending")),
        ])
    }

    static func encode(_ operation: DeckOperation) -> JSONValue {
        switch operation {
        case .sort(let sort): .object([.init("sort", encode(sort))])
        case .move(let id, let to): .object([.init("move", .array([.string(id.description), .integer(to)]))])
        }
    }

    static func decodeSort(_ value: JSONValue) throws(SceneError) -> DeckSort {
        guard let by = value["by"]?.stringValue, let key = DeckSort.Key(rawValue: by),
            let order = value["order"]?.stringValue, order == "ascending" || order == "descending"
        else { throw .invalidState("the saved deck sort is not {\"by\": key, \"order\": direction}") }
        return DeckSort(key, descending: order == "descending")
    }

    static func decodeOperation(_ value: JSONValue) throws(SceneError) -> DeckOperation {
        if let sort = value["sort"] { return .sort(try decodeSort(sort)) }
        guard case .array(let pair)? = value["move"], pair.count == 2, let text = pair[0].stringValue,
            let id = CardID(text), let to = pair[1].integerValue
        else { throw .invalidState("a saved deck operation is neither a sort nor a move") }
        return .move(id, to: to)
    }
}
