/// A scene state as a front end loads it to open a scene: the snapshot and the journal records after it. The engine
/// restores a scene from it (`Engine(scene:viewport:savedState:)`); the saver makes it (`StateSaver.load`).
public struct LoadedState: Sendable {
    /// The snapshot's JSON text (nil: none saved yet).
    public var snapshot: [UInt8]?
    /// The journal records after the snapshot, in order.
    public var journal: [[UInt8]]
    /// The last journal sequence on disk, for the saver to continue after (`StateSaver.resume`).
    public var sequence: Int
    /// Why the state could not be read (then there is no snapshot or journal: the scene starts fresh, and the
    /// unreadable file stays as it is, since the store never writes over a file it cannot read).
    public var error: StoreError?
    /// Where a journal damaged before its last record was set aside (`DeckStore.setAsideDamagedJournal`): the
    /// state is what its snapshot and the records before the damage make, and is saved again from there.
    public var setAside: String?

    /// Whether anything was saved.
    public var isEmpty: Bool { snapshot == nil && journal.isEmpty }

    /// A state of `snapshot` and the `journal` after it, as if loaded (a host or a test that keeps state elsewhere).
    public init(snapshot: [UInt8]?, journal: [[UInt8]] = [], sequence: Int = 0) {
        self.snapshot = snapshot
        self.journal = journal
        self.sequence = sequence
        error = nil
        setAside = nil
    }

    /// Loads state `name` from `store`: its snapshot (if any) and its journal. O(state size).
    public init(_ name: String, from store: any DeckStore) {
        snapshot = nil
        journal = []
        sequence = 0
        error = nil
        setAside = nil
        do {
            let stored = try store.loadStateJSON(named: name)
            snapshot = stored.json
            sequence = stored.journalSequence
        } catch {
            if case .notFound = error {
            } else {
                self.error = error
                return
            }
        }
        do throws(StoreError) {
            let records: [JournalRecord]
            do throws(StoreError) {
                records = try store.loadStateJournal(named: name, after: sequence)
            } catch {
                // A record damaged before the last: the journal is set aside and what precedes the damage read.
                // Where it cannot be set aside (a read-only store), the damage is the error, as before.
                guard case .coding = error, let aside = (try? store.setAsideDamagedJournal(named: name)) ?? nil else {
                    throw error
                }
                setAside = aside
                records = try store.loadStateJournal(named: name, after: sequence)
            }
            journal = records.map(\.json)
            sequence = max(sequence, records.last?.sequence ?? 0)
        } catch {
            snapshot = nil
            self.error = error
        }
    }

    /// Lays what a session has not written yet over what was loaded: its snapshot replaces the loaded one and
    /// its journal, and its records follow. O(pending state).
    mutating func overlay(_ pending: StateSaverMachine.Pending) {
        if let snapshot = pending.snapshot, let json = snapshot.encode() {
            self.snapshot = json
            journal = []
            error = nil
            sequence = max(sequence, snapshot.sequence)
        }
        guard error == nil else { return }
        journal += pending.records.map(\.json)
        sequence = max(sequence, pending.records.last?.sequence ?? 0)
    }
}
