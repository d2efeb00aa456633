import CardEngine
import CardJSON
import CardModels
import Foundation
import Testing

@testable import CardStdio

/// `deck.get {format: "ids"}` (issue 29): the whole order in one reply, as little-endian u64 ids in base64, opt-in;
/// the default reply keeps its shape.
@Suite struct DeckPackedIDsTests {
    static func decoded(_ text: String?) -> [CardID]? {
        guard let text, let data = Data(base64Encoded: text), data.count % 8 == 0 else { return nil }
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 8)).map {
                CardID(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)))
            }
        }
    }

    @Test func theWholeOrderInOneFetchMatchesThePagedCards() throws {
        var harness = Harness()
        harness.initialize()
        _ = harness.request(1, "scene.open", "{\"scene\":\"deck\",\"options\":{\"cardCount\":25000}}")
        _ = harness.request(2, "deck.sort", "{\"by\":\"title\",\"order\":\"descending\"}")
        _ = harness.request(3, "deck.move", "{\"card\":\"\(try firstID(&harness))\",\"to\":24000}")
        var paged: [CardID] = []
        while paged.count < 25000 {
            let page = harness.request(4, "deck.get", "{\"offset\":\(paged.count)}").response
            let cards = try #require(page?[path: "result", "cards"]?.arrayValue)
            paged += cards.compactMap { $0["id"]?.stringValue.flatMap(CardID.init) }
        }
        let whole = try #require(harness.request(5, "deck.get", "{\"format\":\"ids\"}").response?["result"])
        #expect(Self.decoded(whole["ids"]?.stringValue) == paged)
        #expect(whole["offset"] == .number("0"))
        #expect(whole["total"] == .number("25000"))
        #expect(whole["cards"] == nil)
        #expect(whole[path: "order", "checksum"] == .number(String(OrderChecksum.of(paged))))
        #expect(whole[path: "order", "revision"] == .number("2"))
        // A window of it, and past the end.
        let window = try #require(
            harness.request(6, "deck.get", "{\"format\":\"ids\",\"offset\":100,\"limit\":7}").response?["result"])
        #expect(Self.decoded(window["ids"]?.stringValue) == Array(paged[100..<107]))
        let past = harness.request(7, "deck.get", "{\"format\":\"ids\",\"offset\":99999}").response?["result"]
        #expect(past?["ids"] == .string(""))
        #expect(past?["offset"] == .number("25000"))
        // The default form is unchanged: cards, no ids.
        let cards = harness.request(8, "deck.get", "{\"limit\":2}").response?["result"]
        #expect(cards?["ids"] == nil)
        #expect(cards?["cards"]?.arrayValue?.count == 2)
        #expect(
            harness.request(9, "deck.get", "{\"format\":\"cards\",\"limit\":2}").response?["result"] == cards)
        #expect(harness.request(10, "deck.get", "{\"format\":\"bytes\"}").response?.errorCode == -32602)
        #expect(harness.request(11, "deck.get", "{\"format\":\"ids\",\"limit\":0}").response?.errorCode == -32602)
    }

    private func firstID(_ harness: inout Harness) throws -> String {
        let page = harness.request(90, "deck.get", "{\"limit\":1}").response
        return try #require(page?[path: "result", "cards"]?.arrayValue?.first?["id"]?.stringValue)
    }
}
