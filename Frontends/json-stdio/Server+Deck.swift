import CardEngine

extension Server {
    /// `deck.get` → `{cards: [{id, title, color, sortOrder, kind}]}`.
    func deckGet(_ p: Params) throws(RPCError) -> [OutboundPart] {
        try p.only([])
        let deck = try requireDriver().deck
        var out = JSONOutput(capacity: 64 + deck.count * 80)
        out.raw("{\"cards\":[")
        for (index, card) in deck.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.raw("{\"id\":")
            Messages.cardID(card.id, into: &out)
            out.raw(",\"title\":")
            out.string(card.title)
            out.raw(",\"color\":")
            FrameEncoder.color(
                RGBA(
                    red: Double(card.color.red) / 255, green: Double(card.color.green) / 255,
                    blue: Double(card.color.blue) / 255),
                into: &out)
            out.raw(",\"sortOrder\":")
            out.integer(card.sortOrder)
            out.raw(",\"kind\":")
            out.string(card.payload.kind)
            out.byte(UInt8(ascii: "}"))
        }
        out.raw("]}")
        return [.bytes(out.bytes)]
    }

    /// `{"deck": [ids]}` for the open scene.
    private func deckResult(_ deck: Deck) -> [OutboundPart] {
        var out = JSONOutput(capacity: 16 + deck.count * 8)
        out.raw("{\"deck\":")
        Messages.cardIDs(deck.ids, into: &out)
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }

    /// Replaces the open scene's deck at the current time (a `deck.changed` notification follows when the order
    /// changed).
    private mutating func replace(with deck: Deck, now: Double, into output: inout [Outbound]) throws(RPCError) {
        let time = try currentTime(now: now)
        try changeScene(at: time, into: &output) { (driver) throws(SceneError) in
            try driver.replaceDeck(deck, at: time)
        }
    }

    /// `deck.move {card, to}` → `{deck}`.
    mutating func deckMove(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["card", "to"])
        let card = try p.requiredCard("card")
        let to = try p.requiredInt("to")
        var deck = try requireDriver().deck
        guard deck.contains(id: card) else {
            throw RPCError(code: RPCError.unknownCardCode, message: "unknown card: no card with id \(card)")
        }
        guard to >= 0, to < deck.count else { throw .invalidParams("to", "must be in 0…\(deck.count - 1)") }
        do {
            try deck.move(card, to: to)
        } catch {
            throw .invalidParams("to", "\(error)")
        }
        try replace(with: deck, now: now, into: &output)
        return deckResult(try requireDriver().deck)
    }

    /// `deck.sort {by, order?}` → `{deck}`; `by` is `title`, `id`, `sortOrder` or `color`; a stable sort.
    mutating func deckSort(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["by", "order"])
        guard let by = try p.choice("by", ["title", "id", "sortOrder", "color"]) else {
            throw .invalidParams("by", "is required (\"title\", \"id\", \"sortOrder\" or \"color\")")
        }
        let descending = try p.choice("order", ["ascending", "descending"]) == "descending"
        var deck = try requireDriver().deck
        switch by {
        case "title": deck.sort(by: \.title, descending: descending)
        case "id": deck.sort(by: \.id, descending: descending)
        case "sortOrder": deck.sort(by: \.sortOrder, descending: descending)
        default:
            deck.sort(
                by: { Int($0.color.red) << 16 | Int($0.color.green) << 8 | Int($0.color.blue) },
                descending: descending)
        }
        try replace(with: deck, now: now, into: &output)
        return deckResult(try requireDriver().deck)
    }

    /// `deck.diff {old, new}` → `{removals, insertions, moves}`: the minimal reorder diff (needs no scene).
    func deckDiff(_ p: Params) throws(RPCError) -> [OutboundPart] {
        try p.only(["old", "new"])
        guard let old = try p.cardList("old") else { throw .invalidParams("old", "is required (an array of card ids)") }
        guard let new = try p.cardList("new") else { throw .invalidParams("new", "is required (an array of card ids)") }
        guard Set(old).count == old.count else { throw .invalidParams("old", "must not repeat a card id") }
        guard Set(new).count == new.count else { throw .invalidParams("new", "must not repeat a card id") }
        let diff: ReorderDiff
        do {
            diff = try ReorderDiff(from: old, to: new)
        } catch {
            throw .invalidParams("old", "\(error)")
        }
        var out = JSONOutput()
        Messages.diff(diff, into: &out)
        return [.bytes(out.bytes)]
    }

    /// `deck.save {name?}` → `{name, revision}`; the name defaults to the scene's.
    func deckSave(_ p: Params) throws(RPCError) -> [OutboundPart] {
        try p.only(["name"])
        let driver = try requireDriver()
        let name = try p.string("name") ?? driver.sceneName
        guard let store = configuration.store else { throw Self.noStore }
        let revision: Int
        do {
            revision = try store.saveDeck(driver.deck, named: name, expectedRevision: nil)
        } catch {
            throw Self.storeError(error)
        }
        return nameRevision(name, revision, deck: nil)
    }

    /// `deck.load {name?}` → `{name, revision, deck}`: replaces the open scene's deck with the stored one.
    mutating func deckLoad(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["name"])
        let name: String
        if let given = try p.string("name") { name = given } else { name = try requireDriver().sceneName }
        let stored = try loadDeck(named: name)
        try replace(with: stored.deck, now: now, into: &output)
        return nameRevision(name, stored.revision, deck: try requireDriver().deck)
    }

    func loadDeck(named name: String) throws(RPCError) -> StoredDeck {
        guard let store = configuration.store else { throw Self.noStore }
        do {
            return try store.loadDeck(named: name)
        } catch {
            throw Self.storeError(error)
        }
    }

    private func nameRevision(_ name: String, _ revision: Int, deck: Deck?) -> [OutboundPart] {
        var out = JSONOutput()
        out.raw("{\"name\":")
        out.string(name)
        out.raw(",\"revision\":")
        out.integer(revision)
        if let deck {
            out.raw(",\"deck\":")
            Messages.cardIDs(deck.ids, into: &out)
        }
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }

    static let noStore = RPCError(code: RPCError.storeErrorCode, message: "store error: no store is configured")

    static func storeError(_ error: StoreError) -> RPCError {
        RPCError(code: RPCError.storeErrorCode, message: "store error: \(error.description)")
    }
}
