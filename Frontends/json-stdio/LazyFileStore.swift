import CardEngine
import CardModels
import CardPersistence
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The deck store of `cardistry stdio`: its directory is resolved at startup but created only when something is
/// first written (`deck.save`, a persisted scene state), so a session that saves nothing leaves no trace on disk.
///
/// Reads before the directory exists find nothing (no decks, `notFound`). A store that cannot be opened (an
/// unwritable directory) reports the real reason, naming the path, on every write that needs it. Thread-safe.
final class LazyFileStore: DeckStore {
    /// The store's root directory.
    let root: String
    private let opened = Mutex<JSONFileStore?>(nil)

    init(root: String) {
        self.root = root
    }

    /// The store, opening (and creating) it on first use; throws the reason it cannot be opened.
    private func open() throws(StoreError) -> JSONFileStore {
        let root = root
        return try opened.withLock { (store: inout JSONFileStore?) throws(StoreError) -> JSONFileStore in
            if let store { return store }
            let created = try JSONFileStore(root: root)
            store = created
            return created
        }
    }

    /// The opened store for a read, or nil when the directory does not exist yet (so there is nothing to read).
    private func existing() throws(StoreError) -> JSONFileStore? {
        if let store = opened.withLock({ $0 }) { return store }
        guard access(root, F_OK) == 0 else { return nil }
        return try open()
    }

    func deckNames() throws(StoreError) -> [String] { try existing()?.deckNames() ?? [] }

    func loadDeck(named name: String) throws(StoreError) -> StoredDeck {
        guard let store = try existing() else { throw .notFound(.deck, name: name) }
        return try store.loadDeck(named: name)
    }

    func saveDeck(_ deck: Deck, named name: String, expectedRevision: Int?) throws(StoreError) -> Int {
        try open().saveDeck(deck, named: name, expectedRevision: expectedRevision)
    }

    func deleteDeck(named name: String, expectedRevision: Int?) throws(StoreError) {
        guard let store = try existing() else { throw .notFound(.deck, name: name) }
        try store.deleteDeck(named: name, expectedRevision: expectedRevision)
    }

    func stateNames() throws(StoreError) -> [String] { try existing()?.stateNames() ?? [] }

    func loadStateJSON(named name: String) throws(StoreError) -> StoredState {
        guard let store = try existing() else { throw .notFound(.state, name: name) }
        return try store.loadStateJSON(named: name)
    }

    func saveStateJSON(
        _ json: [UInt8], named name: String, expectedRevision: Int?, journalSequence: Int, expectedSequence: Int?
    ) throws(StoreError) -> Int {
        try open().saveStateJSON(
            json, named: name, expectedRevision: expectedRevision, journalSequence: journalSequence,
            expectedSequence: expectedSequence)
    }

    func appendStateJournal(_ records: [JournalRecord], named name: String, expectedSequence: Int?)
        throws(StoreError)
    {
        try open().appendStateJournal(records, named: name, expectedSequence: expectedSequence)
    }

    func statePosition(named name: String) throws(StoreError) -> Int {
        try existing()?.statePosition(named: name) ?? 0
    }

    func loadStateJournal(named name: String, after sequence: Int) throws(StoreError) -> [JournalRecord] {
        try existing()?.loadStateJournal(named: name, after: sequence) ?? []
    }

    func truncateStateJournal(named name: String, through sequence: Int) throws(StoreError) {
        try existing()?.truncateStateJournal(named: name, through: sequence)
    }

    func setAsideDamagedJournal(named name: String) throws(StoreError) -> String? {
        try existing()?.setAsideDamagedJournal(named: name)
    }

    func deleteState(named name: String, expectedRevision: Int?) throws(StoreError) {
        guard let store = try existing() else { throw .notFound(.state, name: name) }
        try store.deleteState(named: name, expectedRevision: expectedRevision)
    }
}
