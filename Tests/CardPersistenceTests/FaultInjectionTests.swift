import CardModels
import CardPersistence
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every step of the write sequence fails in turn with every error the issue names: the error reaches the caller,
/// the previous file is intact (same bytes, same revision), and no temporary file is left.
@Suite struct FaultInjectionTests {
    static let cases: [(FaultyFileSystem.Step, Int32)] = FaultyFileSystem.Step.allCases.flatMap { step in
        [ENOSPC, EIO, EACCES, EROFS].map { (step, $0) }
    }

    @Test(arguments: cases)
    func aFailedStepLeavesThePreviousFileIntact(_ step: FaultyFileSystem.Step, _ code: Int32) throws {
        let directory = TemporaryDirectory()
        let good = try JSONFileStore(root: directory.path)
        let previous = DeckGenerator.deck(count: 40, seed: 1)
        try good.saveDeck(previous, named: "d", expectedRevision: 0)
        let before = try fixtureBytes(good.path(.deck, "d"))

        let faulty = try JSONFileStore(root: directory.path, fileSystem: FaultyFileSystem(failing: step, code: code))
        do {
            try faulty.saveDeck(DeckGenerator.deck(count: 40, seed: 2), named: "d", expectedRevision: 1)
            Issue.record("the save succeeded")
        } catch {
            guard case .io(_, _, let reported, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reported == code)
        }
        #expect(try fixtureBytes(good.path(.deck, "d")) == before)
        let loaded = try good.loadDeck(named: "d")
        #expect(loaded.deck == previous)
        #expect(loaded.revision == 1)
        #expect(entries(good.directory(.deck)).allSatisfy { !$0.contains(".tmp-") })
        // The next save through a healthy file system works and continues the revisions.
        #expect(try good.saveDeck(Deck(), named: "d", expectedRevision: 1) == 2)
    }

    @Test(arguments: FaultyFileSystem.Step.allCases)
    func aFailedFirstSaveLeavesNoDocument(_ step: FaultyFileSystem.Step) throws {
        let directory = TemporaryDirectory()
        let faulty = try JSONFileStore(root: directory.path, fileSystem: FaultyFileSystem(failing: step, code: ENOSPC))
        let outcome = Result { () throws(StoreError) in try faulty.saveDeck(Deck(), named: "d", expectedRevision: 0) }
        let good = try JSONFileStore(root: directory.path)
        if step == .link {
            // A first save links nothing (there is no previous version), so it succeeds.
            #expect((try? outcome.get()) == 1)
        } else {
            #expect(throws: StoreError.self) { try outcome.get() }
            #expect(try good.deckNames().isEmpty)
        }
        #expect(entries(good.directory(.deck)).allSatisfy { !$0.contains(".tmp-") })
    }
}
