/// The state saver's bookkeeping as a state machine (swift-nio style): events in, actions out, no I/O and no
/// threads, so every interleaving can be tested. `StateSaver` runs it on its own thread and does its I/O: the jobs,
/// and reading a state back (`StateSaver.load(_:machine:store:)`), which lays `pending(_:)` over what the store
/// holds and reports it `loaded(_:at:)`. The machine never touches the store nor runs a snapshot's encoder.
///
/// Per state name it keeps the next journal sequence, where the state stands on disk as far as this session knows
/// (its *position*: the last sequence written, by this session or, when it loaded the state, by whoever wrote it),
/// and what waits to be written: at most one snapshot (a newer one replaces an older one that has not started: the
/// newer includes it) and the journal records submitted after that snapshot, in order. Every submission takes a
/// sequence of its own (a snapshot too), so every write moves the position. One job runs at a time; a job writes
/// the snapshot first (then drops the journal records it includes) and then appends its records, each write
/// checked against the position (`DeckStore`'s `expectedSequence`), so the store always holds a snapshot plus the
/// records after it, all from one session's history.
///
/// A write refused because another session moved the state (`StoreError.conflict`) is not retried: the state is
/// *conflicted*, what waits for it is dropped and later submissions are ignored, until the front end has told its
/// user and continued under another name (`takeConflicts`, `forget`) or loaded the state again (`loaded`).
/// Submitting is O(records); starting a job O(states waiting).
public struct StateSaverMachine: Sendable {
    /// One write for the saver's thread to do.
    public struct Job: Sendable {
        /// The state's name in the store.
        public var name: String
        /// The snapshot to encode and save, and the last journal sequence it includes.
        public var snapshot: (encode: @Sendable () -> [UInt8]?, sequence: Int)?
        /// Records to append after the snapshot.
        public var records: [JournalRecord]
        /// Where the state stands on disk before the job (its writes are refused if it stands elsewhere).
        public var expectedSequence: Int
    }

    /// What to do next.
    public enum Action: Sendable {
        /// Perform the job, then report `finished`.
        case start(Job)
    }

    /// What waits to be written for one state (`pending(_:)`): the snapshot, if any, then the records.
    public struct Pending: Sendable {
        /// The snapshot to write, and the last sequence it includes.
        public var snapshot: (encode: @Sendable () -> [UInt8]?, sequence: Int)?
        /// Records after the snapshot (or after what is on disk, without one), in order.
        public var records: [JournalRecord] = []
        /// When the oldest of them was submitted (the caller's clock).
        var since: Double

        /// Whether nothing waits.
        public var isEmpty: Bool { snapshot == nil && records.isEmpty }
    }

    private var sequences: [String: Int] = [:]
    private var positions: [String: Int] = [:]
    private var waiting: [String: Pending] = [:]
    /// Names with something waiting, oldest submission first.
    private var queue: [String] = []
    /// The running job's name, when its oldest write was submitted, and where it leaves the state when it succeeds.
    private var running: (name: String, since: Double, reaches: Int)?
    /// Names whose failed writes wait for a retry (`retryHeld`, or the next submission for the same state).
    private var held: Set<String> = []
    /// Names another session wrote since this one saw them, in the order found, not yet taken.
    private var newConflicts: [String] = []
    private var conflicted: Set<String> = []

    /// A saver with nothing to do.
    public init() {}

    /// Whether nothing waits to run and nothing runs (failed writes held for a retry do not count).
    public var isIdle: Bool { running == nil && queue.isEmpty }

    /// Whether a failed write of `name` waits for a retry.
    public func isHolding(_ name: String) -> Bool { held.contains(name) }

    /// Whether anything failed waits for a retry.
    public var isHoldingAny: Bool { !held.isEmpty }

    /// Whether a job of `name` runs.
    public func isRunning(_ name: String) -> Bool { running?.name == name }

    /// Whether another session's write stopped this session saving `name`.
    public func isConflicted(_ name: String) -> Bool { conflicted.contains(name) }

    /// The last journal sequence given out for `name` (0: none).
    public func sequence(of name: String) -> Int { sequences[name] ?? 0 }

    /// Where `name` stands on disk as far as this session knows (0: nothing written or loaded).
    public func position(of name: String) -> Int { positions[name] ?? 0 }

    /// What waits to be written for `name`, not counting a running job (held failures included).
    public func pending(_ name: String) -> Pending? { waiting[name] }

    /// When the oldest write not yet on disk was submitted (nil: everything submitted is written, or held after a
    /// failure).
    public var oldestUnwritten: Double? {
        var oldest = running?.since
        for name in queue {
            if let since = waiting[name]?.since { oldest = min(oldest ?? since, since) }
        }
        return oldest
    }

    /// Continues `name`'s journal after `sequence` (the last record on disk when the state was loaded), and takes
    /// it as where the state stands when nothing of this session's waits to be written for it.
    public mutating func resume(_ name: String, after sequence: Int) {
        sequences[name] = max(sequences[name] ?? 0, sequence)
        if waiting[name] == nil && running?.name != name { positions[name] = sequence }
    }

    /// The state `name` was loaded again, standing at `position` on disk: this session has now seen it, so a
    /// conflict about it is over and its next writes expect that position (unless writes of its own still wait:
    /// then they were made on top of what it had, and expect where it left the state).
    public mutating func loaded(_ name: String, at position: Int) {
        conflicted.remove(name)
        newConflicts.removeAll { $0 == name }
        resume(name, after: position)
    }

    /// Queues `change` for state `name`, submitted at `time` on the caller's clock; returns the job to start when
    /// the saver is free. Ignored while `name` is conflicted.
    public mutating func submit(_ change: StateChange, to name: String, at time: Double = 0) -> [Action] {
        guard !conflicted.contains(name) else { return [] }
        var entry = waiting[name] ?? Pending(since: time)
        var sequence = sequences[name] ?? 0
        if let snapshot = change.snapshot {
            // The snapshot includes every record submitted so far: those still waiting need not be appended.
            sequence += 1
            entry.snapshot = (snapshot, sequence)
            entry.records.removeAll()
        }
        for record in change.records {
            sequence += 1
            entry.records.append(JournalRecord(sequence: sequence, json: record))
        }
        sequences[name] = sequence
        let wasHeld = held.remove(name) != nil
        if wasHeld { entry.since = min(entry.since, time) }
        guard !entry.isEmpty else {
            if wasHeld { held.insert(name) }
            return []
        }
        if waiting[name] == nil || wasHeld { queue.append(name) }
        waiting[name] = entry
        return startNext(at: time)
    }

    /// Queues every held failed write again (a timer's retry, or a flush before exit).
    public mutating func retryHeld(at time: Double = 0) -> [Action] {
        for name in held.sorted() where waiting[name] != nil { queue.append(name) }
        held.removeAll()
        return startNext(at: time)
    }

    /// The running job finished: `reached` is where the state stands after what it wrote (its expected position
    /// when nothing was), `failed` the job when it stopped early (its errors are the thread's to report). What it
    /// did not write is kept, ahead of anything submitted since, and tried again by `retryHeld` or the next
    /// submission for the same state (not in a loop: a full disk is not retried at once). `conflict`: the store
    /// refused a write because another session moved the state; nothing is retried. Returns the next job, if any.
    public mutating func finished(
        failed: Job? = nil, reached: Int? = nil, conflict: Bool = false, at time: Double = 0
    ) -> [Action] {
        let since = running?.since ?? time
        let done = running
        running = nil
        if let failed {
            if let reached { positions[failed.name] = reached }
            if conflict {
                waiting[failed.name] = nil
                queue.removeAll { $0 == failed.name }
                held.remove(failed.name)
                if conflicted.insert(failed.name).inserted { newConflicts.append(failed.name) }
                return startNext(at: time)
            }
            let written = reached ?? failed.expectedSequence
            var entry = waiting[failed.name] ?? Pending(since: since)
            entry.since = min(entry.since, since)
            if entry.snapshot == nil {
                // Nothing newer replaces the failed writes: keep those not written, before the newer records.
                if let snapshot = failed.snapshot, snapshot.sequence > written { entry.snapshot = snapshot }
                entry.records = failed.records.filter { $0.sequence > written } + entry.records
            }
            if waiting[failed.name] == nil {
                if entry.isEmpty { return startNext(at: time) }
                held.insert(failed.name)
            }
            waiting[failed.name] = entry
        } else if let done {
            positions[done.name] = reached ?? done.reaches
        }
        return startNext(at: time)
    }

    /// The names that became conflicted since the last call, in order (each once).
    public mutating func takeConflicts() -> [String] {
        defer { newConflicts.removeAll() }
        return newConflicts
    }

    /// Forgets everything about `name` (the front end continues under another name after a conflict).
    public mutating func forget(_ name: String) {
        sequences[name] = nil
        positions[name] = nil
        waiting[name] = nil
        queue.removeAll { $0 == name }
        held.remove(name)
        conflicted.remove(name)
        newConflicts.removeAll { $0 == name }
    }

    private mutating func startNext(at time: Double) -> [Action] {
        guard running == nil else { return [] }
        while !queue.isEmpty {
            let name = queue.removeFirst()
            guard let entry = waiting.removeValue(forKey: name) else { continue }
            let expected = positions[name] ?? 0
            let reaches = max(entry.records.last?.sequence ?? 0, entry.snapshot?.sequence ?? 0, expected)
            running = (name, entry.since, reaches)
            return [
                .start(
                    Job(name: name, snapshot: entry.snapshot, records: entry.records, expectedSequence: expected))
            ]
        }
        return []
    }
}
