import Synchronization

/// The documents a `JSONFileStore` has written or fully validated, by path, with the file's identity at the time.
///
/// A save must not replace a file that cannot be read, so it validates the current file first — a full pass over
/// up to hundreds of megabytes. When the file is still the very one this store wrote or validated (same device,
/// inode, size and nanosecond modification time; every save renames a new inode into place, so any other writer
/// changes the inode), the envelope recorded then is used instead. The limit: modification times are only as fine
/// as the kernel's clock tick, so an edit in place that keeps the size, made within one tick of this store's own
/// write, would go unnoticed. Thread-safe.
final class ValidatedFiles: Sendable {
    struct Entry: Sendable {
        var status: FileStatus
        var header: DocumentHeader
    }

    private let entries = Mutex<[String: Entry]>([:])

    /// The recorded envelope of `path` if `status` shows the same file, else nil.
    func header(for path: String, status: FileStatus) -> DocumentHeader? {
        entries.withLock { entries in
            guard let entry = entries[path], entry.status.inode != 0, entry.status == status else { return nil }
            return entry.header
        }
    }

    func record(_ path: String, status: FileStatus?, header: DocumentHeader) {
        entries.withLock { entries in
            if let status, status.inode != 0 {
                entries[path] = Entry(status: status, header: header)
            } else {
                entries[path] = nil
            }
        }
    }

    func forget(_ path: String) {
        _ = entries.withLock { $0.removeValue(forKey: path) }
    }
}
