import CardEngine
import CardGestures
import CardJSON
import CardModels

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
        var out = notificationPrefix(method)
        params(&out)
        out.raw("}}")
        return out.bytes
    }

    /// `{"jsonrpc":"2.0","method":M,"params":{` — the caller writes the members and the closing `}}`.
    static func notificationPrefix(_ method: StaticString) -> JSONOutput {
        var out = JSONOutput()
        out.raw("{\"jsonrpc\":\"2.0\",\"method\":\"")
        out.raw(method)
        out.raw("\",\"params\":{")
        return out
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
                let stamp = order ?? OrderStamp(change: change, revision: 0, wholeOrder: false)
                deckChangedHead(change, seq: seq, stamp: stamp, into: &out)
                changeDiff(change.diff, sources: change.sources, into: &out)
                deckChangedTail(change, stamp: stamp, into: &out)
            }
        }
    }

    /// `event(_:seq:order:)` as an outbound message: `.streamed` for a `deck.changed` whose diff travels as its
    /// sources and whose moves are not counted yet (a sort's: `ReorderDiff(sortSources:counted:)`), so that the
    /// sources are written while the moves are counted; `.message` otherwise. The bytes are the same.
    static func outbound(_ event: EngineEvent, seq: Int, order: OrderStamp? = nil) -> Outbound {
        guard case .deckChanged(let change) = event, let sources = change.sources else {
            return .message(self.event(event, seq: seq, order: order))
        }
        let stamp = order ?? OrderStamp(change: change, revision: 0, wholeOrder: false)
        let diff = change.diff
        let bounds = diff.moveCountBounds
        guard bounds.lowerBound < bounds.upperBound, !stamp.wholeOrder, packsSources(diff, bounds: bounds) == true
        else { return .message(self.event(event, seq: seq, order: order)) }
        var out = notificationPrefix("deck.changed")
        deckChangedHead(change, seq: seq, stamp: stamp, into: &out)
        changeDiffSources(diff, sources: sources, into: &out)
        let head = out.bytes
        return .streamed(
            head: head,
            tail: OutboundTail {
                var out = JSONOutput(capacity: 64)
                changeDiffMoved(diff, into: &out)
                deckChangedTail(change, stamp: stamp, into: &out)
                out.raw("}}")
                return out.bytes
            })
    }

    /// A `deck.changed`'s members before its diff, and the `diff` key.
    private static func deckChangedHead(_ change: DeckChange, seq: Int, stamp: OrderStamp, into out: inout JSONOutput) {
        header(seq: seq, time: change.time, into: &out)
        out.nextKey("revision")
        out.integer(stamp.revision)
        out.nextKey("checksum")
        out.unsigned(UInt64(stamp.checksum))
        out.nextKey("diff")
    }

    /// A `deck.changed`'s members after its diff.
    private static func deckChangedTail(_ change: DeckChange, stamp: OrderStamp, into out: inout JSONOutput) {
        if !change.diff.insertions.isEmpty {
            // The cards that came in, so a host applies the change from the change alone. O(insertions).
            out.nextKey("inserted")
            cardIDs(change.diff.insertions.map { change.ids[$0] }, into: &out)
        }
        if stamp.wholeOrder {
            out.nextKey("deck")
            cardIDs(change.ids, into: &out)
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

    static func header(seq: Int, time: Double, into out: inout JSONOutput) {
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

    /// The diff of a `deck.changed`: `diff(_:into:)`'s arrays, or `{"sources": S, "moved": M}` for a pure reorder
    /// (no removals or insertions) whose moves would be longer as JSON (`packsSources`). `S`: for each slot of the
    /// new order, the slot of the old order its card came from, as little-endian 32-bit integers in base64; `M`:
    /// the number of moves of the minimal diff. A million-card sort: 5.3 MB instead of about 16 MB, and written
    /// several times faster. O(moves) for the arrays, O(n) for the sources. `knownSources`, the change's own
    /// (`DeckChange.sources`: a sort's), are what `sourceSlots(of:)` would rebuild from the moves; given, they are
    /// written as they are.
    static func changeDiff(_ diff: ReorderDiff, sources knownSources: [Int32]? = nil, into out: inout JSONOutput) {
        guard packsSources(diff) else {
            self.diff(diff, into: &out)
            return
        }
        changeDiffSources(diff, sources: knownSources, into: &out)
        changeDiffMoved(diff, into: &out)
    }

    /// `{"sources":S` of a packed diff (`changeDiff`).
    static func changeDiffSources(_ diff: ReorderDiff, sources knownSources: [Int32]?, into out: inout JSONOutput) {
        out.raw("{\"sources\":")
        #if _endian(little)
            if let knownSources, knownSources.count == diff.newCount {
                // A million sources are 5.3 MB of base64: from `TwoThreads.minimumCount` slots, half on each thread.
                knownSources.withUnsafeBytes { bytes in
                    out.base64String(bytes) { part in TwoThreads.run(count: knownSources.count, part) }
                }
            } else {
                sourceSlots(of: diff).withUnsafeBytes { out.base64String($0) }
            }
        #else
            sourceSlots(of: diff).withUnsafeBytes { out.base64String($0) }
        #endif
    }

    /// `,"moved":M}`, the end of a packed diff (`changeDiff`): M is the diff's move count (for a sort's diff, its
    /// search runs here if nothing read the count before).
    static func changeDiffMoved(_ diff: ReorderDiff, into out: inout JSONOutput) {
        out.raw(",\"moved\":")
        out.integer(diff.moveCount)
        out.byte(UInt8(ascii: "}"))
    }

    /// Whether `diff` travels as source slots: a pure reorder of at most 2³² cards whose moves as JSON (`[from,to],`
    /// with indices of up to as many digits as the deck's largest index) would take more bytes than the base64 of
    /// 4 bytes per card. Decided from `ReorderDiff.moveCountBounds` when they suffice, so that a sort's diff is
    /// not searched for it; otherwise from `moveCount`.
    static func packsSources(_ diff: ReorderDiff) -> Bool {
        packsSources(diff, bounds: diff.moveCountBounds) ?? packsSources(diff, moves: diff.moveCount)
    }

    /// Whether `diff` travels as source slots with any move count in `bounds` (true or false), or nil when that
    /// depends on the count. The sources win from some count on.
    static func packsSources(_ diff: ReorderDiff, bounds: ClosedRange<Int>) -> Bool? {
        if packsSources(diff, moves: bounds.lowerBound) { return true }
        if !packsSources(diff, moves: bounds.upperBound) { return false }
        return nil
    }

    /// `packsSources(_:)` for `moves` moves.
    static func packsSources(_ diff: ReorderDiff, moves: Int) -> Bool {
        guard diff.removals.isEmpty, diff.insertions.isEmpty, diff.oldCount == diff.newCount,
            diff.newCount <= Int(UInt32.max)
        else { return false }
        let count = diff.newCount
        let digits = String(max(count - 1, 0)).utf8.count
        let asMoves = moves * (2 * digits + 4)
        let asSources = (4 * count + 2) / 3 * 4
        return asSources < asMoves
    }

    /// For each slot of the new order, the old slot of its card, from a pure reorder's batch reading: moved cards
    /// at their `to`, the others keeping their relative order in the free slots. O(n).
    static func sourceSlots(of diff: ReorderDiff) -> [UInt32] {
        let count = diff.newCount
        let unset = UInt32.max
        var sources = [UInt32](repeating: unset, count: count)
        var moved = [Bool](repeating: false, count: count)
        sources.withUnsafeMutableBufferPointer { sources in
            moved.withUnsafeMutableBufferPointer { moved in
                for move in diff.moves {
                    sources[move.to] = UInt32(truncatingIfNeeded: move.from)
                    moved[move.from] = true
                }
                var next = 0
                for slot in 0..<count where sources[slot] == unset {
                    while moved[next] { next += 1 }
                    sources[slot] = UInt32(truncatingIfNeeded: next)
                    next += 1
                }
                // Little-endian on the wire whatever the machine.
                for slot in 0..<count { sources[slot] = sources[slot].littleEndian }
            }
        }
        return sources
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

    /// The stamp of `change` at `revision` (its checksum is the engine's: O(1)).
    init(change: DeckChange, revision: Int, wholeOrder: Bool) {
        self.init(revision: revision, checksum: change.checksum, wholeOrder: wholeOrder)
    }
}
