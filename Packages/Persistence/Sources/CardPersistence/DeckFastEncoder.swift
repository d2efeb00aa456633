import CardJSON
import CardModels

/// The fast path for writing deck documents: streams compact JSON straight from the deck into a byte buffer.
///
/// The output has the same envelope and field names as `JSONEncoder` gives for `DeckDocument` (keys in the same
/// order; `/` is not escaped, which JSON allows), so Foundation's `JSONDecoder` reads it. O(bytes) time; memory is
/// the writer's buffer, whatever the deck's size. A card's payload is also written here as the stdio protocol's
/// `content` (`content(_:into:)`), so both forms of a kind of card content live in one place.
public enum DeckFastEncoder {
    /// The whole document as one byte array (UTF-8 JSON).
    public static func encode(_ document: DeckDocument) -> [UInt8] {
        // The collecting writer's flush only appends to an array, which cannot fail.
        (try? JSONByteWriter.collect { try write(document, to: $0) }) ?? []
    }

    /// Streams the document into `writer`; errors come only from the writer's flush.
    static func write(_ document: DeckDocument, to writer: JSONByteWriter) throws {
        try writer.raw("{\"format\":")
        try writer.string(document.format)
        try writer.raw(",\"schemaVersion\":")
        try writer.integer(Int64(document.schemaVersion))
        try writer.raw(",\"revision\":")
        try writer.integer(Int64(document.revision))
        try writer.raw(",\"deck\":")
        try write(document.deck, to: writer)
        try writer.byte(UInt8(ascii: "}"))
    }

    /// Streams a bare deck, `{"cards":[...]}`.
    static func write(_ deck: Deck, to writer: JSONByteWriter) throws {
        try writer.raw("{\"cards\":[")
        var first = true
        for card in deck.cards {
            if !first { try writer.byte(UInt8(ascii: ",")) }
            first = false
            try write(card, to: writer)
        }
        try writer.raw("]}")
    }

    static func write(_ card: Card, to writer: JSONByteWriter) throws {
        try writer.raw("{\"id\":\"")
        try writer.unsigned(card.id.rawValue)
        try writer.raw("\",\"title\":")
        try writer.string(card.title)
        try writer.raw(",\"color\":")
        try writer.hexColor(red: card.color.red, green: card.color.green, blue: card.color.blue)
        try writer.raw(",\"sortOrder\":")
        try writer.integer(Int64(card.sortOrder))
        try writer.raw(",\"payload\":")
        try write(card.payload, to: writer)
        try writer.byte(UInt8(ascii: "}"))
    }

    static func write(_ payload: CardPayload, to writer: JSONByteWriter) throws {
        switch payload {
        case .plain:
            try writer.raw("{\"kind\":\"plain\"}")
        case .student(let scores):
            try writer.raw("{\"kind\":\"student\",\"scores\":[")
            for (index, score) in scores.scores.enumerated() {
                if index > 0 { try writer.byte(UInt8(ascii: ",")) }
                try writer.integer(Int64(score))
            }
            try writer.raw("]}")
        case .payment(let card):
            try writer.raw("{\"kind\":\"payment\",\"number\":")
            try writer.string(card.number)
            try writer.raw(",\"holder\":")
            try writer.string(card.holder)
            try writer.raw(",\"expiry\":")
            try writer.string(card.expiry)
            try writer.raw(",\"brand\":")
            try writer.string(card.brand.rawValue)
            try writer.byte(UInt8(ascii: "}"))
        case .flashcard(let card):
            try writer.raw("{\"kind\":\"flashcard\",\"prompt\":")
            try writer.string(card.prompt)
            try writer.raw(",\"answer\":")
            try writer.string(card.answer)
            try writer.byte(UInt8(ascii: "}"))
        case .itemLine(let line):
            try writer.raw("{\"kind\":\"itemLine\",\"items\":[")
            for (index, item) in line.items.enumerated() {
                if index > 0 { try writer.byte(UInt8(ascii: ",")) }
                try writer.raw("{\"id\":")
                try writer.string(item.id)
                try writer.raw(",\"color\":")
                try writer.hexColor(red: item.color.red, green: item.color.green, blue: item.color.blue)
                try writer.raw(",\"icon\":")
                try writer.string(item.icon)
                try writer.raw(",\"text\":")
                try writer.string(item.text)
                try writer.byte(UInt8(ascii: "}"))
            }
            try writer.raw("]}")
        }
    }
}

extension DeckFastEncoder {
    /// What a card holds besides its title, as the stdio protocol's `deck.get` sends it (`content`), without
    /// `kind` (the card carries it already), written once: `{}` for a plain card, `{"scores":[…]}` for a student, `{"brand","expiry","holder","number"}` for a payment card,
    /// `{"answer","prompt"}` for a flashcard, `{"items":[{"color","icon","id","text"}]}` for an item line. The
    /// members are the payload's `Codable` form with keys sorted (colours as `#RRGGBB`), as the protocol has sent
    /// them since 1.0 (`CardContentTests` holds it to that, byte for byte). Beside the store's form above, so a new
    /// kind of card content adds both here (the switches are exhaustive). O(bytes).
    package static func content(_ payload: CardPayload, into out: inout JSONOutput) {
        switch payload {
        case .plain:
            out.raw("{}")
        case .student(let scores):
            out.raw("{\"scores\":[")
            for (index, score) in scores.scores.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.integer(score)
            }
            out.raw("]}")
        case .payment(let card):
            out.raw("{\"brand\":")
            out.string(card.brand.rawValue)
            out.raw(",\"expiry\":")
            out.string(card.expiry)
            out.raw(",\"holder\":")
            out.string(card.holder)
            out.raw(",\"number\":")
            out.string(card.number)
            out.byte(UInt8(ascii: "}"))
        case .flashcard(let card):
            out.raw("{\"answer\":")
            out.string(card.answer)
            out.raw(",\"prompt\":")
            out.string(card.prompt)
            out.byte(UInt8(ascii: "}"))
        case .itemLine(let line):
            out.raw("{\"items\":[")
            for (index, item) in line.items.enumerated() {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                out.raw("{\"color\":")
                out.string(item.color.hex)
                out.raw(",\"icon\":")
                out.string(item.icon)
                out.raw(",\"id\":")
                out.string(item.id)
                out.raw(",\"text\":")
                out.string(item.text)
                out.byte(UInt8(ascii: "}"))
            }
            out.raw("]}")
        }
    }
}
