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

        // `sequence[i]` is the old index of the i-th key of the new middle that is also in the old order.
        let capacity = min(oldMiddle, newMiddle)
        let sequence = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, capacity))
        var matchedOld = BitSet(count: oldMiddle)
        defer {
            sequence.deallocate()
            matchedOld.deallocate()
        }
        var matchedCount = 0
        var insertions: [Int] = []
        try matchDirect(
            old, new, prefix: prefix, suffix: suffix, validateTrimmed: validateTrimmed, sequence: sequence,
            matchedCount: &matchedCount, insertions: &insertions, matchedOld: &matchedOld)
        if oldMiddle == 0 && newMiddle == 0 {
            return ReorderDiff(oldCount: oldCount, newCount: newCount, removals: [], insertions: [], moves: [])
        }

        var removals: [Int] = []
        if matchedCount < oldMiddle {
            removals.reserveCapacity(oldMiddle - matchedCount)
            for offset in 0..<oldMiddle where !matchedOld.contains(offset) { removals.append(prefix + offset) }
        }

        // From here `matchedOld` marks the positions of `sequence` that stay.
        let stableCount = longestIncreasingSubsequenceLength(
            UnsafeBufferPointer(rebasing: sequence[0..<matchedCount]), universe: oldCount, markingStableIn: &matchedOld)
        var moves: [Move] = []
        if stableCount < matchedCount {
            moves = movesOutside(
                stable: matchedOld, sequence: sequence, count: matchedCount, moveCount: matchedCount - stableCount,
                prefix: prefix, insertions: insertions)
        }
        return ReorderDiff(
            oldCount: oldCount, newCount: newCount, removals: removals, insertions: insertions, moves: moves)
    }

    /// One move for every position of `sequence[0..<count]` that is not in `stable`: from its old index to its new
    /// index, which is `prefix + position` plus the number of insertions before it (a merge, since both ascend).
    /// The moves are written straight into the array's storage, with no capacity check per move.
    @inlinable
    static func movesOutside(
        stable: BitSet, sequence: UnsafeMutableBufferPointer<Int32>, count: Int, moveCount: Int, prefix: Int,
        insertions: [Int]
    ) -> [Move] {
        [Move](unsafeUninitializedCapacity: moveCount) { storage, initialized in
            var written = 0
            let output = storage.baseAddress!
            if insertions.isEmpty {
                // Every new index is `prefix + position`: walk the unset bits a word at a time.
                for word in 0..<((count &+ 63) >> 6) {
                    let valid = count &- (word << 6) >= 64 ? UInt64.max : (1 << UInt64(count &- (word << 6))) &- 1
                    var moving = ~stable.words[word] & valid
                    while moving != 0 {
                        let position = word << 6 | moving.trailingZeroBitCount
                        (output + written).initialize(
                            to: Move(from: Int(sequence[position]), to: prefix &+ position))
                        written &+= 1
                        moving &= moving &- 1
                    }
                }
            } else {
                var before = 0  // insertions before the current key's new index
                for position in 0..<count {
                    while before < insertions.count && insertions[before] <= prefix &+ position &+ before {
                        before &+= 1
                    }
                    if !stable.contains(position) {
                        (output + written).initialize(
                            to: Move(from: Int(sequence[position]), to: prefix &+ position &+ before))
                        written &+= 1
                    }
                }
            }
            initialized = written
        }
    }

    /// Matches the middle of `new` against `old` with one table of every old key: fills `sequence` with the matched
    /// keys' old indices in new order, `insertions` with the new indices of keys only in the new order, and
    /// `matchedOld`; throws on any duplicate.
    ///
    /// One table for any size: with its slots prefetched (`KeyTable.forEachPrefetched`) it beat hash-partitioning
    /// the keys into cache-sized tables (Manegold, Boncz & Kersten 2002), which the diff did before, at a million
    /// keys too — shuffle 1.0× the floor instead of 1.7× (cardistry-bench, diff suite).
    @inlinable
    static func matchDirect<Key: ReorderKey>(
        _ old: UnsafeBufferPointer<Key>, _ new: UnsafeBufferPointer<Key>, prefix: Int, suffix: Int,
        validateTrimmed: Bool, sequence: UnsafeMutableBufferPointer<Int32>, matchedCount: inout Int,
        insertions: inout [Int], matchedOld: inout BitSet
    ) throws(ModelError) {
        let oldCount = old.count
        let oldMiddle = old.count - prefix - suffix
        let newMiddle = new.count - prefix - suffix
        // The table holds only old keys (load ≤ 1/2); keys only in the new order are checked for duplicates
        // afterwards in a table of their own, so a mostly-reordered deck pays for one table of n keys.
        var table = KeyTable(capacityFor: oldMiddle + (validateTrimmed ? prefix + suffix : 0))
        defer { table.deallocate() }
        if validateTrimmed {
            let prefixClash = table.insertAll(0..<prefix, state: KeyTable.trimmed, keys: old, newKeys: new)
            if prefixClash >= 0 { throw duplicate(old[prefixClash]) }
            let suffixClash = table.insertAll(
                (oldCount - suffix)..<oldCount, state: KeyTable.trimmed, keys: old, newKeys: new)
            if suffixClash >= 0 { throw duplicate(old[suffixClash]) }
        }
        let clash = table.insertAll(prefix..<(prefix + oldMiddle), state: KeyTable.unmatched, keys: old, newKeys: new)
        if clash >= 0 { throw duplicate(old[clash]) }

        // A second new key equal to the same old key finds its bit set. (So `matched` never exceeds the capacity
        // of `sequence`, min(oldMiddle, newMiddle): one entry per distinct old key and per new key.)
        var matched = 0
        var found: [Int] = []
        var seenOld = matchedOld
        let failed = table.forEachPrefetched(new, prefix..<(prefix + newMiddle), forWriting: false) { index, hash in
            let oldIndex = table.match(new[index], hash: hash, keys: old, newKeys: new)
            if oldIndex >= 0 {
                let offset = oldIndex &- prefix
                guard !seenOld.contains(offset) else { return false }
                seenOld.insert(offset)
                sequence[matched] = Int32(truncatingIfNeeded: oldIndex)
                matched &+= 1
                return true
            }
            if oldIndex == KeyTable.notFound {
                found.append(index)
                return true
            }
            return false
        }
        matchedOld = seenOld
        matchedCount = matched
        insertions = found
        if let failed { throw duplicate(new[failed]) }
        if insertions.count > 1 {
            let fresh = KeyTable(capacityFor: insertions.count)
            defer { fresh.deallocate() }
            for index in insertions {
                let key = new[index]
                guard
                    fresh.insert(
                        key, hash: key.reorderHash, at: index, state: KeyTable.newOnly, keys: old, newKeys: new)
                else { throw duplicate(key) }
            }
        }
    }
}
