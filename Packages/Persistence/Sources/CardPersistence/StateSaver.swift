import Foundation

/// Writes scene states behind the interaction, on its own thread: a front end submits what changed and goes on;
/// snapshots are encoded and saved, and journal records appended, in order, by the saver (`StateSaverMachine`
/// decides what runs next and coalesces bursts). Errors never block: the latest is kept for the front end to
/// show (`takeError`). `flush` waits until everything submitted is on disk (exit, EOF, shutdown, a terminating
/// signal). Thread-safe.
public final class StateSaver: Sendable {
    private struct Shared {
        var machine = StateSaverMachine()
        var jobs: [StateSaverMachine.Job] = []
        var error: StoreError?
        var written = 0
        var stopping = false
        /// `afterSnapshot` is running.
        var releasing = false
    }

    private let store: any DeckStore
    private let afterSnapshot: (@Sendable () -> Void)?
    private let condition = NSCondition()
    nonisolated(unsafe) private var shared = Shared()

    /// A saver writing to `store`, with its thread started. `afterSnapshot` runs on the saver's thread after each
    /// snapshot is written and its copy of the state released (a front end returns the memory its encoding took).
    public init(store: any DeckStore, afterSnapshot: (@Sendable () -> Void)? = nil) {
        self.store = store
        self.afterSnapshot = afterSnapshot
        let thread = Thread { [self] in run() }
        thread.name = "cardistry state saver"
        thread.start()
    }

    /// The store states are written to.
    public var destination: any DeckStore { store }

    /// Continues the journal of `name` after `sequence` (call when opening a state loaded from the store).
    public func resume(_ name: String, after sequence: Int) {
        locked { $0.machine.resume(name, after: sequence) }
    }

    /// Queues `write` for state `name` and returns at once.
    public func submit(_ write: StateWrite, to name: String) {
        locked { shared in
            let actions = shared.machine.submit(write, to: name)
            for case .start(let job) in actions { shared.jobs.append(job) }
        }
        condition.broadcast()
    }

    /// The latest error a write met, cleared by taking it (nil: every write since succeeded or was not tried).
    public func takeError() -> StoreError? {
        locked { shared in
            defer { shared.error = nil }
            return shared.error
        }
    }

    /// How many jobs have been written (for tests and benchmarks).
    public var jobsWritten: Int { locked { $0.written } }

    /// Waits until everything submitted so far is written, at most `timeout` seconds; returns whether it was.
    @discardableResult
    public func flush(timeout: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !(shared.machine.isIdle && shared.jobs.isEmpty && !shared.releasing) {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }

    /// Flushes, then stops the thread.
    public func close(timeout: Double = 10) {
        flush(timeout: timeout)
        locked { $0.stopping = true }
        condition.broadcast()
    }

    private func locked<T>(_ body: (inout Shared) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(&shared)
    }

    private func run() {
        while true {
            condition.lock()
            while shared.jobs.isEmpty && !shared.stopping { condition.wait() }
            if shared.jobs.isEmpty {
                condition.unlock()
                return
            }
            var job: StateSaverMachine.Job? = shared.jobs.removeFirst()
            condition.unlock()
            let hadSnapshot = job?.snapshot != nil
            let error = job.flatMap { Self.write($0, to: store) }
            condition.lock()
            if let error { shared.error = error }
            shared.written += 1
            for case .start(let next) in shared.machine.finished(failed: error == nil ? nil : job) {
                shared.jobs.append(next)
            }
            // The hook runs once the machine has let go of the job (its snapshot closure holds a copy of the
            // state), and before `flush` can see the saver idle.
            if hadSnapshot, afterSnapshot != nil { shared.releasing = true }
            condition.unlock()
            job = nil
            if hadSnapshot, let afterSnapshot {
                afterSnapshot()
                locked { $0.releasing = false }
            }
            condition.broadcast()
        }
    }

    /// Writes a job to `store`: the snapshot (then drops the journal records it includes), then the records;
    /// returns the error that stopped it. (The saver's thread does this; a caller with its own thread may too.)
    public static func write(_ job: StateSaverMachine.Job, to store: any DeckStore) -> StoreError? {
        do throws(StoreError) {
            if let snapshot = job.snapshot, let json = snapshot.encode() {
                try store.saveStateJSON(
                    json, named: job.name, expectedRevision: nil, journalSequence: snapshot.sequence)
                try store.truncateStateJournal(named: job.name, through: snapshot.sequence)
            }
            if !job.records.isEmpty { try store.appendStateJournal(job.records, named: job.name) }
            return nil
        } catch {
            return error
        }
    }
}
