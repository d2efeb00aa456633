import Foundation

/// Where decks and scene states live, by name, with an optimistic revision check.
///
/// Every document has a revision: 1 when first saved, one more on every save. A save names the revision it
/// expects to replace (`0`: the document must not exist yet; `nil`: whatever is there), and a stale writer gets
/// `StoreError.conflict` instead of overwriting newer data. Implementations: `JSONFileStore` (crash-safe files)
/// and `InMemoryStore`. Names follow `StoreName`.
public protocol DeckStore: Sendable {
    /// The names of all decks, sorted.
    func deckNames() throws(StoreError) -> [String]
    /// Loads a deck; `StoreError.notFound` when there is none.
    func loadDeck(named name: String) throws(StoreError) -> StoredDeck
    /// Saves a deck and returns its new revision.
    @discardableResult
    func saveDeck(_ deck: Deck, named name: String, expectedRevision: Int?) throws(StoreError) -> Int
    /// Deletes a deck (a file store keeps it as the backup).
    func deleteDeck(named name: String, expectedRevision: Int?) throws(StoreError)

    /// The names of all scene states, sorted.
    func stateNames() throws(StoreError) -> [String]
    /// Loads a scene state as the JSON text of its value.
    func loadStateJSON(named name: String) throws(StoreError) -> StoredState
    /// Saves a scene state given as the JSON text of its value (validated strictly) and returns the new revision.
    @discardableResult
    func saveStateJSON(_ json: [UInt8], named name: String, expectedRevision: Int?) throws(StoreError) -> Int
    /// Deletes a scene state.
    func deleteState(named name: String, expectedRevision: Int?) throws(StoreError)
}

/// A loaded deck and what the store knows about it.
public struct StoredDeck: Sendable, Hashable {
    /// The deck, migrated to the current schema if it was older.
    public var deck: Deck
    /// The stored revision: pass it as `expectedRevision` to the next save to detect a concurrent change.
    public var revision: Int
    /// The schema version of the stored document (newer than `DeckDocument.currentSchemaVersion` when a newer
    /// Cardistry wrote it).
    public var schemaVersion: Int
    /// The older schema version the document was migrated from on load, if any (it is rewritten on next save).
    public var migratedFrom: Int?

    /// A loaded deck; by default current schema, not migrated.
    public init(
        deck: Deck, revision: Int, schemaVersion: Int = DeckDocument.currentSchemaVersion, migratedFrom: Int? = nil
    ) {
        self.deck = deck
        self.revision = revision
        self.schemaVersion = schemaVersion
        self.migratedFrom = migratedFrom
    }

    /// Whether saving over this document is refused (it was written by a newer schema).
    public var isReadOnly: Bool { schemaVersion > DeckDocument.currentSchemaVersion }
}

/// A loaded scene state: the JSON text of its value, and its revision.
public struct StoredState: Sendable, Hashable {
    /// The state value as compact UTF-8 JSON text (the scene decodes its own type from it).
    public var json: [UInt8]
    /// The stored revision: pass it as `expectedRevision` to the next save to detect a concurrent change.
    public var revision: Int
    /// The schema version of the stored state document.
    public var schemaVersion: Int

    /// A loaded state; by default in the current schema.
    public init(json: [UInt8], revision: Int, schemaVersion: Int = StateDocument.currentSchemaVersion) {
        self.json = json
        self.revision = revision
        self.schemaVersion = schemaVersion
    }

    /// Whether saving over this state is refused (it was written by a newer schema).
    public var isReadOnly: Bool { schemaVersion > StateDocument.currentSchemaVersion }
}

extension DeckStore {
    /// Saves any Codable scene state (encoded with `JSONEncoder`) and returns its new revision.
    @discardableResult
    public func saveState(
        _ value: some Encodable, named name: String, expectedRevision: Int?
    ) throws(StoreError) -> Int {
        let data: Data
        do {
            data = try JSONEncoder().encode(value)
        } catch {
            throw .coding(name: name, reason: "cannot encode the state: \(error)")
        }
        return try saveStateJSON(Array(data), named: name, expectedRevision: expectedRevision)
    }

    /// Loads a scene state as `type` (decoded with `JSONDecoder`), with its revision.
    public func loadState<Value: Decodable>(
        _ type: Value.Type, named name: String
    ) throws(StoreError) -> (value: Value, revision: Int) {
        let stored = try loadStateJSON(named: name)
        do {
            return (try JSONDecoder().decode(type, from: Data(stored.json)), stored.revision)
        } catch {
            throw .coding(name: name, reason: "the state does not decode as \(type): \(error)")
        }
    }

    /// The revision check shared by the implementations: `expected` nil accepts anything.
    static func check(
        _ kind: StoreError.DocumentKind, _ name: String, expected: Int?, actual: Int
    ) throws(StoreError) {
        if let expected, expected != actual {
            throw .conflict(kind, name: name, expected: expected, actual: actual)
        }
    }
}
