import CardModels
import Testing

@Suite struct SeedDataTests {
    private func scores(_ card: Card) -> [Int] {
        guard case .student(let scores) = card.payload else { return [] }
        return scores.scores
    }

    @Test func studentsMatchTheSeed() {
        let students = SeedData.students
        #expect(students.map(\.title) == ["Alice", "Bob", "Charlie", "Diana", "Eve"])
        #expect(students.map(\.color) == [.red, .blue, .green, .orange, .purple])
        for student in students {
            #expect(scores(student).count == 10)
            #expect(scores(student).allSatisfy { (65...97).contains($0) })
        }
    }

    @Test func someTestHasATieAndRankingsDiffer() {
        let students = Array(SeedData.students)
        var rankings: Set<[String]> = []
        var hasTie = false
        for test in 0..<10 {
            let column = students.map { scores($0)[test] }
            if Set(column).count < column.count { hasTie = true }
            let ranking = students.indices.sorted { column[$0] > column[$1] || (column[$0] == column[$1] && $0 < $1) }
            rankings.insert(ranking.map { students[$0].title })
        }
        #expect(hasTie)
        #expect(rankings.count >= 5)
    }

    @Test func walletHasFiveBrandsAndTwelveTransactions() {
        var brands: Set<PaymentCard.Brand> = []
        for card in SeedData.wallet {
            guard case .payment(let payment) = card.payload else {
                Issue.record("wallet card \(card.id) is not a payment card")
                continue
            }
            brands.insert(payment.brand)
            #expect(!payment.number.isEmpty && !payment.holder.isEmpty && payment.expiry.count == 5)
        }
        // The AppCoda seed's five cards, one per brand.
        #expect(brands == [.visa, .mastercard, .amex, .discover, .unionPay])
        #expect(SeedData.wallet.count == 5)
        #expect(SeedData.transactions.count == 12)
        #expect(Set(SeedData.transactions.map(\.id)).count == SeedData.transactions.count)
        #expect(SeedData.transactions[0].formattedAmount == "$24.50")
        #expect(SeedData.transactions[10].formattedAmount == "-$75.00")
    }

    @Test func flashcardsAreDistinctAndIncludeTheExample() {
        let cards: [Flashcard] = SeedData.flashcards.compactMap {
            if case .flashcard(let card) = $0.payload { card } else { nil }
        }
        #expect(cards.count >= 10)
        #expect(Set(cards).count == cards.count)
        #expect(cards.contains(.example))
    }

    @Test func itemLinesHaveUniqueItemIDs() {
        var ids: [String] = []
        var lines = 0
        for card in SeedData.itemLines {
            guard case .itemLine(let line) = card.payload else { continue }
            lines += 1
            #expect(line.items.count >= 3)
            ids += line.items.map(\.id)
        }
        #expect(lines >= 3)
        #expect(Set(ids).count == ids.count)
    }

    @Test func colorDeckHasTwelveDistinctColours() {
        #expect(SeedData.colorDeck.count >= 12)
        #expect(Set(SeedData.colorDeck.map(\.color)).count == SeedData.colorDeck.count)
        #expect(SeedData.colorDeck.map(\.sortOrder) == Array(0..<SeedData.colorDeck.count))
    }

    @Test func generatedDecksAreDeterministicAndUnique() {
        let first = DeckGenerator.deck(count: 5_000, seed: 7)
        let second = DeckGenerator.deck(count: 5_000, seed: 7)
        let other = DeckGenerator.deck(count: 5_000, seed: 8)
        #expect(first == second)
        #expect(first != other)
        #expect(first.count == 5_000)
        #expect(Set(first.ids).count == 5_000)
    }
}
