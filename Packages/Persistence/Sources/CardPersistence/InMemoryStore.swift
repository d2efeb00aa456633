import CardJSON
import CardModels
import Synchronization

/// A `DeckStore` in memory, with the same names, revisions and conflicts as `JSONFileStore`. Thread-safe.
/// States keep the JSON text they were saved with (validated strictly), as a file would.
public final class InMemoryStore: DeckStore {
    private struct Contents {
        var decks: [String: StoredDeck] = [:]
        var states: [String: StoredState] = [:]
        var journals: [String: [JournalRecord]] = [:]

        /// Where state `name` stands (`DeckStore.statePosition`).
        func position(_ name: String) -> Int {
            max(states[name]?.journalSequence ?? 0, journals[name]?.last?.sequence ?? 0)
        }
    }

    private let contents = Mutex(Contents())

    /// An empty store.
    public init() {}

    public func deckNames() throws(StoreError) -> [String] {
        contents.withLock { $0.decks.keys.sorted() }
    }

    public func loadDeck(named name: String) throws(StoreError) -> StoredDeck {
        try StoreName.validate(name)
        guard let stored = contents.withLock({ $0.decks[name] }) else { throw .notFound(.deck, name: name) }
        return stored
    }

    @discardableResult
    public func saveDeck(_ deck: Deck, named name: String, expectedRevision: Int?) throws(StoreError) -> Int {
        try StoreName.validate(name)
        return try contents.withLock { (contents) throws(StoreError) -> Int in
            let actual = contents.decks[name]?.revision ?? 0
            try Self.check(.deck, name, expected: expectedRevision, actual: actual)
            contents.decks[name] = StoredDeck(deck: deck, revision: actual + 1)
            return actual + 1
        }
    }

    public func deleteDeck(named name: String, expectedRevision: Int?) throws(StoreError) {
        try StoreName.validate(name)
        try contents.withLock { (contents) throws(StoreError) in
            guard let stored = contents.decks[name] else { throw .notFound(.deck, name: name) }
            try Self.check(.deck, name, expected: expectedRevision, actual: stored.revision)
            contents.decks[name] = nil
        }
    }

    public func stateNames() throws(StoreError) -> [String] {
        contents.withLock { $0.states.keys.sorted() }
    }

    public func loadStateJSON(named name: String) throws(StoreError) -> StoredState {
        try StoreName.validate(name)
        guard let stored = contents.withLock({ $0.states[name] }) else { throw .notFound(.state, name: name) }
        return stored
    }

    @discardableResult
    public func saveStateJSON(
        _ json: [UInt8], named name: String, expectedRevision: Int?, journalSequence: Int, expectedSequence: Int?
    ) throws(StoreError) -> Int {
        try StoreName.validate(name)
        do {
            _ = try JSONValue(parsing: json)
        } catch {
            throw .coding(name: name, reason: "the state is not valid JSON: \(error)")
        }
        return try contents.withLock { (contents) throws(StoreError) -> Int in
            let actual = contents.states[name]?.revision ?? 0
            try Self.check(.state, name, expected: expectedRevision, actual: actual)
            let position = contents.position(name)
            if let expectedSequence, contents.states[name] != nil || position != 0 {
                try Self.check(.state, name, expected: expectedSequence, actual: position)
            }
            contents.states[name] = StoredState(json: json, revision: actual + 1, journalSequence: journalSequence)
            return actual + 1
        }
    }

    public func deleteState(named name: String, expectedRevision: Int?) throws(StoreError) {
        try StoreName.validate(name)
        try contents.withLock { (contents) throws(StoreError) in
            guard let stored = contents.states[name] else { throw .notFound(.state, name: name) }
            try Self.check(.state, name, expected: expectedRevision, actual: stored.revision)
            contents.states[name] = nil
            contents.journals[name] = nil
        }
    }

    public func appendStateJournal(_ records: [JournalRecord], named name: String, expectedSequence: Int?)
        throws(StoreError)
    {
        try StoreName.validate(name)
        try contents.withLock { (contents) throws(StoreError) in
            if let expectedSequence {
                try Self.check(.state, name, expected: expectedSequence, actual: contents.position(name))
            }
            contents.journals[name, default: []] += records
        }
    }

    public func statePosition(named name: String) throws(StoreError) -> Int {
        try StoreName.validate(name)
        return contents.withLock { $0.position(name) }
    }

    public func loadStateJournal(named name: String, after: Int) throws(StoreError) -> [JournalRecord] {
        try StoreName.validate(name)
        return contents.withLock { ($0.journals[name] ?? []).filter { $0.sequence > after } }
    }

    public func truncateStateJournal(named name: String, through sequence: Int) throws(StoreError) {
        try StoreName.validate(name)
        contents.withLock { $0.journals[name]?.removeAll { $0.sequence <= sequence } }
    }
}
