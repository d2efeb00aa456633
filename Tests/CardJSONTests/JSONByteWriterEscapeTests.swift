import CardJSON
import CardModels
import Testing

/// `JSONValue.jsonBytes` writes strings through `JSONByteWriter.escapedString`, which skips eight bytes at a
/// time while none needs escaping. Against the rule written out a byte at a time (a control character, `"` and `\`
/// escaped, the short forms where JSON has them, `\u00xx` otherwise, every other byte as it is), on 3,000 seeded
/// strings of 0 to 200 and of 1,000 to 5,000 bytes with the characters to escape at every offset of an 8-byte word:
/// the same bytes, and the strict parser reads the string back.
@Suite struct JSONByteWriterEscapeTests {
    static func reference(_ text: String) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    @Test func skippingEightAtATimeEscapesLikeTheRule() throws {
        var generator = SplitMix64(seed: 0xE5C)
        let plain = Array("abcXYZ019+/= -_é€😀".unicodeScalars)
        let special: [Unicode.Scalar] = ["\"", "\\", "\n", "\t", "\u{0}", "\u{1F}", "\u{8}", "\u{C}", "\r"]
        for round in 0..<3_000 {
            let count =
                round % 3 == 0 ? 1_000 + Int(generator.next() % 4_001) : Int(generator.next() % 201)
            // Mostly plain (long runs to skip), with a special character one time in 1 to 64.
            let rarity = 1 + generator.next() % 64
            var scalars = String.UnicodeScalarView()
            for _ in 0..<count {
                let pool = generator.next() % rarity == 0 ? special : plain
                scalars.append(pool[Int(generator.next() % UInt64(pool.count))])
            }
            let text = String(scalars)
            let written = JSONValue.string(text).jsonBytes
            #expect(written == Self.reference(text), "round \(round): \(text.utf8.count) bytes")
            #expect(try JSONValue(parsing: written) == .string(text), "round \(round)")
        }
    }
}
