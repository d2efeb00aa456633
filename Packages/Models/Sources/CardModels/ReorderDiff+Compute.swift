#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        guard max(oldCount, newCount) < 1 << 29 else { throw .tooLarge(max(oldCount, newCount)) }
        let shorter = min(oldCount, newCount)
        var prefix = 0
        while prefix < shorter && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix && old[oldCount - 1 - suffix] == new[newCount - 1 - suffix] { suffix += 1 }
        let oldMiddle = oldCount - prefix - suffix
        let newMiddle = newCount - prefix - suffix

        let capacity = min(oldMiddle, newMiddle)
        let sequenceOld = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, capacity))
        let sequenceNew = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, capacity))
        var matchedOld = BitSet(count: oldMiddle)
        defer {
            sequenceOld.deallocate()
            sequenceNew.deallocate()
            matchedOld.deallocate()
        }
        var matchedCount = 0
        var insertions: [Int] = []
        let tableKeys = oldMiddle + (validateTrimmed ? prefix + suffix : 0)
        if tableKeys >= partitionThreshold {
            // Large orders: partition by hash so every table fits in cache (see `matchPartitioned`).
            let matchOf = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, newMiddle))
            defer { matchOf.deallocate() }
            try matchPartitioned(
                old, new, prefix: prefix, suffix: suffix, validateTrimmed: validateTrimmed, matchOf: matchOf)
            for offset in 0..<newMiddle {
                let oldIndex = Int(matchOf[offset])
                if oldIndex >= 0 {
                    matchedOld.insert(oldIndex &- prefix)
                    sequenceOld[matchedCount] = Int32(truncatingIfNeeded: oldIndex)
                    sequenceNew[matchedCount] = Int32(truncatingIfNeeded: prefix &+ offset)
                    matchedCount &+= 1
                } else {
                    insertions.append(prefix &+ offset)
                }
            }
        } else {
            try matchDirect(
                old, new, prefix: prefix, suffix: suffix, validateTrimmed: validateTrimmed, sequenceOld: sequenceOld,
                sequenceNew: sequenceNew, matchedCount: &matchedCount, insertions: &insertions,
                matchedOld: &matchedOld)
        }
        if oldMiddle == 0 && newMiddle == 0 {
            return ReorderDiff(oldCount: oldCount, newCount: newCount, removals: [], insertions: [], moves: [])
        }

        var removals: [Int] = []
        if matchedCount < oldMiddle {
            removals.reserveCapacity(oldMiddle - matchedCount)
            for offset in 0..<oldMiddle where !matchedOld.contains(offset) { removals.append(prefix + offset) }
        }

        let sequence = UnsafeBufferPointer(rebasing: sequenceOld[0..<matchedCount])
        let stableCount = longestIncreasingSubsequenceLength(sequence, markingStableIn: &matchedOld)
        var moves: [Move] = []
        if stableCount < matchedCount {
            // Written straight into the array's storage: no capacity check per move.
            moves = [Move](unsafeUninitializedCapacity: matchedCount - stableCount) { storage, initialized in
                var written = 0
                for position in 0..<matchedCount where !matchedOld.contains(position) {
                    (storage.baseAddress! + written).initialize(
                        to: Move(from: Int(sequenceOld[position]), to: Int(sequenceNew[position])))
                    written &+= 1
                }
                initialized = written
            }
        }
        return ReorderDiff(
            oldCount: oldCount, newCount: newCount, removals: removals, insertions: insertions, moves: moves)
    }

    /// Matches the middle of `new` against `old` with one table of every old key (orders below
    /// `partitionThreshold`): fills `sequenceOld`/`sequenceNew` with the matched keys' old and new indices in new
    /// order, `insertions` with the new indices of keys only in the new order, and `matchedOld`; throws on any
    /// duplicate.
    @inlinable
    static func matchDirect<Key: ReorderKey>(
        _ old: UnsafeBufferPointer<Key>, _ new: UnsafeBufferPointer<Key>, prefix: Int, suffix: Int,
        validateTrimmed: Bool, sequenceOld: UnsafeMutableBufferPointer<Int32>,
        sequenceNew: UnsafeMutableBufferPointer<Int32>, matchedCount: inout Int, insertions: inout [Int],
        matchedOld: inout BitSet
    ) throws(ModelError) {
        let oldCount = old.count
        let oldMiddle = old.count - prefix - suffix
        let newMiddle = new.count - prefix - suffix
        // The table holds only old keys (load ≤ 1/2); keys only in the new order are checked for duplicates
        // afterwards in a table of their own, so a mostly-reordered deck pays for one table of n keys.
        var table = KeyTable(capacityFor: oldMiddle + (validateTrimmed ? prefix + suffix : 0))
        defer { table.deallocate() }
        var batch = KeyTable.Batch()
        defer { batch.deallocate() }
        if validateTrimmed {
            for range in [0..<prefix, (oldCount - suffix)..<oldCount] {
                let clash = table.insertAll(range, state: KeyTable.trimmed, keys: old, newKeys: new, batch: &batch)
                if clash >= 0 { throw duplicate(old[clash]) }
            }
        }
        let clash = table.insertAll(
            prefix..<(prefix + oldMiddle), state: KeyTable.unmatched, keys: old, newKeys: new, batch: &batch)
        if clash >= 0 { throw duplicate(old[clash]) }

        // Match every new key: `sequenceOld[i]` is the old index of the i-th matched key in new order.
        let capacity = min(oldMiddle, newMiddle)
        var batchStart = prefix
        let newEnd = prefix + newMiddle
        while batchStart < newEnd {
            let batchEnd = Swift.min(batchStart &+ KeyTable.Batch.size, newEnd)
            table.preload(new, batchStart..<batchEnd, into: &batch)
            for index in batchStart..<batchEnd {
                let key = new[index]
                let oldIndex = table.match(
                    key, hash: batch.hashes[index &- batchStart], preloaded: batch.slots[index &- batchStart],
                    keys: old, newKeys: new)
                if oldIndex >= 0 {
                    guard matchedCount < capacity else { throw duplicate(key) }
                    matchedOld.insert(oldIndex &- prefix)
                    sequenceOld[matchedCount] = Int32(truncatingIfNeeded: oldIndex)
                    sequenceNew[matchedCount] = Int32(truncatingIfNeeded: index)
                    matchedCount &+= 1
                } else if oldIndex == KeyTable.notFound {
                    insertions.append(index)
                } else {
                    throw duplicate(key)
                }
            }
            batchStart = batchEnd
        }
        if insertions.count > 1 {
            var fresh = KeyTable(capacityFor: insertions.count)
            defer { fresh.deallocate() }
            for index in insertions {
                let key = new[index]
                guard
                    fresh.insert(
                        key, hash: key.reorderHash, preloaded: KeyTable.Slot(hash: 0, index: 0, state: KeyTable.empty),
                        at: index, state: KeyTable.newOnly, keys: old, newKeys: new)
                else { throw duplicate(key) }
            }
        }

    }

}

/// Finds one longest strictly increasing subsequence of `values` and marks its positions in `stable` (which is
/// cleared first and must hold at least `values.count` bits); returns its length.
///
/// Patience sorting (Fredman 1975; Knuth TAOCP vol. 3, §5.1.4): pile tops are strictly increasing, and each value
/// goes on the first pile whose top is not below it. O(n log k) comparisons for a longest length k, O(n) when the
/// input is nearly increasing (a value above the last top, or between the last two, needs no search).
///
/// The pile is found by counting instead of by binary search, because a binary search is a chain of dependent
/// loads and mispredicted branches: a summary holds every 32nd top, so the pile is 32·(c − 1) plus the count of
/// tops below the value in block c − 1, where c counts the summary entries below the value. Both counts are
/// branch-free loops the compiler vectorises, so a value costs about k/32 + 32 independent comparisons (for more
/// than 64 blocks the summary is binary-searched instead, so a search is O(log k + 32) however long the piles).
@inlinable
func longestIncreasingSubsequenceLength(_ values: UnsafeBufferPointer<Int32>, markingStableIn stable: inout BitSet)
    -> Int
{
    let count = values.count
    stable.removeAll()
    guard count > 0 else { return 0 }
    let tops = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count + 32)  // value at the top of each pile
    let summary = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count / 32 + 2)  // tops[0], tops[32], …
    let topPositions = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)  // its position in `values`
    let previous = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
    defer {
        tops.deallocate()
        summary.deallocate()
        topPositions.deallocate()
        previous.deallocate()
    }
    var piles = 0
    var lastPile = -1
    var lastValue = Int32.min
    for position in 0..<count {
        let value = values[position]
        var pile: Int
        if piles == 0 || tops[piles &- 1] < value {
            pile = piles
            piles &+= 1
        } else if piles == 1 || tops[piles &- 2] < value {
            // Nearly sorted input after one high outlier: the value replaces the last pile's top.
            pile = piles &- 1
        } else if value > lastValue, let near = gallop(value, from: lastPile, tops: tops.baseAddress!, piles: piles) {
            // Inside a rising run (a sort's equal keys): the pile lies just past the previous value's.
            pile = near
        } else {
            pile = lowerBound(value, tops: tops.baseAddress!, summary: summary.baseAddress!, piles: piles)
        }
        lastPile = pile
        lastValue = value
        tops[pile] = value
        if pile & 31 == 0 { summary[pile >> 5] = value }
        topPositions[pile] = Int32(truncatingIfNeeded: position)
        previous[position] = pile > 0 ? topPositions[pile &- 1] : -1
    }
    var position = Int(topPositions[piles - 1])
    while position >= 0 {
        stable.insert(position)
        position = Int(previous[position])
    }
    return piles
}

/// The first pile whose top is not below `value` when it is the pile right after `pile` (whose top is below
/// `value`), else nil for the general search. Rising runs — the equal keys of a sort — mostly land there; a random
/// value pays one comparison.
@inlinable
func gallop(_ value: Int32, from pile: Int, tops: UnsafeMutablePointer<Int32>, piles: Int) -> Int? {
    let next = pile &+ 1
    return next < piles && tops[next] >= value ? next : nil
}

/// The number of pile tops below `value` (the first pile it may go on), by two branch-free counts.
/// Values are non-negative Int32s, so `top − value` cannot overflow and its sign bit says `top < value`.
@inlinable
func lowerBound(
    _ value: Int32, tops: UnsafeMutablePointer<Int32>, summary: UnsafeMutablePointer<Int32>, piles: Int
) -> Int {
    let blocks = (piles &+ 31) >> 5
    var summaryBelow = 0
    if blocks <= 64 {
        var below: Int32 = 0
        for block in 0..<blocks { below &+= (summary[block] &- value) >> 31 }
        summaryBelow = Int(-below)
    } else {
        // Long piles (a nearly sorted deck): a branch-free binary search over the summary keeps this O(log k).
        var base = 0
        var length = blocks
        while length > 1 {
            let half = length >> 1
            base &+= half & Int((summary[base &+ half &- 1] &- value) >> 31)
            length &-= half
        }
        summaryBelow = base &+ Int(1 & ((summary[base] &- value) >> 31))
    }
    let block = summaryBelow &- 1
    guard block >= 0 else { return 0 }
    let start = block << 5
    let end = Swift.min(start &+ 32, piles)
    var inBlock: Int32 = 0
    for index in start..<end { inBlock &+= (tops[index] &- value) >> 31 }
    return start &+ Int(-inBlock)
}

/// The positions (into `values`) of one longest strictly increasing subsequence of `values`, ascending.
/// O(n log k); see `longestIncreasingSubsequenceLength(_:markingStableIn:)`.
public func longestIncreasingSubsequence(_ values: [Int32]) -> [Int32] {
    var stable = BitSet(count: values.count)
    defer { stable.deallocate() }
    let length = values.withUnsafeBufferPointer { longestIncreasingSubsequenceLength($0, markingStableIn: &stable) }
    var result: [Int32] = []
    result.reserveCapacity(length)
    for position in values.indices where stable.contains(position) { result.append(Int32(position)) }
    return result
}

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

/// An open-addressing (linear probing) table from key to index, sized to a load factor of at most 1/2.
/// Each slot holds the key's 64-bit hash, an index and a state (see `hashes` and `metas`).
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

    /// The slots, as two parallel arrays: each key's 64-bit hash, and a 32-bit word holding the state (top three
    /// bits; 0 = empty) and the index (low 29 bits). Twelve bytes a slot, in two allocations of at most 16 MiB and
    /// 8 MiB for a million keys: small enough that the allocator recycles them between diffs instead of mapping
    /// fresh, page-faulting memory each time.
    @usableFromInline var hashes: UnsafeMutablePointer<UInt64>
    @usableFromInline var metas: UnsafeMutablePointer<UInt32>
    @usableFromInline var mask: Int
    /// The number of slots allocated (`reset` may use fewer).
    @usableFromInline var allocated: Int

    @inlinable
    init(capacityFor count: Int) {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        allocated = capacity
        hashes = .allocate(capacity: capacity)
        // calloc: an all-zero word is an empty slot; the hashes need no initialisation (read only when occupied).
        guard let memory = calloc(capacity, MemoryLayout<UInt32>.stride) else {
            fatalError("out of memory for a reorder table of \(capacity) slots")
        }
        metas = memory.bindMemory(to: UInt32.self, capacity: capacity)
        mask = capacity - 1
    }

    @inlinable
    func deallocate() {
        hashes.deallocate()
        free(metas)
    }

    /// Empties the table and sizes it for `count` keys (at most what it was allocated for). O(capacity used).
    @inlinable
    mutating func reset(capacityFor count: Int) {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        capacity = Swift.min(capacity, allocated)
        mask = capacity - 1
        metas.update(repeating: 0, count: capacity)
    }

    @inlinable
    func slot(at position: Int) -> Slot {
        let meta = metas[position]
        return Slot(hash: hashes[position], index: Int32(bitPattern: meta & 0x1FFF_FFFF), state: Int32(meta >> 29))
    }

    @inlinable
    func setSlot(_ slot: Slot, at position: Int) {
        hashes[position] = slot.hash
        metas[position] = UInt32(truncatingIfNeeded: slot.state) << 29 | UInt32(truncatingIfNeeded: slot.index)
    }

    @inlinable
    func setState(_ state: Int32, at position: Int) {
        metas[position] = metas[position] & 0x1FFF_FFFF | UInt32(truncatingIfNeeded: state) << 29
    }

    @inlinable
    func sameKey<Key: ReorderKey>(
        _ slot: Slot, _ hash: UInt64, _ key: Key, _ keys: UnsafeBufferPointer<Key>, _ newKeys: UnsafeBufferPointer<Key>
    ) -> Bool {
        guard slot.hash == hash else { return false }
        if Key.reorderHashIsInjective { return true }
        return (slot.state == KeyTable.newOnly ? newKeys[Int(slot.index)] : keys[Int(slot.index)]) == key
    }

    /// Scratch space for one batch of keys: their hashes and their home slots, loaded ahead of use.
    ///
    /// Group prefetching (Chen, Ailamaki, Gibbons & Mowry, "Improving Hash Join Performance through
    /// Prefetching", ICDE 2004): loading the home slots of `size` keys back to back lets their cache misses
    /// overlap, instead of each key's miss waiting behind the previous key's work.
    @usableFromInline
    struct Batch {
        @usableFromInline static var size: Int { 16 }
        @usableFromInline var hashes: UnsafeMutablePointer<UInt64>
        @usableFromInline var slots: UnsafeMutablePointer<Slot>

        @inlinable
        init() {
            hashes = .allocate(capacity: Batch.size)
            slots = .allocate(capacity: Batch.size)
        }

        @inlinable
        func deallocate() {
            hashes.deallocate()
            slots.deallocate()
        }
    }

    /// Hashes `keys[range]` (at most `Batch.size` keys) and loads each key's home slot into `batch`.
    @inlinable
    func preload<Key: ReorderKey>(
        _ keys: UnsafeBufferPointer<Key>, _ range: Range<Int>, into batch: inout Batch, statesOnly: Bool = false
    ) {
        for index in range {
            let hash = keys[index].reorderHash
            batch.hashes[index &- range.lowerBound] = hash
            let position = Int(truncatingIfNeeded: hash) & mask
            if statesOnly {
                // Inserting needs the hash only on a collision: load the state word alone (one miss, not two).
                let meta = metas[position]
                batch.slots[index &- range.lowerBound] = Slot(
                    hash: 0, index: Int32(bitPattern: meta & 0x1FFF_FFFF), state: Int32(meta >> 29))
            } else {
                batch.slots[index &- range.lowerBound] = slot(at: position)
            }
        }
    }

    /// Inserts the old keys `keys[range]` with `state`, a batch at a time; returns the index of the first key that
    /// is already present, or -1.
    @inlinable
    mutating func insertAll<Key: ReorderKey>(
        _ range: Range<Int>, state: Int32, keys: UnsafeBufferPointer<Key>, newKeys: UnsafeBufferPointer<Key>,
        batch: inout Batch
    ) -> Int {
        var start = range.lowerBound
        while start < range.upperBound {
            let end = Swift.min(start &+ Batch.size, range.upperBound)
            preload(keys, start..<end, into: &batch, statesOnly: true)
            for index in start..<end {
                let offset = index &- start
                guard
                    insert(
                        keys[index], hash: batch.hashes[offset], preloaded: batch.slots[offset], at: index,
                        state: state, keys: keys, newKeys: newKeys)
                else { return index }
            }
            start = end
        }
        return -1
    }

    /// Inserts a key whose home slot was loaded earlier as `preloaded`; false when the key is already present.
    /// An occupied slot never changes while keys are inserted, so a preloaded occupied slot is current; a
    /// preloaded empty one is read again, since a key earlier in the batch may have taken it.
    @inlinable
    mutating func insert<Key: ReorderKey>(
        _ key: Key, hash: UInt64, preloaded: Slot, at index: Int, state: Int32, keys: UnsafeBufferPointer<Key>,
        newKeys: UnsafeBufferPointer<Key>
    ) -> Bool {
        var position = Int(truncatingIfNeeded: hash) & mask
        // The preload brought the state word (it is cached now); an occupied slot's hash is read only when the
        // slot is occupied, so inserting into an empty slot costs one miss, as in the floor.
        while true {
            if metas[position] == 0 {
                setSlot(Slot(hash: hash, index: Int32(truncatingIfNeeded: index), state: state), at: position)
                return true
            }
            if sameKey(slot(at: position), hash, key, keys, newKeys) { return false }
            position = (position &+ 1) & mask
        }
    }

    /// Returned by `match` for a key that is not in the table.
    @usableFromInline static var notFound: Int { -1 }
    /// Returned by `match` for a key seen twice in the new order (or also in the trimmed prefix or suffix).
    @usableFromInline static var duplicateMatch: Int { -2 }

    /// Looks up a new key whose home slot was loaded earlier as `preloaded`: returns the old index of an unmatched
    /// old key (and marks it matched), `notFound`, or `duplicateMatch`. While matching, only a slot's state
    /// changes, so the preloaded hash and index are current; the state is read again before it is trusted.
    @inlinable
    mutating func match<Key: ReorderKey>(
        _ key: Key, hash: UInt64, preloaded: Slot, keys: UnsafeBufferPointer<Key>, newKeys: UnsafeBufferPointer<Key>
    ) -> Int {
        var position = Int(truncatingIfNeeded: hash) & mask
        var slot = preloaded
        while true {
            if slot.state == KeyTable.empty { return KeyTable.notFound }
            if sameKey(slot, hash, key, keys, newKeys) {
                guard self.slot(at: position).state == KeyTable.unmatched else { return KeyTable.duplicateMatch }
                setState(KeyTable.matched, at: position)
                return Int(slot.index)
            }
            position = (position &+ 1) & mask
            slot = self.slot(at: position)
        }
    }
}
