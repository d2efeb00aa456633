import CardEngine

/// Builders for the JSON-RPC envelopes the server writes. Every function is O(size of the message).
enum Messages {
    /// `{"jsonrpc":"2.0","id":ID,"result":` — the caller writes the result and the closing `}`.
    static func responsePrefix(id: JSONValue) -> JSONOutput {
        var out = JSONOutput()
        out.raw("{\"jsonrpc\":\"2.0\",\"id\":")
        out.value(id)
        out.raw(",\"result\":")
        return out
    }

    /// A whole response whose result is `result`.
    static func response(id: JSONValue, _ result: (inout JSONOutput) -> Void) -> [UInt8] {
        var out = responsePrefix(id: id)
        result(&out)
        out.byte(UInt8(ascii: "}"))
        return out.bytes
    }

    /// An error response; `id` is null when it could not be read.
    static func error(id: JSONValue?, _ error: RPCError) -> [UInt8] {
        var out = JSONOutput()
        out.raw("{\"jsonrpc\":\"2.0\",\"id\":")
        out.value(id ?? .null)
        out.raw(",\"error\":{\"code\":")
        out.integer(error.code)
        out.raw(",\"message\":")
        out.string(error.message)
        out.raw("}}")
        return out.bytes
    }

    /// A notification `{"jsonrpc":"2.0","method":M,"params":{...}}`; `params` writes the members inside.
    static func notification(_ method: StaticString, _ params: (inout JSONOutput) -> Void) -> [UInt8] {
        var out = JSONOutput()
        out.raw("{\"jsonrpc\":\"2.0\",\"method\":\"")
        out.raw(method)
        out.raw("\",\"params\":{")
        params(&out)
        out.raw("}}")
        return out.bytes
    }

    /// The notification for one engine event. A `deck.changed` carries `order`: the deck's revision after the change
    /// and the checksum of the new order (`OrderChecksum`), and the whole order only when `order.wholeOrder`.
    static func event(_ event: EngineEvent, seq: Int, order: OrderStamp? = nil) -> [UInt8] {
        switch event {
        case .gesture(let note):
            return notification("gesture") { out in
                header(seq: seq, time: note.time, into: &out)
                out.nextKey("kind")
                out.string(note.kind)
                out.nextKey("phase")
                out.string(phaseName(note.phase))
                out.nextKey("target")
                out.string(note.target.rawValue)
                if let card = note.card {
                    out.nextKey("card")
                    cardID(card, into: &out)
                }
            }
        case .haptic(let haptic):
            return notification("haptic") { out in
                header(seq: seq, time: haptic.time, into: &out)
                out.nextKey("style")
                out.string(haptic.style.rawValue)
                out.nextKey("target")
                if let target = haptic.target { out.string(target.rawValue) } else { out.raw("null") }
                if let card = haptic.card {
                    out.nextKey("card")
                    cardID(card, into: &out)
                }
            }
        case .deckChanged(let change):
            return notification("deck.changed") { out in
                header(seq: seq, time: change.time, into: &out)
                let stamp = order ?? OrderStamp(change: change, revision: 0, wholeOrder: false)
                out.nextKey("revision")
                out.integer(stamp.revision)
                out.nextKey("checksum")
                out.unsigned(UInt64(stamp.checksum))
                out.nextKey("diff")
                diff(change.diff, into: &out)
                if stamp.wholeOrder {
                    out.nextKey("deck")
                    cardIDs(change.ids, into: &out)
                }
            }
        }
    }

    /// `{"revision":R,"checksum":C}` plus the diff and the ids when given: the `order` member of a
    /// result (`deck.get`, `deck.move`, `deck.sort`, `deck.load`, `scene.open`, `scene.action`).
    static func order(
        revision: Int, checksum: UInt32, diff: ReorderDiff?, ids: [CardID]?, into out: inout JSONOutput
    ) {
        out.raw("{\"revision\":")
        out.integer(revision)
        out.raw(",\"checksum\":")
        out.unsigned(UInt64(checksum))
        if let diff {
            out.raw(",\"diff\":")
            self.diff(diff, into: &out)
        }
        if let ids {
            out.raw(",\"deck\":")
            cardIDs(ids, into: &out)
        }
        out.byte(UInt8(ascii: "}"))
    }

    private static func header(seq: Int, time: Double, into out: inout JSONOutput) {
        out.key("seq")
        out.integer(seq)
        out.nextKey("t")
        out.number(time)
    }

    static func phaseName(_ phase: GesturePhase) -> String {
        switch phase {
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        case .failed: "failed"
        }
    }

    /// Card ids go on the wire as decimal strings (they may exceed 2^53, which JSON numbers cannot carry exactly).
    static func cardID(_ id: CardID, into out: inout JSONOutput) {
        out.byte(UInt8(ascii: "\""))
        out.unsigned(id.rawValue)
        out.byte(UInt8(ascii: "\""))
    }

    static func cardIDs(_ ids: [CardID], into out: inout JSONOutput) {
        out.byte(UInt8(ascii: "["))
        for (index, id) in ids.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            cardID(id, into: &out)
        }
        out.byte(UInt8(ascii: "]"))
    }

    /// `{"removals":[...],"insertions":[...],"moves":[[from,to],...]}`.
    static func diff(_ diff: ReorderDiff, into out: inout JSONOutput) {
        out.raw("{\"removals\":")
        integers(diff.removals, into: &out)
        out.raw(",\"insertions\":")
        integers(diff.insertions, into: &out)
        out.raw(",\"moves\":[")
        for (index, move) in diff.moves.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.byte(UInt8(ascii: "["))
            out.integer(move.from)
            out.byte(UInt8(ascii: ","))
            out.integer(move.to)
            out.byte(UInt8(ascii: "]"))
        }
        out.raw("]}")
    }

    static func integers(_ values: [Int], into out: inout JSONOutput) {
        out.byte(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.integer(value)
        }
        out.byte(UInt8(ascii: "]"))
    }
}

extension JSONOutput {
    /// Writes a parsed value back as compact JSON (numbers keep their exact text).
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: raw("null")
        case .bool(let flag): bool(flag)
        case .number(let text):
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        case .string(let text): string(text)
        case .array(let elements):
            byte(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { byte(UInt8(ascii: ",")) }
                self.value(element)
            }
            byte(UInt8(ascii: "]"))
        case .object(let members):
            byte(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { byte(UInt8(ascii: ",")) }
                string(member.key)
                byte(UInt8(ascii: ":"))
                self.value(member.value)
            }
            byte(UInt8(ascii: "}"))
        }
    }
}

/// Where a deck change leaves the host's copy of the order: the revision (0 at `scene.open`, +1 per
/// `deck.changed`), the order's checksum, and whether the session asked for whole orders (`initialize`'s
/// `deckOrder: "full"`).
struct OrderStamp: Sendable, Hashable {
    var revision: Int
    var checksum: UInt32
    var wholeOrder: Bool

    init(revision: Int, checksum: UInt32, wholeOrder: Bool) {
        self.revision = revision
        self.checksum = checksum
        self.wholeOrder = wholeOrder
    }

    /// The stamp of `change` at `revision` (computes the checksum of its order: O(n)).
    init(change: DeckChange, revision: Int, wholeOrder: Bool) {
        self.init(revision: revision, checksum: OrderChecksum.of(change.ids), wholeOrder: wholeOrder)
    }
}
