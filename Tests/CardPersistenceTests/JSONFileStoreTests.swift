import CardModels
import CardPersistence
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The file store's own guarantees: modes, backups, links, unreadable and newer files, migrations, sweeping.
@Suite struct JSONFileStoreTests {
    @Test func directoriesAre0700AndNewFiles0600AndModesAreKept() throws {
        let directory = TemporaryDirectory()
        let root = directory.at("a/b/store")
        let store = try JSONFileStore(root: root)
        for path in [directory.at("a"), directory.at("a/b"), root, store.directory(.deck), store.directory(.state)] {
            #expect(permissions(path) == 0o700, "\(path)")
        }
        try store.saveDeck(DeckGenerator.deck(count: 3), named: "d", expectedRevision: 0)
        #expect(permissions(store.path(.deck, "d")) == 0o600)
        #expect(chmod(store.path(.deck, "d"), 0o640) == 0)
        try store.saveDeck(DeckGenerator.deck(count: 4), named: "d", expectedRevision: 1)
        #expect(permissions(store.path(.deck, "d")) == 0o640)
    }

    @Test func theBackupHoldsThePreviousVersion() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        let first = DeckGenerator.deck(count: 3, seed: 1)
        try store.saveDeck(first, named: "d", expectedRevision: 0)
        let firstBytes = try Data(contentsOf: URL(fileURLWithPath: store.path(.deck, "d")))
        try store.saveDeck(DeckGenerator.deck(count: 3, seed: 2), named: "d", expectedRevision: 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.backupPath(.deck, "d"))) == firstBytes)
        try store.deleteDeck(named: "d", expectedRevision: 2)
        #expect(try store.deckNames().isEmpty)
        // A deletion keeps the deleted version as the backup.
        let backup = try DeckFastDecoder.decodeDocument(fixtureBytes(store.backupPath(.deck, "d")))
        #expect(backup.document.revision == 2)
        #expect(entries(store.directory(.deck)).allSatisfy { !$0.contains(".tmp-") })
    }

    @Test func aSymbolicLinkIsRefusedForWriting() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.at("store"))
        let outside = directory.at("outside.json")
        try plant(DeckFastEncoder.encode(DeckDocument(deck: Deck(), revision: 1)), at: outside)
        #expect(symlink(outside, store.path(.deck, "linked")) == 0)
        #expect(try store.loadDeck(named: "linked").revision == 1)
        #expect(throws: StoreError.symbolicLink(path: store.path(.deck, "linked"))) {
            try store.saveDeck(DeckGenerator.deck(count: 2), named: "linked", expectedRevision: nil)
        }
        #expect((try PosixFileSystem().status(store.path(.deck, "linked")))?.kind == .symbolicLink)
        #expect(try DeckFastDecoder.decodeDocument(fixtureBytes(outside)).document.deck.isEmpty)
    }

    static let unreadable: [([UInt8], Int)] = [
        ([], 0),
        (Array(##"{"format":"cardistry.deck","schemaVersion":3,"revision":2,"deck":{"cards":["##.utf8), 75),
        (Array(##"{"format":"cardistry.deck","schemaVersion":3,"revision":2,"deck":{"cards":[}}"##.utf8), 75),
        (
            Array(##"{"format":"cardistry.deck","schemaVersion":3,"revision":2,"deck":{"cards":[],"x":""##.utf8) + [
                0xFF, 0x22, 0x7D, 0x7D,
            ], 82
        ),
        (Array("\u{0}\u{0}\u{0}".utf8), 0),
    ]

    @Test(arguments: unreadable)
    func anUnreadableFileIsReportedAndNeverOverwritten(_ bytes: [UInt8], _ offset: Int) throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        try store.saveDeck(DeckGenerator.deck(count: 2), named: "d", expectedRevision: 0)
        try store.saveDeck(DeckGenerator.deck(count: 3), named: "d", expectedRevision: 1)  // makes a backup
        try plant(bytes, at: store.path(.deck, "d"))
        do {
            _ = try store.loadDeck(named: "d")
            Issue.record("loaded a corrupt file")
        } catch {
            guard case .unreadable(let path, let foundOffset, _, let backup) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == store.path(.deck, "d"))
            #expect(foundOffset == offset, "\(error)")
            #expect(backup == store.backupPath(.deck, "d"))
            #expect(error.description.contains("byte \(offset)"))
        }
        for revision in [nil, 0, 2] as [Int?] {
            #expect(throws: StoreError.self) {
                try store.saveDeck(DeckGenerator.deck(count: 1), named: "d", expectedRevision: revision)
            }
        }
        #expect(try fixtureBytes(store.path(.deck, "d")) == bytes)
        // The backup is the last good version and is still readable.
        #expect(try DeckFastDecoder.decodeDocument(fixtureBytes(store.backupPath(.deck, "d"))).document.deck.count == 2)
        let report = try store.check()
        #expect(report.count == 1)
        #expect(report.first?.problem != nil)
        #expect(report.first?.hasBackup == true)
    }

    @Test func aFileThisStoreWroteIsNotReadAgainBeforeTheNextSave() throws {
        let directory = TemporaryDirectory()
        let fileSystem = FaultyFileSystem()
        let store = try JSONFileStore(root: directory.path, fileSystem: fileSystem)
        try plant(DeckFastEncoder.encode(DeckDocument(deck: Deck(), revision: 4)), at: store.path(.deck, "d"))
        try store.saveDeck(DeckGenerator.deck(count: 3), named: "d", expectedRevision: 4)  // validates: reads
        let afterFirst = fileSystem.reads.withLock { $0 }
        #expect(afterFirst > 0)
        #expect(try store.saveDeck(DeckGenerator.deck(count: 4), named: "d", expectedRevision: 5) == 6)
        #expect(fileSystem.reads.withLock { $0 } == afterFirst)
        // Another store instance knows nothing and validates again.
        let other = try JSONFileStore(root: directory.path, fileSystem: fileSystem)
        #expect(try other.saveDeck(Deck(), named: "d", expectedRevision: 6) == 7)
        #expect(fileSystem.reads.withLock { $0 } > afterFirst)
    }

    @Test func aFileChangedInPlaceAfterASaveIsValidatedAgain() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        try store.saveDeck(DeckGenerator.deck(count: 5), named: "d", expectedRevision: 0)
        // Same size, same inode, new content: the store must not trust what it wrote before.
        var bytes = try fixtureBytes(store.path(.deck, "d"))
        bytes[bytes.count - 1] = UInt8(ascii: "x")
        let descriptor = open(store.path(.deck, "d"), O_WRONLY)
        #expect(descriptor >= 0)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        // File times are coarse (a clock tick); set one that surely differs, as any later edit would have.
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(futimens(descriptor, &times) == 0)
        close(descriptor)
        #expect(throws: StoreError.self) { try store.saveDeck(Deck(), named: "d", expectedRevision: 1) }
        #expect(try fixtureBytes(store.path(.deck, "d")) == bytes)
    }

    @Test func aNewerDocumentOpensReadOnly() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        let bytes = try fixture("deck-v4-newer.json")
        try plant(bytes, at: store.path(.deck, "future"))
        let loaded = try store.loadDeck(named: "future")
        #expect(loaded.isReadOnly)
        #expect(loaded.schemaVersion == 4)
        #expect(loaded.revision == 2)
        #expect(throws: StoreError.newerSchema(path: store.path(.deck, "future"), found: 4, supported: 3)) {
            try store.saveDeck(loaded.deck, named: "future", expectedRevision: 2)
        }
        #expect(try fixtureBytes(store.path(.deck, "future")) == bytes)
    }

    @Test func aNewerStateOpensReadOnlyAndABrokenOneIsNamed() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        let newer = Array(
            ##"{"format":"cardistry.state","schemaVersion":2,"revision":5,"state":[3,1],"more":{}}"##.utf8)
        try plant(newer, at: store.path(.state, "wallet"))
        let loaded = try store.loadStateJSON(named: "wallet")
        #expect(loaded.isReadOnly)
        #expect(loaded.json == Array("[3,1]".utf8))
        #expect(try store.loadState([Int].self, named: "wallet").revision == 5)
        #expect(throws: StoreError.newerSchema(path: store.path(.state, "wallet"), found: 2, supported: 1)) {
            try store.saveState([1], named: "wallet", expectedRevision: 5)
        }
        #expect(try fixtureBytes(store.path(.state, "wallet")) == newer)
        try plant(
            Array(##"{"format":"cardistry.deck","schemaVersion":1,"revision":1,"state":0}"##.utf8),
            at: store.path(.state, "wrong"))
        #expect(throws: StoreError.self) { try store.loadStateJSON(named: "wrong") }
    }

    @Test func anOlderDocumentMigratesOnLoadAndIsRewrittenOnSave() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        let v1 = try fixture("deck-v1.json")
        try plant(v1, at: store.path(.deck, "old"))
        let loaded = try store.loadDeck(named: "old")
        #expect(loaded.migratedFrom == 1)
        #expect(loaded.revision == 1)
        #expect(loaded.deck == (try fixtureDeck()))
        #expect(try store.saveDeck(loaded.deck, named: "old", expectedRevision: 1) == 2)
        let rewritten = try DeckFastDecoder.decodeDocument(fixtureBytes(store.path(.deck, "old")))
        #expect(rewritten.migratedFrom == nil)
        #expect(try fixtureBytes(store.backupPath(.deck, "old")) == v1)
    }

    @Test func staleTemporaryFilesAreSweptUnlessTheirWriterHoldsTheLock() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        let folder = store.directory(.deck)
        try plant([1, 2, 3], at: folder + "/.d.json.tmp-1-abc")
        try plant([1, 2, 3], at: folder + "/.busy.json.tmp-2-def")
        let lock = open(folder + "/busy.json.lock", O_RDWR | O_CREAT, 0o600)
        #expect(lock >= 0)
        #expect(flockFunction(lock, LOCK_EX) == 0)
        _ = try JSONFileStore(root: directory.path)
        #expect(!entries(folder).contains(".d.json.tmp-1-abc"))
        #expect(entries(folder).contains(".busy.json.tmp-2-def"))
        close(lock)
        _ = try JSONFileStore(root: directory.path)
        #expect(!entries(folder).contains(".busy.json.tmp-2-def"))
    }

    @Test func fastAndFoundationStoresReadEachOthersFiles() throws {
        let directory = TemporaryDirectory()
        let fast = try JSONFileStore(root: directory.path, codec: .fast)
        let foundation = try JSONFileStore(root: directory.path, codec: .foundation)
        let deck = awkwardDeck(count: 50, seed: 4)
        try fast.saveDeck(deck, named: "a", expectedRevision: 0)
        #expect(try foundation.loadDeck(named: "a").deck == deck)
        try foundation.saveDeck(deck, named: "b", expectedRevision: 0)
        #expect(try fast.loadDeck(named: "b").deck == deck)
        try foundation.saveDeck(Deck(), named: "a", expectedRevision: 1)
        #expect(try fast.loadDeck(named: "a").revision == 2)
    }

    @Test func shortWritesAndInterruptsAreRetried() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(
            root: directory.path, fileSystem: FaultyFileSystem(shortWrites: true, interrupts: 5))
        let deck = awkwardDeck(count: 30, seed: 8)
        try store.saveDeck(deck, named: "d", expectedRevision: 0)
        #expect(try store.loadDeck(named: "d").deck == deck)
    }

    @Test func checkNamesEveryDocument() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        try store.saveDeck(DeckGenerator.deck(count: 7), named: "good", expectedRevision: 0)
        try plant(Array("{\"format\":".utf8), at: store.path(.deck, "bad"))
        try store.saveState(["x": 1], named: "s", expectedRevision: 0)
        let report = try store.check()
        #expect(report.map(\.name) == ["bad", "good", "s"])
        #expect(report[0].problem != nil)
        #expect(report[1].cardCount == 7)
        #expect(report[2].kind == .state)
        #expect(report[2].problem == nil)
        #expect(try store.check(deck: "good").count == 1)
    }
}

func fixtureBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

/// glibc's `flock(2)` (hidden behind `struct flock` in Swift's Glibc module).
@_silgen_name("flock")
func flockFunction(_ descriptor: Int32, _ operation: Int32) -> Int32
