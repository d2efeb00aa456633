import CardJSON

/// The chain of pure migrations that bring an older document up to the current schema, one version at a time.
///
/// Deck documents (`format` `"cardistry.deck"`):
/// - v1 (first draft): `{"format","schemaVersion":1,"cards":[{"id":7,"title","color","payload"}]}`: no revision,
///   ids as JSON numbers, no `sortOrder` (the position was the order).
/// - v2: adds `"revision"` to the envelope (v1 documents become revision 1) and `"sortOrder"` to every card
///   (its position).
/// - v3 (current): the cards move into `"deck": {"cards": [...]}` (the `Deck` Codable form) and ids become decimal
///   strings (`CardID`'s JSON form, safe from hosts whose numbers are doubles).
///
/// Each step is a pure function from a vN tree to a vN+1 tree; committed fixtures of every older version test the
/// chain (`Tests/CardPersistenceTests/Fixtures`). State documents are at their first version and have no steps.
public enum DocumentMigrations {
    /// One step: a document of version `from` to version `from + 1`.
    public typealias Step = @Sendable (JSONValue) throws(MigrationError) -> JSONValue

    /// The deck steps, indexed by the version they start from.
    public static let deckSteps: [Int: Step] = [1: deckV1ToV2, 2: deckV2ToV3]

    /// Runs every step from `version` up to `DeckDocument.currentSchemaVersion`. O(document).
    public static func migrateDeck(_ document: JSONValue, from version: Int) throws(MigrationError) -> JSONValue {
        var value = document
        var current = version
        while current < DeckDocument.currentSchemaVersion {
            guard let step = deckSteps[current] else {
                throw MigrationError(fromVersion: current, reason: "no migration from schema version \(current)")
            }
            value = try step(value)
            current += 1
            value.set("schemaVersion", .integer(current))
        }
        return value
    }

    /// v1 → v2: revision 1 in the envelope, `sortOrder` = position on every card.
    @Sendable
    public static func deckV1ToV2(_ document: JSONValue) throws(MigrationError) -> JSONValue {
        guard case .array(var cards)? = document["cards"] else {
            throw MigrationError(fromVersion: 1, reason: "a v1 deck document needs a \"cards\" array")
        }
        for index in cards.indices {
            guard case .object = cards[index] else {
                throw MigrationError(fromVersion: 1, reason: "card \(index + 1) is not an object")
            }
            cards[index].set("sortOrder", .integer(index))
        }
        var result = document
        result.set("revision", .integer(1))
        result.set("cards", .array(cards))
        return result
    }

    /// v2 → v3: cards into `"deck": {"cards": [...]}`, numeric ids into decimal strings.
    @Sendable
    public static func deckV2ToV3(_ document: JSONValue) throws(MigrationError) -> JSONValue {
        var result = document
        guard case .array(var cards)? = result.remove("cards") else {
            throw MigrationError(fromVersion: 2, reason: "a v2 deck document needs a \"cards\" array")
        }
        for index in cards.indices {
            guard case .number(let text)? = cards[index]["id"], let id = UInt64(text) else {
                throw MigrationError(fromVersion: 2, reason: "card \(index + 1) needs a whole-number \"id\"")
            }
            cards[index].set("id", .string(String(id)))
        }
        result.set("deck", .object([JSONValue.Member("cards", .array(cards))]))
        return result
    }
}

/// A migration step could not read the older document.
public struct MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The schema version the failing step started from.
    public var fromVersion: Int
    /// What the step could not read, in words.
    public var reason: String

    public var description: String { "migrating from schema version \(fromVersion): \(reason)" }
}
