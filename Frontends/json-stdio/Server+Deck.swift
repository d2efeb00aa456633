import CardEngine
import CardGeometry
import CardJSON
import CardModels
import CardPersistence

extension Server {
    /// The most cards one `deck.get` returns (a page); `limit` may ask for fewer.
    static let maximumPage = 10_000

    /// `deck.get {offset?, limit?}` → `{cards: [{id, title, color, sortOrder, kind, content}], offset, total, order}`:
    /// the open scene's cards from `offset` (default 0), at most `limit` (default and most: `maximumPage`), and
    /// `order: {revision, checksum}` of the whole order (a host whose checksum differs re-fetches the order).
    ///
    /// With `format: "ids"` (opt-in; the default `"cards"` is the form above) the result is
    /// `{ids, offset, total, order}` instead: `ids` the card ids from `offset` as little-endian unsigned 64-bit
    /// integers in base64 (RFC 4648, section 4), at most `limit` when given (1…`maximumPage`, as for cards), else
    /// the whole rest of the order —
    /// a host mirroring a million-card order fetches it in one request of 10.7 MB, not 100 pages of cards. O(n)
    /// in the ids sent, written straight into the reply.
    mutating func deckGet(_ p: Params) throws(RPCError) -> [OutboundPart] {
        try p.only(["offset", "limit", "format"])
        let packedIDs = try p.choice("format", ["cards", "ids"]) == "ids"
        // An offset past the end is clamped to the deck's size, however large (a whole number beyond Int too).
        let offset = try p.wholeNumberClamped("offset") ?? 0
        let limit = try p.int("limit") ?? (packedIDs ? Int.max : Self.maximumPage)
        guard offset >= 0 else { throw .invalidParams("offset", "must be at least 0") }
        guard limit >= 1, limit <= Self.maximumPage || (packedIDs && !p.has("limit")) else {
            throw .invalidParams("limit", "must be in 1…\(Self.maximumPage)")
        }
        let driver = try requireDriver()
        if packedIDs { return packedIDPage(driver, offset: offset, limit: limit) }
        // The ids (for the count and the checksum) and only the page's cards: a million-card deck is not built.
        let ids = driver.deckIDs
        let start = min(offset, ids.count)
        let end = start + min(limit, ids.count - start)
        let cards = driver.deckCards(start..<end)
        var out = JSONOutput(capacity: 64 + (end - start) * 120)
        out.raw("{\"cards\":[")
        for (index, card) in cards.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.raw("{\"id\":")
            Messages.cardID(card.id, into: &out)
            out.raw(",\"title\":")
            out.string(card.title)
            out.raw(",\"color\":")
            FrameJSON.color(
                RGBA(
                    red: Double(card.color.red) / 255, green: Double(card.color.green) / 255,
                    blue: Double(card.color.blue) / 255),
                into: &out)
            out.raw(",\"sortOrder\":")
            out.integer(card.sortOrder)
            out.raw(",\"kind\":")
            out.string(card.payload.kind)
            out.raw(",\"content\":")
            DeckFastEncoder.content(card.payload, into: &out)
            out.byte(UInt8(ascii: "}"))
        }
        out.byte(UInt8(ascii: "]"))
        pageTail(driver, start: start, total: ids.count, into: &out)
        return [.bytes(out.bytes)]
    }

    /// A page's members after its cards or ids: `,"offset":…,"total":…,"order":{revision, checksum}}` (the
    /// session remembers the checksum it announced). O(1).
    private mutating func pageTail(_ driver: any SceneDriver, start: Int, total: Int, into out: inout JSONOutput) {
        out.raw(",\"offset\":")
        out.integer(start)
        out.raw(",\"total\":")
        out.integer(total)
        let checksum = driver.deckChecksum
        session?.orderChecksum = checksum
        out.raw(",\"order\":")
        Messages.order(revision: session?.deckRevision ?? 0, checksum: checksum, diff: nil, ids: nil, into: &out)
        out.byte(UInt8(ascii: "}"))
    }

    /// `deck.get {format: "ids"}`'s result: `{ids: base64 of little-endian u64 ids, offset, total, order}`. O(ids
    /// sent); the base64 is written into the reply's buffer directly from the scene's id array.
    private mutating func packedIDPage(_ driver: any SceneDriver, offset: Int, limit: Int) -> [OutboundPart] {
        let ids = driver.deckIDs
        let start = min(offset, ids.count)
        let end = start + min(limit, ids.count - start)
        var out = JSONOutput(capacity: 160 + (end - start + 2) / 3 * 32)
        out.raw("{\"ids\":")
        Self.packedIDs(ids[start..<end], into: &out)
        pageTail(driver, start: start, total: ids.count, into: &out)
        return [.bytes(out.bytes)]
    }

    /// `ids` as little-endian unsigned 64-bit integers in base64, a JSON string. O(n).
    static func packedIDs(_ ids: ArraySlice<CardID>, into out: inout JSONOutput) {
        #if _endian(little)
            if MemoryLayout<CardID>.stride == 8 {
                ids.withUnsafeBytes { out.base64String($0) }
                return
            }
        #endif
        ids.map { $0.rawValue.littleEndian }.withUnsafeBytes { out.base64String($0) }
    }

    /// The message for one engine event; a `deck.changed` advances the deck revision and carries the order's new
    /// checksum (O(n) in the cards, never the order itself unless the session asked for it).
    /// A sort's `deck.changed` is streamed (`Messages.outbound`): its sources go out while its moves are counted.
    mutating func eventMessage(_ event: EngineEvent) -> Outbound {
        let seq = nextSeq()
        guard case .deckChanged(let change) = event, let session else { return Messages.outbound(event, seq: seq) }
        let stamp = OrderStamp(change: change, revision: session.deckRevision + 1, wholeOrder: session.wholeOrders)
        self.session?.deckRevision = stamp.revision
        self.session?.orderChecksum = stamp.checksum
        if session.wholeOrders { self.session?.lastDeckChange = (change, stamp) }
        return Messages.outbound(event, seq: seq, order: stamp)
    }

    /// The revision before a change, to tell afterwards whether it changed the order.
    var deckRevision: Int { session?.deckRevision ?? 0 }

    /// `"order":{revision, checksum}` after a change that started at revision `before`. The change's diff went out
    /// in its `deck.changed` notification, just before the result, and is not repeated (a million-card sort's diff
    /// would travel twice). A session that asked for whole orders (`deckOrder: "full"`) gets protocol 1.0's
    /// shape: `diff` when the change made exactly one `deck.changed`, and `deck`, the whole order.
    mutating func orderMember(since before: Int, into out: inout JSONOutput) {
        let session = self.session
        let revision = session?.deckRevision ?? 0
        var diff: ReorderDiff?
        var ids: [CardID]?
        if session?.wholeOrders == true {
            if revision == before + 1, let last = session?.lastDeckChange, last.stamp.revision == revision {
                diff = last.change.diff
                ids = last.change.ids
            } else {
                ids = driver?.deckIDs
            }
        }
        out.raw("\"order\":")
        Messages.order(
            revision: revision, checksum: session?.orderChecksum ?? 0, diff: diff, ids: ids, into: &out)
    }

    /// `deck.list` → `{decks: [{name, revision} | {name, error}]}`: the decks in the store, by name (needs no
    /// scene).
    func deckList(_ p: Params) throws(RPCError) -> [OutboundPart] {
        try p.only([])
        guard let store = configuration.store else { throw Self.noStore }
        var out = JSONOutput()
        out.raw("{\"decks\":[")
        do {
            for (index, name) in try store.deckNames().sorted().enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.raw("{\"name\":")
                out.string(name)
                // A deck that cannot be read is listed with the reason instead of its revision.
                do {
                    let revision = try store.loadDeck(named: name).revision
                    out.raw(",\"revision\":")
                    out.integer(revision)
                } catch {
                    out.raw(",\"error\":")
                    out.string(error.description)
                }
                out.byte(UInt8(ascii: "}"))
            }
        } catch {
            throw Self.storeError(error)
        }
        out.raw("]}")
        return [.bytes(out.bytes)]
    }

    /// `{"order": {revision, checksum, diff?, deck?}}` after a change that started at revision `before`.
    private mutating func orderResult(since before: Int) -> [OutboundPart] {
        var out = JSONOutput(capacity: 128)
        out.byte(UInt8(ascii: "{"))
        orderMember(since: before, into: &out)
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }

    /// `deck.move {card, to}` → `{order: {revision, checksum, diff}}`: moves one card without copying the deck
    /// (the engine's `moveCard`); a `deck.changed` notification goes first when the order changed.
    mutating func deckMove(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["card", "to"])
        let card = try p.requiredCard("card")
        let to = try p.requiredInt("to")
        // The position's range is a field's value: −32602 before an unknown card (−32011), as "Which error wins" says.
        if to < 0 { throw .invalidParams("to", "must be at least 0") }
        if let count = driver?.deckCount, to >= count { throw .invalidParams("to", "must be 0…\(count - 1)") }
        let time = try currentTime(now: now)
        let before = deckRevision
        try changeScene(at: time, into: &output) { (driver) throws(SceneError) in
            try driver.moveCard(card, to: to, at: time)
        }
        return orderResult(since: before)
    }

    /// `deck.sort {by, order?}` → `{order: {revision, checksum, diff}}`; `by` is `title`, `id`, `sortOrder` or
    /// `color` (the number 0xRRGGBB); a stable sort, without copying the deck (the engine's `sortDeck`).
    mutating func deckSort(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["by", "order"])
        guard let by = try p.choice("by", ["title", "id", "sortOrder", "color"]), let key = DeckSortKey(rawValue: by)
        else {
            throw .invalidParams("by", "is required (\"title\", \"id\", \"sortOrder\" or \"color\")")
        }
        let descending = try p.choice("order", ["ascending", "descending"]) == "descending"
        let time = try currentTime(now: now)
        let before = deckRevision
        try changeScene(at: time, into: &output) { (driver) throws(SceneError) in
            try driver.sortDeck(by: key, descending: descending, at: time)
        }
        return orderResult(since: before)
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
        let given = try p.string("name")
        let driver = try requireDriver()
        let name = given ?? driver.sceneName
        guard let store = configuration.store else { throw Self.noStore }
        let revision: Int
        do {
            revision = try store.saveDeck(driver.deck, named: name, expectedRevision: nil)
        } catch {
            throw Self.storeError(error)
        }
        var out = JSONOutput()
        out.raw("{\"name\":")
        out.string(name)
        out.raw(",\"revision\":")
        out.integer(revision)
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }

    /// `deck.load {name?}` → `{name, revision, deck}`: replaces the open scene's deck with the stored one.
    mutating func deckLoad(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["name"])
        let name: String
        if let given = try p.string("name") { name = given } else { name = try requireDriver().sceneName }
        let stored = try loadDeck(named: name)
        let time = try currentTime(now: now)
        let before = deckRevision
        try changeScene(at: time, into: &output) { (driver) throws(SceneError) in
            try driver.replaceDeck(stored.deck, at: time)
        }
        var out = JSONOutput()
        out.raw("{\"name\":")
        out.string(name)
        out.raw(",\"revision\":")
        out.integer(stored.revision)
        out.byte(UInt8(ascii: ","))
        orderMember(since: before, into: &out)
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }

    func loadDeck(named name: String) throws(RPCError) -> StoredDeck {
        guard let store = configuration.store else { throw Self.noStore }
        do {
            return try store.loadDeck(named: name)
        } catch {
            throw Self.storeError(error)
        }
    }

    static let noStore = RPCError(code: RPCError.storeErrorCode, message: "store error: no store is configured")

    static func storeError(_ error: StoreError) -> RPCError {
        RPCError(code: RPCError.storeErrorCode, message: "store error: \(error.description)")
    }
}
