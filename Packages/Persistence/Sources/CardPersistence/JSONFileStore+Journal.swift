#if canImport(Glibc)
    import Glibc
#endif

/// State journals: `<root>/states/<name>.journal`, one `{"seq":N,"record":<json>}` line per change.
///
/// An append writes its lines with `O_APPEND` under the state's lock and `fsync`s them before returning (the first
/// append also `fsync`s the directory, so the new file survives a crash); one into a journal with a damaged record
/// before its last is refused and changes nothing (not even a torn last line); one that fails cuts what it wrote, and
/// one that names the position it expects (`expectedSequence`) is refused when another process moved the state. A crash mid-append leaves at most a torn
/// last line, which loading ignores. The snapshot (`<name>.json`) names the last record it includes, so records
/// it includes are never applied twice, whether or not `truncateStateJournal` ran after it. Truncation rewrites the
/// remaining records to a temporary file and renames it over the journal. Appending costs O(records appended) while
/// the journal is the file this store last appended to or read (`ValidatedJournals`), else O(journal size) once;
/// loading and truncating O(journal size).
extension JSONFileStore {
    /// The path of the journal of state `name` (the name must be valid).
    public func journalPath(_ name: String) -> String {
        StoreLocation.join(directory(.state), name + ".journal")
    }

    public func appendStateJournal(_ records: [JournalRecord], named name: String, expectedSequence: Int?)
        throws(StoreError)
    {
        try StoreName.validate(name)
        guard !records.isEmpty else { return }
        let file = journalPath(name)
        try recreateDirectoryIfRemoved(directory(.state))
        let lock = try acquireLock(path(.state, name))
        defer { fileSystem.close(lock) }
        let existing = (try? fileSystem.status(file)) ?? nil
        let existed = existing != nil
        var length = 0
        var last = 0
        if let existing, existing.size > 0, let known = validatedJournals.value(for: file, status: existing) {
            // The very file this store last appended to or read whole: its lines were whole and valid then.
            last = known
            length = existing.size
        } else if let existing, existing.size > 0 {
            let bytes = try readFile(file, sizeHint: Int(existing.size))
            // A journal damaged before its last line is never changed, not even to cut a torn line after the
            // damage: this throws before anything is written (the damage is reported, and the file kept as it is).
            last = try Self.lastJournalSequence(bytes, name: name)
            length = bytes.count
            // A crash mid-append left a torn last line: cut it, so the records appended now start a line of their own.
            if bytes.last != UInt8(ascii: "\n") {
                length = (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
                guard truncate(file, off_t(length)) == 0 else {
                    throw .io(.write, file, Errno(errno))
                }
            }
        }
        if let expectedSequence {
            let actual = max(last, try inspectStateJournalMark(name))
            try Self.check(.state, name, expected: expectedSequence, actual: actual)
        }
        let descriptor: Int32
        do {
            descriptor = try fileSystem.open(file, flags: O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode: 0o600)
        } catch {
            throw .io(.open, file, error)
        }
        defer { fileSystem.close(descriptor) }
        let bytes = Self.journalLines(records)
        do throws(StoreError) {
            try write(bytes, to: descriptor, path: file)
            do {
                try fileSystem.fsync(descriptor)
            } catch {
                throw StoreError.io(.fsync, file, error)
            }
        } catch {
            // A failed append (a full disk) may have written part of its lines: cut them, so an error means "not
            // appended" and the retry does not find records of its own already there.
            validatedJournals.forget(file)
            _ = truncate(file, off_t(length))
            throw error
        }
        validatedJournals.record(
            file, status: (try? fileSystem.status(file)) ?? nil, value: records[records.count - 1].sequence)
        if !existed {
            do {
                try fileSystem.syncDirectory(directory(.state))
            } catch {
                throw .io(.syncDirectory, directory(.state), error)
            }
        }
    }

    public func loadStateJournal(named name: String, after: Int) throws(StoreError) -> [JournalRecord] {
        try StoreName.validate(name)
        guard let bytes = try journalBytes(name) else { return [] }
        return try Self.journalRecords(bytes, after: after, name: name)
    }

    /// The last sequence of state `name`'s journal (0: none, or empty), throwing when it is damaged before its last
    /// line: the sequence `validatedJournals` recorded when the file is still the one this store last appended to or
    /// read, else read whole (and recorded when its last line is whole). Call under the state's lock. O(1) or
    /// O(journal size).
    func lastJournalSequence(_ name: String) throws(StoreError) -> Int {
        let file = journalPath(name)
        guard let status = try journalStatus(name), status.size > 0 else { return 0 }
        if let known = validatedJournals.value(for: file, status: status) { return known }
        let bytes = try readFile(file, sizeHint: Int(status.size))
        let last = try Self.lastJournalSequence(bytes, name: name)
        if bytes.count == status.size, bytes.last == UInt8(ascii: "\n") {
            validatedJournals.record(file, status: status, value: last)
        }
        return last
    }

    /// The journal file of state `name`, whole (nil: there is none). O(journal size).
    func journalBytes(_ name: String) throws(StoreError) -> [UInt8]? {
        guard let status = try journalStatus(name) else { return nil }
        return try readFile(journalPath(name), sizeHint: Int(status.size))
    }

    /// The status of state `name`'s journal file (nil: there is none).
    private func journalStatus(_ name: String) throws(StoreError) -> FileStatus? {
        let file = journalPath(name)
        do {
            return try fileSystem.status(file)
        } catch {
            throw .io(.stat, file, error)
        }
    }

    public func truncateStateJournal(named name: String, through sequence: Int) throws(StoreError) {
        try StoreName.validate(name)
        let file = journalPath(name)
        let lock = try acquireLock(path(.state, name))
        defer { fileSystem.close(lock) }
        let status: FileStatus?
        do {
            status = try fileSystem.status(file)
        } catch {
            throw .io(.stat, file, error)
        }
        guard let status else { return }
        let kept = try Self.journalRecords(readFile(file, sizeHint: Int(status.size)), after: sequence, name: name)
        try replaceJournal(name, with: kept)
    }

    /// Replaces the journal of state `name` with `records`, durably: removed when there are none, else written to a
    /// temporary file renamed over it; then the directory is synced. Call under the state's lock. O(records).
    private func replaceJournal(_ name: String, with records: [JournalRecord]) throws(StoreError) {
        let file = journalPath(name)
        validatedJournals.forget(file)
        let folder = directory(.state)
        if records.isEmpty {
            do {
                try fileSystem.unlink(file)
            } catch  where error.code == ENOENT {
            } catch {
                throw .io(.unlink, file, error)
            }
        } else {
            let bytes = Self.journalLines(records)
            let temporary = try writeDurableTemporary(for: file, in: folder, mode: 0o600, name: name) {
                descriptor, temporary in try write(bytes, to: descriptor, path: temporary)
            }
            do {
                try fileSystem.rename(temporary, file)
            } catch {
                try? fileSystem.unlink(temporary)
                throw .io(.rename, file, error)
            }
        }
        do {
            try fileSystem.syncDirectory(folder)
        } catch {
            throw .io(.syncDirectory, folder, error)
        }
    }

    /// Sets a damaged journal aside under the state's lock: a hard link `<name>.journal.damaged-<n>` keeps the file
    /// byte for byte (the first free `n`), then the records before the damage replace the journal atomically (a
    /// temporary file renamed over it) and the directory is synced. A crash between the two steps leaves the
    /// damaged journal in place and its link: the next load sets it aside again. O(journal size).
    public func setAsideDamagedJournal(named name: String) throws(StoreError) -> String? {
        try StoreName.validate(name)
        let file = journalPath(name)
        let lock = try acquireLock(path(.state, name))
        defer { fileSystem.close(lock) }
        guard let bytes = try journalBytes(name) else { return nil }
        let readable = Self.readableJournal(bytes, after: 0)
        guard !readable.isWhole else { return nil }
        var number = 1
        while (try? fileSystem.status(file + ".damaged-\(number)")) ?? nil != nil { number += 1 }
        let aside = file + ".damaged-\(number)"
        do {
            try fileSystem.link(file, aside)
        } catch {
            throw .io(.link, aside, error)
        }
        try replaceJournal(name, with: readable.records)
        return aside
    }

    /// Writes all of `bytes` to `descriptor`.
    private func write(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(StoreError) {
        var failure: StoreError?
        bytes.withUnsafeBytes { chunk in
            do throws(StoreError) {
                try writeAll(descriptor, chunk, path: path)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
