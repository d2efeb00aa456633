import CardModels
import CardPersistence
import Foundation
import Testing

/// The `DeckStore` contract, run against both implementations.
@Suite struct DeckStoreContractTests {
    struct WalletState: Codable, Equatable {
        var order: [CardID]
        var note: String
    }

    /// Runs `body` with an in-memory store and with a file store in a fresh directory.
    func withEachStore(_ body: (any DeckStore) throws -> Void) throws {
        try body(InMemoryStore())
        let directory = TemporaryDirectory()
        try body(try JSONFileStore(root: directory.path))
    }

    @Test func saveLoadListAndDelete() throws {
        try withEachStore { store in
            let deck = awkwardDeck(count: 20, seed: 1)
            #expect(try store.saveDeck(deck, named: "mine", expectedRevision: 0) == 1)
            #expect(try store.saveDeck(deck, named: "other", expectedRevision: nil) == 1)
            let loaded = try store.loadDeck(named: "mine")
            #expect(loaded.deck == deck)
            #expect(loaded.revision == 1)
            #expect(!loaded.isReadOnly)
            #expect(try store.deckNames() == ["mine", "other"])
            #expect(try store.saveDeck(Deck(), named: "mine", expectedRevision: 1) == 2)
            #expect(try store.loadDeck(named: "mine").deck.isEmpty)
            try store.deleteDeck(named: "mine", expectedRevision: 2)
            #expect(try store.deckNames() == ["other"])
            #expect(throws: StoreError.notFound(.deck, name: "mine")) { try store.loadDeck(named: "mine") }
            #expect(throws: StoreError.notFound(.deck, name: "mine")) {
                try store.deleteDeck(named: "mine", expectedRevision: nil)
            }
        }
    }

    @Test func aStaleWriterGetsAConflictAndNothingIsWritten() throws {
        try withEachStore { store in
            let first = DeckGenerator.deck(count: 5, seed: 1)
            let second = DeckGenerator.deck(count: 5, seed: 2)
            try store.saveDeck(first, named: "d", expectedRevision: 0)
            let reader = try store.loadDeck(named: "d")
            try store.saveDeck(second, named: "d", expectedRevision: reader.revision)
            #expect(throws: StoreError.conflict(.deck, name: "d", expected: 1, actual: 2)) {
                try store.saveDeck(first, named: "d", expectedRevision: reader.revision)
            }
            #expect(throws: StoreError.conflict(.deck, name: "d", expected: 0, actual: 2)) {
                try store.saveDeck(first, named: "d", expectedRevision: 0)
            }
            #expect(throws: StoreError.conflict(.deck, name: "d", expected: 1, actual: 2)) {
                try store.deleteDeck(named: "d", expectedRevision: 1)
            }
            #expect(try store.loadDeck(named: "d").deck == second)
            #expect(throws: StoreError.conflict(.deck, name: "new", expected: 3, actual: 0)) {
                try store.saveDeck(first, named: "new", expectedRevision: 3)
            }
        }
    }

    @Test func statesRoundTripWithRevisions() throws {
        try withEachStore { store in
            let state = WalletState(order: [3, 1, 2], note: "é \"quoted\"")
            #expect(try store.saveState(state, named: "wallet", expectedRevision: 0) == 1)
            let loaded = try store.loadState(WalletState.self, named: "wallet")
            #expect(loaded.value == state)
            #expect(loaded.revision == 1)
            #expect(throws: StoreError.self) { try store.saveState(state, named: "wallet", expectedRevision: 0) }
            #expect(try store.saveState([1, 2], named: "wallet", expectedRevision: 1) == 2)
            #expect(throws: StoreError.self) { try store.loadState(WalletState.self, named: "wallet") }
            #expect(try store.stateNames() == ["wallet"])
            #expect(throws: StoreError.self) {
                try store.saveStateJSON(Array("{\"a\":".utf8), named: "bad", expectedRevision: nil)
            }
            try store.deleteState(named: "wallet", expectedRevision: 2)
            #expect(try store.stateNames() == [])
        }
    }

    static let badNames = [
        "", ".", "..", "../x", "a/b", ".hidden", "-dash", "a b", "ä", "x\u{0}", String(repeating: "a", count: 65),
    ]

    @Test(arguments: badNames)
    func namesCannotEscapeTheStore(_ name: String) throws {
        try withEachStore { store in
            #expect(throws: StoreError.self) { try store.saveDeck(Deck(), named: name, expectedRevision: nil) }
            #expect(throws: StoreError.self) { try store.loadDeck(named: name) }
            #expect(throws: StoreError.self) { try store.saveState(1, named: name, expectedRevision: nil) }
        }
    }

    @Test func goodNamesAreAccepted() throws {
        for name in ["a", "Deck-1_final.v2", String(repeating: "z", count: 64), "0"] {
            try StoreName.validate(name)
        }
    }

    @Test func storeLocationFollowsThePrecedence() throws {
        let all = ["CARDISTRY_HOME": "/c", "XDG_DATA_HOME": "/x", "HOME": "/h"]
        #expect(try StoreLocation.resolve(explicit: "/e", environment: all) == "/e")
        #expect(try StoreLocation.resolve(explicit: nil, environment: all) == "/c")
        #expect(
            try StoreLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/x/", "HOME": "/h"])
                == "/x/cardistry")
        #expect(
            try StoreLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"])
                == "/h/.local/share/cardistry")
        #expect(
            try StoreLocation.resolve(explicit: nil, environment: ["CARDISTRY_HOME": "", "HOME": "/h"])
                == "/h/.local/share/cardistry")
        #expect(throws: StoreError.self) { try StoreLocation.resolve(explicit: nil, environment: [:]) }
        #expect(throws: StoreError.self) { try StoreLocation.resolve(explicit: "", environment: all) }
    }
}
