extension ReorderDiff {
    /// From this many keys in the table on, matching is partitioned (`matchPartitioned`). Below it the single table
    /// (at most 2^18 twelve-byte slots, 3 MiB) stays in the last-level cache and partitioning measured no faster
    /// (100k keys: shuffle 2.6–2.8× the floor either way); at a million keys partitioning took the ratio from
    /// 2.4–2.9 to 1.0–2.0 (cardistry-bench, diff suite, 64-bit ids).
    @inlinable static var partitionThreshold: Int { 131_072 }

    /// Matches the middle of `new` against `old` after partitioning both by the top bits of their hashes, so that
    /// each partition's table (a few thousand keys) sits in the L2 cache instead of spreading random accesses over
    /// a table larger than the cache: the radix-partitioned hash join of Manegold, Boncz & Kersten, "Optimizing
    /// Main-Memory Join on Modern Hardware" (IEEE TKDE 14(4), 2002).
    ///
    /// Writes, for every middle position i of `new`, the old index of its key into `matchOf[i]`, or −1 for a key
    /// only in the new order. Every duplicate key — in either order, including the trimmed prefix and suffix —
    /// throws. O(n) expected time; memory ≈ 28 bytes per key.
    @inlinable
    static func matchPartitioned<Key: ReorderKey>(
        _ old: UnsafeBufferPointer<Key>, _ new: UnsafeBufferPointer<Key>, prefix: Int, suffix: Int,
        validateTrimmed: Bool, matchOf: UnsafeMutableBufferPointer<Int32>
    ) throws(ModelError) {
        let oldCount = old.count
        let oldMiddle = oldCount - prefix - suffix
        let newMiddle = new.count - prefix - suffix
        // The old keys that go into the tables: the trimmed ones (when validating) and the middle.
        let trimmed = validateTrimmed ? prefix + suffix : 0
        let oldEntries = trimmed + oldMiddle
        func oldIndex(ofEntry entry: Int) -> Int {
            if entry < oldMiddle { return prefix &+ entry }
            let extra = entry &- oldMiddle
            return extra < prefix ? extra : oldCount &- suffix &+ (extra &- prefix)
        }

        // About 4,096 old keys a partition: a table of 8,192 to 16,384 twelve-byte slots, well inside L2.
        var bits = 0
        while (oldEntries >> bits) > 4_096 && bits < 16 { bits &+= 1 }
        let partitions = 1 << bits
        @inline(__always) func partition(_ hash: UInt64) -> Int {
            bits == 0 ? 0 : Int(truncatingIfNeeded: hash >> UInt64(64 &- bits))
        }

        // Hash once, count per partition, scatter (stable) into partition order.
        let oldHashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(1, oldEntries))
        let newHashes = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(1, newMiddle))
        let partOldHash = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(1, oldEntries))
        let partOldMeta = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: max(1, oldEntries))
        let partNewHash = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(1, newMiddle))
        let partNewIndex = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, newMiddle))
        var oldStart = [Int](repeating: 0, count: partitions &+ 1)
        var newStart = [Int](repeating: 0, count: partitions &+ 1)
        defer {
            oldHashes.deallocate()
            newHashes.deallocate()
            partOldHash.deallocate()
            partOldMeta.deallocate()
            partNewHash.deallocate()
            partNewIndex.deallocate()
        }
        for entry in 0..<oldEntries {
            let hash = old[oldIndex(ofEntry: entry)].reorderHash
            oldHashes[entry] = hash
            oldStart[partition(hash) &+ 1] &+= 1
        }
        for offset in 0..<newMiddle {
            let hash = new[prefix &+ offset].reorderHash
            newHashes[offset] = hash
            newStart[partition(hash) &+ 1] &+= 1
        }
        var largest = 0
        for part in 0..<partitions {
            largest = Swift.max(largest, oldStart[part &+ 1] &+ newStart[part &+ 1])
            oldStart[part &+ 1] &+= oldStart[part]
            newStart[part &+ 1] &+= newStart[part]
        }
        var oldFill = oldStart
        for entry in 0..<oldEntries {
            let hash = oldHashes[entry]
            let part = partition(hash)
            let state = entry < oldMiddle ? KeyTable.unmatched : KeyTable.trimmed
            partOldHash[oldFill[part]] = hash
            partOldMeta[oldFill[part]] =
                UInt32(truncatingIfNeeded: state) << 29 | UInt32(truncatingIfNeeded: oldIndex(ofEntry: entry))
            oldFill[part] &+= 1
        }
        var newFill = newStart
        for offset in 0..<newMiddle {
            let hash = newHashes[offset]
            let part = partition(hash)
            partNewHash[newFill[part]] = hash
            partNewIndex[newFill[part]] = Int32(truncatingIfNeeded: prefix &+ offset)
            newFill[part] &+= 1
        }

        // One table, reused by every partition: its old keys, then its new keys in new order.
        var table = KeyTable(capacityFor: largest)
        defer { table.deallocate() }
        for part in 0..<partitions {
            table.reset(capacityFor: oldStart[part &+ 1] &- oldStart[part] &+ newStart[part &+ 1] &- newStart[part])
            let mask = table.mask
            for entry in oldStart[part]..<oldStart[part &+ 1] {
                let hash = partOldHash[entry]
                let meta = partOldMeta[entry]
                let index = Int(meta & 0x1FFF_FFFF)
                var position = Int(truncatingIfNeeded: hash) & mask
                while table.metas[position] != 0 {
                    if table.sameKey(table.slot(at: position), hash, old[index], old, new) {
                        throw duplicate(old[index])
                    }
                    position = (position &+ 1) & mask
                }
                table.hashes[position] = hash
                table.metas[position] = meta
            }
            for entry in newStart[part]..<newStart[part &+ 1] {
                let hash = partNewHash[entry]
                let index = Int(partNewIndex[entry])
                let key = new[index]
                var position = Int(truncatingIfNeeded: hash) & mask
                var found = -1
                while table.metas[position] != 0 {
                    let slot = table.slot(at: position)
                    if table.sameKey(slot, hash, key, old, new) {
                        // Matched once already, trimmed (so also elsewhere in the new order), or new and seen.
                        guard slot.state == KeyTable.unmatched else { throw duplicate(key) }
                        table.setState(KeyTable.matched, at: position)
                        found = Int(slot.index)
                        break
                    }
                    position = (position &+ 1) & mask
                }
                if found < 0 {
                    table.setSlot(
                        KeyTable.Slot(hash: hash, index: Int32(truncatingIfNeeded: index), state: KeyTable.newOnly),
                        at: position)
                }
                matchOf[index &- prefix] = Int32(truncatingIfNeeded: found)
            }
        }
    }
}
