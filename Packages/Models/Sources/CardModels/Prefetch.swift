import CardModelsShims

/// Software prefetches for the passes over a large deck that read or write at random (a sort's gather of each
/// card's old slot and id, a counting sort's scatter): asked for a few dozen elements ahead, the cache misses
/// overlap instead of stalling one after another. Hints only: they never fault, whatever the address.
public enum Prefetch: Sendable {
    /// Starts loading the cache line holding `address` for a read.
    @inlinable @inline(__always)
    public static func read<Element>(_ address: UnsafePointer<Element>) {
        cardistry_prefetch_read(address)
    }

    /// Starts loading the cache line holding `address` for a write.
    @inlinable @inline(__always)
    public static func write<Element>(_ address: UnsafeMutablePointer<Element>) {
        cardistry_prefetch_write(address)
    }
}
