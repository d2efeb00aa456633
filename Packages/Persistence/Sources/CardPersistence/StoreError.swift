/// Everything that can go wrong in a `DeckStore`. Each case names the document or file, so a message alone tells
/// the user what to look at.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of document a name refers to.
    public enum DocumentKind: String, Sendable, Hashable {
        /// A deck document.
        case deck
        /// A scene-state document.
        case state
    }

    /// A file-system step that failed.
    public enum Operation: String, Sendable, Hashable {
        /// Creating the store directory (`mkdir`).
        case createDirectory = "create directory"
        /// Listing a directory.
        case list
        /// Opening a file (`open`).
        case open
        /// Reading a file (`read`).
        case read
        /// Writing a file (`write`).
        case write
        /// Flushing a file to disk (`fsync`).
        case fsync
        /// Giving a new file the permissions of the one it replaces (`fchmod`).
        case chmod
        /// Taking a document's lock file, `<name>.json.lock` (`flock`).
        case lock
        /// Reading a file's status (`lstat`).
        case stat
        /// Making the `.bak` hard link (`link`).
        case link
        /// Putting a written file in place (`rename`).
        case rename
        /// Removing a file (`unlink`).
        case unlink
        /// Flushing the directory so that a rename is durable (`fsync` on the directory).
        case syncDirectory = "fsync directory"
    }

    /// The name is not allowed (see `StoreName`).
    case invalidName(String, reason: String)
    /// No store directory could be chosen (no `--store`, `CARDISTRY_HOME`, `XDG_DATA_HOME` or `HOME`).
    case noLocation(String)
    /// No document of that kind and name.
    case notFound(DocumentKind, name: String)
    /// The optimistic revision check failed: the caller expected `expected` (0: no document yet), the store holds
    /// `actual` (0: no document). For a scene state the numbers are journal positions (`DeckStore.statePosition`):
    /// another session wrote the state since this one last saw it. Nothing was written.
    case conflict(DocumentKind, name: String, expected: Int, actual: Int)
    /// The file cannot be read: empty, truncated, corrupt, not UTF-8, or not a document of this kind. `offset` is
    /// the byte offset of the problem; `backup` is the path of the previous version when one exists. The file is
    /// never overwritten while it is in this state.
    case unreadable(path: String, offset: Int, reason: String, backup: String?)
    /// The document was written by a newer Cardistry (schema `found`, this build writes `supported`): it can be
    /// read, but saving over it would drop what the newer version wrote, so saving is refused.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The document is a symbolic link; the store refuses to write through links (so a name never escapes the
    /// store directory and the link is never replaced by a file).
    case symbolicLink(path: String)
    /// Something other than a regular file is where a document should be.
    case notAFile(path: String)
    /// A file-system call failed with the C error `code`.
    case io(Operation, path: String, code: Int32, message: String)
    /// A document or scene state could not be encoded, or a state not decoded with its Codable type.
    case coding(name: String, reason: String)

    public var description: String {
        switch self {
        case .invalidName(let name, let reason):
            return "invalid name \"\(name)\": \(reason)"
        case .noLocation(let reason):
            return "no store location: \(reason)"
        case .notFound(let kind, let name):
            return "no \(kind.rawValue) named \"\(name)\""
        case .conflict(.state, let name, let expected, let actual):
            return
                "conflict: state \"\(name)\" was changed by another session (this one had seen it up to change "
                + "\(expected); it is at change \(actual))"
        case .conflict(let kind, let name, let expected, let actual):
            let held = actual == 0 ? "it does not exist" : "it is at revision \(actual)"
            let wanted = expected == 0 ? "a new \(kind.rawValue)" : "revision \(expected)"
            return "conflict: \(kind.rawValue) \"\(name)\" was changed by someone else (expected \(wanted), \(held))"
        case .unreadable(let path, let offset, let reason, let backup):
            var text = "\(path): unreadable at byte \(offset): \(reason)"
            if let backup { text += "; the previous version is in \(backup)" }
            return text
        case .newerSchema(let path, let found, let supported):
            return
                "\(path): written by a newer Cardistry (schema version \(found); this one writes \(supported)); "
                + "it is read-only here"
        case .symbolicLink(let path):
            return "\(path) is a symbolic link; the store does not write through links"
        case .notAFile(let path):
            return "\(path) is not a regular file"
        case .io(let operation, let path, let code, let message):
            return "\(operation.rawValue) \(path): \(message) (errno \(code))"
        case .coding(let name, let reason):
            return "\"\(name)\": \(reason)"
        }
    }

    static func io(_ operation: Operation, _ path: String, _ error: Errno) -> StoreError {
        .io(operation, path: path, code: error.code, message: error.description)
    }
}
