import CardJSON
import CardModels
import Foundation
import Testing

/// `JSONOutput.base64String` against Foundation's encoder (RFC 4648, standard alphabet, padded): every length from
/// 0 to 400 bytes (each remainder of three and of the four-byte reads) and a few large ones, seeded random bytes;
/// whole and in two parts (one thread each from `TwoThreads.minimumCount` bytes, one after the other below), each
/// part writing only its own half; below and above the length from which a string gets a buffer of its own, which
/// leaves room for the rest of a message.
@Suite struct Base64OutputTests {
    @Test func matchesFoundationsEncoder() {
        var generator = SplitMix64(seed: 0xB64)
        // 49,151 bytes and more are 65,536 characters and more with the quotes: a string in a buffer of its own.
        let large =
            [4_095, 4_096, 4_097, 49_150, 49_151, 49_152, 49_153, 100_000]
            + [TwoThreads.minimumCount * 3 + 1, TwoThreads.minimumCount * 3 + 2]
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
                let base = out.bytes.withUnsafeBufferPointer { $0.baseAddress }
                out.raw("]")
                #expect(String(decoding: out.bytes, as: UTF8.self) == expected, "\(count) bytes, split \(split)")
                if count >= 49_151 {
                    // The large string left room for the rest of the message: no copy into a larger buffer.
                    for _ in 0..<100 { out.raw(",\"moved\":1234567") }
                    #expect(out.bytes.withUnsafeBufferPointer { $0.baseAddress } == base, "\(count) bytes")
                }
            }
        }
    }
}
