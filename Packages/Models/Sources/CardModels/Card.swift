/// One card: identity, title, colour, a persisted sort order, and what the card is about.
public struct Card: Sendable, Hashable, Codable, Identifiable {
    public var id: CardID
    /// The text shown on the card.
    public var title: String
    /// The card's fill colour.
    public var color: RGBColor
    /// The user's order key (seed 004's `sortOrder`); scenes that reorder cards keep it in step with the deck.
    public var sortOrder: Int
    /// What the card carries beyond its title (a flashcard, a payment card, a student's scores…); `.plain` for none.
    public var payload: CardPayload

    /// A card. `id` must be unique within any deck the card joins.
    public init(id: CardID, title: String, color: RGBColor, sortOrder: Int = 0, payload: CardPayload = .plain) {
        self.id = id
        self.title = title
        self.color = color
        self.sortOrder = sortOrder
        self.payload = payload
    }
}

/// The kind-specific content of a card. In JSON: `{"kind": "student", "scores": [...]}` and so on.
public enum CardPayload: Sendable, Hashable, Codable {
    /// Nothing beyond title and colour (seed 004's deck cards).
    case plain
    /// A student's ten test scores (seed 000).
    case student(StudentScores)
    /// A payment card (seed 002). Boxed (`indirect`), as `flashcard`: stored inline, its strings widened every card
    /// of every deck, plain ones too; boxed, a million generated cards take less memory to fault in and zero (the
    /// stdio server holding a million cards went from 326 to 255 MB resident with this and `Deck`'s flat id table,
    /// issue 48).
    indirect case payment(PaymentCard)
    /// A flashcard (seed 003), boxed as `payment`.
    indirect case flashcard(Flashcard)
    /// A line of items (seed 001).
    case itemLine(ItemLine)

    /// The `kind` tag used in JSON.
    public var kind: String {
        switch self {
        case .plain: "plain"
        case .student: "student"
        case .payment: "payment"
        case .flashcard: "flashcard"
        case .itemLine: "itemLine"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, scores, number, holder, expiry, brand, prompt, answer, items
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "plain":
            self = .plain
        case "student":
            self = .student(try container.decode(StudentScores.self, forKey: .scores))
        case "payment":
            self = .payment(try PaymentCard(from: decoder))
        case "flashcard":
            self = .flashcard(try Flashcard(from: decoder))
        case "itemLine":
            self = .itemLine(ItemLine(items: try container.decode([ItemLine.Item].self, forKey: .items)))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "unknown card kind '\(kind)' (plain, student, payment, flashcard, itemLine)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .plain:
            break
        case .student(let scores):
            try container.encode(scores, forKey: .scores)
        case .payment(let card):
            try card.encode(to: encoder)
        case .flashcard(let card):
            try card.encode(to: encoder)
        case .itemLine(let line):
            try container.encode(line.items, forKey: .items)
        }
    }
}
