import CardModels

/// The checksum of a deck's order that travels with every change on the wire (`deck.changed`, every `order`):
/// the sum, modulo 2³², of a hash of each pair of neighbours in the order, with an edge marker before the first
/// card and after the last.
///
/// The ids of a deck are unique, so the set of neighbour pairs (with the edge marker at both ends) determines the
/// order; a host whose copy of the order went wrong (a missed notification, a bug) ends up with a different set,
/// and the sums differ except with probability about 2⁻³². Moving one card changes three pairs, so the checksum
/// after a move costs O(1) (`moveCard(from:to:in:)`) where a hash of the whole order (the CRC-32 this replaced)
/// costs O(n): 25 ms for every move of a million cards, more than the 16 ms a drop may take.
///
/// The definition, all arithmetic modulo 2³² (docs/protocol.md, "Deck orders", has it in Python and JavaScript):
///
///     mix(x)    = MurmurHash3's fmix32: x ^= x >> 16; x *= 0x85EBCA6B; x ^= x >> 13; x *= 0xC2B2AE35; x ^= x >> 16
///     key(id)   = mix(low(id) ^ mix(high(id) ^ 0x9E3779B9))     low, high: the id's 32-bit halves
///     link(a,b) = mix(a * 0x9E3779B1 + b)
///     checksum  = Σ link(k[i], k[i+1]) for i in 0...n, where k = [E, key(id₀), …, key(idₙ₋₁), E], E = 0x6A09E667
///
/// `fmix32` is from Austin Appleby's MurmurHash3 (public domain, `MurmurHash3.cpp`); 0x9E3779B9 and 0x9E3779B1
/// are the golden-ratio constants of Knuth's multiplicative hashing; 0x6A09E667 is SHA-256's first initial hash
/// word (FIPS 180-4, 5.3.3), chosen only as a constant no small id maps to by accident.
public struct OrderChecksum: Sendable, Hashable {
    /// The checksum's value, as the wire carries it.
    public private(set) var value: UInt32

    /// The checksum of `ids` in this order. O(n).
    public init(_ ids: [CardID]) {
        value = Self.of(ids)
    }

    /// A checksum whose value is known (the scene's, for an order it knows the checksum of).
    init(value: UInt32) {
        self.value = value
    }

    /// The checksum of `ids` in this order: about 1.6 ns a card (a million cards in 1.6 ms, where one card at a
    /// time took 4 ms), and from `TwoThreads.minimumCount` cards each half on its own thread (the sum of the links
    /// is the same taken in two parts: the second starts from the key of the first's last card). O(n).
    ///
    /// Eight cards at a time (`SIMD8<UInt32>`, which the baseline x86-64 target still splits into SSE2 pairs): the
    /// keys of a block of cards first, then the links of each key with the one before it, both loops branch-free
    /// over the lanes. The sum is the same as `scalarSum(_:)`'s, one card at a time (tests compare them).
    public static func of(_ ids: [CardID]) -> UInt32 {
        ids.withUnsafeBufferPointer { ids in
            let count = ids.count
            guard let last = ids.last else { return link(edge, edge) }
            var sums: (UInt32, UInt32) = (0, 0)
            TwoThreads.run(count: count) { part in
                let half = UnsafeBufferPointer(rebasing: ids[TwoThreads.half(part, of: count)])
                let before = part == 0 || count / 2 == 0 ? edge : key(ids[count / 2 - 1])
                #if _endian(little)
                    let sum = vectorLinks(half, after: before)
                #else
                    let sum = scalarLinks(half, after: before)
                #endif
                if part == 0 { sums.0 = sum } else { sums.1 = sum }
            }
            return sums.0 &+ sums.1 &+ link(key(last), edge)
        }
    }

    /// The checksum one card at a time: the definition as written. O(n).
    static func scalarSum(_ ids: UnsafeBufferPointer<CardID>) -> UInt32 {
        scalarLinks(ids, after: edge) &+ link(ids.last.map(key) ?? edge, edge)
    }

    /// The sum of the links of `ids` with the key before each, the first's being `previous` (no link after the
    /// last). O(n).
    static func scalarLinks(_ ids: UnsafeBufferPointer<CardID>, after previous: UInt32) -> UInt32 {
        var sum: UInt32 = 0
        var previous = previous
        for id in ids {
            let key = key(id)
            sum &+= link(previous, key)
            previous = key
        }
        return sum
    }

    /// The cards a block of `vectorLinks(_:after:)` keys at a time (its keys fit the first-level cache).
    static let vectorBlock = 1024

    /// `scalarLinks(_:after:)` eight cards at a time on a little-endian machine (where an id's low 32-bit half is
    /// the first in memory): per block of `vectorBlock` cards, their keys into a buffer after the key before the
    /// block, then the links of every key with the one before it. The last `count % 8` cards go one at a time.
    /// O(n).
    static func vectorLinks(_ ids: UnsafeBufferPointer<CardID>, after before: UInt32) -> UInt32 {
        let count = ids.count
        guard count >= 8, let base = ids.baseAddress else { return scalarLinks(ids, after: before) }
        let keys = UnsafeMutableRawPointer.allocate(
            byteCount: (vectorBlock + 1) * MemoryLayout<UInt32>.stride, alignment: MemoryLayout<UInt32>.alignment)
        defer { keys.deallocate() }
        let raw = UnsafeRawPointer(base)
        var lanes = SIMD8<UInt32>(repeating: 0)
        var previous = before
        var start = 0
        while count - start >= 8 {
            let length = Swift.min(vectorBlock, count - start) & ~7
            keys.storeBytes(of: previous, as: UInt32.self)
            var offset = 0
            while offset < length {
                // Eight ids as sixteen 32-bit words: the even lanes are the low halves, the odd ones the high.
                let words = raw.loadUnaligned(
                    fromByteOffset: (start + offset) * MemoryLayout<CardID>.stride, as: SIMD16<UInt32>.self)
                let key = mix(words.evenHalf ^ mix(words.oddHalf ^ 0x9E37_79B9))
                keys.storeBytes(of: key, toByteOffset: (offset + 1) * 4, as: SIMD8<UInt32>.self)
                offset += 8
            }
            offset = 0
            while offset < length {
                let first = keys.loadUnaligned(fromByteOffset: offset * 4, as: SIMD8<UInt32>.self)
                let second = keys.loadUnaligned(fromByteOffset: (offset + 1) * 4, as: SIMD8<UInt32>.self)
                lanes &+= mix(first &* 0x9E37_79B1 &+ second)
                offset += 8
            }
            previous = keys.load(fromByteOffset: length * 4, as: UInt32.self)
            start += length
        }
        var sum = lanes.wrappedSum()
        for index in start..<count {
            let key = key(ids[index])
            sum &+= link(previous, key)
            previous = key
        }
        return sum
    }

    /// Updates the checksum after the card now at `to` in `ids` moved there from `from` (positions in the old and
    /// the new order, as a one-move `ReorderDiff` gives them). O(1).
    public mutating func moveCard(from: Int, to: Int, in ids: [CardID]) {
        let count = ids.count
        guard from != to, (0..<count).contains(from), (0..<count).contains(to) else { return }
        ids.withUnsafeBufferPointer { ids in
            // The order without the moved card: the old order is it with the card at `from`, the new one with the
            // card at `to`.
            func rest(_ index: Int) -> UInt32 {
                guard index >= 0, index < count - 1 else { return Self.edge }
                return Self.key(ids[index < to ? index : index + 1])
            }
            let card = Self.key(ids[to])
            let (beforeOld, afterOld) = (rest(from - 1), rest(from))
            let (beforeNew, afterNew) = (rest(to - 1), rest(to))
            value &-= Self.link(beforeOld, card) &+ Self.link(card, afterOld) &+ Self.link(beforeNew, afterNew)
            value &+= Self.link(beforeOld, afterOld) &+ Self.link(beforeNew, card) &+ Self.link(card, afterNew)
        }
    }

    /// Updates the checksum for `diff`, the change that made the order `ids`: O(1) for a single move (a drop, a
    /// host's `deck.move`) or no change, O(n) otherwise.
    public mutating func update(for diff: ReorderDiff, to ids: [CardID]) {
        if diff.isEmpty { return }
        // (The bounds first: a sort's diff counts its moves only when asked, and its bounds mostly rule one move out.)
        if diff.removals.isEmpty, diff.insertions.isEmpty, diff.moveCountBounds.lowerBound == 1, diff.moveCount == 1,
            diff.oldCount == ids.count
        {
            moveCard(from: diff.moves[0].from, to: diff.moves[0].to, in: ids)
        } else {
            value = Self.of(ids)
        }
    }

    /// The marker before the first card and after the last.
    static let edge: UInt32 = 0x6A09_E667

    /// MurmurHash3's 32-bit finaliser: a bijection of 32-bit words in which every input bit changes each output
    /// bit with probability close to ½.
    @inline(__always)
    static func mix(_ value: UInt32) -> UInt32 {
        var x = value
        x ^= x >> 16
        x &*= 0x85EB_CA6B
        x ^= x >> 13
        x &*= 0xC2B2_AE35
        x ^= x >> 16
        return x
    }

    /// `mix(_:)` in each lane.
    @inline(__always)
    static func mix(_ value: SIMD8<UInt32>) -> SIMD8<UInt32> {
        var x = value
        x ^= x &>> 16
        x &*= 0x85EB_CA6B
        x ^= x &>> 13
        x &*= 0xC2B2_AE35
        x ^= x &>> 16
        return x
    }

    /// The 32-bit key of a card id (both halves of its 64 bits count).
    @inline(__always)
    static func key(_ id: CardID) -> UInt32 {
        let raw = id.rawValue
        return mix(UInt32(truncatingIfNeeded: raw) ^ mix(UInt32(truncatingIfNeeded: raw >> 32) ^ 0x9E37_79B9))
    }

    /// The hash of the neighbours `first`, `second` (in this order: it is not symmetric).
    @inline(__always)
    static func link(_ first: UInt32, _ second: UInt32) -> UInt32 {
        mix(first &* 0x9E37_79B1 &+ second)
    }
}
