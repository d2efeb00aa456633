import CardEngine
import CardJSON
import CardModels
import CardPersistence
import Foundation

/// The deck scene's persisted state (`stateName` "deck"), version 1.
///
/// - Up to 10,000 cards (and for larger decks whose history was too long or arbitrary to log):
///   `{"version": 1, "count": n, "order": [ids in display order], "sortOrder": [ids in the user's order],
///   "sort": {"by": "title|color|sortOrder", "order": "ascending|descending"}}` — `sortOrder` only after a manual
///   reorder, `sort` only while sorted.
/// - Larger decks: the operations since the deck's initial order, replayed on restore:
///   `{"version": 1, "count": n, "first": id of the initial first card, "operations": [{"sort": {...}},
///   {"move": [id, to]}, {"hostSort": {"by": "id|color", "order": …}}, …]}`, at most 1,000 operations (beyond,
///   the whole order is written as above).
///
/// A state for another deck (other count, unknown ids, another first card) is refused and changes nothing.
extension DeckScene {
    public func encodeState() -> [UInt8]? {
        var members: [JSONValue.Member] = [.init("version", .integer(1)), .init("count", .integer(count))]
        if count > Self.persistListLimit, let operations = order.operations {
            members.append(.init("first", .string(base.first.map { $0.id.description } ?? "")))
            members.append(.init("operations", .array(operations.map(Self.encode))))
        } else if count > Self.persistListLimit {
            // A large deck's whole order, compactly: the card indices (in the deck as opened) as little-endian
            // 32-bit integers in base64 — 5.3 MB for a million cards, decoded in milliseconds.
            members.append(.init("orderIndices", .string(Self.packed(order.slots))))
            if order.keepsUsersOrderApart, let manualRank = order.manualRank {
                var manual = [Int](repeating: 0, count: count)
                for (card, rank) in manualRank.enumerated() { manual[Int(rank)] = card }
                members.append(.init("sortOrderIndices", .string(Self.packed(manual))))
            }
            if let sort { members.append(.init("sort", Self.encode(sort))) }
        } else {
            members.append(.init("order", .array(order.slots.map { .string(base[Int($0)].id.description) })))
            if let manualRank = order.manualRank {
                var manual = [Int](repeating: 0, count: count)
                for (card, rank) in manualRank.enumerated() { manual[Int(rank)] = card }
                members.append(.init("sortOrder", .array(manual.map { .string(base[$0].id.description) })))
            }
            if let sort { members.append(.init("sort", Self.encode(sort))) }
        }
        return JSONValue.object(members).jsonBytes
    }

    /// The snapshot holds the order's own snapshot (`DeckOrder.snapshot()`: a copy of the slots, no ids), so the
    /// move after a snapshot writes arrays the scene alone holds instead of copying both while the saver encodes.
    /// O(n): a copy of the order, about a millisecond for a million cards.
    public func stateSnapshot() -> @Sendable () -> [UInt8]? {
        var copy = self
        copy.order = order.snapshot()
        let scene = copy
        return { scene.encodeState() }
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
        if case .string(let packedOrder)? = value["orderIndices"] {
            let slots = try unpacked(packedOrder)
            var usersOrder = DeckOrder.UsersOrder.display
            if case .string(let packedManual)? = value["sortOrderIndices"] {
                usersOrder = .ranks(Self.ranks(of: try unpacked(packedManual)))
            }
            restored.order.restore(
                order: slots, usersOrder: usersOrder, sort: try value["sort"].map(Self.decodeSort)?.orderSort)
        } else if case .array(let items)? = value["operations"] {
            guard value["first"]?.stringValue == base.first.map({ $0.id.description }) else {
                throw .invalidState("the saved deck state is for another deck")
            }
            let records = try items.map { item throws(SceneError) in try Self.decodeOperation(item) }
            do {
                try restored.order.restore(replaying: records)
            } catch {
                throw .invalidState("the saved deck state moves an unknown card or to a bad position")
            }
        } else {
            guard case .array(let items)? = value["order"] else {
                throw .invalidState("the saved deck state has neither an order nor operations")
            }
            let slots = try permutation(items)
            var usersOrder = DeckOrder.UsersOrder.given
            if case .array(let manual)? = value["sortOrder"] {
                usersOrder = .ranks(Self.ranks(of: try permutation(manual)))
            }
            restored.order.restore(
                order: slots, usersOrder: usersOrder, sort: try value["sort"].map(Self.decodeSort)?.orderSort)
        }
        self = restored
    }

    /// The ranks (card index → rank) of an order given as slot → card index. O(n).
    static func ranks(of order: [Int32]) -> [Int32] {
        var ranks = [Int32](repeating: 0, count: order.count)
        for (rank, card) in order.enumerated() { ranks[Int(card)] = Int32(truncatingIfNeeded: rank) }
        return ranks
    }

    /// A large deck hands out its moves and sorts as journal records (`{"sort": …}`, `{"move": [id, to]}`,
    /// `{"hostSort": …}`), so a
    /// save costs O(change); a small deck, or a change the journal cannot express, saves a snapshot, and so does
    /// every `journalCompaction`-th record or `journalSortCompaction`-th sort (the journal is then compacted).
    /// A large deck hands out its moves and sorts as journal records (`{"sort": …}`, `{"move": [id, to]}`,
    /// `{"hostSort": …}`), so a save costs O(change); a small deck, or a change the journal cannot express, saves a
    /// snapshot, and so does every so many records or sorts (`DeckOrder.takeJournal()`: the journal is then
    /// compacted).
    public mutating func takeStateJournal() -> [[UInt8]]? {
        order.takeJournal()?.map { Self.encode($0).jsonBytes }
    }

    /// Replays journal records (moves and sorts) on the restored order.
    public mutating func applyStateJournal(_ records: [[UInt8]]) throws(SceneError) {
        var restored = order
        var operations: [DeckOrder.Record] = []
        for record in records {
            guard let value = try? JSONValue(parsing: record) else {
                throw .invalidState("a deck state journal record is not JSON")
            }
            operations.append(try Self.decodeOperation(value))
        }
        do {
            try restored.replayJournal(operations)
        } catch {
            throw .invalidState("the saved deck state moves an unknown card or to a bad position")
        }
        order = restored
    }

    /// Card indices as little-endian UInt32s in base64.
    static func packed<Index: BinaryInteger>(_ indices: [Index]) -> String {
        var data = Data(count: indices.count * 4)
        data.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            for (slot, index) in indices.enumerated() {
                base.storeBytes(
                    of: UInt32(truncatingIfNeeded: index).littleEndian, toByteOffset: slot * 4, as: UInt32.self)
            }
        }
        return data.base64EncodedString()
    }

    /// The permutation `packed` wrote; throws unless it is a permutation of this deck's cards.
    func unpacked(_ text: String) throws(SceneError) -> [Int32] {
        guard let data = Data(base64Encoded: text), data.count == count * 4 else {
            throw .invalidState("the saved deck order is not \(count) packed card indices")
        }
        var seen = [Bool](repeating: false, count: count)
        var result = [Int32](repeating: 0, count: count)
        let ok = data.withUnsafeBytes { raw -> Bool in
            for slot in 0..<count {
                let index = Int(raw.loadUnaligned(fromByteOffset: slot * 4, as: UInt32.self).littleEndian)
                guard index < count, !seen[index] else { return false }
                seen[index] = true
                result[slot] = Int32(truncatingIfNeeded: index)
            }
            return true
        }
        guard ok else { throw .invalidState("the saved deck order repeats a card or names an unknown one") }
        return result
    }

    /// Card indices for a list of ids that must be a permutation of the deck.
    func permutation(_ items: [JSONValue]) throws(SceneError) -> [Int32] {
        guard items.count == count else { throw .invalidState("the saved deck order has the wrong number of cards") }
        var seen = [Bool](repeating: false, count: count)
        var result: [Int32] = []
        result.reserveCapacity(count)
        for item in items {
            guard let text = item.stringValue, let id = CardID(text), let card = cardIndex(of: id), !seen[card] else {
                throw .invalidState("the saved deck order names an unknown or repeated card")
            }
            seen[card] = true
            result.append(Int32(truncatingIfNeeded: card))
        }
        return result
    }

    static func encode(_ sort: DeckSort) -> JSONValue {
        .object([
            .init("by", .string(sort.key.rawValue)),
            .init("order", .string(sort.descending ? "descending" : "ascending")),
        ])
    }

    static func encode(_ operation: DeckOrder.Record) -> JSONValue {
        switch operation {
        case .sort(let sort): .object([.init("sort", encode(DeckSort(sort)))])
        case .move(let id, let to): .object([.init("move", .array([.string(id.description), .integer(to)]))])
        case .hostSort(let key, let descending):
            .object([
                .init(
                    "hostSort",
                    .object([
                        .init("by", .string(key == .id ? DeckSortKey.id.rawValue : DeckSortKey.color.rawValue)),
                        .init("order", .string(descending ? "descending" : "ascending")),
                    ]))
            ])
        }
    }

    static func decodeSort(_ value: JSONValue) throws(SceneError) -> DeckSort {
        guard let by = value["by"]?.stringValue, let key = DeckSort.Key(rawValue: by),
            let order = value["order"]?.stringValue, order == "ascending" || order == "descending"
        else { throw .invalidState("the saved deck sort is not {\"by\": key, \"order\": direction}") }
        return DeckSort(key, descending: order == "descending")
    }

    static func decodeOperation(_ value: JSONValue) throws(SceneError) -> DeckOrder.Record {
        if let sort = value["sort"] { return .sort(try decodeSort(sort).orderSort) }
        if let hostSort = value["hostSort"] {
            guard let by = hostSort["by"]?.stringValue, let key = DeckSortKey(rawValue: by),
                key == .id || key == .color,
                let order = hostSort["order"]?.stringValue, order == "ascending" || order == "descending"
            else { throw .invalidState("a saved host sort is not {\"by\": \"id\" or \"color\", \"order\": direction}") }
            return .hostSort(key == .id ? .id : .colorNumber, descending: order == "descending")
        }
        guard case .array(let pair)? = value["move"], pair.count == 2, let text = pair[0].stringValue,
            let id = CardID(text), let to = pair[1].integerValue
        else { throw .invalidState("a saved deck operation is neither a sort nor a move") }
        return .move(id, to: to)
    }
}
