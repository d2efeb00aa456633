import CardJSON
import CardModels
import Foundation
import Testing

/// The strict scanner through `JSONValue`: what RFC 8259 rejects is rejected with an offset; what it allows parses.
@Suite struct JSONStrictnessTests {
    static let rejected: [(String, Int)] = [
        ("", 0), ("   ", 3), ("{", 1), ("[1,]", 3), ("{\"a\":1,}", 7), ("[01]", 1), ("[-]", 2), ("[1.]", 3),
        ("[.5]", 1), ("[+1]", 1), ("[1e]", 3), ("[1e+]", 4), ("[NaN]", 1), ("[Infinity]", 1), ("['a']", 1),
        ("[\"a\u{1}\"]", 3), ("[\"\\x\"]", 2), ("[\"\\u12\"]", 2), ("[\"\\uD800\"]", 2), ("[\"\\uDC00\"]", 2),
        ("[\"\\uD800\\u0041\"]", 2), ("// c\n[]", 0), ("[] x", 3), ("[1 2]", 3), ("{\"a\" 1}", 5), ("{1:2}", 1),
        ("[tru]", 1), ("nul", 0), ("{\"a\":1,\"a\":2}", 7), ("\"abc", 4), ("[\"\\", 2),
    ]

    @Test(arguments: rejected)
    func rejectsWithOffset(_ text: String, _ offset: Int) {
        do {
            _ = try JSONValue(parsing: Array(text.utf8))
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error.offset == offset, "\(text.debugDescription): \(error)")
        }
    }

    static let invalidUTF8: [([UInt8], Int)] = [
        ([0x22, 0xC0, 0x80, 0x22], 1),  // overlong NUL
        ([0x22, 0xE0, 0x80, 0x80, 0x22], 2),  // overlong three-byte form
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),  // an encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2),  // above U+10FFFF
        ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),  // invalid lead byte
        ([0x22, 0xE2, 0x82], 1),  // truncated sequence
        ([0x22, 0x80, 0x22], 1),  // lone continuation byte
        ([0x22, 0xC3, 0x41, 0x22], 2),  // missing continuation
        ([0xFF], 0),  // not a value at all
        ([0xEF, 0xBB, 0xBF, 0x5B, 0x5D], 0),  // byte order mark
    ]

    @Test(arguments: invalidUTF8)
    func rejectsInvalidUTF8(_ bytes: [UInt8], _ offset: Int) {
        #expect(throws: JSONDecodeError.self) { try JSONValue(parsing: bytes) }
        do {
            _ = try JSONValue(parsing: bytes)
        } catch {
            #expect(error.offset == offset, "\(bytes): \(error)")
        }
    }

    @Test func acceptsWhatJSONAllows() throws {
        let value = try JSONValue(
            parsing: Array(
                " {\"a\" : [1, -0, 0.5e-3, 1E+2, true, false, null, \"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\"]}\n\t "
                    .utf8))
        guard case .array(let elements)? = value["a"] else {
            Issue.record("no array")
            return
        }
        #expect(elements.count == 8)
        #expect(elements[0] == .number("1"))
        #expect(elements[2] == .number("0.5e-3"))
        #expect(elements[7] == .string("\"\\/\u{8}\u{C}\n\r\té😀"))
        // Non-ASCII passes through as UTF-8, and a round trip through the writer is lossless.
        let again = try JSONValue(parsing: value.jsonBytes)
        #expect(again == value)
    }

    @Test func nestingAtTheLimitParsesAndBeyondIsATypedError() throws {
        let limit = 512
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        _ = try JSONValue(parsing: Array(atLimit.utf8))
        let beyond = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: JSONDecodeError.self) { try JSONValue(parsing: Array(beyond.utf8)) }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONValue(parsing: Array(deep.utf8))
            Issue.record("accepted 100,000 levels")
        } catch {
            #expect(error.offset == limit)
            #expect(error.reason.contains("nesting"))
        }
    }

    @Test func hugeNumbersParseLosslesslyAndIntegersAreExact() throws {
        let huge = "1" + String(repeating: "0", count: 400) + "e99999999999"
        #expect(try JSONValue(parsing: Array("[\(huge)]".utf8)) == .array([.number(huge)]))
        #expect(JSONValue.number("2").integerValue == 2)
        #expect(JSONValue.number("2.50e1").integerValue == 25)
        #expect(JSONValue.number("-9223372036854775808").integerValue == Int.min)
        #expect(JSONValue.number("9223372036854775808").integerValue == nil)
        #expect(JSONValue.number("1.5").integerValue == nil)
        #expect(JSONValue.number("1e19").integerValue == nil)
        #expect(JSONValue.number("0e99999999999").integerValue == 0)
        #expect(JSONValue.number(huge).integerValue == nil)
        #expect(JSONValue.number("100000000000000000000e-5").integerValue == 1_000_000_000_000_000)
        #expect(JSONValue.number("0.05e2").integerValue == 5)
        #expect(JSONValue.number("120.5").integerValue == nil)
        #expect(JSONValue.number("12345678901234567891e-1").integerValue == nil)
        #expect(JSONValue.number("1" + String(repeating: "0", count: 300) + "e-300").integerValue == 1)
    }

    /// Differential check on seeded mutations of a valid document: whatever the strict parser accepts,
    /// Foundation's `JSONSerialization` accepts too (the strict parser is never laxer).
    @Test func neverLaxerThanJSONSerialization() throws {
        let seedDocument = Array(
            "{\"a\":[1,-2.5e3,true,null,\"x\\u00e9\\n\"],\"b\":{\"c\":\"d\"},\"e\":0}".utf8)
        var random = SplitMix64(seed: 7)
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = seedDocument
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let index = Int(random.next() % UInt64(bytes.count))
                let alphabet: [UInt8] = Array("{}[],:\"\\0123456789.eE+-tfnula \n".utf8) + [0x80, 0xC3, 0xFF]
                bytes[index] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            }
            if (try? JSONValue(parsing: bytes)) != nil {
                accepted += 1
                #expect(
                    (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil,
                    "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(accepted > 0)
    }
}
