import CardModels
import Testing

@Suite struct SplitMix64Tests {
    // Reference outputs of Vigna's splitmix64.c for seed 0 (also used by Java's SplittableRandom test suite).
    @Test func matchesReferenceSequenceForSeedZero() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xe220_a839_7b1d_cdaf)
        #expect(generator.next() == 0x6e78_9e6a_a1b9_65f4)
        #expect(generator.next() == 0x06c4_5d18_8009_454f)
    }

    @Test func sameSeedSameSequence() {
        var first = SplitMix64(seed: 42)
        var second = SplitMix64(seed: 42)
        for _ in 0..<100 { #expect(first.next() == second.next()) }
    }
}
