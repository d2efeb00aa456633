/// What a front end asks the state saver to write for one state: a new snapshot, journal records, or both.
public struct StateWrite: Sendable {
    /// Encodes the whole state, on the saver's thread (nil: nothing to save). The records submitted before it are
    /// part of it.
    public var snapshot: (@Sendable () -> [UInt8]?)?
    /// Changes since the last submission, as JSON texts, in order.
    public var records: [[UInt8]]

    /// A write of a snapshot and/or records.
    public init(snapshot: (@Sendable () -> [UInt8]?)? = nil, records: [[UInt8]] = []) {
        self.snapshot = snapshot
        self.records = records
    }
}

/// The state saver's bookkeeping as a state machine (swift-nio style): events in, actions out, no I/O and no
/// threads, so every interleaving can be tested. `StateSaver` runs it on its own thread.
///
/// Per state name it keeps the next journal sequence and what waits to be written: at most one snapshot (a newer
/// one replaces an older one that has not started: the newer includes it) and the journal records submitted
/// after that snapshot, in order. One job runs at a time; a job writes the snapshot first (then drops the journal
/// records it includes) and then appends its records, so the store always holds a snapshot plus the records after
/// it. Submitting is O(records); starting a job O(states waiting).
public struct StateSaverMachine: Sendable {
    /// One write for the saver's thread to do.
    public struct Job: Sendable {
        /// The state's name in the store.
        public var name: String
        /// The snapshot to encode and save, and the last journal sequence it includes.
        public var snapshot: (encode: @Sendable () -> [UInt8]?, sequence: Int)?
        /// Records to append after the snapshot.
        public var records: [JournalRecord]
    }

    /// What to do next.
    public enum Action: Sendable {
        /// Perform the job, then report `finished`.
        case start(Job)
    }

    private struct Waiting {
        var snapshot: (encode: @Sendable () -> [UInt8]?, sequence: Int)?
        var records: [JournalRecord] = []
    }

    private var sequences: [String: Int] = [:]
    private var waiting: [String: Waiting] = [:]
    /// Names with something waiting, oldest submission first.
    private var queue: [String] = []
    private var running: String?
    /// Names whose failed writes wait for the next submission before they are tried again.
    private var held: Set<String> = []

    /// A saver with nothing to do.
    public init() {}

    /// Whether nothing waits to run and nothing runs (failed writes held for a retry do not count).
    public var isIdle: Bool { running == nil && queue.isEmpty }

    /// Whether a failed write of `name` waits for a retry.
    public func isHolding(_ name: String) -> Bool { held.contains(name) }

    /// The last journal sequence given out for `name` (0: none).
    public func sequence(of name: String) -> Int { sequences[name] ?? 0 }

    /// Continues `name`'s journal after `sequence` (the last record on disk when the state was loaded).
    public mutating func resume(_ name: String, after sequence: Int) {
        sequences[name] = max(sequences[name] ?? 0, sequence)
    }

    /// Queues `write` for state `name`; returns the job to start when the saver is free.
    public mutating func submit(_ write: StateWrite, to name: String) -> [Action] {
        var entry = waiting[name] ?? Waiting()
        var sequence = sequences[name] ?? 0
        if let snapshot = write.snapshot {
            // The snapshot includes every record submitted so far: those still waiting need not be appended.
            entry.snapshot = (snapshot, sequence)
            entry.records.removeAll()
        }
        for record in write.records {
            sequence += 1
            entry.records.append(JournalRecord(sequence: sequence, json: record))
        }
        sequences[name] = sequence
        guard entry.snapshot != nil || !entry.records.isEmpty else { return [] }
        if waiting[name] == nil || held.remove(name) != nil { queue.append(name) }
        waiting[name] = entry
        return startNext()
    }

    /// The running job finished; `failed` is the job when it could not be written (its errors are the thread's
    /// to report). A failed job's snapshot and records are kept, ahead of anything submitted since, and tried again
    /// with the next submission for the same state (not before: a full disk is not retried in a loop). Returns the
    /// next job, if any.
    public mutating func finished(failed: Job? = nil) -> [Action] {
        running = nil
        if let failed {
            var entry = waiting[failed.name] ?? Waiting()
            if entry.snapshot == nil {
                // Nothing newer replaces the failed snapshot: keep it, and its records before the newer ones.
                entry.snapshot = failed.snapshot
                entry.records = failed.records + entry.records
            }
            if waiting[failed.name] == nil { held.insert(failed.name) }
            waiting[failed.name] = entry
        }
        return startNext()
    }

    private mutating func startNext() -> [Action] {
        guard running == nil, !queue.isEmpty else { return [] }
        let name = queue.removeFirst()
        guard let entry = waiting.removeValue(forKey: name) else { return [] }
        running = name
        return [.start(Job(name: name, snapshot: entry.snapshot, records: entry.records))]
    }
}
