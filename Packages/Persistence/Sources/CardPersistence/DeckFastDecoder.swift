import CardJSON
import CardModels

/// The fast path for reading deck documents: one strict pass over the bytes straight into `Card` values.
///
/// Accepts exactly what `JSONDecoder` accepts for `DeckDocument` written by either path (keys in any order,
/// unknown keys ignored, a card id as a decimal string or a non-negative integer), and rejects what a strict
/// parser must (see `JSONScanner`), plus duplicate keys, wrong types, missing keys, duplicate card ids and numbers
/// that are not exact integers in range. Every error names the byte offset. O(bytes) time; memory is the deck.
public enum DeckFastDecoder {
    /// What was read: the document (migrated to the current schema when it was older) and where it came from.
    public struct Result: Sendable, Hashable {
        /// The document. For a newer schema `schemaVersion` is the file's own (so callers know to open it
        /// read-only); otherwise it is `DeckDocument.currentSchemaVersion`.
        public var document: DeckDocument
        /// The file's schema version when it was older and has been migrated, else nil.
        public var migratedFrom: Int?
    }

    /// Reads a deck document of any known or newer schema version, migrating older ones.
    public static func decodeDocument(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONDecodeError) -> Result {
        try bytes.withBytes { (buffer) throws(JSONDecodeError) -> Result in
            try decodeDocument(buffer, maxDepth: maxDepth)
        }
    }

    /// Reads a bare deck, `{"cards":[...]}` (the `Deck` Codable form), as a document would hold it.
    public static func decodeDeck(_ bytes: [UInt8], maxDepth: Int = 512) throws(JSONDecodeError) -> Deck {
        try bytes.withBytes { (buffer) throws(JSONDecodeError) -> Deck in
            var scanner = JSONScanner(buffer, maxDepth: maxDepth)
            try scanner.expectStart()
            let deck = try readDeck(&scanner, depth: 0)
            try scanner.expectEnd()
            return deck
        }
    }

    /// Reads a deck from either a deck document (a top-level object with `"format"`) or a bare deck, for imports.
    /// Two passes: one over the top-level keys to tell which, one to read. O(bytes).
    public static func decodeDocumentOrDeck(_ bytes: [UInt8]) throws(JSONDecodeError) -> Deck {
        let isDocument = try bytes.withBytes { (buffer) throws(JSONDecodeError) -> Bool in
            var scanner = JSONScanner(buffer)
            try scanner.expectStart()
            if try scanner.openObject("a deck document or a deck") { return false }
            var hasFormat = false
            repeat {
                let key = try scanner.readKey()
                if scanner.equals(key, "format") { hasFormat = true }
                try scanner.skipValue(depth: 1)
            } while try scanner.nextElement(close: UInt8(ascii: "}"), "the document")
            try scanner.expectEnd()
            return hasFormat
        }
        return isDocument ? try decodeDocument(bytes).document.deck : try decodeDeck(bytes)
    }

    static func decodeDocument(_ buffer: UnsafeRawBufferPointer, maxDepth: Int) throws(JSONDecodeError) -> Result {
        var scanner = JSONScanner(buffer, maxDepth: maxDepth)
        try scanner.expectStart()
        let documentStart = scanner.position
        if try scanner.openObject("a deck document") {
            throw scanner.error("not a Cardistry deck document: the object is empty", at: documentStart)
        }
        var format: String?
        var schemaVersion: Int?
        var revision: Int?
        var deck: Deck?
        var deferredDeck: Int?  // offset of a "deck" value seen before "schemaVersion"
        var seen: Set<String> = []
        repeat {
            scanner.skipWhitespace()
            let keyOffset = scanner.position
            let key = try scanner.readKey()
            let name = scanner.string(key)
            guard seen.insert(name).inserted else { throw scanner.error("duplicate key \"\(name)\"", at: keyOffset) }
            switch name {
            case "format": format = try scanner.readString("the format")
            case "schemaVersion": schemaVersion = try scanner.readInt("the schema version", in: 1...Int(Int32.max))
            case "revision": revision = try scanner.readInt("the revision", in: 0...Int.max)
            case "deck":
                scanner.skipWhitespace()
                if let schemaVersion, schemaVersion >= DeckDocument.currentSchemaVersion {
                    deck = try readDeck(&scanner, depth: 1, schemaVersion: schemaVersion)
                } else {
                    deferredDeck = scanner.position
                    try scanner.skipValue(depth: 1)
                }
            default: try scanner.skipValue(depth: 1)
            }
        } while try scanner.nextElement(close: UInt8(ascii: "}"), "the document")
        try scanner.expectEnd()

        guard let format else {
            throw scanner.error("not a Cardistry deck document: no \"format\"", at: documentStart)
        }
        guard format == DeckDocument.formatName else {
            throw scanner.error(
                "not a Cardistry deck document: format is \"\(format)\", expected \"\(DeckDocument.formatName)\"",
                at: documentStart)
        }
        guard let schemaVersion else { throw scanner.error("no \"schemaVersion\"", at: documentStart) }
        if schemaVersion < DeckDocument.currentSchemaVersion {
            return try migrate(buffer, from: schemaVersion, maxDepth: maxDepth)
        }
        if deck == nil, let deferredDeck {
            var deckScanner = scanner
            deckScanner.position = deferredDeck
            deck = try readDeck(&deckScanner, depth: 1, schemaVersion: schemaVersion)
        }
        guard let deck else { throw scanner.error("no \"deck\"", at: documentStart) }
        guard let revision, revision >= 1 else {
            throw scanner.error(
                revision == nil ? "no \"revision\"" : "the revision must be at least 1", at: documentStart)
        }
        return Result(
            document: DeckDocument(deck: deck, revision: revision, schemaVersion: schemaVersion, format: format),
            migratedFrom: nil)
    }

    /// Older documents: parse to a tree, run the migration chain, and read the result with the fast path.
    private static func migrate(
        _ buffer: UnsafeRawBufferPointer, from version: Int, maxDepth: Int
    ) throws(JSONDecodeError) -> Result {
        let tree = try JSONValue(parsing: buffer, maxDepth: maxDepth)
        let migrated: JSONValue
        do {
            migrated = try DocumentMigrations.migrateDeck(tree, from: version)
        } catch {
            throw JSONDecodeError(offset: 0, reason: error.description)
        }
        var result = try decodeDocument(migrated.jsonBytes, maxDepth: maxDepth)
        result.migratedFrom = version
        return result
    }

    // MARK: Deck and cards

    /// Reads the deck of a document; for a newer schema the error says that a newer Cardistry wrote it.
    private static func readDeck(
        _ scanner: inout JSONScanner, depth: Int, schemaVersion: Int
    ) throws(JSONDecodeError) -> Deck {
        do {
            return try readDeck(&scanner, depth: depth)
        } catch  where schemaVersion > DeckDocument.currentSchemaVersion {
            throw JSONDecodeError(
                offset: error.offset,
                reason: error.reason
                    + " (schema version \(schemaVersion), newer than this Cardistry's \(DeckDocument.currentSchemaVersion))"
            )
        }
    }

    static func readDeck(_ scanner: inout JSONScanner, depth: Int) throws(JSONDecodeError) -> Deck {
        scanner.skipWhitespace()
        let start = scanner.position
        guard depth + 2 < scanner.maxDepth else {
            throw scanner.error("nesting deeper than \(scanner.maxDepth) levels")
        }
        if try scanner.openObject("a deck") { throw scanner.error("a deck needs \"cards\"", at: start) }
        var cards: [Card]?
        var cardsOffset = start
        repeat {
            scanner.skipWhitespace()
            let keyOffset = scanner.position
            let key = try scanner.readKey()
            if scanner.equals(key, "cards") {
                guard cards == nil else { throw scanner.error("duplicate key \"cards\"", at: keyOffset) }
                scanner.skipWhitespace()
                cardsOffset = scanner.position
                cards = try readCards(&scanner, depth: depth + 1)
            } else {
                try scanner.skipValue(depth: depth + 1)
            }
        } while try scanner.nextElement(close: UInt8(ascii: "}"), "a deck")
        guard let cards else { throw scanner.error("a deck needs \"cards\"", at: start) }
        do {
            return try Deck(cards)
        } catch {
            throw scanner.error(error.description, at: cardsOffset)
        }
    }

    private static func readCards(_ scanner: inout JSONScanner, depth: Int) throws(JSONDecodeError) -> [Card] {
        var cards: [Card] = []
        if try scanner.openArray("the cards") { return cards }
        // A rough capacity guess from the bytes left (a plain card is about 110 bytes) saves regrowth.
        cards.reserveCapacity(min((scanner.end - scanner.position) / 100, 1 << 24))
        repeat {
            cards.append(try readCard(&scanner, depth: depth + 1))
        } while try scanner.nextElement(close: UInt8(ascii: "]"), "the cards")
        return cards
    }

    private static func readCard(_ scanner: inout JSONScanner, depth: Int) throws(JSONDecodeError) -> Card {
        scanner.skipWhitespace()
        let start = scanner.position
        var id = CardID(0)
        var title = ""
        var color = RGBColor.black
        var sortOrder = 0
        var payload = CardPayload.plain
        var seen = 0
        if try !scanner.openObject("a card") {
            repeat {
                scanner.skipWhitespace()
                let keyOffset = scanner.position
                let key = try scanner.readKey()
                let bit: Int
                if scanner.equals(key, "id") {
                    bit = 1
                    id = try scanner.readCardID()
                } else if scanner.equals(key, "title") {
                    bit = 2
                    title = try scanner.readString("a card's title")
                } else if scanner.equals(key, "color") {
                    bit = 4
                    color = try scanner.readColor("a card's color")
                } else if scanner.equals(key, "sortOrder") {
                    bit = 8
                    sortOrder = try scanner.readInt("a card's sortOrder", in: Int.min...Int.max)
                } else if scanner.equals(key, "payload") {
                    bit = 16
                    payload = try readPayload(&scanner, depth: depth + 1)
                } else {
                    try scanner.skipValue(depth: depth + 1)
                    continue
                }
                guard seen & bit == 0 else {
                    throw scanner.error("duplicate key \"\(scanner.string(key))\" in a card", at: keyOffset)
                }
                seen |= bit
            } while try scanner.nextElement(close: UInt8(ascii: "}"), "a card")
        }
        if seen != 31 {
            let names = ["id", "title", "color", "sortOrder", "payload"]
            let missing = names.indices.filter { seen & (1 << $0) == 0 }.map { names[$0] }
            throw scanner.error("a card is missing \"\(missing.joined(separator: "\", \""))\"", at: start)
        }
        return Card(id: id, title: title, color: color, sortOrder: sortOrder, payload: payload)
    }

    private static func readPayload(_ scanner: inout JSONScanner, depth: Int) throws(JSONDecodeError) -> CardPayload {
        scanner.skipWhitespace()
        let start = scanner.position
        var fields = PayloadFields()
        if try !scanner.openObject("a card's payload") {
            repeat {
                scanner.skipWhitespace()
                let keyOffset = scanner.position
                let key = try scanner.readKey()
                guard let field = PayloadFields.Field.named(key, in: scanner) else {
                    try scanner.skipValue(depth: depth + 1)
                    continue
                }
                guard !fields.has(field) else {
                    throw scanner.error("duplicate key \"\(field.name)\" in a payload", at: keyOffset)
                }
                try fields.read(field, &scanner, depth: depth + 1)
            } while try scanner.nextElement(close: UInt8(ascii: "}"), "a payload")
        }
        return try fields.payload(scanner, at: start)
    }
}

/// The fields a payload object may hold, gathered in any key order and turned into a `CardPayload` at the end
/// (Codable reads `kind` first; JSON does not order keys). Plain stored properties and a bit set: no hashing.
private struct PayloadFields {
    enum Field: Int {
        case kind, scores, number, holder, expiry, brand, prompt, answer, items

        var name: String {
            ["kind", "scores", "number", "holder", "expiry", "brand", "prompt", "answer", "items"][rawValue]
        }

        /// The field a key names, or nil for a key that payloads do not have (it is skipped).
        static func named(_ key: JSONScanner.RawString, in scanner: JSONScanner) -> Field? {
            if scanner.equals(key, "kind") { return .kind }
            if scanner.equals(key, "scores") { return .scores }
            if scanner.equals(key, "number") { return .number }
            if scanner.equals(key, "holder") { return .holder }
            if scanner.equals(key, "expiry") { return .expiry }
            if scanner.equals(key, "brand") { return .brand }
            if scanner.equals(key, "prompt") { return .prompt }
            if scanner.equals(key, "answer") { return .answer }
            if scanner.equals(key, "items") { return .items }
            return nil
        }
    }

    var seen = 0
    var kind = ""
    var scores: [Int] = []
    var scoresOffset = 0
    var number = ""
    var holder = ""
    var expiry = ""
    var brand = ""
    var brandOffset = 0
    var prompt = ""
    var answer = ""
    var items: [ItemLine.Item] = []

    func has(_ field: Field) -> Bool { seen & (1 << field.rawValue) != 0 }

    mutating func read(_ field: Field, _ scanner: inout JSONScanner, depth: Int) throws(JSONDecodeError) {
        seen |= 1 << field.rawValue
        switch field {
        case .kind: kind = try scanner.readString("a payload's kind")
        case .scores:
            scanner.skipWhitespace()
            scoresOffset = scanner.position
            if try !scanner.openArray("a student's scores") {
                repeat {
                    scores.append(try scanner.readInt("a score", in: Int.min...Int.max))
                } while try scanner.nextElement(close: UInt8(ascii: "]"), "the scores")
            }
        case .items:
            if try !scanner.openArray("a line's items") {
                repeat {
                    items.append(try PayloadFields.readItem(&scanner, depth: depth + 1))
                } while try scanner.nextElement(close: UInt8(ascii: "]"), "the items")
            }
        case .brand:
            scanner.skipWhitespace()
            brandOffset = scanner.position
            brand = try scanner.readString("a payment card's brand")
        case .number: number = try scanner.readString("a payment card's number")
        case .holder: holder = try scanner.readString("a payment card's holder")
        case .expiry: expiry = try scanner.readString("a payment card's expiry")
        case .prompt: prompt = try scanner.readString("a flashcard's prompt")
        case .answer: answer = try scanner.readString("a flashcard's answer")
        }
    }

    func payload(_ scanner: JSONScanner, at start: Int) throws(JSONDecodeError) -> CardPayload {
        guard has(.kind) else { throw scanner.error("a payload needs \"kind\"", at: start) }
        func need(_ fields: [Field]) throws(JSONDecodeError) {
            for field in fields where !has(field) {
                throw scanner.error("a \(kind) payload needs \"\(field.name)\"", at: start)
            }
        }
        switch kind {
        case "plain":
            return .plain
        case "student":
            try need([.scores])
            do {
                return .student(try StudentScores(scores))
            } catch {
                throw scanner.error(error.description, at: scoresOffset)
            }
        case "payment":
            try need([.number, .holder, .expiry, .brand])
            guard let brandValue = PaymentCard.Brand(rawValue: brand) else {
                throw scanner.error("unknown payment card brand \"\(brand)\"", at: brandOffset)
            }
            return .payment(PaymentCard(number: number, holder: holder, expiry: expiry, brand: brandValue))
        case "flashcard":
            try need([.prompt, .answer])
            return .flashcard(Flashcard(prompt: prompt, answer: answer))
        case "itemLine":
            try need([.items])
            return .itemLine(ItemLine(items: items))
        default:
            throw scanner.error(
                "unknown card kind \"\(kind)\" (plain, student, payment, flashcard, itemLine)", at: start)
        }
    }

    static func readItem(_ scanner: inout JSONScanner, depth: Int) throws(JSONDecodeError) -> ItemLine.Item {
        scanner.skipWhitespace()
        let start = scanner.position
        var id = ""
        var color = RGBColor.black
        var icon = ""
        var text = ""
        var seen = 0
        if try !scanner.openObject("an item") {
            repeat {
                scanner.skipWhitespace()
                let keyOffset = scanner.position
                let key = try scanner.readKey()
                let bit: Int
                if scanner.equals(key, "id") {
                    bit = 1
                    id = try scanner.readString("an item's id")
                } else if scanner.equals(key, "color") {
                    bit = 2
                    color = try scanner.readColor("an item's color")
                } else if scanner.equals(key, "icon") {
                    bit = 4
                    icon = try scanner.readString("an item's icon")
                } else if scanner.equals(key, "text") {
                    bit = 8
                    text = try scanner.readString("an item's text")
                } else {
                    try scanner.skipValue(depth: depth + 1)
                    continue
                }
                guard seen & bit == 0 else {
                    throw scanner.error("duplicate key \"\(scanner.string(key))\" in an item", at: keyOffset)
                }
                seen |= bit
            } while try scanner.nextElement(close: UInt8(ascii: "}"), "an item")
        }
        guard seen == 15 else {
            throw scanner.error("an item needs \"id\", \"color\", \"icon\" and \"text\"", at: start)
        }
        return ItemLine.Item(id: id, color: color, icon: icon, text: text)
    }
}

extension JSONScanner {
    /// Reads a string value.
    mutating func readString(_ what: @autoclosure () -> String) throws(JSONDecodeError) -> String {
        let byte = try peek(what())
        guard byte == UInt8(ascii: "\"") else {
            throw error("expected \(what()) (a string), found \(JSONScanner.describe(byte))")
        }
        return string(try readRawString())
    }

    /// Reads an integer value, exactly, within `range`.
    mutating func readInt(_ what: @autoclosure () -> String, in range: ClosedRange<Int>) throws(JSONDecodeError) -> Int
    {
        let byte = try peek(what())
        guard byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte) else {
            throw error("expected \(what()) (a number), found \(JSONScanner.describe(byte))")
        }
        let raw = try readRawNumber()
        if raw.isPlainInteger && raw.end - raw.start < 19 {  // fits in Int64 without an overflow check
            var index = raw.start
            let negative = base[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var value = 0
            while index < raw.end {
                value = value * 10 + Int(base[index] &- UInt8(ascii: "0"))
                index += 1
            }
            if negative { value = -value }
            guard range.contains(value) else {
                throw error("\(what()) is out of range \(range.lowerBound)…\(range.upperBound)", at: raw.start)
            }
            return value
        }
        return Int(try integer(raw, in: Int64(range.lowerBound)...Int64(range.upperBound), what()))
    }

    /// Reads a card id: a decimal string (as `CardID` encodes) or a non-negative integer.
    mutating func readCardID() throws(JSONDecodeError) -> CardID {
        let byte = try peek("a card id")
        let offset = position
        if byte == UInt8(ascii: "\"") {
            let raw = try readRawString()
            let length = raw.end - raw.start
            if !raw.hasEscapes && length > 0 && length <= 20 {
                var value: UInt64 = 0
                var index = raw.start
                var overflow = false
                while index < raw.end, JSONScanner.isDigit(base[index]) {
                    let (times, o1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times.addingReportingOverflow(UInt64(base[index] &- UInt8(ascii: "0")))
                    overflow = overflow || o1 || o2
                    value = sum
                    index += 1
                }
                if index == raw.end && !overflow { return CardID(value) }
            }
            // The general case, with exactly `CardID`'s Codable rules.
            let text = string(raw)
            guard let id = CardID(text) else {
                throw error("a card id must be a decimal string of 0…2^64−1, got \"\(text)\"", at: offset)
            }
            return id
        }
        guard byte == UInt8(ascii: "-") || JSONScanner.isDigit(byte) else {
            throw error("expected a card id (a decimal string), found \(JSONScanner.describe(byte))")
        }
        return CardID(try unsignedInteger(try readRawNumber(), "a card id"))
    }

    /// Reads a colour string, `"#RRGGBB"` or `"RRGGBB"` in either case (as `RGBColor` decodes).
    mutating func readColor(_ what: @autoclosure () -> String) throws(JSONDecodeError) -> RGBColor {
        let byte = try peek(what())
        guard byte == UInt8(ascii: "\"") else {
            throw error("expected \(what()) (a \"#RRGGBB\" string), found \(JSONScanner.describe(byte))")
        }
        let offset = position
        let raw = try readRawString()
        var start = raw.start
        if !raw.hasEscapes && start < raw.end && base[start] == UInt8(ascii: "#") { start += 1 }
        if !raw.hasEscapes && raw.end - start == 6 {
            var value: UInt32 = 0
            var valid = true
            for index in start..<raw.end {
                let digit = base[index]
                let nibble: UInt8
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
                default:
                    valid = false
                    nibble = 0
                }
                value = value << 4 | UInt32(nibble)
            }
            if valid {
                return RGBColor(
                    red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
            }
        }
        let text = string(raw)
        guard let color = RGBColor(hex: text) else {
            throw error("a colour must be \"#RRGGBB\", got \"\(text)\"", at: offset)
        }
        return color
    }
}
