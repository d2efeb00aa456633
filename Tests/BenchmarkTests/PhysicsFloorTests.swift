import CardModels
import CardPhysics
import Foundation
import Testing

@testable import cardistry_bench

/// The physics cells' floors compute the motion the spring computes: a floor of the same shape that computed
/// something else would make the cell's ratio meaningless.
@Suite struct PhysicsFloorTests {
    /// Seeded springs of every regime (durations 0.1…2 s, bounces −0.9…0.9 and the presets), at times 0…0.7 s:
    /// the flat closed form and `Spring.transition(at:)` agree to 1e-9 of the sum.
    @Test func theFlatClosedFormIsTheSpringsMotion() throws {
        var random = SplitMix64(seed: 30)
        let times = (0..<1000).map { Double($0) * 0.0007 }
        var springs: [Spring] = [.bouncy, .smooth, .snappy, .default]
        for _ in 0..<2_000 {
            let duration = 0.1 + Double(random.next() % 1_900) / 1_000
            let bounce = Double(Int(random.next() % 1_801) - 900) / 1_000
            springs.append(try Spring(duration: duration, bounce: bounce))
        }
        var regimes: Set<Int> = []
        for spring in springs {
            let flat = FlatSpring(spring)
            regimes.insert(flat.kind)
            let expected = spring.sumOfMotion(over: times)
            let floor = flat.sum(over: times, rounds: 1)
            #expect(abs(floor - expected) <= 1e-9 * max(1, abs(expected)), "\(spring)")
        }
        #expect(regimes == [0, 1, 2])
    }
}

/// The snapshot floor's base64 writes the text any encoder writes: RFC 4648's test vectors (section 10) and
/// Foundation's encoding of seeded random bytes of every length up to 300.
@Suite struct Base64FloorTests {
    private func encoded(_ bytes: [UInt8]) -> String {
        let text = [UInt8](unsafeUninitializedCapacity: Floors.base64Count(bytes.count)) { output, initialized in
            initialized = bytes.withUnsafeBytes { Floors.base64($0, into: output) }
        }
        return String(decoding: text, as: UTF8.self)
    }

    @Test func rfc4648TestVectors() {
        let vectors = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, expected) in vectors {
            #expect(encoded(Array(plain.utf8)) == expected, "\(plain)")
        }
    }

    @Test func matchesFoundationOnRandomBytes() {
        var generator = SplitMix64(seed: 4648)
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(encoded(bytes) == Data(bytes).base64EncodedString(), "\(length) bytes")
        }
    }
}
