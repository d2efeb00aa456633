#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A key the reorder diff can hash without going through `Hasher`.
///
/// `reorderHash` must be equal for equal keys. When `reorderHashIsInjective` is true, equal hashes also mean equal
/// keys, and the diff skips comparing the keys themselves. Any `Hashable` type can conform with an empty
/// extension: the defaults use `hashValue` and compare keys.
public protocol ReorderKey: Hashable {
    /// A well-mixed 64-bit hash of the key.
    var reorderHash: UInt64 { get }
    /// Whether distinct keys always have distinct `reorderHash` values.
    static var reorderHashIsInjective: Bool { get }
}

extension ReorderKey {
    public var reorderHash: UInt64 { UInt64(bitPattern: Int64(hashValue)) }
    public static var reorderHashIsInjective: Bool { false }
}

/// MurmurHash3's 64-bit finaliser `fmix64` (Austin Appleby, public domain; smhasher `MurmurHash3.cpp`).
/// It is a bijection on 64-bit values, which is what lets integer keys skip the key comparison.
@inlinable
public func mix64(_ value: UInt64) -> UInt64 {
    var k = value
    k ^= k >> 33
    k &*= 0xff51_afd7_ed55_8ccd
    k ^= k >> 33
    k &*= 0xc4ce_b9fe_1a85_ec53
    k ^= k >> 33
    return k
}

/// The inverse of `mix64`: `unmix64(mix64(x)) == x` for every `x`, so that a generated deck finds the index of an id
/// without a table (`Deck`). Each xorshift by 33 is its own inverse; the multipliers' inverses modulo 2^64 undo
/// the multiplications.
package func unmix64(_ value: UInt64) -> UInt64 {
    /// Undoes one multiplication of `mix64` (by the inverse `multiplier`) after the xorshift that followed it.
    func unstep(_ k: UInt64, _ multiplier: UInt64) -> UInt64 { (k ^ (k >> 33)) &* multiplier }
    let k = unstep(unstep(value, 0x9cb4_b2f8_1293_37db), 0x4f74_430c_22a5_4005)
    return k ^ (k >> 33)
}

extension UInt64: ReorderKey {
    @inlinable public var reorderHash: UInt64 { mix64(self) }
    @inlinable public static var reorderHashIsInjective: Bool { true }
}

extension Int: ReorderKey {
    @inlinable public var reorderHash: UInt64 { mix64(UInt64(bitPattern: Int64(self))) }
    @inlinable public static var reorderHashIsInjective: Bool { true }
}

extension Int64: ReorderKey {
    @inlinable public var reorderHash: UInt64 { mix64(UInt64(bitPattern: self)) }
    @inlinable public static var reorderHashIsInjective: Bool { true }
}

extension CardID: ReorderKey {
    @inlinable public var reorderHash: UInt64 { mix64(rawValue) }
    @inlinable public static var reorderHashIsInjective: Bool { true }
}

extension String: ReorderKey {}

extension UUID: ReorderKey {
    /// Both 64-bit halves mixed together; not injective (128 bits into 64), so keys are compared on a hash match.
    @inlinable public var reorderHash: UInt64 {
        let bytes = uuid
        let high =
            UInt64(bytes.0) << 56 | UInt64(bytes.1) << 48 | UInt64(bytes.2) << 40 | UInt64(bytes.3) << 32
            | UInt64(bytes.4) << 24 | UInt64(bytes.5) << 16 | UInt64(bytes.6) << 8 | UInt64(bytes.7)
        let low =
            UInt64(bytes.8) << 56 | UInt64(bytes.9) << 48 | UInt64(bytes.10) << 40 | UInt64(bytes.11) << 32
            | UInt64(bytes.12) << 24 | UInt64(bytes.13) << 16 | UInt64(bytes.14) << 8 | UInt64(bytes.15)
        return mix64(high ^ mix64(low))
    }
}
