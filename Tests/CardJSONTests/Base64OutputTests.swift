import CardJSON
import CardModels
import Foundation
import Testing

/// `JSONOutput.base64String` against Foundation's encoder (RFC 4648, standard alphabet, padded): every length from
/// 0 to 400 bytes (each remainder of three and of the four-byte reads) and a few large ones, seeded random bytes.
@Suite struct Base64OutputTests {
    @Test func matchesFoundationsEncoder() {
        var generator = SplitMix64(seed: 0xB64)
        for count in Array(0...400) + [4_095, 4_096, 4_097, 100_000] {
            let data = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            var out = JSONOutput()
            out.raw("[")
            data.withUnsafeBytes { out.base64String($0) }
            out.raw("]")
            let expected = "[\"" + Data(data).base64EncodedString() + "\"]"
            #expect(String(decoding: out.bytes, as: UTF8.self) == expected, "\(count) bytes")
        }
    }
}
