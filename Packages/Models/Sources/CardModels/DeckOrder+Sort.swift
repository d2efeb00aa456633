extension DeckOrder {
    /// `order` stably sorted by `ranks` (equal keys keep their order), and for each new slot the old slot of
    /// its card: a counting sort, O(n + distinct keys). `positions` is the inverse of `order` (card → slot).
    static func sorted(_ order: [Int32], positions: [Int32], by ranks: DenseRanks, descending: Bool)
        -> (order: [Int32], sources: [Int32])
    {
        let distinct = ranks.distinct
        let count = order.count
        guard count > 1, distinct > 0 else { return (order, order.indices.map { Int32(truncatingIfNeeded: $0) }) }
        if distinct == count { return sortedByDistinctRanks(positions, by: ranks, descending: descending) }
        var starts = [Int](repeating: 0, count: distinct + 1)
        ranks.ranks.withUnsafeBufferPointer { ranks in
            starts.withUnsafeMutableBufferPointer { starts in
                for card in order {
                    let rank = Int(ranks[Int(card)])
                    starts[(descending ? distinct - 1 - rank : rank) + 1] += 1
                }
                for bucket in 1...distinct { starts[bucket] += starts[bucket - 1] }
            }
        }
        var sources = [Int32](repeating: 0, count: count)
        let sorted = [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
            ranks.ranks.withUnsafeBufferPointer { ranks in
                starts.withUnsafeMutableBufferPointer { starts in
                    sources.withUnsafeMutableBufferPointer { sources in
                        for (slot, card) in order.enumerated() {
                            let rank = Int(ranks[Int(card)])
                            let bucket = descending ? distinct - 1 - rank : rank
                            let target = starts[bucket]
                            buffer[target] = card
                            sources[target] = Int32(truncatingIfNeeded: slot)
                            starts[bucket] = target + 1
                        }
                    }
                }
            }
            initialized = count
        }
        return (sorted, sources)
    }

    /// `sorted(_:positions:by:descending:)` when every key is distinct (titles of a generated deck, a user's order):
    /// each card's rank is its new slot, so one pass over the cards by index places them, reading their old slots
    /// from `positions` — sequential reads, no counting pass, no bucket table (the general counting sort's random
    /// accesses into `starts` cost twice as much on a million cards). Equal keys being impossible, the result is the
    /// same stable sort. O(n).
    static func sortedByDistinctRanks(_ positions: [Int32], by ranks: DenseRanks, descending: Bool)
        -> (order: [Int32], sources: [Int32])
    {
        let count = positions.count
        var sources = [Int32](repeating: 0, count: count)
        let sorted = [Int32](unsafeUninitializedCapacity: count) { buffer, initialized in
            positions.withUnsafeBufferPointer { positions in
                ranks.ranks.withUnsafeBufferPointer { ranks in
                    sources.withUnsafeMutableBufferPointer { sources in
                        for card in 0..<count {
                            let rank = Int(ranks[card])
                            let target = descending ? count - 1 - rank : rank
                            buffer[target] = Int32(truncatingIfNeeded: card)
                            sources[target] = positions[card]
                        }
                    }
                }
            }
            initialized = count
        }
        return (sorted, sources)
    }

    /// The current order stably sorted by `ranks` (`sorted(_:positions:by:descending:)`), with the new positions
    /// and display ids written as the cards are placed (`install(_:)` puts them in place without another pass);
    /// pending moves are settled first. O(n).
    mutating func sortedOrder(by ranks: DenseRanks, descending: Bool) -> SortedOrder {
        settlePositions()
        return Self.sortedOrder(
            slots, positions: positionBase, ids: ids, displayIDs: displayIDs, by: ranks, descending: descending)
    }

    /// The current order sorted by `key`: `sortedOrder(by:descending:)` over the key's ranks, except by sortOrder
    /// descending while the user's order is the display order, whose ranks are the positions: then the order
    /// reversed (`reversedOrder()`), the same result without the placement's random reads. Every sort goes through
    /// it: a host's, a scene's own action, a replayed one. Nothing changes until `install(_:)`, so a caller can read
    /// the old slots (`slot(of:)`) beside the new order. O(n + distinct keys), plus the key's ranks on first use.
    public mutating func sortedOrder(by key: Key, descending: Bool) -> SortedOrder {
        if key == .sortOrder, manualRankIsPosition, descending { return reversedOrder() }
        return sortedOrder(by: ranks(for: key), descending: descending)
    }

    /// The current order reversed, as a sort would give it: what sorting by the user's order descending gives while
    /// the user's order is the display order (`manualRankIsPosition`), where the ranks are the positions. Each
    /// array is read and written in sequence (the sort's placement reads the positions at random: a million cards
    /// took 5.9 ms, this about a fifth of that). Pending moves are settled first. O(n), split between two threads.
    mutating func reversedOrder() -> SortedOrder {
        settlePositions()
        let count = slots.count
        let last = count - 1
        return SortedOrder.written(count: count) { output in
            var counts = (ReorderDiff.SourceCounts(), ReorderDiff.SourceCounts())
            slots.withUnsafeBufferPointer { order in
                displayIDs.withUnsafeBufferPointer { displayIDs in
                    positionBase.withUnsafeBufferPointer { positions in
                        TwoThreads.run(count: count) { part in
                            let half = TwoThreads.half(part, of: count)
                            var partCounts = ReorderDiff.SourceCounts()
                            var previous = half.lowerBound > 0 ? last - (half.lowerBound - 1) : 0
                            for target in half {
                                output.order[target] = order[last - target]
                                output.sources[target] = Int32(truncatingIfNeeded: last - target)
                                output.ids[target] = displayIDs[last - target]
                                partCounts.count(last - target, at: target, after: previous, of: count)
                                previous = last - target
                            }
                            for card in half {
                                output.position[card] = Int32(truncatingIfNeeded: last) &- positions[card]
                            }
                            if part == 0 { counts.0 = partCounts } else { counts.1 = partCounts }
                        }
                    }
                }
            }
            return SortReport(counts: counts.0 + counts.1)
        }
    }

    /// A whole new order with everything that follows from it, written by a sort as it places the cards; put in
    /// place by `install(_:)`.
    public struct SortedOrder: Sendable {
        /// Display slot → card index.
        public internal(set) var order: [Int32]
        /// For each new slot, the old slot of its card (the diff's permutation).
        public internal(set) var sources: [Int32]
        /// Card index → new display slot (the inverse of `order`).
        var position: [Int32]
        /// New display slot → card id.
        public internal(set) var displayIDs: [CardID]
        /// What the diff's pass over `sources` counts, when the sort counted it as it wrote them
        /// (`ReorderDiff(sortSources:counted:)`).
        var counts: ReorderDiff.SourceCounts? = nil
        /// The checksum of `displayIDs` (the wire's), when the sort knew it (a key with distinct values:
        /// `DenseRanks.sortedChecksums`).
        public internal(set) var checksum: UInt32? = nil

        /// The diff from the order before: one longest increasing subsequence of the sources stays, every other
        /// card moves (`ReorderDiff(sortSources:)`, without its pass over the sources when they were counted).
        public var diff: ReorderDiff {
            if let counts { return ReorderDiff(sortSources: sources, counted: counts) }
            return ReorderDiff(sortSources: sources)
        }

        /// The four arrays of `count` elements, written by `place` through the `SortOutput` it is given. They start
        /// uninitialised (a sort writes every slot of each: every card is placed once, and the targets are a
        /// permutation), which spares zeroing 28 MB for a million cards; `place` must write them all.
        static func written(count: Int, _ place: (SortOutput) -> SortReport) -> SortedOrder {
            var report = SortReport()
            var sources: [Int32] = []
            var newPosition: [Int32] = []
            var newIDs: [CardID] = []
            let newOrder = [Int32](unsafeUninitializedCapacity: count) { newOrder, orderWritten in
                sources = [Int32](unsafeUninitializedCapacity: count) { sources, sourcesWritten in
                    newPosition = [Int32](unsafeUninitializedCapacity: count) { newPosition, positionsWritten in
                        newIDs = [CardID](unsafeUninitializedCapacity: count) { newIDs, idsWritten in
                            report = place(
                                SortOutput(
                                    order: SharedPointer(newOrder), sources: SharedPointer(sources),
                                    position: SharedPointer(newPosition), ids: SharedPointer(newIDs)))
                            idsWritten = count
                        }
                        positionsWritten = count
                    }
                    sourcesWritten = count
                }
                orderWritten = count
            }
            return SortedOrder(
                order: newOrder, sources: sources, position: newPosition, displayIDs: newIDs, counts: report.counts,
                checksum: report.checksum)
        }
    }

    /// What a placement learnt as it wrote a `SortedOrder`, beyond the arrays (`SortedOrder.counts`, `.checksum`).
    struct SortReport {
        var counts: ReorderDiff.SourceCounts? = nil
        var checksum: UInt32? = nil
    }

    /// `sorted(_:positions:by:descending:)` that also writes the new positions and display ids as it places the
    /// cards, reading them in card or slot order (a separate `setOrder` pass over the new order cost a sixth of a
    /// sort, reading the ids and writing the positions in random order). With distinct ranks the cards are visited
    /// by index (`placeByDistinctRanks`); otherwise a counting sort visits the old slots in order
    /// (`placeByCounting`), which keeps equal keys in their order. From `TwoThreads.minimumCount` cards each pass is
    /// split between two threads. O(n + distinct keys) work.
    static func sortedOrder(
        _ order: [Int32], positions: [Int32], ids: [CardID], displayIDs: [CardID], by ranks: DenseRanks,
        descending: Bool
    ) -> SortedOrder {
        let count = order.count
        let distinct = ranks.distinct
        guard count > 1, distinct > 0 else {
            return SortedOrder(
                order: order, sources: order.indices.map { Int32(truncatingIfNeeded: $0) }, position: positions,
                displayIDs: displayIDs)
        }
        return SortedOrder.written(count: count) { output in
            if distinct == count {
                return placeByDistinctRanks(
                    ranks, positions: positions, ids: ids, descending: descending, into: output)
            }
            return placeByCounting(order, displayIDs: displayIDs, by: ranks, descending: descending, into: output)
        }
    }

    /// Where a sort writes its result: `SortedOrder`'s four arrays while they are being built.
    struct SortOutput {
        var order: SharedPointer<Int32>
        var sources: SharedPointer<Int32>
        var position: SharedPointer<Int32>
        var ids: SharedPointer<CardID>
    }

    /// The sort when every key is distinct (titles of a generated deck, ids, a user's order): each card's rank is its
    /// new slot. With the cards of each rank at hand (`DenseRanks.cards`, kept for every cached key) the result is
    /// gathered in the new order: each new slot's card and its old slot read at random, its id in sequence (or
    /// backwards) from the key's `rankIDs`, every array written in sequence, each thread one half of the new slots
    /// and one half of the cards' new positions; the card 32 slots on is prefetched (`Prefetch`), so that the random
    /// reads' cache misses overlap (a million cards sorted by id, whose ranks follow no order: 4.8–6.5 ms without,
    /// 3.8–3.9 with it reading the ids at random too, 2.3 reading them in sequence). The gather counts the sources
    /// for the diff as it writes them, and the new order's checksum is the key's (`DenseRanks.sortedChecksums`):
    /// both come back in the report, sparing the diff and the engine a pass each. Without the cards (a user's order,
    /// whose ranks change with every move), three passes scatter: the new order and positions by halves of the
    /// cards, then the sources and the ids, one thread each (each scattering into one array: scattering into three
    /// at once took half as long again for a million cards, as the pages of three 8 MB arrays written at random
    /// outgrow the processor's address-translation cache). Gathering a million cards takes about a third of the
    /// time of scattering them. O(n).
    static func placeByDistinctRanks(
        _ ranks: DenseRanks, positions: [Int32], ids: [CardID], descending: Bool, into output: SortOutput
    ) -> SortReport {
        let count = positions.count
        let last = count - 1
        if ranks.cards.count == count, ranks.rankIDs.count == count {
            var counts = (ReorderDiff.SourceCounts(), ReorderDiff.SourceCounts())
            ranks.cards.withUnsafeBufferPointer { cards in
                ranks.ranks.withUnsafeBufferPointer { rankOf in
                    positions.withUnsafeBufferPointer { positions in
                        ranks.rankIDs.withUnsafeBufferPointer { rankIDs in
                            let positionBase = positions.baseAddress!
                            TwoThreads.run(count: count) { part in
                                let half = TwoThreads.half(part, of: count)
                                var partCounts = ReorderDiff.SourceCounts()
                                // The outputs' addresses as locals: read through the closure's context, the loop
                                // loaded each again after every store (which might have changed it).
                                let (orderOut, sourcesOut, idsOut) = (
                                    output.order.base, output.sources.base, output.ids.base
                                )
                                // The source before the half's first (read from the input: the other thread is
                                // writing it), 0 before the first slot.
                                let before = half.lowerBound &- 1
                                var previous =
                                    before < 0 ? 0 : Int(positions[Int(cards[descending ? last &- before : before])])
                                for target in half {
                                    // The card `prefetchDistance` slots on: its old slot, read at random.
                                    let ahead = target &+ Self.prefetchDistance
                                    if ahead < half.upperBound {
                                        Prefetch.read(positionBase + Int(cards[descending ? last &- ahead : ahead]))
                                    }
                                    let rank = descending ? last &- target : target
                                    let card = Int(cards[rank])
                                    let source = Int(positions[card])
                                    orderOut[target] = Int32(truncatingIfNeeded: card)
                                    sourcesOut[target] = Int32(truncatingIfNeeded: source)
                                    idsOut[target] = rankIDs[rank]
                                    partCounts.count(source, at: target, after: previous, of: count)
                                    previous = source
                                }
                                for card in half {
                                    let rank = Int(rankOf[card])
                                    output.position[card] = Int32(truncatingIfNeeded: descending ? last &- rank : rank)
                                }
                                if part == 0 { counts.0 = partCounts } else { counts.1 = partCounts }
                            }
                        }
                    }
                }
            }
            let checksum = ranks.sortedChecksums.map { descending ? $0.descending : $0.ascending }
            return SortReport(counts: counts.0 + counts.1, checksum: checksum)
        }
        ranks.ranks.withUnsafeBufferPointer { ranks in
            TwoThreads.run(count: count) { part in
                for card in TwoThreads.half(part, of: count) {
                    let rank = Int(ranks[card])
                    let target = descending ? last - rank : rank
                    output.order[target] = Int32(truncatingIfNeeded: card)
                    output.position[card] = Int32(truncatingIfNeeded: target)
                }
            }
        }
        positions.withUnsafeBufferPointer { positions in
            ids.withUnsafeBufferPointer { ids in
                TwoThreads.run(count: count) { part in
                    if part == 0 {
                        for card in 0..<count {
                            output.sources[Int(output.position[card])] = positions[card]
                        }
                    } else {
                        for card in 0..<count { output.ids[Int(output.position[card])] = ids[card] }
                    }
                }
            }
        }
        return SortReport()
    }

    /// The stable sort by ranks with repeated values: a counting sort (Seward 1954; Knuth TAOCP vol. 3, §5.2
    /// "distribution counting") over the old slots in order, in three passes that each read or write at most one
    /// array at random (one pass doing all three took 17-19 ms for a million cards and twelve keys, these 10-12):
    ///
    /// 1. each old slot's bucket (into the new positions, as scratch), counted per half of the slots;
    /// 2. the placing: each half of the slots from its own starts — the second half's cards of a bucket go after
    ///    the first half's, so equal keys keep their order — writing the new order, sources and ids;
    /// 3. the new positions, by halves of the new order.
    ///
    /// Each pass is split between two threads by halves. The placing also counts the sources for the diff
    /// (`ReorderDiff.SourceCounts`): each half writes each bucket's cards into consecutive slots, their sources
    /// rising, so every source but the first of such a run follows the one the half last wrote into that bucket; the
    /// first sources of the runs (at most two a bucket) are counted after, from the sources written. O(n + distinct
    /// keys).
    ///
    /// With at most 256 keys and their ranks as bytes (`DenseRanks.rankBytes`, the colours), the first pass reads
    /// those — a million cards' are 1 MB, which stays in the second-level cache where the four-byte ranks did not —
    /// and writes each slot's bucket into a byte array of its own (otherwise into the new positions, as scratch).
    /// The placing writes each half's cards into as many streams of three arrays as there are buckets, more than
    /// the processor's prefetcher follows: it asks for the lines two ahead of each write itself (`Prefetch.write`);
    /// the last pass prefetches the position it writes 32 slots on. A million cards by colour (twelve) after a sort
    /// by id or title, inside the server: the placement 6.1 ms → 5.3 with the byte ranks, → 3.6 with the placing's
    /// prefetches (that pass 2.8 → 1.3).
    static func placeByCounting(
        _ order: [Int32], displayIDs: [CardID], by ranks: DenseRanks, descending: Bool, into output: SortOutput
    ) -> SortReport {
        let count = order.count
        if ranks.distinct <= 256, ranks.rankBytes.count == count {
            let buckets = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: count)
            defer { buckets.deallocate() }
            return ranks.rankBytes.withUnsafeBufferPointer { rankBytes in
                placeByCounting(
                    order, displayIDs: displayIDs, ranks: rankBytes, distinct: ranks.distinct, descending: descending,
                    buckets: SharedPointer(buckets), into: output)
            }
        }
        return ranks.ranks.withUnsafeBufferPointer { ranks32 in
            placeByCounting(
                order, displayIDs: displayIDs, ranks: ranks32, distinct: ranks.distinct, descending: descending,
                buckets: output.position, into: output)
        }
    }

    /// `placeByCounting(_:displayIDs:by:descending:into:)` over `ranks` (card → rank, `distinct` values), each
    /// slot's bucket kept in `buckets` between the first two passes.
    static func placeByCounting<Rank: FixedWidthInteger, Bucket: FixedWidthInteger>(
        _ order: [Int32], displayIDs: [CardID], ranks: UnsafeBufferPointer<Rank>, distinct: Int, descending: Bool,
        buckets: SharedPointer<Bucket>, into output: SortOutput
    ) -> SortReport {
        let count = order.count
        // The two halves' counters, at least 64 bytes apart so that the threads never write one cache line.
        let stride = (distinct + 7) & ~7 + 8
        var counters = [Int](repeating: 0, count: 2 * stride)
        var report = SortReport()
        counters.withUnsafeMutableBufferPointer { counters in
            let counters = SharedPointer(counters)
            order.withUnsafeBufferPointer { order in
                TwoThreads.run(count: count) { part in
                    let counts = counters.base + part * stride
                    for slot in TwoThreads.half(part, of: count) {
                        let rank = Int(ranks[Int(order[slot])])
                        let bucket = descending ? distinct - 1 - rank : rank
                        buckets[slot] = Bucket(truncatingIfNeeded: bucket)
                        counts[bucket] += 1
                    }
                }
            }
            // Each bucket's first slot for each half: after every card of the buckets before, and for the second
            // half also after the first half's cards of its own bucket.
            var next = 0
            // Each run's first slot (each half's cards of a bucket), whose source is counted after the placing.
            var runStarts: [Int] = []
            for bucket in 0..<distinct {
                let first = counters[bucket]
                let second = counters[stride + bucket]
                counters[bucket] = next
                counters[stride + bucket] = next + first
                if first > 0 { runStarts.append(next) }
                if second > 0 { runStarts.append(next + first) }
                next += first + second
            }
            // The slot each half last placed into each bucket (−1: none yet), laid out as the counters.
            var lastSlots = [Int](repeating: -1, count: 2 * stride)
            var counts = (ReorderDiff.SourceCounts(), ReorderDiff.SourceCounts())
            lastSlots.withUnsafeMutableBufferPointer { lastSlots in
                let lastSlots = SharedPointer(lastSlots)
                order.withUnsafeBufferPointer { order in
                    displayIDs.withUnsafeBufferPointer { displayIDs in
                        TwoThreads.run(count: count) { part in
                            let starts = counters.base + part * stride
                            let lasts = lastSlots.base + part * stride
                            var partCounts = ReorderDiff.SourceCounts()
                            for slot in TwoThreads.half(part, of: count) {
                                let bucket = Int(buckets[slot])
                                let target = starts[bucket]
                                starts[bucket] = target + 1
                                // Two lines on in each array (at most its last element).
                                let ahead = Swift.min(target &+ 16, count &- 1)
                                Prefetch.write(output.order.base + ahead)
                                Prefetch.write(output.ids.base + ahead)
                                Prefetch.write(output.sources.base + Swift.min(target &+ 32, count &- 1))
                                output.order[target] = order[slot]
                                output.sources[target] = Int32(truncatingIfNeeded: slot)
                                output.ids[target] = displayIDs[slot]
                                let previous = lasts[bucket]
                                if previous >= 0 { partCounts.count(slot, at: target, after: previous, of: count) }
                                lasts[bucket] = slot
                            }
                            if part == 0 { counts.0 = partCounts } else { counts.1 = partCounts }
                        }
                    }
                }
            }
            var runCounts = ReorderDiff.SourceCounts()
            for target in runStarts {
                let previous = target > 0 ? Int(output.sources[target - 1]) : 0
                runCounts.count(Int(output.sources[target]), at: target, after: previous, of: count)
            }
            report.counts = counts.0 + counts.1 + runCounts
            TwoThreads.run(count: count) { part in
                let half = TwoThreads.half(part, of: count)
                for target in half {
                    let ahead = target &+ Self.prefetchDistance
                    if ahead < half.upperBound { Prefetch.write(output.position.base + Int(output.order[ahead])) }
                    output.position[Int(output.order[target])] = Int32(truncatingIfNeeded: target)
                }
            }
        }
        return report
    }

    /// How many elements ahead a pass that reads or writes at random prefetches (`Prefetch`): about the misses a
    /// core keeps in flight, times two.
    static let prefetchDistance = 32

    /// Puts a sort's result in place: O(1) (the arrays are taken, not copied). When the user's order was the
    /// display order, the old positions become it as they are, without a copy.
    mutating func install(_ sorted: SortedOrder) {
        settlePositions()
        if manualRankIsPosition { keepDisplayOrderAsUsersOrder() }
        slots = sorted.order
        positionBase = sorted.position
        displayIDs = sorted.displayIDs
        orderSlotWrites += sorted.order.count
        _checkInvariants()
    }

    /// Puts the cards in `newOrder`, keeping `positionBase` (settled) and `displayIDs` in step (one pass writes
    /// both). O(n).
    mutating func setOrder(_ newOrder: [Int32]) {
        // The user's order was the display order: it stays what it was.
        settlePositions()
        // (The order and ids are not kept: this pass rewrites the ids in place, which would then copy them.)
        if manualRankIsPosition { setManualRank(positionBase) }
        slots = newOrder
        newOrder.withUnsafeBufferPointer { order in
            ids.withUnsafeBufferPointer { ids in
                positionBase.withUnsafeMutableBufferPointer { position in
                    displayIDs.withUnsafeMutableBufferPointer { displayIDs in
                        for slot in order.indices {
                            let card = Int(order[slot])
                            position[card] = Int32(truncatingIfNeeded: slot)
                            displayIDs[slot] = ids[card]
                        }
                    }
                }
            }
        }
        orderSlotWrites += newOrder.count
        _checkInvariants()
    }

    /// Puts `sorted` (a `sortedOrder(by:descending:)` by `sort`'s key) in place as a scene's sort: shown on top of
    /// the user's order, which stays, and recorded. O(1) (the arrays are taken).
    public mutating func install(_ sorted: SortedOrder, sortedBy sort: Sort) {
        install(sorted)
        self.sort = sort
        record(.sort(sort), cost: sortCost)
    }

    /// A scene's sort by `sort`: sorted, put in place and recorded (`install(_:sortedBy:)`). O(n + distinct keys).
    @discardableResult
    public mutating func apply(_ sort: Sort) -> SortedOrder {
        let sorted = sortedOrder(by: sort.key, descending: sort.descending)
        install(sorted, sortedBy: sort)
        return sorted
    }

    /// A host's sort: the result becomes the user's order (sortOrder = position) and any scene sort is dropped. By a
    /// scene's key it is recorded as that scene sort and an in-place move of the first card, as a restore replays
    /// it; by `id` or `colorNumber`, as a host sort. Returns the sorted order (its sources and what the placement
    /// counted, for the change's report). O(n + distinct keys).
    @discardableResult
    public mutating func hostSort(by key: Key, descending: Bool) -> SortedOrder {
        let sorted = sortedOrder(by: key, descending: descending)
        install(sorted)
        switch key {
        case .title, .color, .sortOrder:
            record(.sort(Sort(key, descending: descending)), cost: sortCost)
            if count > 0 { move(from: 0, to: 0) }
        case .id, .colorNumber:
            makeOrderTheUsersOrder()
            sort = nil
            record(.hostSort(key, descending: descending), cost: sortCost)
        }
        return sorted
    }

    /// Puts the cards in `newOrder` (slot → card index, a permutation of the cards), which becomes the user's order;
    /// any scene sort is dropped. An arbitrary order cannot be recorded compactly: a large deck's saved state is the
    /// whole order from now on. O(n).
    public mutating func replace(with newOrder: [Int32]) {
        precondition(newOrder.count == count, "a new order of another size")
        setOrder(newOrder)
        makeOrderTheUsersOrder()
        sort = nil
        if count > Self.largeCount { journal.breakRecords() }
        _checkInvariants()
    }
}
