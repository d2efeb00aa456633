import CardJSON
import CardModels
import CardPersistence
import Foundation
import Testing

/// The fast path against Foundation's Codable, the reference: each reads the other's output, exactly.
@Suite struct DeckCodecTests {
    @Test func fastOutputDecodesWithJSONDecoderAndViceVersa() throws {
        for seed in UInt64(1)...UInt64(2000) {
            let document = DeckDocument(deck: awkwardDeck(count: Int(seed % 9), seed: seed), revision: Int(seed))
            let fast = DeckFastEncoder.encode(document)
            #expect(try JSONDecoder().decode(DeckDocument.self, from: Data(fast)) == document)
            let foundation = Array(try JSONEncoder().encode(document))
            let read = try DeckFastDecoder.decodeDocument(foundation)
            #expect(read.document == document)
            #expect(read.migratedFrom == nil)
            #expect(try DeckFastDecoder.decodeDocument(fast).document == document)
        }
    }

    @Test func prettyPrintedAndReorderedFoundationOutputDecodes() throws {
        let document = DeckDocument(deck: awkwardDeck(count: 40, seed: 99), revision: 3)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let bytes = Array(try encoder.encode(document))
        // Sorted keys put "deck" before "schemaVersion": the decoder defers the deck until it knows the version.
        #expect(try DeckFastDecoder.decodeDocument(bytes).document == document)
    }

    @Test func bareDeckAndCodableDeckAgree() throws {
        let deck = awkwardDeck(count: 30, seed: 5)
        let bytes = Array(try JSONEncoder().encode(deck))
        #expect(try DeckFastDecoder.decodeDeck(bytes) == deck)
    }

    @Test func largeGeneratedDeckRoundTrips() throws {
        let document = DeckDocument(deck: DeckGenerator.deck(count: 20_000, seed: 3), revision: 1)
        let fast = DeckFastEncoder.encode(document)
        #expect(try DeckFastDecoder.decodeDocument(fast).document == document)
        #expect(try JSONDecoder().decode(DeckDocument.self, from: Data(fast)) == document)
    }

    @Test func cardIDsAcceptNumbersAndStringsExactly() throws {
        let text = """
            {"format":"cardistry.deck","schemaVersion":3,"revision":1,"deck":{"cards":[
            {"id":18446744073709551615,"title":"a","color":"ff0000","sortOrder":1e2,"payload":{"kind":"plain"}},
            {"id":"5","title":"b","color":"#00Ff00","sortOrder":-0,"payload":{"kind":"plain","extra":[1,{"x":null}]}}
            ]}}
            """
        let deck = try DeckFastDecoder.decodeDocument(Array(text.utf8)).document.deck
        #expect(deck.ids == [CardID(UInt64.max), 5])
        #expect(deck[0].sortOrder == 100)
        #expect(deck[0].color == RGBColor(red: 255, green: 0, blue: 0))
        #expect(deck[1].color == RGBColor(red: 0, green: 255, blue: 0))
    }

    static let schemaErrors: [(String, String)] = [
        (##"{"title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"plain"}}"##, "missing \"id\""),
        (##"{"id":"1","id":"2","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"plain"}}"##, "duplicate"),
        (##"{"id":1.5,"title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"plain"}}"##, "whole number"),
        (##"{"id":"-1","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"plain"}}"##, "card id"),
        (##"{"id":"1","title":7,"color":"#000000","sortOrder":0,"payload":{"kind":"plain"}}"##, "a string"),
        (##"{"id":"1","title":"a","color":"red","sortOrder":0,"payload":{"kind":"plain"}}"##, "colour"),
        (##"{"id":"1","title":"a","color":"#000000","sortOrder":1e30,"payload":{"kind":"plain"}}"##, "out of range"),
        (##"{"id":"1","title":"a","color":"#000000","sortOrder":"0","payload":{"kind":"plain"}}"##, "a number"),
        (##"{"id":"1","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"joker"}}"##, "unknown card kind"),
        (
            ##"{"id":"1","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"student","scores":[1]}}"##,
            "10 scores"
        ),
        (
            ##"{"id":"1","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"flashcard","prompt":"q"}}"##,
            "needs \"answer\""
        ),
        (
            ##"{"id":"1","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"payment","number":"1","holder":"h","expiry":"e","brand":"diners"}}"##,
            "brand"
        ),
        (##"{"id":"1","title":"a","color":"#000000","sortOrder":0,"payload":[]}"##, "an object"),
    ]

    @Test(arguments: schemaErrors)
    func schemaErrorsAreTypedWithOffsets(_ card: String, _ expected: String) {
        let prefix = ##"{"format":"cardistry.deck","schemaVersion":3,"revision":1,"deck":{"cards":["##
        let text = prefix + card + "]}}"
        do {
            _ = try DeckFastDecoder.decodeDocument(Array(text.utf8))
            Issue.record("accepted \(card)")
        } catch {
            #expect(error.reason.contains(expected), "\(error)")
            #expect(error.offset >= prefix.utf8.count && error.offset < text.utf8.count, "\(error)")
        }
    }

    @Test func duplicateCardIDsAndEnvelopeProblemsAreTyped() {
        let card = ##"{"id":"1","title":"a","color":"#000000","sortOrder":0,"payload":{"kind":"plain"}}"##
        let cases = [
            ##"{"format":"cardistry.deck","schemaVersion":3,"revision":1,"deck":{"cards":["## + card + "," + card
                + "]}}",
            ##"{"format":"something.else","schemaVersion":3,"revision":1,"deck":{"cards":[]}}"##,
            ##"{"schemaVersion":3,"revision":1,"deck":{"cards":[]}}"##,
            ##"{"format":"cardistry.deck","schemaVersion":3,"deck":{"cards":[]}}"##,
            ##"{"format":"cardistry.deck","schemaVersion":3,"revision":0,"deck":{"cards":[]}}"##,
            ##"{"format":"cardistry.deck","schemaVersion":3,"revision":1}"##,
            ##"{"format":"cardistry.deck","format":"cardistry.deck","schemaVersion":3,"revision":1,"deck":{"cards":[]}}"##,
            ##"[]"##,
        ]
        for text in cases {
            #expect(throws: JSONDecodeError.self, "\(text)") { try DeckFastDecoder.decodeDocument(Array(text.utf8)) }
        }
    }
}
