import CardJSON
import CardModels

#if canImport(Glibc)
    import Glibc
#endif

/// A `DeckStore` of JSON files: `<root>/decks/<name>.json` and `<root>/states/<name>.json`, directories mode 0700.
///
/// Every save, under an exclusive `flock` on `<name>.json.lock`:
/// 1. reads and validates the current file (strict JSON and envelope): an unreadable file is never replaced,
///    a newer schema is never overwritten, and the revision check runs;
/// 2. writes a temporary file `.<name>.json.tmp-<pid>-<random>` in the same directory
///    (`O_CREAT|O_EXCL|O_CLOEXEC`, mode 0600 or the current file's mode) with a loop that handles short writes
///    and EINTR, then `fsync`s it;
/// 3. hard-links the current file to `<name>.json.bak`;
/// 4. `rename`s the temporary file over `<name>.json`;
/// 5. `fsync`s the directory. If that fails the previous version is put back, so an error always means
///    "not saved".
/// Any failure removes the temporary file and leaves the previous file as it was. A document that is a symbolic
/// link is refused for writing (`StoreError.symbolicLink`); reading follows it. Opening a store sweeps temporary
/// files left by crashed writers (only those whose lock is free, so a live writer is never disturbed).
/// Deleting renames the document to its `.bak`, so a deletion can be undone by hand. Step 1 is skipped for a file
/// that is still exactly the one this store last wrote or validated (`ValidatedFiles`).
public struct JSONFileStore: DeckStore {
    /// The store's root directory.
    public let root: String
    /// How decks are encoded and decoded (the fast path unless a test or benchmark asks for Foundation's).
    public let codec: DeckCodec
    let fileSystem: any FileSystem
    private let validated = ValidatedFiles()
    /// The journals this store last appended to or read whole, with their last sequence (`ValidatedJournals`).
    let validatedJournals = ValidatedJournals()

    /// Opens (creating with mode 0700 when needed) the store at `root`, and sweeps stale temporary files.
    public init(root: String, fileSystem: any FileSystem = PosixFileSystem(), codec: DeckCodec = .fast)
        throws(StoreError)
    {
        self.root = root
        self.codec = codec
        self.fileSystem = fileSystem
        for kind in [StoreError.DocumentKind.deck, .state] {
            try createDirectories(directory(kind))
            sweepTemporaryFiles(in: directory(kind))
        }
    }

    /// Opens the store at `StoreLocation.resolve(explicit:environment:)`.
    public init(explicit: String?, environment: [String: String]) throws(StoreError) {
        try self.init(root: try StoreLocation.resolve(explicit: explicit, environment: environment))
    }

    // MARK: Paths

    /// The directory that holds documents of `kind`.
    public func directory(_ kind: StoreError.DocumentKind) -> String {
        StoreLocation.join(root, kind == .deck ? "decks" : "states")
    }

    /// The path of the document `name` of `kind` (the name must be valid).
    public func path(_ kind: StoreError.DocumentKind, _ name: String) -> String {
        StoreLocation.join(directory(kind), name + ".json")
    }

    /// The path of the previous version of a document.
    public func backupPath(_ kind: StoreError.DocumentKind, _ name: String) -> String {
        path(kind, name) + ".bak"
    }

    // MARK: DeckStore

    public func deckNames() throws(StoreError) -> [String] { try names(.deck) }

    public func stateNames() throws(StoreError) -> [String] { try names(.state) }

    public func loadDeck(named name: String) throws(StoreError) -> StoredDeck {
        try StoreName.validate(name)
        let file = path(.deck, name)
        let bytes = try readDocument(.deck, name)
        do {
            let result = try codec.decode(bytes)
            return StoredDeck(
                deck: result.document.deck, revision: result.document.revision,
                schemaVersion: result.document.schemaVersion, migratedFrom: result.migratedFrom)
        } catch {
            throw unreadable(file, error, backup: backupPath(.deck, name))
        }
    }

    @discardableResult
    public func saveDeck(_ deck: Deck, named name: String, expectedRevision: Int?) throws(StoreError) -> Int {
        try StoreName.validate(name)
        let codec = self.codec
        return try writeDocument(.deck, name, expectedRevision: expectedRevision) { revision, writer in
            let document = DeckDocument(deck: deck, revision: revision)
            switch codec {
            case .fast: try DeckFastEncoder.write(document, to: writer)
            case .foundation:
                let bytes = try codec.encode(document)
                try bytes.withUnsafeBufferPointer { try writer.bytes($0) }
            }
        }
    }

    public func deleteDeck(named name: String, expectedRevision: Int?) throws(StoreError) {
        try delete(.deck, name, expectedRevision: expectedRevision)
    }

    public func loadStateJSON(named name: String) throws(StoreError) -> StoredState {
        try StoreName.validate(name)
        let file = path(.state, name)
        let bytes = try readDocument(.state, name)
        do {
            let header = try DocumentHeader.scan(bytes, format: StateDocument.formatName)
            let document = try JSONValue(parsing: bytes)
            guard let state = document["state"] else { throw JSONDecodeError(offset: 0, reason: "no \"state\"") }
            return StoredState(
                json: state.jsonBytes, revision: header.revision, schemaVersion: header.schemaVersion,
                journalSequence: document["journal"]?.integerValue ?? 0)
        } catch {
            throw unreadable(file, error, backup: backupPath(.state, name))
        }
    }

    @discardableResult
    public func saveStateJSON(
        _ json: [UInt8], named name: String, expectedRevision: Int?, journalSequence: Int, expectedSequence: Int?
    ) throws(StoreError) -> Int {
        try StoreName.validate(name)
        do {
            _ = try JSONValue(parsing: json)
        } catch {
            throw .coding(name: name, reason: "the state is not valid JSON: \(error)")
        }
        return try writeDocument(
            .state, name, expectedRevision: expectedRevision, journal: journalSequence,
            expectedSequence: expectedSequence
        ) { revision, writer in
            try writer.raw("{\"format\":")
            try writer.string(StateDocument.formatName)
            try writer.raw(",\"schemaVersion\":")
            try writer.integer(Int64(StateDocument.currentSchemaVersion))
            try writer.raw(",\"revision\":")
            try writer.integer(Int64(revision))
            if journalSequence > 0 {
                try writer.raw(",\"journal\":")
                try writer.integer(Int64(journalSequence))
            }
            try writer.raw(",\"state\":")
            try json.withUnsafeBufferPointer { try writer.bytes($0) }
            try writer.byte(UInt8(ascii: "}"))
        }
    }

    public func deleteState(named name: String, expectedRevision: Int?) throws(StoreError) {
        try delete(.state, name, expectedRevision: expectedRevision)
        validatedJournals.forget(journalPath(name))
        try? fileSystem.unlink(journalPath(name))
    }

    // MARK: Checking

    /// What `check` found for one document.
    public struct CheckResult: Sendable, Hashable {
        /// Whether the document is a deck or a scene state.
        public var kind: StoreError.DocumentKind
        /// The document's name in the store.
        public var name: String
        /// nil when the document is readable.
        public var problem: StoreError?
        /// The revision and schema version when readable.
        public var revision: Int?
        /// The schema version of a readable document; nil when it is unreadable.
        public var schemaVersion: Int?
        /// Cards in a readable deck.
        public var cardCount: Int?
        /// Whether a previous version (`.bak`) exists.
        public var hasBackup: Bool
    }

    /// Reads every document of the store (or only the deck `name`) completely and reports each one.
    public func check(deck name: String? = nil) throws(StoreError) -> [CheckResult] {
        var results: [CheckResult] = []
        var decks: [String]
        if let name {
            try StoreName.validate(name)
            decks = [name]
        } else {
            decks = try deckNames()
        }
        for deck in decks {
            var result = CheckResult(kind: .deck, name: deck, hasBackup: hasBackup(.deck, deck))
            do {
                let stored = try loadDeck(named: deck)
                result.revision = stored.revision
                result.schemaVersion = stored.schemaVersion
                result.cardCount = stored.deck.count
            } catch {
                result.problem = error
            }
            results.append(result)
        }
        if name == nil {
            for state in try stateNames() {
                var result = CheckResult(kind: .state, name: state, hasBackup: hasBackup(.state, state))
                do {
                    let stored = try loadStateJSON(named: state)
                    result.revision = stored.revision
                    result.schemaVersion = stored.schemaVersion
                } catch {
                    result.problem = error
                }
                results.append(result)
            }
        }
        return results
    }

    private func hasBackup(_ kind: StoreError.DocumentKind, _ name: String) -> Bool {
        ((try? fileSystem.status(backupPath(kind, name))) ?? nil) != nil
    }

    // MARK: Reading

    private func names(_ kind: StoreError.DocumentKind) throws(StoreError) -> [String] {
        let folder = directory(kind)
        let entries: [String]
        do {
            entries = try fileSystem.contentsOfDirectory(folder)
        } catch {
            throw .io(.list, folder, error)
        }
        return entries.compactMap { entry -> String? in
            guard entry.hasSuffix(".json") else { return nil }
            let name = String(entry.dropLast(5))
            return (try? StoreName.validate(name)) != nil ? name : nil
        }.sorted()
    }

    /// The whole file of a document; `notFound` when it does not exist.
    private func readDocument(_ kind: StoreError.DocumentKind, _ name: String) throws(StoreError) -> [UInt8] {
        let file = path(kind, name)
        let status: FileStatus?
        do {
            status = try fileSystem.status(file)
        } catch {
            throw .io(.stat, file, error)
        }
        guard let status else { throw .notFound(kind, name: name) }
        guard status.kind == .regular || status.kind == .symbolicLink else { throw .notAFile(path: file) }
        do {
            return try readFile(file, sizeHint: status.kind == .regular ? status.size : 4096)
        } catch .io(.open, _, ENOENT, _) {
            throw .notFound(kind, name: name)  // removed between the stat and the open
        }
    }

    /// Reads a whole file with `read(2)` into one array, retrying EINTR. O(size).
    func readFile(_ file: String, sizeHint: Int) throws(StoreError) -> [UInt8] {
        let descriptor: Int32
        do {
            descriptor = try fileSystem.open(file, flags: O_RDONLY | O_CLOEXEC, mode: 0)
        } catch {
            throw .io(.open, file, error)
        }
        defer { fileSystem.close(descriptor) }
        var finished = false
        var failure: Errno?
        // Fills `buffer` until it is full or the file ends, retrying EINTR; returns the bytes read.
        func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            var filled = 0
            while filled < buffer.count {
                do throws(Errno) {
                    let count = try fileSystem.read(
                        descriptor,
                        into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[filled...])))
                    if count == 0 {
                        finished = true
                        break
                    }
                    filled += count
                } catch  where error.code == EINTR {
                    continue
                } catch {
                    failure = error
                    break
                }
            }
            return filled
        }
        // One allocation of the expected size (plus one byte to see the end), without zero-filling it.
        var bytes = [UInt8](unsafeUninitializedCapacity: max(0, sizeHint) + 1) { buffer, count in count = fill(buffer) }
        while !finished && failure == nil {
            bytes += [UInt8](unsafeUninitializedCapacity: 1 << 20) { buffer, count in count = fill(buffer) }
        }
        if let failure { throw .io(.read, file, failure) }
        return bytes
    }

    private func unreadable(_ file: String, _ error: any Error, backup: String) -> StoreError {
        let hasBackup = ((try? fileSystem.status(backup)) ?? nil) != nil
        let decodeError = (error as? JSONDecodeError) ?? JSONDecodeError(offset: 0, reason: "\(error)")
        return .unreadable(
            path: file, offset: decodeError.offset, reason: decodeError.reason, backup: hasBackup ? backup : nil)
    }

    // MARK: Writing

    /// The crash-safe write sequence (see the type's documentation); `body` streams the document with its new
    /// revision. Returns the new revision.
    /// `journal` is the `journal` of the state document being written; `expectedSequence`, when given, is checked
    /// under the lock against where the state stands (`position`) before anything is written.
    private func writeDocument(
        _ kind: StoreError.DocumentKind, _ name: String, expectedRevision: Int?, journal: Int = 0,
        expectedSequence: Int? = nil,
        _ body: (Int, JSONByteWriter) throws -> Void
    ) throws(StoreError) -> Int {
        let folder = directory(kind)
        try recreateDirectoryIfRemoved(folder)
        let target = path(kind, name)
        let lock = try acquireLock(target)
        defer { fileSystem.close(lock) }

        let current = try inspect(kind, name)
        if let current, current.header.schemaVersion > currentSchemaVersion(kind) {
            throw .newerSchema(
                path: target, found: current.header.schemaVersion, supported: currentSchemaVersion(kind))
        }
        try Self.check(kind, name, expected: expectedRevision, actual: current?.header.revision ?? 0)
        if let expectedSequence {
            // A whole snapshot may stand where nothing is (the state or the store was removed); anything else must
            // stand where the writer saw it.
            let actual = try position(name, snapshot: current?.header)
            if current != nil || actual != 0 {
                try Self.check(.state, name, expected: expectedSequence, actual: actual)
            }
        }
        let revision = (current?.header.revision ?? 0) + 1

        // 2. The temporary file.
        let mode = current?.permissions ?? 0o600
        let temporary = try writeDurableTemporary(for: target, in: folder, mode: mode, name: name) {
            descriptor, temporary in
            do throws(Errno) {
                try fileSystem.fchmod(descriptor, mode: mode)
            } catch {
                throw StoreError.io(.chmod, temporary, error)
            }
            let writer = JSONByteWriter { chunk in try self.writeAll(descriptor, chunk, path: temporary) }
            do {
                try body(revision, writer)
                try writer.finish()
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError.coding(name: name, reason: "cannot encode: \(error)")
            }
        }

        // 3. The backup, 4. the rename.
        let backup = backupPath(kind, name)
        do {
            if current != nil {
                do {
                    try fileSystem.unlink(backup)
                } catch  where error.code != ENOENT {
                    throw StoreError.io(.unlink, backup, error)
                } catch {}
                do {
                    try fileSystem.link(target, backup)
                } catch {
                    throw StoreError.io(.link, backup, error)
                }
            }
            do {
                try fileSystem.rename(temporary, target)
            } catch {
                throw StoreError.io(.rename, target, error)
            }
        } catch {
            try? fileSystem.unlink(temporary)
            throw error as? StoreError ?? .coding(name: name, reason: "\(error)")
        }

        // 5. Make the rename durable; on failure put the previous version back so the error means "not saved".
        do {
            try fileSystem.syncDirectory(folder)
        } catch {
            if current != nil {
                try? fileSystem.rename(backup, target)
            } else {
                try? fileSystem.unlink(target)
            }
            validated.forget(target)
            throw .io(.syncDirectory, folder, error)
        }
        validated.record(
            target, status: (try? fileSystem.status(target)) ?? nil,
            value: DocumentHeader(schemaVersion: currentSchemaVersion(kind), revision: revision, journal: journal))
        return revision
    }

    private func delete(_ kind: StoreError.DocumentKind, _ name: String, expectedRevision: Int?) throws(StoreError) {
        try StoreName.validate(name)
        let target = path(kind, name)
        let lock = try acquireLock(target)
        defer { fileSystem.close(lock) }
        let exists: Bool
        do {
            exists = try fileSystem.status(target) != nil
        } catch {
            throw .io(.stat, target, error)
        }
        guard exists else { throw .notFound(kind, name: name) }
        if expectedRevision != nil {
            let current = try inspect(kind, name)
            try Self.check(kind, name, expected: expectedRevision, actual: current?.header.revision ?? 0)
        }
        validated.forget(target)
        do {
            try fileSystem.rename(target, backupPath(kind, name))
        } catch {
            throw .io(.rename, target, error)
        }
        do {
            try fileSystem.syncDirectory(directory(kind))
        } catch {
            throw .io(.syncDirectory, directory(kind), error)
        }
    }

    private func currentSchemaVersion(_ kind: StoreError.DocumentKind) -> Int {
        kind == .deck ? DeckDocument.currentSchemaVersion : StateDocument.currentSchemaVersion
    }

    /// The current file's envelope and mode, or nil when there is none. Refuses links, non-files and unreadable
    /// files (which must never be replaced).
    private func inspect(
        _ kind: StoreError.DocumentKind, _ name: String
    ) throws(StoreError) -> (header: DocumentHeader, permissions: UInt32)? {
        let target = path(kind, name)
        let status: FileStatus?
        do {
            status = try fileSystem.status(target)
        } catch {
            throw .io(.stat, target, error)
        }
        guard let status else { return nil }
        switch status.kind {
        case .regular: break
        case .symbolicLink: throw .symbolicLink(path: target)
        default: throw .notAFile(path: target)
        }
        if let header = validated.value(for: target, status: status) { return (header, status.permissions) }
        let bytes = try readFile(target, sizeHint: status.size)
        do {
            let format = kind == .deck ? DeckDocument.formatName : StateDocument.formatName
            let header = try DocumentHeader.scan(bytes, format: format)
            validated.record(target, status: status, value: header)
            return (header, status.permissions)
        } catch {
            throw unreadable(target, error, backup: backupPath(kind, name))
        }
    }

    func acquireLock(_ target: String) throws(StoreError) -> Int32 {
        let lockPath = target + ".lock"
        let descriptor: Int32
        do {
            descriptor = try fileSystem.open(lockPath, flags: O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        } catch {
            throw .io(.open, lockPath, error)
        }
        do {
            _ = try fileSystem.lockExclusive(descriptor, wait: true)
        } catch {
            fileSystem.close(descriptor)
            throw .io(.lock, lockPath, error)
        }
        return descriptor
    }

    /// Creates a temporary file beside `target` in `folder`, lets `fill` write it (given its descriptor and path),
    /// and makes it durable (`fsync`, then close): the temporary's path, ready to be renamed over `target`. On any
    /// failure the temporary is closed and removed, and the error is a `StoreError` (`fill`'s own, else `.coding`
    /// naming `name`). The one place the store's atomic writes (documents, snapshots, a truncated journal) make
    /// their temporary file.
    func writeDurableTemporary(
        for target: String, in folder: String, mode: UInt32, name: String,
        _ fill: (_ descriptor: Int32, _ temporary: String) throws -> Void
    ) throws(StoreError) -> String {
        let (temporary, descriptor) = try createTemporary(for: target, in: folder, mode: mode)
        do {
            try fill(descriptor, temporary)
            do {
                try fileSystem.fsync(descriptor)
            } catch {
                throw StoreError.io(.fsync, temporary, error)
            }
            fileSystem.close(descriptor)
        } catch {
            fileSystem.close(descriptor)
            try? fileSystem.unlink(temporary)
            throw error as? StoreError ?? .coding(name: name, reason: "\(error)")
        }
        return temporary
    }

    func createTemporary(
        for target: String, in folder: String, mode: UInt32
    ) throws(StoreError) -> (String, Int32) {
        let base = String(target.split(separator: "/").last ?? "")
        var generator = SystemRandomNumberGenerator()
        while true {
            let suffix = String(generator.next() as UInt64, radix: 36)
            let temporary = StoreLocation.join(folder, ".\(base)\(Self.temporaryMarker)\(getpid())-\(suffix)")
            do {
                let descriptor = try fileSystem.open(
                    temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: mode)
                return (temporary, descriptor)
            } catch  where error.code == EEXIST {
                continue
            } catch {
                throw .io(.open, temporary, error)
            }
        }
    }

    /// Writes every byte, looping over short writes and EINTR.
    func writeAll(_ descriptor: Int32, _ chunk: UnsafeRawBufferPointer, path: String) throws(StoreError) {
        var offset = 0
        while offset < chunk.count {
            do {
                let written = try fileSystem.write(descriptor, from: UnsafeRawBufferPointer(rebasing: chunk[offset...]))
                offset += written
            } catch  where error.code == EINTR {
                continue
            } catch {
                throw .io(.write, path, error)
            }
        }
    }

    // MARK: State positions

    public func statePosition(named name: String) throws(StoreError) -> Int {
        try StoreName.validate(name)
        let lock = try acquireLockIfStoreExists(path(.state, name))
        defer { lock.map { fileSystem.close($0) } }
        return try position(name, snapshot: inspect(.state, name)?.header)
    }

    /// Where state `name` stands given its snapshot's envelope: the larger of the snapshot's `journal` and the
    /// journal's last record. Call under the state's lock. O(1) when the journal is the one this store last appended
    /// to or read (`lastJournalSequence(_:)`), else O(journal size).
    func position(_ name: String, snapshot: DocumentHeader?) throws(StoreError) -> Int {
        max(snapshot?.journal ?? 0, try lastJournalSequence(name))
    }

    /// The `journal` of state `name`'s snapshot (0: no snapshot). Call under the state's lock.
    func inspectStateJournalMark(_ name: String) throws(StoreError) -> Int {
        try inspect(.state, name)?.header.journal ?? 0
    }

    /// The lock of `target` when its directory exists (nil: there is nothing to lock, nor to read).
    private func acquireLockIfStoreExists(_ target: String) throws(StoreError) -> Int32? {
        let folder = String(target[..<(target.lastIndex(of: "/") ?? target.startIndex)])
        guard (try? fileSystem.status(folder.isEmpty ? "." : folder)) ?? nil != nil else { return nil }
        return try acquireLock(target)
    }

    /// Creates `folder` (and the store's root) again when it was removed while the store was open, so that a
    /// session whose store directory was deleted under it saves again instead of failing on every change.
    func recreateDirectoryIfRemoved(_ folder: String) throws(StoreError) {
        let status: FileStatus?
        do {
            status = try fileSystem.status(folder)
        } catch {
            throw .io(.stat, folder, error)
        }
        if status == nil { try createDirectories(folder) }
    }

    // MARK: Opening

    /// The part of a temporary file's name between the document's file name and the writer's pid.
    static let temporaryMarker = ".tmp-"

    private func createDirectories(_ directory: String) throws(StoreError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            let status: FileStatus?
            do {
                status = try fileSystem.status(prefix)
            } catch {
                throw .io(.stat, prefix, error)
            }
            if let status {
                // A link to a directory is fine for the root's ancestors (e.g. /home → /data/home).
                // Anything else (a regular file named as the store): the directory cannot be made there.
                guard status.kind == .directory || status.kind == .symbolicLink else {
                    throw .io(.createDirectory, prefix, Errno(ENOTDIR))
                }
                continue
            }
            do {
                try fileSystem.makeDirectory(prefix, mode: 0o700)
            } catch  where error.code == EEXIST {
                continue
            } catch {
                throw .io(.createDirectory, prefix, error)
            }
        }
    }

    /// Removes `.<name>.json.tmp-*` files whose document lock is free (their writer is gone). Best effort: a
    /// read-only store is still opened for reading.
    private func sweepTemporaryFiles(in folder: String) {
        guard let entries = try? fileSystem.contentsOfDirectory(folder) else { return }
        for entry in entries where entry.hasPrefix(".") {
            guard let marker = entry.firstRange(of: Self.temporaryMarker) else { continue }
            let documentFile = String(entry[entry.index(after: entry.startIndex)..<marker.lowerBound])
            let lockPath = StoreLocation.join(folder, documentFile + ".lock")
            guard let lock = try? fileSystem.open(lockPath, flags: O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600) else {
                continue
            }
            if (try? fileSystem.lockExclusive(lock, wait: false)) == true {
                try? fileSystem.unlink(StoreLocation.join(folder, entry))
            }
            fileSystem.close(lock)
        }
    }
}
