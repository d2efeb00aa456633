import Synchronization

/// Files a `JSONFileStore` has written or fully validated, by path, with the file's identity at the time and what
/// validating it found (`Value`).
///
/// Validating a file takes a full pass over it; when the file is still the very one this store wrote or validated
/// (same device, inode, size and nanosecond modification time; every save renames a new inode into place, so any
/// other writer changes the inode, and an append changes the size), what was found then is used instead. The
/// limit: modification times are only as fine as the kernel's clock tick, so an edit in place that keeps the size,
/// made within one tick of this store's own write, would go unnoticed. Thread-safe. Two uses:
/// - `ValidatedFiles`: a save must not replace a document that cannot be read, so it validates the current file
///   first — up to hundreds of megabytes; the envelope (`DocumentHeader`) recorded is used instead.
/// - `ValidatedJournals`: an append must not extend a state journal damaged before its last line and must know its
///   last sequence, which took a parse of every line (up to a thousand records re-read for every move, issue 48);
///   the last sequence recorded is used instead, so an append costs what it writes.
final class ValidatedPaths<Value: Sendable>: Sendable {
    struct Entry: Sendable {
        var status: FileStatus
        var value: Value
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// What was recorded for `path` if `status` shows the same file, else nil. O(1).
    func value(for path: String, status: FileStatus) -> Value? {
        entries.withLock { entries in
            guard let entry = entries[path], entry.status.inode != 0, entry.status == status else { return nil }
            return entry.value
        }
    }

    /// Records `value` for the file `status` shows at `path`; a status without an identity (a test double's)
    /// records nothing.
    func record(_ path: String, status: FileStatus?, value: Value) {
        entries.withLock { entries in
            if let status, status.inode != 0 {
                entries[path] = Entry(status: status, value: value)
            } else {
                entries[path] = nil
            }
        }
    }

    /// Forgets `path` (the file was replaced or removed, or its write failed).
    func forget(_ path: String) {
        _ = entries.withLock { $0.removeValue(forKey: path) }
    }
}

/// Documents and their envelopes (`ValidatedPaths`).
typealias ValidatedFiles = ValidatedPaths<DocumentHeader>

/// State journals, whole and valid, and their last record's sequence (`ValidatedPaths`).
typealias ValidatedJournals = ValidatedPaths<Int>
