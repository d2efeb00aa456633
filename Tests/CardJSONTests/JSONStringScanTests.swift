import CardJSON
import Testing

/// The scanner skips a string's plain bytes eight at a time (`JSONScanner.skipPlainWords`): whatever word a quote,
/// an escape, a control character or a multi-byte character falls in, and at whatever offset the string starts,
/// the string parses as byte by byte.
@Suite struct JSONStringScanTests {
    @Test func specialBytesAreFoundInEveryPositionOfAWord() throws {
        let specials: [(text: String, decoded: String?)] = [
            ("\\\"", "\""), ("\\\\", "\\"), ("\\n", "\n"), ("\\u00e9", "é"), ("é", "é"), ("€", "€"), ("😀", "😀"),
            ("\u{1}", nil), ("\u{1F}", nil), ("\t", nil), (" ", " "), ("!", "!"), ("#", "#"), ("[", "["),
            ("]", "]"), ("~", "~"), ("\u{7F}", "\u{7F}"),
        ]
        for lead in 0..<9 {
            for offset in 0..<20 {
                for special in specials {
                    let before = String(repeating: "a", count: offset)
                    let after = String(repeating: "b", count: (offset * 7) % 13)
                    let json = String(repeating: " ", count: lead) + "[\"" + before + special.text + after + "\"]"
                    let parsed = try? JSONValue(parsing: Array(json.utf8))
                    if let decoded = special.decoded {
                        #expect(parsed == .array([.string(before + decoded + after)]), "\(json.debugDescription)")
                    } else {
                        #expect(parsed == nil, "\(json.debugDescription) has a raw control character")
                    }
                }
            }
        }
    }

    @Test func anUnterminatedLongStringIsRejectedAtItsEnd() {
        let json = "[\"" + String(repeating: "QUJD", count: 1_000)
        do {
            _ = try JSONValue(parsing: Array(json.utf8))
            Issue.record("accepted an unterminated string")
        } catch {
            #expect(error.offset == json.utf8.count)
        }
    }
}
