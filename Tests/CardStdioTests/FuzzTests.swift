import CardEngine
import CardJSON
import CardModels
import CardScenes
import Testing

@testable import CardStdio

/// Seeded fuzzing of the whole server: random and mutated lines must never crash it, every line it writes must be
/// valid JSON, and a valid request must still be answered afterwards.
@Suite struct ServerFuzzTests {
    static let seeds: [String] = [
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"scene.open\",\"params\":{\"scene\":\"scores\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"input.pointer\",\"params\":{\"phase\":\"down\",\"x\":100,\"y\":300,\"t\":1}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"input.pointer\",\"params\":{\"phase\":\"move\",\"x\":120,\"y\":310,\"t\":1.1}}",
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"input.pointer\",\"params\":{\"phase\":\"up\",\"x\":120,\"y\":310,\"t\":1.2}}",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"clock.advance\",\"params\":{\"by\":0.05}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"scene.action\",\"params\":{\"name\":\"select\",\"test\":2}}",
        "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"deck.move\",\"params\":{\"card\":\"1\",\"to\":3}}",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"input.key\",\"params\":{\"key\":\"right\",\"t\":2}}",
        "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"deck.diff\",\"params\":{\"old\":[1,2],\"new\":[2,1]}}",
        "[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"scene.list\"},{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"deck.get\"}]",
        "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"input.wheel\",\"params\":{\"dx\":0,\"dy\":-40,\"x\":50,\"y\":50,\"t\":3}}",
        "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"scene.open\",\"params\":{\"scene\":\"flashcards\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"viewport.resize\",\"params\":{\"width\":844,\"height\":390,\"t\":4}}",
        "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"scene.open\",\"params\":{\"scene\":\"wallet\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"scene.open\",\"params\":{\"scene\":\"hero\"}}",
    ]

    static let tokens: [String] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "null", "true", "1e999", "-0", "0.5", "\"id\"", "\"method\"",
        "\"params\"", "\"jsonrpc\"", "\"2.0\"", "\u{2028}", "\u{0}", "\r", "\"t\"", "NaN", "\u{FEFF}", "1",
    ]

    static func mutate(_ line: String, _ random: inout SplitMix64) -> [UInt8] {
        var bytes = Array(line.utf8)
        for _ in 0..<(1 + Int(random.next() % 4)) {
            let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            switch random.next() % 6 {
            case 0 where !bytes.isEmpty: bytes.remove(at: position)
            case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
            case 2 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: random.next())
            case 3:
                let token = tokens[Int(random.next() % UInt64(tokens.count))]
                bytes.insert(contentsOf: Array(token.utf8), at: position)
            case 4: bytes = Array(bytes.prefix(position))
            default:
                let digits = Array(String(Double(Int64(bitPattern: random.next())) / 1e6).utf8)
                bytes.insert(contentsOf: digits, at: position)
            }
        }
        return bytes
    }

    @Test func oneHundredThousandRandomAndMalformedLines() throws {
        var random = SplitMix64(seed: 0xC0FFEE)
        var harness = Harness()
        harness.initialize()
        var written = 0
        for index in 0..<100_000 {
            let line: [UInt8]
            switch random.next() % 8 {
            case 0: line = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            case 1: line = Array(Self.seeds[Int(random.next() % UInt64(Self.seeds.count))].utf8)
            default: line = Self.mutate(Self.seeds[Int(random.next() % UInt64(Self.seeds.count))], &random)
            }
            let items = harness.server.receive(line: line, now: Double(index) / 1000)
            harness.server.logs.removeAll()
            for item in items {
                let bytes = harness.encoder.encode(item)
                written += 1
                #expect(!bytes.contains(0x0A))
                #expect((try? JSONValue(parsing: bytes)) != nil, "line \(index) produced invalid JSON")
            }
            if harness.server.phase == .exited {
                harness = Harness()
                harness.initialize()
            }
        }
        #expect(written > 50_000)
        let answer = harness.request(999_999, "scene.list").response
        #expect(answer?["id"] == .number("999999"))
        #expect(answer?["result"] != nil)
    }
}
