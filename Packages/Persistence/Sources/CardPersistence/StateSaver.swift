import Foundation
import Synchronization

/// Writes scene states behind the interaction, on its own thread: a front end submits what changed and goes on;
/// snapshots are encoded and saved, and journal records appended, in order, by the saver (`StateSaverMachine`
/// decides what runs next and coalesces bursts). Thread-safe.
///
/// - Read your own writes: `load` returns a state as this session last left it, saved or not: it waits for a
///   write of that state that is running and lays what still waits (or failed) over what is on disk.
/// - Errors never block, and are heard when they happen: a fault and the end of a fault are kept as news for the
///   front end (`takeNews`), and `onNews` wakes its serving thread at once, so a host or a user that sends nothing
///   still hears them; what failed is tried again with the next change, every `retryInterval` seconds, and by
///   `flush`.
/// - Another session's write: a state that another process wrote since this session saw it is not overwritten;
///   the saver stops writing it and reports it (`takeConflicts`) for the front end to tell its user and keep its
///   state under another name.
/// - Durability: every write is `fsync`ed before it counts as written; `awaitDurability(window:)` bounds how long
///   a submitted change may stay in memory, and `flush` waits until everything submitted is on disk (exit, EOF,
///   shutdown, a terminating signal).
public final class StateSaver: Sendable {
    /// What changed in the saver's health, for the front end to tell its user or host.
    public enum News: Sendable, Equatable {
        /// A write failed: the first failure after saving went well, or a failure for another reason than the one
        /// told before (a retry that fails the same way is not news).
        case failed(StoreError)
        /// Saving resumed: everything held after a failure has been written.
        case resumed
        /// Another session wrote these states since this one saw them (`takeConflicts` takes them).
        case conflict
    }

    private struct Shared {
        var machine = StateSaverMachine()
        var jobs: [StateSaverMachine.Job] = []
        var news: [News] = []
        var error: StoreError?
        /// The fault last told (nil: saving goes well).
        var failing: StoreError?
        var written = 0
        var stopping = false
        /// `afterSnapshot` is running.
        var releasing = false
        /// When held failures are tried again (nil: nothing is held).
        var retryAt: Double?
    }

    private let store: any DeckStore
    private let afterSnapshot: (@Sendable () -> Void)?
    private let now: @Sendable () -> Double
    private let condition = NSCondition()
    nonisolated(unsafe) private var shared = Shared()
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)

    /// How long a failed write waits before it is tried again when no change comes to retry it sooner.
    public static let retryInterval = 1.0

    /// A saver writing to `store`, with its thread started. `afterSnapshot` runs on the saver's thread after each
    /// snapshot is written and its copy of the state released (a front end asks its serving thread to return the
    /// memory the encoding took once nobody waits on it: trimming the heap here would hold the heap's lock while a
    /// request needs it).
    /// `now` is the clock of `awaitDurability` and retries, in seconds (monotonic by default).
    public init(
        store: any DeckStore, afterSnapshot: (@Sendable () -> Void)? = nil,
        now: @escaping @Sendable () -> Double = StateSaver.monotonicSeconds
    ) {
        self.store = store
        self.afterSnapshot = afterSnapshot
        self.now = now
        let thread = Thread { [self] in run() }
        thread.name = "cardistry state saver"
        thread.start()
    }

    /// The store states are written to.
    public var destination: any DeckStore { store }

    /// Continues the journal of `name` after `sequence` (call when opening a state loaded from the store without
    /// `load`).
    public func resume(_ name: String, after sequence: Int) {
        locked { $0.machine.resume(name, after: sequence) }
    }

    /// State `name` as this session last left it: what is on disk, with what this session submitted and has not
    /// written yet (waiting, or failed) laid over it. Waits while a write of `name` runs. The saver continues the
    /// state's journal after it, and takes what is on disk as seen (a conflict about `name` is over). O(state).
    public func load(_ name: String) -> LoadedState {
        condition.lock()
        defer { condition.unlock() }
        while shared.machine.isRunning(name) {
            condition.wait()
        }
        return Self.load(name, machine: &shared.machine, store: store)
    }

    /// State `name` as the session `machine` keeps last left it: `store`'s, with what waits to be written for it
    /// (or failed) laid over it (a waiting snapshot is encoded here); the machine then takes the state as seen
    /// (`StateSaverMachine.loaded(_:at:)`). Call only while no job of `name` runs, so that what is on disk and what
    /// waits are one history. The I/O edge of `StateSaverMachine`, shared by `load(_:)` and tests of the machine.
    /// O(state).
    public static func load(_ name: String, machine: inout StateSaverMachine, store: any DeckStore) -> LoadedState {
        precondition(!machine.isRunning(name), "load waits for the running write of the state")
        var loaded = LoadedState(name, from: store)
        let onDisk = loaded.sequence
        if let pending = machine.pending(name) { loaded.overlay(pending) }
        if loaded.error == nil { machine.loaded(name, at: onDisk) }
        return loaded
    }

    /// Queues `change` for state `name` and returns at once.
    public func submit(_ change: StateChange, to name: String) {
        let time = now()
        locked { shared in
            let actions = shared.machine.submit(change, to: name, at: time)
            for case .start(let job) in actions { shared.jobs.append(job) }
        }
        condition.broadcast()
    }

    /// What happened to the saver's health since the last call, in order (a fault, the end of a fault, a
    /// conflict), each told once.
    public func takeNews() -> [News] {
        locked { shared in
            defer { shared.news.removeAll() }
            return shared.news
        }
    }

    /// The latest fault told as news, cleared by taking it (nil: none since the last call). Front ends read
    /// `takeNews`, which also says when saving resumes.
    public func takeError() -> StoreError? {
        locked { shared in
            defer { shared.error = nil }
            return shared.error
        }
    }

    /// What wakes the front end's serving thread when there is news (a byte into the pipe its `poll` watches):
    /// called on the saver's thread, outside its lock. Set before the serving thread starts waiting.
    public func onNews(_ body: @escaping @Sendable () -> Void) {
        wake.withLock { $0 = body }
    }

    /// The states another session wrote since this one saw them, each reported once (`StateSaverMachine`):
    /// the saver no longer writes them. The front end tells its user and keeps its state under another name.
    public func takeConflicts() -> [String] {
        locked { $0.machine.takeConflicts() }
    }

    /// Forgets state `name` (after a conflict, when the session continues under another name).
    public func forget(_ name: String) {
        locked { $0.machine.forget(name) }
    }

    /// How many jobs have been written (for tests and benchmarks).
    public var jobsWritten: Int { locked { $0.written } }

    /// Waits until nothing submitted more than `window` seconds ago is still unwritten, at most `timeout` seconds;
    /// returns whether that holds. A front end calls it before acknowledging more input, so no acknowledged change
    /// stays only in memory for much longer than `window` even when the saver falls behind (failed writes held
    /// for a retry do not count: they are reported).
    @discardableResult
    public func awaitDurability(window: Double, timeout: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while let oldest = shared.machine.oldestUnwritten, now() - oldest > window {
            guard condition.wait(until: deadline) else { return false }
        }
        return true
    }

    /// Tries held failures again, then waits until everything submitted so far is written, at most `timeout`
    /// seconds; returns whether it was (false also when a write failed again).
    @discardableResult
    public func flush(timeout: Double = 10) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        let time = now()
        condition.lock()
        defer { condition.unlock() }
        for case .start(let job) in shared.machine.retryHeld(at: time) { shared.jobs.append(job) }
        condition.broadcast()
        while !(shared.machine.isIdle && shared.jobs.isEmpty && !shared.releasing) {
            guard condition.wait(until: deadline) else { return false }
        }
        return !shared.machine.isHoldingAny
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
            while shared.jobs.isEmpty && !shared.stopping {
                if let retryAt = shared.retryAt {
                    let time = now()
                    if time >= retryAt {
                        shared.retryAt = nil
                        for case .start(let job) in shared.machine.retryHeld(at: time) { shared.jobs.append(job) }
                        continue
                    }
                    _ = condition.wait(until: Date(timeIntervalSinceNow: retryAt - time))
                } else {
                    condition.wait()
                }
            }
            if shared.jobs.isEmpty {
                condition.unlock()
                return
            }
            var job: StateSaverMachine.Job? = shared.jobs.removeFirst()
            condition.unlock()
            let hadSnapshot = job?.snapshot != nil
            let outcome = job.map { Self.write($0, to: store) }
            let time = now()
            condition.lock()
            var conflict = false
            let newsBefore = shared.news.count
            if let error = outcome?.error {
                // A conflict is reported on its own (`takeConflicts`), not as a failure to write.
                if case .conflict(.state, _, _, _) = error {
                    conflict = true
                    shared.news.append(.conflict)
                } else if shared.failing != error {
                    shared.error = error
                    shared.failing = error
                    shared.news.append(.failed(error))
                }
            }
            shared.written += 1
            let failed = outcome?.error == nil ? nil : job
            for case .start(let next) in shared.machine.finished(
                failed: failed, reached: outcome?.reached, conflict: conflict, at: time)
            {
                shared.jobs.append(next)
            }
            if outcome?.error == nil, shared.failing != nil, !shared.machine.isHoldingAny {
                shared.failing = nil
                shared.news.append(.resumed)
            }
            let told = shared.news.count > newsBefore
            shared.retryAt = shared.machine.isHoldingAny ? (shared.retryAt ?? time + Self.retryInterval) : nil
            // The hook runs once the machine has let go of the job (its snapshot closure holds a copy of the
            // state), and before `flush` can see the saver idle.
            if hadSnapshot, afterSnapshot != nil { shared.releasing = true }
            condition.unlock()
            job = nil
            if told { wake.withLock { $0 }?() }
            if hadSnapshot, let afterSnapshot {
                afterSnapshot()
                locked { $0.releasing = false }
            }
            condition.broadcast()
        }
    }

    /// What writing a job did: where the state stands after what was written, and the error that stopped it.
    public struct Outcome: Sendable {
        /// The position the state reached (the job's expected position when nothing was written).
        public var reached: Int
        /// Why the job stopped early (nil: all of it was written).
        public var error: StoreError?
    }

    /// Writes a job to `store`: the snapshot (then drops the journal records it includes), then the records, each
    /// checked against where the job expects the state to stand. (The saver's thread does this; a caller with its
    /// own thread may too.)
    public static func write(_ job: StateSaverMachine.Job, to store: any DeckStore) -> Outcome {
        var reached = job.expectedSequence
        do throws(StoreError) {
            if let snapshot = job.snapshot, let json = snapshot.encode() {
                try store.saveStateJSON(
                    json, named: job.name, expectedRevision: nil, journalSequence: snapshot.sequence,
                    expectedSequence: reached)
                reached = snapshot.sequence
                try store.truncateStateJournal(named: job.name, through: snapshot.sequence)
            }
            if let last = job.records.last {
                try store.appendStateJournal(job.records, named: job.name, expectedSequence: reached)
                reached = last.sequence
            }
            return Outcome(reached: reached, error: nil)
        } catch {
            return Outcome(reached: reached, error: error)
        }
    }

    /// Seconds on the monotonic clock (`CLOCK_MONOTONIC`).
    @Sendable public static func monotonicSeconds() -> Double {
        let now = ContinuousClock.now - ContinuousClock.Instant.zeroForSaver
        return Double(now.components.seconds) + Double(now.components.attoseconds) * 1e-18
    }
}

extension ContinuousClock.Instant {
    /// A fixed origin for converting instants to seconds.
    fileprivate static let zeroForSaver = ContinuousClock.now
}
