import CardJSON
import CardModels
import Foundation
import Testing

@Suite struct JSONOutputTests {
    @Test func escapesWhatRFC8259RequiresAndTheLineSeparators() throws {
        var out = JSONOutput()
        out.string("a\"b\\c\n\t\u{01}\u{2028}x\u{2029}é😀")
        let text = String(decoding: out.bytes, as: UTF8.self)
        #expect(text == "\"a\\\"b\\\\c\\n\\t\\u0001\\u2028x\\u2029é😀\"")
        #expect(!out.bytes.contains(0x0A))
        let parsed = try JSONValue(parsing: out.bytes)
        #expect(parsed == .string("a\"b\\c\n\t\u{01}\u{2028}x\u{2029}é😀"))
    }

    @Test func numbersRoundTripAndNonFiniteNeverReachTheWire() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<5000 {
            let bits = generator.next()
            var value = Double(bitPattern: bits)
            if !value.isFinite { value = Double(Int64(bitPattern: bits) % 1_000_000) / 7 }
            var out = JSONOutput()
            out.number(value)
            let parsed = try JSONValue(parsing: out.bytes)
            #expect(parsed.doubleValue == (value == 0 ? 0 : value))
        }
        for value in [Double.nan, .infinity, -.infinity] {
            var out = JSONOutput()
            out.number(value)
            #expect(out.bytes == Array("0".utf8))
        }
        var out = JSONOutput()
        out.number(-0.0)
        out.byte(0x20)
        out.number(12)
        out.byte(0x20)
        out.integer(Int.min)
        #expect(String(decoding: out.bytes, as: UTF8.self) == "0 12 -9223372036854775808")
    }

    @Test func randomStringsRoundTripThroughTheStrictParser() throws {
        var generator = SplitMix64(seed: 11)
        let alphabet: [Unicode.Scalar] = [
            "a", "\"", "\\", "\n", "\r", "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{2028}",
            "\u{2029}", "\u{2027}", "\u{E2}", "😀", "/",
        ]
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 12) {
                text.unicodeScalars.append(alphabet[Int(generator.next() % UInt64(alphabet.count))])
            }
            var out = JSONOutput()
            out.string(text)
            #expect(!out.bytes.contains(0x0A))
            #expect(try JSONValue(parsing: out.bytes) == .string(text))
            #expect(!String(decoding: out.bytes, as: UTF8.self).contains("\u{2028}"))
        }
    }
}
