extension ReorderDiff {
    /// The diff that turns `old` into `new`, with the minimal number of moves.
    ///
    /// Throws `ModelError.duplicateID` (card ids) or `.duplicateKey` (other keys) when a key repeats in either
    /// order. O(n log n) time in the worst case (the longest-increasing-subsequence step) and O(n) memory;
    /// O(n) when the middle is already nearly in order. The common prefix and suffix are trimmed first.
    @inlinable
    public init<Key: ReorderKey>(from old: [Key], to new: [Key]) throws(ModelError) {
        self = try old.withUnsafeBufferPointer { (oldKeys) throws(ModelError) -> ReorderDiff in
            try new.withUnsafeBufferPointer { (newKeys) throws(ModelError) -> ReorderDiff in
                try ReorderDiff.compute(oldKeys, newKeys, validateTrimmed: true)
            }
        }
    }

    /// The diff between two decks' orders (ids are unique by construction, so nothing is re-validated).
    public init(from old: Deck, to new: Deck) {
        let oldIDs = old.ids
        let newIDs = new.ids
        // Decks cannot hold duplicate ids, so this cannot throw.
        self = oldIDs.withUnsafeBufferPointer { oldKeys in
            newIDs.withUnsafeBufferPointer { newKeys in
                (try? ReorderDiff.compute(oldKeys, newKeys, validateTrimmed: false))
                    ?? ReorderDiff(
                        oldCount: oldIDs.count, newCount: newIDs.count, removals: [], insertions: [], moves: [])
            }
        }
    }

    @inlinable
    static func duplicate<Key: ReorderKey>(_ key: Key) -> ModelError {
        if let id = key as? CardID { return .duplicateID(id) }
        return .duplicateKey(String(describing: key))
    }

    @inlinable
    static func compute<Key: ReorderKey>(
        _ old: UnsafeBufferPointer<Key>, _ new: UnsafeBufferPointer<Key>, validateTrimmed: Bool
    ) throws(ModelError) -> ReorderDiff {
        let oldCount = old.count
        let newCount = new.count
        let shorter = min(oldCount, newCount)
        var prefix = 0
        while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix && old[oldCount - 1 - suffix] == new[newCount - 1 - suffix] { suffix += 1 }
        let oldMiddle = oldCount - prefix - suffix
        let newMiddle = newCount - prefix - suffix

        var table = KeyTable(capacityFor: oldMiddle + newMiddle + (validateTrimmed ? prefix + suffix : 0))
        defer { table.deallocate() }
        if validateTrimmed {
            for index in 0..<prefix {
                guard table.insert(old[index], at: index, state: KeyTable.trimmed, keys: old, newKeys: new) else {
                    throw duplicate(old[index])
                }
            }
            for index in (oldCount - suffix)..<oldCount {
                guard table.insert(old[index], at: index, state: KeyTable.trimmed, keys: old, newKeys: new) else {
                    throw duplicate(old[index])
                }
            }
        }
        if oldMiddle == 0 && newMiddle == 0 {
            return ReorderDiff(oldCount: oldCount, newCount: newCount, removals: [], insertions: [], moves: [])
        }
        for index in prefix..<(prefix + oldMiddle) {
            guard table.insert(old[index], at: index, state: KeyTable.unmatched, keys: old, newKeys: new) else {
                throw duplicate(old[index])
            }
        }

        // Match every new key: `sequence` holds the old index of each matched key in new order.
        var matchedOld = [Bool](repeating: false, count: oldMiddle)
        var sequenceOld: [Int32] = []
        var sequenceNew: [Int32] = []
        sequenceOld.reserveCapacity(min(oldMiddle, newMiddle))
        sequenceNew.reserveCapacity(min(oldMiddle, newMiddle))
        var insertions: [Int] = []
        for index in prefix..<(prefix + newMiddle) {
            let key = new[index]
            switch table.match(key, newIndex: index, keys: old, newKeys: new) {
            case .matched(let oldIndex):
                matchedOld[oldIndex - prefix] = true
                sequenceOld.append(Int32(truncatingIfNeeded: oldIndex))
                sequenceNew.append(Int32(truncatingIfNeeded: index))
            case .inserted:
                insertions.append(index)
            case .duplicate:
                throw duplicate(key)
            }
        }

        var removals: [Int] = []
        if sequenceOld.count < oldMiddle {
            for offset in 0..<oldMiddle where !matchedOld[offset] { removals.append(prefix + offset) }
        }

        let stable = longestIncreasingSubsequence(sequenceOld)
        var moves: [Move] = []
        moves.reserveCapacity(sequenceOld.count - stable.count)
        if stable.count < sequenceOld.count {
            var isStable = [Bool](repeating: false, count: sequenceOld.count)
            for position in stable { isStable[Int(position)] = true }
            for position in 0..<sequenceOld.count where !isStable[position] {
                moves.append(Move(from: Int(sequenceOld[position]), to: Int(sequenceNew[position])))
            }
        }
        return ReorderDiff(
            oldCount: oldCount, newCount: newCount, removals: removals, insertions: insertions, moves: moves)
    }
}

/// The positions (into `values`) of one longest strictly increasing subsequence of `values`, ascending.
///
/// Patience sorting with binary search over the pile tops (Fredman 1975; Knuth TAOCP vol. 3, §5.1.4):
/// O(n log k) for a longest length k, and O(n) when the values are already nearly increasing, because a value
/// above the last pile top is appended without a search.
@inlinable
public func longestIncreasingSubsequence(_ values: [Int32]) -> [Int32] {
    let count = values.count
    guard count > 0 else { return [] }
    var tops: [Int32] = []  // value at the top of each pile
    var topPositions: [Int32] = []  // position in `values` of that top
    var previous = [Int32](repeating: -1, count: count)
    values.withUnsafeBufferPointer { values in
        previous.withUnsafeMutableBufferPointer { previous in
            for position in 0..<count {
                let value = values[position]
                if let last = tops.last, last >= value {
                    var low = 0
                    var high = tops.count - 1
                    while low < high {
                        let middle = (low + high) >> 1
                        if tops[middle] < value { low = middle + 1 } else { high = middle }
                    }
                    tops[low] = value
                    topPositions[low] = Int32(truncatingIfNeeded: position)
                    previous[position] = low > 0 ? topPositions[low - 1] : -1
                } else {
                    previous[position] = topPositions.last ?? -1
                    tops.append(value)
                    topPositions.append(Int32(truncatingIfNeeded: position))
                }
            }
        }
    }
    var result = [Int32](repeating: 0, count: tops.count)
    var position = topPositions[tops.count - 1]
    for slot in stride(from: tops.count - 1, through: 0, by: -1) {
        result[slot] = position
        position = previous[Int(position)]
    }
    return result
}

/// An open-addressing (linear probing) table from key to index, sized to a load factor of at most 1/2.
/// Each slot holds the key's 64-bit hash, an index and a state, in 16 bytes, so one probe is one cache line.
@usableFromInline
struct KeyTable {
    @usableFromInline
    struct Slot {
        @usableFromInline var hash: UInt64
        @usableFromInline var index: Int32
        @usableFromInline var state: Int32

        @inlinable init(hash: UInt64, index: Int32, state: Int32) {
            self.hash = hash
            self.index = index
            self.state = state
        }
    }

    @usableFromInline static var empty: Int32 { 0 }
    /// An old key of the trimmed prefix or suffix: it is also in the new order, at the same place.
    @usableFromInline static var trimmed: Int32 { 1 }
    /// An old key of the middle, not yet seen in the new order.
    @usableFromInline static var unmatched: Int32 { 2 }
    /// An old key of the middle already matched by a new key.
    @usableFromInline static var matched: Int32 { 3 }
    /// A key only in the new order (its index is a new index).
    @usableFromInline static var newOnly: Int32 { 4 }

    @usableFromInline
    enum MatchResult {
        case matched(Int)
        case inserted
        case duplicate
    }

    @usableFromInline var slots: UnsafeMutableBufferPointer<Slot>
    @usableFromInline var mask: Int

    @inlinable
    init(capacityFor count: Int) {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(hash: 0, index: 0, state: KeyTable.empty))
        mask = capacity - 1
    }

    @inlinable
    func deallocate() { slots.deallocate() }

    @inlinable
    func sameKey<Key: ReorderKey>(
        _ slot: Slot, _ hash: UInt64, _ key: Key, _ keys: UnsafeBufferPointer<Key>, _ newKeys: UnsafeBufferPointer<Key>
    ) -> Bool {
        guard slot.hash == hash else { return false }
        if Key.reorderHashIsInjective { return true }
        return (slot.state == KeyTable.newOnly ? newKeys[Int(slot.index)] : keys[Int(slot.index)]) == key
    }

    /// Inserts an old key; false when the key is already present.
    @inlinable
    mutating func insert<Key: ReorderKey>(
        _ key: Key, at index: Int, state: Int32, keys: UnsafeBufferPointer<Key>, newKeys: UnsafeBufferPointer<Key>
    ) -> Bool {
        let hash = key.reorderHash
        var position = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[position]
            if slot.state == KeyTable.empty {
                slots[position] = Slot(hash: hash, index: Int32(truncatingIfNeeded: index), state: state)
                return true
            }
            if sameKey(slot, hash, key, keys, newKeys) { return false }
            position = (position + 1) & mask
        }
    }

    /// Looks up a new key: marks an old match as matched, records a key only in the new order, and reports a key
    /// seen twice in the new order (or one that is also in the trimmed prefix or suffix) as a duplicate.
    @inlinable
    mutating func match<Key: ReorderKey>(
        _ key: Key, newIndex: Int, keys: UnsafeBufferPointer<Key>, newKeys: UnsafeBufferPointer<Key>
    ) -> MatchResult {
        let hash = key.reorderHash
        var position = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[position]
            if slot.state == KeyTable.empty {
                slots[position] = Slot(hash: hash, index: Int32(truncatingIfNeeded: newIndex), state: KeyTable.newOnly)
                return .inserted
            }
            if sameKey(slot, hash, key, keys, newKeys) {
                guard slot.state == KeyTable.unmatched else { return .duplicate }
                slots[position].state = KeyTable.matched
                return .matched(Int(slot.index))
            }
            position = (position + 1) & mask
        }
    }
}
