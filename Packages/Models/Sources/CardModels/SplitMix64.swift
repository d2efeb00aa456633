/// SplitMix64, a fast seeded generator (Steele, Lea & Flood, "Fast Splittable Pseudorandom Number Generators",
/// OOPSLA 2014; constants from Vigna's reference `splitmix64.c`). Deterministic: tests, benchmarks and generated
/// decks use it so that every run sees the same data.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    /// A generator whose sequence is determined by `seed`; any value, 0 included, is a valid seed.
    public init(seed: UInt64) {
        state = seed
    }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
