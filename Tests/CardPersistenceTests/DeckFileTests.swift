import CardPersistence
import Testing

@Suite struct DeckFileTests {
    @Test func formatFollowsTheExtensionThenTheFirstByte() {
        #expect(DeckFile.format(of: Array("a\tb".utf8), pathExtension: "JSON") == .json)
        #expect(DeckFile.format(of: Array("{}".utf8), pathExtension: "tsv") == .tsv)
        #expect(DeckFile.format(of: Array("  \n{\"cards\": []}".utf8), pathExtension: "") == .json)
        #expect(DeckFile.format(of: Array("prompt\tanswer".utf8), pathExtension: "cards") == .tsv)
    }

    @Test func tsvBecomesFlashcards() throws {
        let deck = try DeckFile.parse(Array("Capital of France?\tParis\n2 + 2?\t4\n".utf8)).get()
        #expect(deck.count == 2)
        guard case .flashcard(let card) = deck[1].payload else {
            Issue.record("not a flashcard")
            return
        }
        #expect(card.prompt == "2 + 2?" && card.answer == "4")
    }

    @Test func badJSONNamesLineAndColumn() {
        let text = "{\n  \"cards\": [\n    {\"id\": }\n  ]\n}\n"
        guard case .failure(let problem) = DeckFile.parse(Array(text.utf8), pathExtension: "json") else {
            Issue.record("accepted malformed JSON")
            return
        }
        guard case .json(let line, _, _, _) = problem else {
            Issue.record("wrong problem \(problem)")
            return
        }
        #expect(line == 3)
        #expect(problem.description(file: "deck.json").hasPrefix("deck.json:3:"))
    }

    @Test func badTSVRowsAreReportedByLineAndNothingIsRead() {
        guard case .failure(let problem) = DeckFile.parse(Array("ok\tfine\nno tab here\nalso ok\tyes\n".utf8)) else {
            Issue.record("accepted a bad row")
            return
        }
        #expect(problem.description(file: "cards.tsv").contains("2"))
    }

    @Test func aMissingFileIsUnreadable() {
        guard case .failure(.unreadable) = DeckFile.read(path: "/nonexistent/deck.tsv") else {
            Issue.record("read a missing file")
            return
        }
    }
}
