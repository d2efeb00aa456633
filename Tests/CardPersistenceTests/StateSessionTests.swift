import CardModels
import Foundation
import Testing

@testable import CardPersistence

/// Reading your own writes, and two sessions on one state, at the level of the saver's machine and the stores.
@Suite struct StateSessionTests {
    /// A state as this test writes it: a list of numbers; a snapshot is the list, a record appends one number.
    static func decode(_ loaded: LoadedState) -> [Int]? {
        guard loaded.error == nil else { return nil }
        var values: [Int] = []
        if let snapshot = loaded.snapshot {
            values = String(decoding: snapshot.dropFirst().dropLast(), as: UTF8.self).split(separator: ",")
                .map { Int($0)! }
        }
        for record in loaded.journal { values.append(Int(String(decoding: record, as: UTF8.self))!) }
        return values
    }

    static func snapshotWrite(_ values: [Int]) -> StateChange {
        StateChange(snapshot: { Array(("[" + values.map(String.init).joined(separator: ",") + "]").utf8) })
    }

    /// Thousands of seeded interleavings of changes to several states (snapshots and records), switches between
    /// them (a load), and the saver's jobs finishing in any order relative to them, some failing: the state seen
    /// at every switch is the last state of that deck, whether or not it was written yet; and once everything is
    /// written, the store holds the last state of each.
    @Test(arguments: [InMemoryStore.self as any Sendable.Type, JSONFileStore.self as any Sendable.Type])
    func everySwitchSeesTheLastStateOfItsDeck(kind: any Sendable.Type) throws {
        let cases = kind == InMemoryStore.self ? 3_000 : 300
        for seed in 0..<UInt64(cases) {
            var random = SplitMix64(seed: seed &+ 0x25)
            let root = FileManager.default.temporaryDirectory
                .appendingPathComponent("cardistry-ryow-\(getpid())-\(seed)").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let store: any DeckStore = kind == InMemoryStore.self ? InMemoryStore() : try JSONFileStore(root: root)
            let names = ["a", "b", "c"]
            var live: [String: [Int]] = [:]
            var machine = StateSaverMachine()
            var running: StateSaverMachine.Job?
            var next = 0
            var open = "a"
            _ = StateSaver.load(open, machine: &machine, store: store)
            func finishRunning(fail: Bool) {
                guard let job = running else { return }
                running = nil
                var outcome = StateSaver.Outcome(reached: job.expectedSequence, error: nil)
                if fail {
                    outcome.error = .io(.write, path: "test", code: 28, message: "No space left on device")
                } else {
                    outcome = StateSaver.write(job, to: store)
                }
                for case .start(let started) in machine.finished(
                    failed: outcome.error == nil ? nil : job, reached: outcome.reached)
                {
                    running = started
                }
            }
            func submit(_ write: StateChange) {
                for case .start(let job) in machine.submit(write, to: open) { running = job }
            }
            for step in 0..<Int(random.next() % 40) {
                switch random.next() % 6 {
                case 0, 1:
                    live[open, default: []].append(next)
                    submit(StateChange(records: [Array(String(next).utf8)]))
                    next += 1
                case 2:
                    live[open, default: []].append(next)
                    next += 1
                    submit(Self.snapshotWrite(live[open]!))
                case 3:
                    finishRunning(fail: random.next() % 4 == 0)
                case 4:
                    for case .start(let job) in machine.retryHeld() where running == nil { running = job }
                default:
                    // A switch: the front end waits for a running write of the state it opens, then loads it.
                    open = names[Int(random.next() % 3)]
                    while machine.isRunning(open) { finishRunning(fail: random.next() % 4 == 0) }
                    let seen = Self.decode(StateSaver.load(open, machine: &machine, store: store))
                    #expect(seen == live[open, default: []], "seed \(seed) step \(step): switch to \(open)")
                }
            }
            // Drain: everything held is retried and written.
            for _ in 0..<50 {
                finishRunning(fail: false)
                for case .start(let job) in machine.retryHeld() where running == nil { running = job }
                if running == nil && machine.isIdle && !machine.isHoldingAny { break }
            }
            for name in names where live[name] != nil {
                #expect(
                    Self.decode(LoadedState(name, from: store)) == live[name], "seed \(seed): \(name) on disk")
            }
        }
    }

    /// Two sessions read one state; the first writes; the second's write is refused as a conflict (snapshot or
    /// records alike), reported once, and nothing of the first is overwritten. After it loads the state again it
    /// writes on top of the first's.
    @Test(arguments: [false, true])
    func theSecondWriterIsRefusedAndTold(records: Bool) throws {
        let store = InMemoryStore()
        var first = StateSaverMachine()
        var second = StateSaverMachine()
        try store.saveStateJSON(Array("[1]".utf8), named: "s", expectedRevision: nil, journalSequence: 3)
        #expect(Self.decode(StateSaver.load("s", machine: &first, store: store)) == [1])
        #expect(Self.decode(StateSaver.load("s", machine: &second, store: store)) == [1])
        func run(_ machine: inout StateSaverMachine, _ write: StateChange) -> StoreError? {
            var error: StoreError?
            var actions = machine.submit(write, to: "s")
            while case .start(let job)? = actions.first {
                let outcome = StateSaver.write(job, to: store)
                error = error ?? outcome.error
                var conflict = false
                if case .conflict(.state, _, _, _)? = outcome.error { conflict = true }
                actions = machine.finished(
                    failed: outcome.error == nil ? nil : job, reached: outcome.reached, conflict: conflict)
            }
            return error
        }
        let write = { (value: Int) in
            records ? StateChange(records: [Array(String(value).utf8)]) : Self.snapshotWrite([1, value])
        }
        #expect(run(&first, write(2)) == nil)
        let refused = run(&second, write(3))
        guard case .conflict(.state, "s", let expected, let actual)? = refused else {
            Issue.record("expected a conflict, got \(String(describing: refused))")
            return
        }
        #expect(expected == 3 && actual == 4)
        #expect(second.isConflicted("s"))
        #expect(second.takeConflicts() == ["s"])
        #expect(second.takeConflicts().isEmpty)
        #expect(run(&second, write(4)) == nil, "a conflicted state is not written again")
        #expect(Self.decode(LoadedState("s", from: store)) == [1, 2])
        // Reading it again ends the conflict: the next write builds on the first session's.
        #expect(Self.decode(StateSaver.load("s", machine: &second, store: store)) == [1, 2])
        #expect(!second.isConflicted("s"))
        #expect(run(&second, StateChange(records: [Array("5".utf8)])) == nil)
        #expect(Self.decode(LoadedState("s", from: store)) == [1, 2, 5])
    }

    /// The file store checks positions under the state's lock: snapshot and append against a state another
    /// writer moved are refused and write nothing; a snapshot may stand where the state was removed.
    @Test func theFileStoreRefusesWritesBuiltOnAnOlderState() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cardistry-pos-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try JSONFileStore(root: root)
        try store.saveStateJSON(
            Array("[1]".utf8), named: "s", expectedRevision: nil, journalSequence: 1, expectedSequence: 0)
        try store.appendStateJournal(
            [JournalRecord(sequence: 2, json: Array("2".utf8))], named: "s", expectedSequence: 1)
        #expect(try store.statePosition(named: "s") == 2)
        #expect(throws: StoreError.conflict(.state, name: "s", expected: 1, actual: 2)) {
            try store.appendStateJournal(
                [JournalRecord(sequence: 2, json: Array("9".utf8))], named: "s", expectedSequence: 1)
        }
        #expect(throws: StoreError.conflict(.state, name: "s", expected: 1, actual: 2)) {
            try store.saveStateJSON(
                Array("[9]".utf8), named: "s", expectedRevision: nil, journalSequence: 3, expectedSequence: 1)
        }
        #expect(try store.loadStateJournal(named: "s", after: 1).map(\.json) == [Array("2".utf8)])
        // Removed: a snapshot goes in whatever it expected; records alone would have nothing to stand on.
        try FileManager.default.removeItem(atPath: root)
        #expect(throws: StoreError.self) {
            try store.appendStateJournal(
                [JournalRecord(sequence: 3, json: Array("3".utf8))], named: "s", expectedSequence: 2)
        }
        try store.saveStateJSON(
            Array("[7]".utf8), named: "s", expectedRevision: nil, journalSequence: 3, expectedSequence: 2)
        #expect(try store.statePosition(named: "s") == 3)
    }
}
