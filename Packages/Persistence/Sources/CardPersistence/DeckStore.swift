import CardJSON
import CardModels
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
    /// Deletes a scene state (and its journal).
    func deleteState(named name: String, expectedRevision: Int?) throws(StoreError)

    /// Saves a scene state snapshot that includes every journal record up to `journalSequence` (0: none), and
    /// returns the new revision. Records up to that sequence are then obsolete: `loadStateJournal` skips them and
    /// `truncateStateJournal` may drop them.
    ///
    /// `expectedSequence` is the writer's idea of where the state stands (`StoredState.position`: the last
    /// sequence its snapshot and journal hold, 0 when there is none); when the state stands elsewhere, because
    /// another process wrote it since, the save is refused with `StoreError.conflict` and nothing is written. The
    /// check and the write happen under the state's lock, so two processes never both pass it; a snapshot may be
    /// saved where no state is at all (it was removed), whatever it expects. nil: no check.
    @discardableResult
    func saveStateJSON(
        _ json: [UInt8], named name: String, expectedRevision: Int?, journalSequence: Int, expectedSequence: Int?
    ) throws(StoreError) -> Int
    /// Appends `records` (in ascending sequence) to the state's journal, durably (fsync) before returning; a
    /// failed append leaves the journal as it was. `expectedSequence` as for `saveStateJSON`: the append is refused
    /// with `StoreError.conflict` unless the state stands there.
    func appendStateJournal(_ records: [JournalRecord], named name: String, expectedSequence: Int?)
        throws(StoreError)
    /// Where state `name` stands: the last sequence its snapshot includes or its journal holds (0: none). The
    /// next write of a session that has seen everything up to here passes it as `expectedSequence`.
    func statePosition(named name: String) throws(StoreError) -> Int
    /// The state's journal records after `sequence` (its snapshot's `journalSequence`, which the caller has just
    /// loaded), in order; a torn last record (a crash while appending) is ignored. Empty when there is no journal.
    func loadStateJournal(named name: String, after sequence: Int) throws(StoreError) -> [JournalRecord]
    /// Drops the journal records up to `sequence` (those a snapshot includes), atomically.
    func truncateStateJournal(named name: String, through sequence: Int) throws(StoreError)
    /// Sets aside the journal of state `name` when a record before its last is damaged: the file is kept, byte for
    /// byte, under a name of its own (returned), and the journal then holds the records before the damage, so the
    /// state goes on from what could be read and is saved again. nil when the journal reads in full (nothing is
    /// done). A store whose journals cannot be damaged (the default) does nothing. O(journal size).
    func setAsideDamagedJournal(named name: String) throws(StoreError) -> String?
}

/// One change of a scene state, appended to the state's journal: a sequence number (ascending per state, from 1)
/// and the change as the JSON text the scene wrote (see `Scene.takeStateJournal`).
public struct JournalRecord: Sendable, Hashable {
    /// The record's place in the state's history; a snapshot names the last one it includes.
    public var sequence: Int
    /// The change, as compact JSON text.
    public var json: [UInt8]

    /// A record of `json` at `sequence`.
    public init(sequence: Int, json: [UInt8]) {
        self.sequence = sequence
        self.json = json
    }
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
    /// The last journal record the snapshot includes (0: none); later records are replayed on top of it.
    public var journalSequence: Int

    /// A loaded state; by default in the current schema, with no journal.
    public init(
        json: [UInt8], revision: Int, schemaVersion: Int = StateDocument.currentSchemaVersion, journalSequence: Int = 0
    ) {
        self.json = json
        self.revision = revision
        self.schemaVersion = schemaVersion
        self.journalSequence = journalSequence
    }

    /// Whether saving over this state is refused (it was written by a newer schema).
    public var isReadOnly: Bool { schemaVersion > StateDocument.currentSchemaVersion }
}

extension DeckStore {
    /// Nothing to set aside: the default for stores whose journals cannot be damaged.
    public func setAsideDamagedJournal(named name: String) throws(StoreError) -> String? { nil }

    /// Saves a snapshot without checking where the state stands (see the requirement).
    @discardableResult
    public func saveStateJSON(_ json: [UInt8], named name: String, expectedRevision: Int?, journalSequence: Int)
        throws(StoreError) -> Int
    {
        try saveStateJSON(
            json, named: name, expectedRevision: expectedRevision, journalSequence: journalSequence,
            expectedSequence: nil)
    }

    /// Appends records without checking where the state stands (see the requirement).
    public func appendStateJournal(_ records: [JournalRecord], named name: String) throws(StoreError) {
        try appendStateJournal(records, named: name, expectedSequence: nil)
    }

    /// Saves a scene state that keeps no journal (`journalSequence` 0) and returns the new revision.
    @discardableResult
    public func saveStateJSON(_ json: [UInt8], named name: String, expectedRevision: Int?) throws(StoreError) -> Int {
        try saveStateJSON(json, named: name, expectedRevision: expectedRevision, journalSequence: 0)
    }

    /// The state's journal records after its snapshot's `journalSequence` (loading the snapshot to learn it; a
    /// caller that has it already passes it to `loadStateJournal(named:after:)`).
    public func loadStateJournal(named name: String) throws(StoreError) -> [JournalRecord] {
        let after: Int
        do {
            after = try loadStateJSON(named: name).journalSequence
        } catch {
            guard case .notFound = error else { throw error }
            after = 0
        }
        return try loadStateJournal(named: name, after: after)
    }

    /// The lines of a journal: `{"seq":N,"record":<json>}` each, newline-terminated.
    static func journalLines(_ records: [JournalRecord]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(records.reduce(0) { $0 + $1.json.count + 24 })
        for record in records {
            bytes += Array("{\"seq\":\(record.sequence),\"record\":".utf8)
            bytes += record.json
            bytes += Array("}\n".utf8)
        }
        return bytes
    }

    /// The records of a journal's bytes with a sequence above `after`. A last line without its newline, or that
    /// does not parse, is a torn append and ignored; a bad line before the last is damage and throws.
    static func journalRecords(_ bytes: [UInt8], after: Int, name: String) throws(StoreError) -> [JournalRecord] {
        let readable = readableJournal(bytes, after: after)
        guard readable.isWhole else {
            throw .coding(name: name, reason: "the state journal has a damaged record before its last")
        }
        return readable.records
    }

    /// The records of a journal's bytes with a sequence above `after`, up to its first damaged line before the
    /// last, and whether there is no such line (`isWhole`). O(bytes).
    static func readableJournal(_ bytes: [UInt8], after: Int) -> (records: [JournalRecord], isWhole: Bool) {
        var records: [JournalRecord] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\n") else {
                index += 1
                continue
            }
            let line = Array(bytes[start..<index])
            let isLast = index == bytes.count - 1
            start = index + 1
            index += 1
            guard let value = try? JSONValue(parsing: line), let sequence = value["seq"]?.integerValue,
                let record = value["record"]
            else {
                if isLast { break }
                return (records, false)
            }
            if sequence > after { records.append(JournalRecord(sequence: sequence, json: record.jsonBytes)) }
        }
        return (records, true)
    }

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
    /// The last sequence of a journal's records (0: none), the torn last line ignored. O(journal size).
    static func lastJournalSequence(_ bytes: [UInt8], name: String) throws(StoreError) -> Int {
        try journalRecords(bytes, after: 0, name: name).last?.sequence ?? 0
    }

    static func check(
        _ kind: StoreError.DocumentKind, _ name: String, expected: Int?, actual: Int
    ) throws(StoreError) {
        if let expected, expected != actual {
            throw .conflict(kind, name: name, expected: expected, actual: actual)
        }
    }
}
