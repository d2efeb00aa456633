import Synchronization

/// The state journals a `JSONFileStore` has appended to or fully read, by path, with the file's identity then and
/// its last record's sequence.
///
/// An append must not extend a journal damaged before its last line, and must know the last sequence; both took a
/// parse of every line, so each append cost O(journal size) (up to a thousand records re-read for every move, issue
/// 48). When the journal is still the very file this store last appended to or read whole (same device, inode, size
/// and nanosecond modification time, as `ValidatedFiles`), its lines were all whole and valid then and the last
/// sequence recorded is used instead: an append costs O(records appended). Any other writer changes the size or the
/// inode (appends grow the file, truncation renames a new file into place); the limit is `ValidatedFiles`': an edit
/// in place that keeps the size, within one tick of the kernel's clock after this store's own write, would go
/// unnoticed until the next full read (a load). Thread-safe.
final class ValidatedJournals: Sendable {
    struct Entry: Sendable {
        var status: FileStatus
        var lastSequence: Int
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The last sequence recorded for `path` if `status` shows the same file, else nil. O(1).
    func lastSequence(of path: String, status: FileStatus) -> Int? {
        entries.withLock { entries in
            guard let entry = entries[path], entry.status.inode != 0, entry.status == status else { return nil }
            return entry.lastSequence
        }
    }

    /// Records that the file `status` shows at `path` is whole and valid and ends with `lastSequence`; a status
    /// without an identity (a test double's) records nothing.
    func record(_ path: String, status: FileStatus?, lastSequence: Int) {
        entries.withLock { entries in
            if let status, status.inode != 0, status.kind == .regular {
                entries[path] = Entry(status: status, lastSequence: lastSequence)
            } else {
                entries[path] = nil
            }
        }
    }

    /// Forgets `path` (its journal was replaced or removed).
    func forget(_ path: String) {
        _ = entries.withLock { $0.removeValue(forKey: path) }
    }
}
