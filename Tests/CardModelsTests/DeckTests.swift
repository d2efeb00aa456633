import CardModels
import Foundation
import Testing

private func card(_ id: UInt64, _ title: String = "") -> Card {
    Card(id: CardID(id), title: title.isEmpty ? "Card \(id)" : title, color: .blue, sortOrder: Int(id))
}

@Suite struct DeckTests {
    @Test func duplicateIDIsRejected() {
        #expect(throws: ModelError.duplicateID(CardID(2))) { try Deck([card(1), card(2), card(2)]) }
    }

    @Test func positionsAreKeptInStepThroughEveryChange() throws {
        var deck = try Deck((1...6).map { card($0) })
        try deck.move(CardID(1), to: 4)
        #expect(deck.ids == [2, 3, 4, 5, 1, 6].map { CardID($0) })
        try deck.insert(card(9), at: 0)
        try deck.remove(CardID(4))
        try deck.move(from: 5, to: 1)
        try deck.append(card(7))
        for (index, card) in deck.enumerated() { #expect(deck.index(of: card.id) == index) }
        #expect(deck.ids == [9, 6, 2, 3, 5, 1, 7].map { CardID($0) })
        #expect(deck.index(of: CardID(4)) == nil)
    }

    @Test func badInputThrowsAndLeavesTheDeckUnchanged() throws {
        var deck = try Deck((1...3).map { card($0) })
        let before = deck
        #expect(throws: ModelError.unknownID(CardID(99))) { try deck.move(CardID(99), to: 0) }
        #expect(throws: ModelError.indexOutOfRange(index: 3, limit: 3)) { try deck.move(from: 0, to: 3) }
        #expect(throws: ModelError.indexOutOfRange(index: -1, limit: 3)) { try deck.move(from: -1, to: 0) }
        #expect(throws: ModelError.duplicateID(CardID(2))) { try deck.insert(card(2), at: 0) }
        #expect(throws: ModelError.indexOutOfRange(index: 5, limit: 3)) { try deck.insert(card(8), at: 5) }
        #expect(throws: ModelError.unknownID(CardID(8))) { try deck.remove(CardID(8)) }
        #expect(throws: ModelError.indexOutOfRange(index: 3, limit: 3)) { try deck.remove(at: 3) }
        #expect(throws: ModelError.unknownID(CardID(8))) { try deck.update(card(8)) }
        #expect(deck == before)
        for (index, card) in deck.enumerated() { #expect(deck.index(of: card.id) == index) }
    }

    @Test func sortIsStable() throws {
        var deck = try Deck([card(1, "b"), card(2, "a"), card(3, "b"), card(4, "a"), card(5, "c")])
        deck.sort(by: \.title)
        #expect(deck.ids == [2, 4, 1, 3, 5].map { CardID($0) })
        deck.sort(by: \.title, descending: true)
        #expect(deck.ids == [5, 1, 3, 2, 4].map { CardID($0) })
        for (index, card) in deck.enumerated() { #expect(deck.index(of: card.id) == index) }
    }

    @Test func renumberSortOrderFollowsPositions() throws {
        var deck = try Deck([card(5), card(3), card(9)])
        deck.renumberSortOrder()
        #expect(deck.map(\.sortOrder) == [0, 1, 2])
    }

    @Test func applyingADiffReordersInsertsAndRemoves() throws {
        var deck = try Deck((1...5).map { card($0) })
        let target: [CardID] = [5, 7, 2, 1, 3].map { CardID($0) }
        let diff = try ReorderDiff(from: deck.ids, to: target)
        try deck.apply(diff, inserting: [card(7)])
        #expect(deck.ids == target)
        #expect(deck.index(of: CardID(7)) == 1)
        // A diff made for another size is refused, and the deck is untouched.
        let before = deck
        let otherSize = try ReorderDiff(from: [1, 2, 3, 4].map { CardID($0) }, to: [4, 3, 2, 1].map { CardID($0) })
        #expect(throws: ModelError.diffMismatch("made for 4 cards, the deck has 5")) { try deck.apply(otherSize) }
        #expect(deck == before)
    }

    @Test func applyingADiffThatInsertsAnExistingIDThrows() throws {
        var deck = try Deck((1...3).map { card($0) })
        let diff = try ReorderDiff(from: deck.ids, to: [1, 2, 3, 4].map { CardID($0) })
        #expect(throws: ModelError.duplicateID(CardID(2))) { try deck.apply(diff, inserting: [card(2)]) }
        #expect(deck.ids == [1, 2, 3].map { CardID($0) })
    }

    @Test func deckDiffFromDecksMatchesTheArrayDiff() throws {
        let old = try Deck((1...8).map { card($0) })
        var new = old
        new.sort(by: { $0.id.rawValue % 3 })
        let fromDecks = ReorderDiff(from: old, to: new)
        let fromArrays = try ReorderDiff(from: old.ids, to: new.ids)
        #expect(fromDecks == fromArrays)
    }
}

@Suite struct CodableTests {
    private func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    @Test func everySeedDeckRoundTrips() throws {
        for deck in [SeedData.students, SeedData.wallet, SeedData.flashcards, SeedData.itemLines, SeedData.colorDeck] {
            #expect(try roundTrip(deck) == deck)
        }
        #expect(try roundTrip(SeedData.transactions) == SeedData.transactions)
        #expect(
            try roundTrip(ReorderDiff(from: [1, 2, 3], to: [3, 1, 2])) == ReorderDiff(from: [1, 2, 3], to: [3, 1, 2]))
    }

    @Test func wireFormsAreReadable() throws {
        let json = String(decoding: try JSONEncoder().encode(CardID(18_446_744_073_709_551_615)), as: UTF8.self)
        #expect(json == "\"18446744073709551615\"")
        #expect(try JSONDecoder().decode(CardID.self, from: Data("7".utf8)) == CardID(7))
        #expect(try JSONDecoder().decode(RGBColor.self, from: Data("\"#ff3b30\"".utf8)) == .red)
        let move = String(decoding: try JSONEncoder().encode(ReorderDiff.Move(from: 3, to: 0)), as: UTF8.self)
        #expect(move == "[3,0]")
    }

    @Test func badDocumentsAreRejectedWithAReason() {
        let cases = [
            ##"{"cards":[{"id":"1","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"plain"}},"##
                + ##"{"id":"1","title":"b","color":"#000000","sortOrder":1,"payload":{"kind":"plain"}}]}"##,
            ##"{"cards":[{"id":"x1","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"plain"}}]}"##,
            ##"{"cards":[{"id":"1","title":"a","color":"red","sortOrder":0,"payload":{"kind":"plain"}}]}"##,
            ##"{"cards":[{"id":"1","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"wat"}}]}"##,
            ##"{"cards":[{"id":"1","title":"a","color":"#000000","sortOrder":0,"##
                + ##""payload":{"kind":"student","scores":[1,2,3]}}]}"##,
        ]
        for text in cases {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(Deck.self, from: Data(text.utf8)) }
        }
    }

    @Test func payloadKindsEncodeWithTheirFields() throws {
        let card = SeedData.wallet[0]
        let object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(card)) as? [String: Any])
        let payload = try #require(object["payload"] as? [String: Any])
        #expect(payload["kind"] as? String == "payment")
        #expect(payload["brand"] as? String == "visa")
        #expect(object["id"] as? String == "101")
    }
}
