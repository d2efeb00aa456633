import CardEngine
import CardJSON
import CardModels
import CardPersistence
import CardScenes
import CardTestScenes
import Foundation
import Testing

@testable import CardStdio

/// `deck.get`'s `content` is written once, by hand; before, the server encoded each payload with `JSONEncoder`,
/// parsed that back and wrote it again. The bytes on the wire are the same: the old path is kept here as the
/// reference, and both run over every card of every scene's seed deck and over cards of every content kind with
/// the strings and numbers most likely to tell two encoders apart.
@Suite struct CardContentTests {
    /// The server's previous encoding: the payload's `Codable` form with sorted keys, parsed, `kind` dropped, and
    /// written again.
    static func previousContent(_ payload: CardPayload) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard case .object(let members) = try JSONValue(parsing: Array(try encoder.encode(payload)), maxDepth: 16)
        else { return Array("{}".utf8) }
        var out = JSONOutput()
        out.value(.object(members.filter { $0.key != "kind" }))
        return out.bytes
    }

    static func content(_ payload: CardPayload) -> [UInt8] {
        var out = JSONOutput()
        DeckFastEncoder.content(payload, into: &out)
        return out.bytes
    }

    static let awkward = [
        "", "plain", "quote \" and backslash \\ and slash / and </script>", "tab\tnew line\nreturn\r",
        "control \u{01}\u{1F} and delete \u{7F}", "separators \u{2028} \u{2029}", "é, e\u{301}, ß, 日本語",
        "emoji 🃏 👩‍👩‍👧 🇫🇷", "\u{FEFF}byte order mark", "a very long one " + String(repeating: "x", count: 300),
    ]

    /// Cards of every content kind, over the awkward strings, extreme scores and every brand.
    static var everyKind: [CardPayload] {
        var payloads: [CardPayload] = [.plain]
        let scoreSets = [
            [65, 70, 75, 80, 85, 90, 95, 97, 66, 71], [0, -1, 100, 1_000_000, Int.max, Int.min, 7, 8, 9, 10],
        ]
        for scores in scoreSets { payloads.append(.student(try! StudentScores(scores))) }
        for (index, text) in awkward.enumerated() {
            let brand = PaymentCard.Brand.allCases[index % PaymentCard.Brand.allCases.count]
            payloads.append(
                .payment(
                    PaymentCard(number: "4242 4242 \(text)", holder: text, expiry: "0\(index % 9)/29", brand: brand)))
            payloads.append(.flashcard(Flashcard(prompt: text, answer: "\(text) answer")))
            let items = (0..<(index % 4)).map { item in
                ItemLine.Item(
                    id: "\(text)-\(item)", color: RGBColor(red: UInt8(item), green: 0x0A, blue: 0xFF),
                    icon: item % 2 == 0 ? "cloud.rain.fill" : text, text: text)
            }
            payloads.append(.itemLine(ItemLine(items: items)))
        }
        return payloads
    }

    @Test func cardContentIsWhatTheCodableFormGave() throws {
        var kinds: Set<String> = []
        var payloads = Self.everyKind
        for name in SceneCatalog.testing.names {
            payloads += try SceneCatalog.testing.make(name).deck.cards.map(\.payload)
        }
        for payload in payloads {
            kinds.insert(payload.kind)
            let ours = Self.content(payload)
            let previous = try Self.previousContent(payload)
            #expect(
                ours == previous,
                "\(payload.kind): \(String(decoding: ours, as: UTF8.self)) != \(String(decoding: previous, as: UTF8.self))"
            )
        }
        #expect(kinds == ["plain", "student", "payment", "flashcard", "itemLine"])
    }

    /// Through `deck.get`, for every scene: each card's `content` is the previous encoding of its payload.
    @Test func deckGetSendsEveryScenesContentAsBefore() throws {
        var harness = Harness(catalog: .testing)
        harness.initialize()
        var id = 1
        for name in SceneCatalog.testing.names {
            let cards = try SceneCatalog.testing.make(name).deck.cards
            _ = harness.request(id, "scene.open", #"{"scene":"\#(name)"}"#)
            let reply = harness.request(id + 1, "deck.get", "{}").response
            id += 2
            let sent = reply?["result"]?["cards"]?.arrayValue ?? []
            #expect(sent.count == cards.count, "\(name)")
            let byID = Dictionary(uniqueKeysWithValues: cards.map { ($0.id.description, $0) })
            for wire in sent {
                let card = try #require(byID[wire["id"]?.stringValue ?? ""], "\(name): \(wire)")
                #expect(wire["kind"] == .string(card.payload.kind))
                let expected = try JSONValue(parsing: try Self.previousContent(card.payload))
                #expect(wire["content"] == expected, "\(name): \(card.id)")
            }
        }
    }
}
