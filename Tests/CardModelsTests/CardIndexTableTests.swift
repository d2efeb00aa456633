import Testing

@testable import CardModels

/// `Deck`'s id index (`CardIndexTable`) against a `Dictionary` model, and the generated deck that needs no table.
@Suite struct CardIndexTableTests {
    /// Seeded insertions, updates and removals (removals shift probe runs back, across the table's wrap-around too)
    /// leave the table answering as the dictionary does, with its invariants held after every step.
    @Test func tableMatchesADictionaryThroughSeededChanges() {
        var generator = SplitMix64(seed: 0x1D_7AB1E)
        for round in 0..<40 {
            var table = CardIndexTable()
            var model: [CardID: Int] = [:]
            // Few distinct ids (a narrow range) so that removals hit stored ids and runs collide.
            let range = UInt64(4 + round * 6)
            for step in 0..<400 {
                let id = CardID(generator.next() % range)
                if generator.next() % 3 == 0 {
                    table.remove(id)
                    model[id] = nil
                } else {
                    let position = Int(generator.next() % 1_000)
                    let replaced = table.updateValue(position, forKey: id)
                    #expect(replaced == model.updateValue(position, forKey: id), "round \(round) step \(step)")
                }
                table._checkInvariants()
                #expect(table.count == model.count, "round \(round) step \(step)")
            }
            for raw in 0..<range { #expect(table.position(of: CardID(raw)) == model[CardID(raw)], "round \(round)") }
        }
    }

    @Test func unmixInvertsTheMix() {
        var generator = SplitMix64(seed: 0x0DD_BA11)
        for value in [0, 1, UInt64.max, 1 << 63] + (0..<10_000).map({ _ in generator.next() }) {
            #expect(unmix64(mix64(value)) == value)
            #expect(mix64(unmix64(value)) == value)
        }
    }

    /// A generated deck finds every id by inverting the mix, refuses ids it does not hold, equals the same cards
    /// indexed by a table, and keeps finding them after changes move its cards (which give it a table).
    @Test func aGeneratedDeckFindsItsIdsWithoutATable() throws {
        for seed: UInt64 in [42, 7, UInt64.max] {
            var deck = DeckGenerator.deck(count: 3_000, seed: seed)
            let indexed = try Deck(deck.cards)
            #expect(deck == indexed)
            #expect(deck.isAsGenerated && !indexed.isAsGenerated)
            for (index, card) in deck.enumerated() { #expect(deck.index(of: card.id) == index) }
            #expect(deck.index(of: CardID(mix64(seed &+ 3_000))) == nil, "the next generated id is not in the deck")
            #expect(deck.index(of: CardID(mix64(seed &- 1))) == nil)
            #expect(!deck.contains(id: CardID(12_345)) || indexed.contains(id: CardID(12_345)))
            let moved = deck[10].id
            try deck.move(moved, to: 2_000)
            #expect(!deck.isAsGenerated)
            #expect(deck.index(of: moved) == 2_000)
            try deck.remove(at: 0)
            for (index, card) in deck.enumerated() { #expect(deck.index(of: card.id) == index) }
        }
    }

    @Test func anUpdatedTitleIsNoLongerAsGenerated() throws {
        var deck = DeckGenerator.deck(count: 20)
        var card = deck[3]
        card.title = "Zebra"
        try deck.update(card)
        #expect(!deck.isAsGenerated)
        #expect(deck.index(of: card.id) == 3)
    }

    @Test func generatedTitlesAreWrittenAsInterpolationWrites() {
        for number in [0, 1, 9, 10, 99, 100, 12_345, 999_999, 1_000_000, Int(Int32.max)] {
            #expect(DeckGenerator.title(number: number) == "Card \(number)")
        }
    }

    /// The ranks a generated deck takes as known (titles and sortOrders: the identity) are the ones the same cards
    /// get computed, as a deck that is not marked generated computes them.
    @Test func aGeneratedDecksKnownRanksAreTheComputedOnes() throws {
        let generated = DeckGenerator.deck(count: DeckOrder.largeCount + 1_234)
        let known = DeckOrder(generated, checksum: DeckOrderTests.checksum)
        let computed = DeckOrder(try Deck(generated.cards), checksum: DeckOrderTests.checksum)
        for key in [\DeckOrder.Ranks.title, \.givenSortOrder] {
            let knownRanks = try #require(known.keyRanks[keyPath: key])
            let computedRanks = try #require(computed.keyRanks[keyPath: key])
            #expect(knownRanks == computedRanks)
            #expect(knownRanks.cards == computedRanks.cards && knownRanks.rankIDs == computedRanks.rankIDs)
            #expect(knownRanks.sortedChecksums?.ascending == computedRanks.sortedChecksums?.ascending)
            #expect(knownRanks.sortedChecksums?.descending == computedRanks.sortedChecksums?.descending)
        }
    }
}
