import CardModels
import CardPersistence
import Foundation
import Synchronization
import Testing

/// State journals in both stores, and the saver's state machine.
@Suite struct StateJournalTests {
    static func record(_ text: String) -> [UInt8] { Array("{\"move\":\"\(text)\"}".utf8) }

    func exercise(_ store: any DeckStore) throws {
        #expect(try store.loadStateJournal(named: "deck.cards-20000").isEmpty)
        try store.appendStateJournal(
            [JournalRecord(sequence: 1, json: Self.record("a")), JournalRecord(sequence: 2, json: Self.record("b"))],
            named: "deck.cards-20000")
        try store.appendStateJournal([JournalRecord(sequence: 3, json: Self.record("c"))], named: "deck.cards-20000")
        #expect(try store.loadStateJournal(named: "deck.cards-20000").map(\.sequence) == [1, 2, 3])
        #expect(try store.loadStateJournal(named: "deck.cards-20000")[2].json == Self.record("c"))
        // A snapshot that includes records 1–2: only 3 is replayed on top, whether or not the journal was cut.
        try store.saveStateJSON(
            Array("{\"n\":2}".utf8), named: "deck.cards-20000", expectedRevision: nil, journalSequence: 2)
        #expect(try store.loadStateJSON(named: "deck.cards-20000").journalSequence == 2)
        #expect(try store.loadStateJournal(named: "deck.cards-20000").map(\.sequence) == [3])
        try store.truncateStateJournal(named: "deck.cards-20000", through: 2)
        #expect(try store.loadStateJournal(named: "deck.cards-20000").map(\.sequence) == [3])
        try store.truncateStateJournal(named: "deck.cards-20000", through: 3)
        #expect(try store.loadStateJournal(named: "deck.cards-20000").isEmpty)
        // Another state's journal is its own.
        try store.appendStateJournal([JournalRecord(sequence: 1, json: Self.record("x"))], named: "deck")
        #expect(try store.loadStateJournal(named: "deck").count == 1)
        #expect(try store.loadStateJournal(named: "deck.cards-20000").isEmpty)
        try store.saveStateJSON(Array("{}".utf8), named: "deck", expectedRevision: nil)
        try store.deleteState(named: "deck", expectedRevision: nil)
        #expect(try store.loadStateJournal(named: "deck").isEmpty)
        // Names are checked like every other store name.
        #expect(throws: StoreError.self) { try store.appendStateJournal([], named: "../x") }
    }

    @Test func aJournalInMemory() throws { try exercise(InMemoryStore()) }

    @Test func aJournalOnDisk() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        try exercise(store)
        // The journal's lines are plain JSON, one per record.
        try store.appendStateJournal([JournalRecord(sequence: 1, json: Self.record("q"))], named: "wallet")
        let text = try String(contentsOfFile: store.journalPath("wallet"), encoding: .utf8)
        #expect(text == "{\"seq\":1,\"record\":{\"move\":\"q\"}}\n")
    }

    @Test func aTornLastRecordIsIgnoredAndDamageBeforeItIsReported() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        try store.appendStateJournal(
            [JournalRecord(sequence: 1, json: Self.record("a")), JournalRecord(sequence: 2, json: Self.record("b"))],
            named: "deck")
        let path = store.journalPath("deck")
        // A crash mid-append: half a line at the end.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"seq\":3,\"rec".utf8))
        handle.closeFile()
        #expect(try store.loadStateJournal(named: "deck").map(\.sequence) == [1, 2])
        // The next append cuts the torn line first, so its record is readable.
        try store.appendStateJournal([JournalRecord(sequence: 3, json: Self.record("c"))], named: "deck")
        #expect(try store.loadStateJournal(named: "deck").map(\.sequence) == [1, 2, 3])
        // Damage before the last line is an error, not silently skipped data.
        try Data("garbage\n{\"seq\":1,\"record\":{}}\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try store.loadStateJournal(named: "deck") }
    }

    /// Appends into the journal this store last appended to read nothing back (issue 48: each append parsed the
    /// whole journal, up to a thousand records for every move); a journal another writer changed (grown, or
    /// rewritten with damage before its last line) is read whole again, so the damage is still refused and the
    /// sequence check still sees the other writer's records. On the code before, every append read the journal.
    @Test func appendingReadsOnlyAJournalAnotherWriterChanged() throws {
        let directory = TemporaryDirectory()
        let files = FaultyFileSystem()
        let store = try JSONFileStore(root: directory.path, fileSystem: files)
        try store.appendStateJournal([JournalRecord(sequence: 1, json: Self.record("a"))], named: "deck")
        let before = files.reads.withLock { $0 }
        for sequence in 2...40 {
            try store.appendStateJournal(
                [JournalRecord(sequence: sequence, json: Self.record("m"))], named: "deck",
                expectedSequence: sequence - 1)
        }
        #expect(files.reads.withLock { $0 } == before)
        #expect(try store.statePosition(named: "deck") == 40)
        #expect(files.reads.withLock { $0 } == before)
        // Another store (another process) appends: this one sees the file changed and reads it again.
        let other = try JSONFileStore(root: directory.path)
        try other.appendStateJournal([JournalRecord(sequence: 41, json: Self.record("o"))], named: "deck")
        #expect(throws: StoreError.self) {
            try store.appendStateJournal(
                [JournalRecord(sequence: 41, json: Self.record("x"))], named: "deck", expectedSequence: 40)
        }
        #expect(files.reads.withLock { $0 } > before)
        try store.appendStateJournal(
            [JournalRecord(sequence: 42, json: Self.record("y"))], named: "deck", expectedSequence: 41)
        #expect(try store.loadStateJournal(named: "deck").map(\.sequence) == Array(1...42))
        // Damage written by someone else before the last line: refused, the file unchanged.
        let path = store.journalPath("deck")
        let damaged = Data("{\"seq\":1,\"record\":{\"dam\n{\"seq\":2,\"record\":{}}\n".utf8)
        try damaged.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) {
            try store.appendStateJournal([JournalRecord(sequence: 43, json: Self.record("z"))], named: "deck")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
    }

    /// A damaged record before the last and a torn last line (a crash mid-append after the damage): an append,
    /// with or without an expected position, is refused naming the damage, and the file is not changed by a byte
    /// (the torn line is not cut). On the code before, the torn line was cut off before the damage was found, and
    /// an append without an expected position was written after the damage.
    @Test(arguments: [nil, 2] as [Int?])
    func aDamagedJournalIsNeverWrittenOver(expected: Int?) throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        try store.appendStateJournal([JournalRecord(sequence: 1, json: Self.record("a"))], named: "deck")
        let path = store.journalPath("deck")
        let damaged = Data(
            "{\"seq\":1,\"record\":{\"move\":\"a\"}}\n{\"seq\":2,\"record\":{\"dam\n{\"seq\":3,\"record\":{}}\n{\"seq\":4,\"re"
                .utf8)
        try damaged.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) {
            try store.appendStateJournal(
                [JournalRecord(sequence: 5, json: Self.record("e"))], named: "deck", expectedSequence: expected)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
        #expect(throws: StoreError.self) { try store.truncateStateJournal(named: "deck", through: 1) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
    }

    /// A journal damaged before its last record is set aside: a copy byte for byte under `.damaged-1` (the torn
    /// line included), the journal then the records before the damage; a whole journal and a store without files
    /// set nothing aside; a second damage goes to `.damaged-2`. `LoadedState` reads the state from what is left.
    @Test func aDamagedJournalIsSetAsideAndWhatPrecedesTheDamageIsKept() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        try store.appendStateJournal([JournalRecord(sequence: 1, json: Self.record("a"))], named: "deck")
        #expect(try store.setAsideDamagedJournal(named: "deck") == nil)
        #expect(try InMemoryStore().setAsideDamagedJournal(named: "deck") == nil)
        let path = store.journalPath("deck")
        let damaged = Data(
            "{\"seq\":1,\"record\":{\"move\":\"a\"}}\n{\"seq\":2,\"record\":{\"dam\n{\"seq\":3,\"record\":{}}\n{\"seq\":4,\"re"
                .utf8)
        try damaged.write(to: URL(fileURLWithPath: path))
        let loaded = LoadedState("deck", from: store)
        #expect(loaded.error == nil)
        #expect(loaded.setAside == path + ".damaged-1")
        #expect(loaded.journal == [Self.record("a")])
        #expect(loaded.sequence == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged-1")) == damaged)
        #expect(try store.loadStateJournal(named: "deck").map(\.sequence) == [1])
        #expect(try store.statePosition(named: "deck") == 1)
        // Saving goes on after it.
        try store.appendStateJournal(
            [JournalRecord(sequence: 2, json: Self.record("b"))], named: "deck", expectedSequence: 1)
        #expect(try store.loadStateJournal(named: "deck").map(\.sequence) == [1, 2])
        // Damage at the first line: nothing precedes it, and the journal goes; the first copy stays.
        try Data("garbage\n{\"seq\":1,\"record\":{}}\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try store.setAsideDamagedJournal(named: "deck") == path + ".damaged-2")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + ".damaged-1")) == damaged)
    }

    /// Where the damaged journal cannot be set aside (its link refused, as on a read-only store), the state is not
    /// read in part: the damage is the error, the scene starts fresh, and the journal stays byte for byte.
    @Test func aJournalThatCannotBeSetAsideIsReportedAndKept() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path, fileSystem: FaultyFileSystem(failing: .link, code: EROFS))
        try store.appendStateJournal([JournalRecord(sequence: 1, json: Self.record("a"))], named: "deck")
        let path = store.journalPath("deck")
        let damaged = Data("{\"seq\":1,\"record\":{}}\ngarbage\n{\"seq\":3,\"record\":{}}\n".utf8)
        try damaged.write(to: URL(fileURLWithPath: path))
        let loaded = LoadedState("deck", from: store)
        #expect(loaded.setAside == nil)
        #expect(loaded.isEmpty)
        guard case .coding? = loaded.error else {
            Issue.record("expected the damage as the error, got \(String(describing: loaded.error))")
            return
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == damaged)
    }

    /// Seeded property test of the saver's bookkeeping: whatever the interleaving of submissions (snapshots and
    /// records) and job completions (some failing), once everything is written the store's snapshot plus the
    /// journal after it is exactly the state as it was last submitted — no record lost, doubled or reordered.
    @Test func whateverTheInterleavingTheLastStateIsWhatIsSaved() {
        var random = SplitMix64(seed: 0x5A7E)
        for _ in 0..<2000 {
            var machine = StateSaverMachine()
            // The live state: a list of numbers; a record appends one; a snapshot is the whole list.
            var live: [Int] = []
            var next = 0
            // The simulated store.
            var snapshot: (values: [Int], sequence: Int) = ([], 0)
            var journal: [(sequence: Int, value: Int)] = []
            var running: [StateSaverMachine.Job] = []
            func perform(_ job: StateSaverMachine.Job, fail: Bool) {
                if fail { return }
                if let shot = job.snapshot {
                    let bytes = shot.encode() ?? []
                    let values =
                        bytes.isEmpty
                        ? [] : String(decoding: bytes, as: UTF8.self).split(separator: ",").map { Int($0)! }
                    snapshot = (values, shot.sequence)
                    journal.removeAll { $0.sequence <= shot.sequence }
                }
                for record in job.records {
                    journal.append((record.sequence, Int(String(decoding: record.json, as: UTF8.self))!))
                }
            }
            for _ in 0..<Int(random.next() % 30) {
                switch random.next() % 4 {
                case 0, 1:
                    let count = Int(random.next() % 3) + 1
                    var records: [[UInt8]] = []
                    for _ in 0..<count {
                        live.append(next)
                        records.append(Array(String(next).utf8))
                        next += 1
                    }
                    for case .start(let job) in machine.submit(StateChange(records: records), to: "s") {
                        running.append(job)
                    }
                case 2:
                    let copy = live
                    let write = StateChange(snapshot: { Array(copy.map(String.init).joined(separator: ",").utf8) })
                    for case .start(let job) in machine.submit(write, to: "s") { running.append(job) }
                default:
                    guard !running.isEmpty else { continue }
                    let job = running.removeFirst()
                    let fail = random.next() % 5 == 0
                    perform(job, fail: fail)
                    for case .start(let next) in machine.finished(failed: fail ? job : nil) { running.append(next) }
                }
            }
            // Drain: every job succeeds; a write held after a failure goes with the next submission (an empty one).
            for case .start(let job) in machine.submit(StateChange(), to: "s") { running.append(job) }
            while !running.isEmpty {
                let job = running.removeFirst()
                perform(job, fail: false)
                for case .start(let next) in machine.finished() { running.append(next) }
            }
            #expect(machine.isIdle)
            let restored = snapshot.values + journal.filter { $0.sequence > snapshot.sequence }.map(\.value)
            #expect(restored == live)
            #expect(journal.map(\.sequence) == journal.map(\.sequence).sorted())
        }
    }

    /// The saver's `afterSnapshot` hook (a front end gives the encoding's memory back there) runs once per snapshot
    /// written, never for journal records alone, and only after the snapshot's copy of the state is released.
    @Test func afterSnapshotRunsOncePerSnapshotOnceItsStateIsReleased() {
        final class Probe: @unchecked Sendable {
            let lock = NSLock()
            var calls = 0
            var releasedBeforeCall: [Bool] = []
            var released = false
            func withLock<T>(_ body: (Probe) -> T) -> T {
                lock.lock()
                defer { lock.unlock() }
                return body(self)
            }
        }
        final class StateCopy: Sendable {
            let probe: Probe
            init(_ probe: Probe) { self.probe = probe }
            deinit { probe.withLock { $0.released = true } }
        }
        let probe = Probe()
        let saver = StateSaver(store: InMemoryStore()) {
            probe.withLock { probe in
                probe.calls += 1
                probe.releasedBeforeCall.append(probe.released)
            }
        }
        saver.resume("deck.cards-20000", after: 0)
        saver.submit(StateChange(records: [Self.record("a")]), to: "deck.cards-20000")
        #expect(saver.flush())
        #expect(probe.withLock { $0.calls } == 0)
        // The snapshot waits for the gate, so the test has let go of its own reference before the saver encodes.
        let gate = DispatchSemaphore(value: 0)
        func submitSnapshot() {
            let copy = StateCopy(probe)
            saver.submit(
                StateChange(
                    snapshot: {
                        gate.wait()
                        _ = copy
                        return Array("{}".utf8)
                    }, records: [Self.record("b")]),
                to: "deck.cards-20000")
        }
        submitSnapshot()
        gate.signal()
        #expect(saver.flush())
        saver.close()
        #expect(probe.withLock { $0.calls } == 1)
        #expect(probe.withLock { $0.releasedBeforeCall } == [true])
    }
}
