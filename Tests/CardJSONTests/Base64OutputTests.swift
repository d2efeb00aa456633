import CardJSON
import CardModels
import Foundation
import Testing

/// `JSONOutput.base64String` against Foundation's encoder (RFC 4648, standard alphabet, padded): every length from
/// 0 to 400 bytes (each remainder of three and of the four-byte reads) and a few large ones, seeded random bytes;
/// whole and in two parts (one thread each from `TwoThreads.minimumCount` bytes, one after the other below), each
/// part writing only its own half.
@Suite struct Base64OutputTests {
    @Test func matchesFoundationsEncoder() {
        var generator = SplitMix64(seed: 0xB64)
        let large = [4_095, 4_096, 4_097, 100_000, TwoThreads.minimumCount * 3 + 1, TwoThreads.minimumCount * 3 + 2]
        for count in Array(0...400) + large {
            let data = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let expected = "[\"" + Data(data).base64EncodedString() + "\"]"
            for split in [false, true] {
                var out = JSONOutput()
                out.raw("[")
                data.withUnsafeBytes { bytes in
                    if split {
                        out.base64String(bytes) { part in TwoThreads.run(count: count, part) }
                    } else {
                        out.base64String(bytes)
                    }
                }
                out.raw("]")
                #expect(String(decoding: out.bytes, as: UTF8.self) == expected, "\(count) bytes, split \(split)")
            }
        }
    }
}
