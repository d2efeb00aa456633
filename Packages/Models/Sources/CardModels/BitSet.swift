/// A fixed-size set of small integers, one bit each (a million positions fit in 125 KB, i.e. in cache).
@usableFromInline
struct BitSet {
    @usableFromInline var words: UnsafeMutableBufferPointer<UInt64>

    @inlinable
    init(count: Int) {
        words = .allocate(capacity: max(1, (count + 63) >> 6))
        words.initialize(repeating: 0)
    }

    @inlinable func deallocate() { words.deallocate() }

    @inlinable
    mutating func removeAll() {
        for index in words.indices { words[index] = 0 }
    }

    @inlinable
    mutating func insert(_ value: Int) {
        words[value >> 6] |= 1 << UInt64(value & 63)
    }

    @inlinable
    func contains(_ value: Int) -> Bool {
        words[value >> 6] & (1 << UInt64(value & 63)) != 0
    }
}
