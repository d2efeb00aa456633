/// Card index → rank of its key, and the number of distinct keys: equal keys share a rank, and ranks are dense
/// (`0..<distinct`) and increase with the key.
///
/// `DeckOrder` sorts by these ranks with a counting sort, so ranking is the only part of a sort that depends on
/// the key's type. Each key has its own fast path, all giving the same ranks as `init(count:key:)` (the
/// straightforward comparison sort, kept as the reference and the fallback):
/// - integers (`init(integers:)`): a counting pass when the keys span at most a few times their count, otherwise
///   an LSD radix sort of their order-preserving 64-bit images — O(n);
/// - few distinct values (`init(count:value:key:)`, colours): an open-addressing table of the distinct values,
///   whose keys alone are compared — O(n + d log d);
/// - titles (`init(titles:title:)`): in `TitleOrder` (digit runs by value, letters without case), sorted by a
///   128-bit prefix of each title's sort form with the whole comparison only on ties; an LSD radix sort over
///   bytes measured two to three times slower on a million titles (each pass scatters into 256 buckets, which is
///   bound by TLB misses), so a large `DeckOrder` computes title ranks once, when it is made (`prepareRanks()`).
struct DenseRanks: Sendable, Hashable {
    var ranks: [Int32]
    var distinct: Int
    /// When every key is distinct, the card of each rank (the inverse permutation of `ranks`), so that a sort
    /// gathers its result in the new order instead of scattering it (`DeckOrder.placeByDistinctRanks`); empty
    /// until `indexedByRank()` fills it, and always when keys repeat. 4 bytes a card. Derived from `ranks`, so
    /// equality and hashing ignore it.
    var cards: [Int32] = []
    /// With `cards`, the id of each rank's card (`ids[cards[rank]]`): the ids of the order a sort by this key gives,
    /// ascending, whatever the order before. A sort copies them in sequence (or backwards) instead of reading each
    /// card's id at random (a million cards sorted by id: the gather 3.8 → 2.3 ms). 8 bytes a card. Empty with
    /// `cards`.
    var rankIDs: [CardID] = []
    /// The checksums (`OrderChecksum`) of the orders a sort by this key gives, ascending and descending, when
    /// `indexedByRank(ids:)` computed them: every sort by a key with distinct values gives one of the two, so a
    /// sort reports its order's checksum without a pass over the ids. nil for ranks whose `cards` were given (a
    /// user's order kept by `DeckOrder`), whose checksums nothing has computed.
    var sortedChecksums: (ascending: UInt32, descending: UInt32)? = nil
    /// With at most 256 distinct keys (the colours), the ranks as bytes, once `compacted()` filled them: a quarter of
    /// `ranks`, so that a counting sort's random reads of them stay in the processor's caches
    /// (`DeckOrder.placeByCounting`). Empty otherwise. Derived from `ranks`.
    var rankBytes: [UInt8] = []

    static func == (lhs: DenseRanks, rhs: DenseRanks) -> Bool {
        lhs.distinct == rhs.distinct && lhs.ranks == rhs.ranks
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ranks)
        hasher.combine(distinct)
    }

    /// These ranks with `cards`, `rankIDs` and `sortedChecksums` filled in when every key is distinct (a cached key
    /// of a large deck: titles, ids, the given sortOrders), `ids` being the cards' ids by card index and `checksum`
    /// the wire's checksum of an order of ids (`OrderChecksum.of`, which the engine defines). O(n), once.
    func indexedByRank(ids: [CardID], checksum: ([CardID]) -> UInt32) -> DenseRanks {
        guard distinct == ranks.count, cards.isEmpty, distinct > 1, ids.count == distinct else { return self }
        var indexed = self
        indexed.cards = [Int32](unsafeUninitializedCapacity: distinct) { cards, initialized in
            // Every rank is one card's: the ranks are a permutation, so each slot is written once.
            for (card, rank) in ranks.enumerated() { cards[Int(rank)] = Int32(truncatingIfNeeded: card) }
            initialized = distinct
        }
        indexed.rankIDs = indexed.cards.map { ids[Int($0)] }
        indexed.sortedChecksums = (
            checksum(indexed.rankIDs), checksum(Array(indexed.rankIDs.reversed()))
        )
        return indexed
    }

    /// These ranks with `rankBytes` filled in when there are at most 256 distinct keys. O(n), once.
    func compacted() -> DenseRanks {
        guard distinct <= 256, rankBytes.isEmpty, !ranks.isEmpty else { return self }
        var compact = self
        compact.rankBytes = ranks.map { UInt8(truncatingIfNeeded: $0) }
        return compact
    }

    /// Ranks `count` keys by sorting the indices with the keys' `<`: O(n log n) comparisons. The reference
    /// implementation every fast path must agree with.
    init<Key: Comparable>(count: Int, key: (Int) -> Key) {
        let keys = (0..<count).map(key)
        let sorted = keys.indices.sorted { keys[$0] < keys[$1] }
        self.init(sorted: sorted) { keys[$0] == keys[$1] }
    }

    /// The ranks of keys whose indices `sorted` lists in ascending order, `equal` telling whether two keys (by
    /// index) are equal: each key's rank is the number of distinct keys before it. O(n).
    private init(sorted: [Int], equal: (Int, Int) -> Bool) {
        var ranks = [Int32](repeating: 0, count: sorted.count)
        var rank: Int32 = -1
        var previous: Int?
        for index in sorted {
            if let previous, equal(previous, index) {
                ranks[index] = rank
            } else {
                rank += 1
                ranks[index] = rank
            }
            previous = index
        }
        self.init(ranks: ranks, distinct: Int(rank) + 1)
    }

    /// Ranks `count` titles in `TitleOrder`: each title's 128-bit prefix key (`TitleOrder.prefixKey`), the indices
    /// sorted by it, and the whole comparison only between titles whose keys are equal (a title of up to about 12
    /// characters fits its key whole). O(n log n) comparisons of two words, plus O(length) for each tie; O(n) when the
    /// titles are in order already. Gives the
    /// ranks of `init(count:key:)` over `TitleOrder` (`DenseRanksTests`).
    init(titles count: Int, title: (Int) -> String) {
        var high = [UInt64](repeating: 0, count: count)
        var low = [UInt64](repeating: 0, count: count)
        for index in 0..<count {
            var text = title(index)
            (high[index], low[index]) = text.withUTF8 { TitleOrder.prefixKey($0) }
        }
        // Titles given in order already (a generated deck's "Card 1", "Card 2" …) need no sort: one pass of
        // neighbour comparisons, almost all decided by the prefix keys, proves it. O(n).
        let presorted = high.withUnsafeBufferPointer { high in
            low.withUnsafeBufferPointer { low in
                (1..<max(1, count)).allSatisfy { b in
                    let a = b - 1
                    if high[a] != high[b] { return high[a] < high[b] }
                    if low[a] != low[b] { return low[a] < low[b] }
                    return TitleOrder.compare(title(a), title(b)) <= 0
                }
            }
        }
        let sorted =
            presorted
            ? Array(0..<count)
            : high.withUnsafeBufferPointer { high in
                low.withUnsafeBufferPointer { low in
                    (0..<count).sorted { a, b in
                        if high[a] != high[b] { return high[a] < high[b] }
                        if low[a] != low[b] { return low[a] < low[b] }
                        return TitleOrder.compare(title(a), title(b)) < 0
                    }
                }
            }
        self.init(sorted: sorted) { a, b in
            high[a] == high[b] && low[a] == low[b] && TitleOrder.compare(title(a), title(b)) == 0
        }
    }

    /// Ranks that are already a permutation of 0..<count.
    init(permutation: [Int]) {
        ranks = permutation.map { Int32(truncatingIfNeeded: $0) }
        distinct = permutation.count
    }

    init(ranks: [Int32], distinct: Int) {
        self.ranks = ranks
        self.distinct = distinct
    }

    // MARK: Integers

    /// Ranks integer keys. When they span at most four times their count (sortOrders usually are a permutation of
    /// the positions), a presence table and its prefix sums give the ranks in O(n + span); otherwise a radix sort
    /// of the keys (sign bit flipped, so unsigned order is signed order) does, in O(n) per varying byte.
    init(integers keys: [Int]) {
        let count = keys.count
        guard let low = keys.min(), let high = keys.max() else {
            self.init(ranks: [], distinct: 0)
            return
        }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        if !overflow, span < max(4 * count, 1024) {
            // rankOf[key - low] = 1 where a key is present, then its exclusive prefix sum: the dense rank.
            var rankOf = [Int32](repeating: 0, count: span + 1)
            var distinct: Int32 = 0
            rankOf.withUnsafeMutableBufferPointer { rankOf in
                for key in keys { rankOf[key &- low] = 1 }
                for slot in rankOf.indices {
                    let present = rankOf[slot]
                    rankOf[slot] = distinct
                    distinct &+= present
                }
            }
            let ranks = rankOf.withUnsafeBufferPointer { rankOf in keys.map { rankOf[$0 &- low] } }
            self.init(ranks: ranks, distinct: Int(distinct))
            return
        }
        let images = keys.map { UInt64(bitPattern: Int64($0)) ^ (1 << 63) }
        self.init(sortedBy: images)
    }

    /// Ranks by unsigned 64-bit keys: a stable radix sort of the indices, then one pass giving equal keys one rank.
    /// From `packedMinimumCount` keys, `init(packedSortOf:)` sorts a third fewer bytes in fewer passes.
    init(sortedBy keys: [UInt64]) {
        if keys.count >= Self.packedMinimumCount {
            self.init(packedSortOf: keys)
            return
        }
        let count = keys.count
        let (sortedKeys, order) = Self.radixSort(keys)
        var ranks = [Int32](repeating: 0, count: count)
        var rank: Int32 = -1
        ranks.withUnsafeMutableBufferPointer { ranks in
            var previous: UInt64 = 0
            for slot in 0..<count {
                let key = sortedKeys[slot]
                if slot == 0 || key != previous { rank += 1 }
                previous = key
                ranks[Int(order[slot])] = rank
            }
        }
        self.init(ranks: ranks, distinct: Int(rank) + 1)
    }

    /// The fewest keys `init(sortedBy:)` ranks by the packed sort (below, the two arrays' sort is as fast).
    static let packedMinimumCount = 4_096

    /// Ranks by unsigned 64-bit keys, sorting one array of 8-byte words instead of keys and indices (12 bytes): each
    /// word is a key's high bits with its index in the low `indexBits` bits. An LSD radix sort of the words by their
    /// bytes above the lowest whole bytes of the index (those it skips: the sort is stable and the words start in
    /// index order) orders them by the keys' high bits, ties in index order; the few runs of keys whose high bits
    /// tie (random 64-bit ids of a million cards: about 3% of the cards, in pairs) are then sorted by the whole key,
    /// stably. Gives the ranks of the two arrays' sort (`DenseRanksTests`). O(n · varying bytes + ties log ties).
    init(packedSortOf keys: [UInt64]) {
        let count = keys.count
        var indexBits = 1
        while (1 << indexBits) < count { indexBits += 1 }
        let lowMask: UInt64 = (1 << UInt64(indexBits)) - 1
        var words = [UInt64](unsafeUninitializedCapacity: count) { words, initialized in
            for index in 0..<count { words[index] = (keys[index] & ~lowMask) | UInt64(index) }
            initialized = count
        }
        Self.radixSort(&words, fromByte: indexBits / 8)
        var ranks = [Int32](repeating: 0, count: count)
        var rank: Int32 = -1
        var run: [Int] = []
        words.withUnsafeBufferPointer { words in
            ranks.withUnsafeMutableBufferPointer { ranks in
                var slot = 0
                while slot < count {
                    let high = words[slot] & ~lowMask
                    var end = slot + 1
                    while end < count && words[end] & ~lowMask == high { end += 1 }
                    if end == slot + 1 {
                        rank += 1
                        ranks[Int(words[slot] & lowMask)] = rank
                    } else {
                        // Keys whose high bits tie: by the whole key, then by index (stable).
                        run = (slot..<end).map { Int(words[$0] & lowMask) }
                        run.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
                        for (offset, index) in run.enumerated() {
                            if offset == 0 || keys[index] != keys[run[offset - 1]] { rank += 1 }
                            ranks[index] = rank
                        }
                    }
                    slot = end
                }
            }
        }
        self.init(ranks: ranks, distinct: Int(rank) + 1)
    }

    /// Sorts `words` by their bytes from `fromByte` up: an LSD radix sort, stable, skipping every byte that is the
    /// same in all words. O(n · varying bytes).
    static func radixSort(_ words: inout [UInt64], fromByte: Int) {
        let (histograms, varying) = byteHistograms(words, fromByte: fromByte)
        var target = [UInt64](repeating: 0, count: varying.isEmpty ? 0 : words.count)
        for byte in varying {
            scatter(words, into: &target, byte: byte, starts: bucketStarts(histograms, byte: byte))
            swap(&words, &target)
        }
    }

    /// One pass of `radixSort(_:fromByte:)`: each word to the next place of its bucket by `byte`, in order. O(n).
    private static func scatter(_ words: [UInt64], into target: inout [UInt64], byte: Int, starts: [Int]) {
        let shift = UInt64(byte * 8)
        var starts = starts
        words.withUnsafeBufferPointer { source in
            target.withUnsafeMutableBufferPointer { target in
                starts.withUnsafeMutableBufferPointer { starts in
                    for word in source {
                        let bucket = Int((word >> shift) & 0xFF)
                        target[starts[bucket]] = word
                        starts[bucket] += 1
                    }
                }
            }
        }
    }

    /// For each byte of the keys from `fromByte` up, how many keys have each of its 256 values (`byte << 8 | value`),
    /// and the bytes that are not the same in every key (the only ones a radix sort needs). O(n).
    static func byteHistograms(_ keys: [UInt64], fromByte: Int) -> (histograms: [Int], varying: [Int]) {
        var histograms = [Int](repeating: 0, count: 8 * 256)
        keys.withUnsafeBufferPointer { keys in
            histograms.withUnsafeMutableBufferPointer { histograms in
                for key in keys {
                    for byte in fromByte..<8 { histograms[byte << 8 | Int((key >> UInt64(byte * 8)) & 0xFF)] += 1 }
                }
            }
        }
        let varying = (fromByte..<8).filter { byte in
            !histograms[(byte << 8)..<((byte + 1) << 8)].contains(keys.count)
        }
        return (histograms, varying)
    }

    /// Where each of `byte`'s 256 buckets starts in the sorted order: the exclusive prefix sums of its histogram.
    static func bucketStarts(_ histograms: [Int], byte: Int) -> [Int] {
        var starts = [Int](repeating: 0, count: 256)
        var total = 0
        for bucket in 0..<256 {
            starts[bucket] = total
            total += histograms[byte << 8 | bucket]
        }
        return starts
    }

    /// `keys` sorted, and for each sorted slot the index its key came from: an LSD radix sort on bytes, stable,
    /// skipping every byte that is the same in all keys (one counting pass finds them). O(n · varying bytes).
    static func radixSort(_ keys: [UInt64]) -> (keys: [UInt64], indices: [Int32]) {
        let count = keys.count
        let (histograms, varying) = byteHistograms(keys, fromByte: 0)
        var sourceKeys = keys
        var sourceIndices = (0..<count).map { Int32(truncatingIfNeeded: $0) }
        guard !varying.isEmpty else { return (sourceKeys, sourceIndices) }
        var targetKeys = [UInt64](repeating: 0, count: count)
        var targetIndices = [Int32](repeating: 0, count: count)
        for byte in varying {
            let shift = UInt64(byte * 8)
            var starts = bucketStarts(histograms, byte: byte)
            sourceKeys.withUnsafeBufferPointer { sourceKeys in
                sourceIndices.withUnsafeBufferPointer { sourceIndices in
                    targetKeys.withUnsafeMutableBufferPointer { targetKeys in
                        targetIndices.withUnsafeMutableBufferPointer { targetIndices in
                            starts.withUnsafeMutableBufferPointer { starts in
                                for slot in 0..<count {
                                    let key = sourceKeys[slot]
                                    let bucket = Int((key >> shift) & 0xFF)
                                    let target = starts[bucket]
                                    starts[bucket] = target + 1
                                    targetKeys[target] = key
                                    targetIndices[target] = sourceIndices[slot]
                                }
                            }
                        }
                    }
                }
            }
            swap(&sourceKeys, &targetKeys)
            swap(&sourceIndices, &targetIndices)
        }
        return (sourceKeys, sourceIndices)
    }

    // MARK: Few distinct values

    /// Ranks keys that are a function of a small value with few distinct values (a colour's key of its RGB):
    /// `value` is packed into a `UInt32`, the distinct packed values are collected in an open-addressing table
    /// (linear probing, Knuth's multiplicative hash), and only their keys are computed and sorted. Falls back to
    /// `init(count:key:)` beyond `distinctLimit` distinct values. O(n + d log d).
    init<Key: Comparable>(count: Int, value: (Int) -> UInt32, key: (UInt32) -> Key, distinctLimit: Int = 4096) {
        var capacity = 16
        while capacity < 2 * distinctLimit { capacity <<= 1 }
        let mask = capacity - 1
        var slots = [UInt32](repeating: 0, count: capacity)  // packed value + 1 (0 = empty)
        var slotClass = [Int32](repeating: 0, count: capacity)
        var values: [UInt32] = []
        var classes = [Int32](repeating: 0, count: count)
        var overflowed = false
        slots.withUnsafeMutableBufferPointer { slots in
            slotClass.withUnsafeMutableBufferPointer { slotClass in
                classes.withUnsafeMutableBufferPointer { classes in
                    for index in 0..<count {
                        let packed = value(index)
                        var slot = Int(truncatingIfNeeded: (UInt64(packed) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
                        while true {
                            let stored = slots[slot]
                            if stored == packed &+ 1 { break }
                            if stored == 0 {
                                slots[slot] = packed &+ 1
                                slotClass[slot] = Int32(truncatingIfNeeded: values.count)
                                values.append(packed)
                                break
                            }
                            slot = (slot + 1) & mask
                        }
                        classes[index] = slotClass[slot]
                        if values.count > distinctLimit {
                            overflowed = true
                            return
                        }
                    }
                }
            }
        }
        guard !overflowed, values.count < UInt32.max else {
            self.init(count: count) { key(value($0)) }
            return
        }
        let classRanks = DenseRanks(count: values.count) { key(values[$0]) }
        let ranks = classes.map { classRanks.ranks[Int($0)] }
        self.init(ranks: ranks, distinct: classRanks.distinct)
    }
}
