extension DeckOrder {
    /// Dense ranks of the sort keys by card index (equal keys share a rank), each computed on first use. A value
    /// whose arrays are shared: a cached generated deck hands its ranks to every order made of it (opaque outside
    /// CardModels).
    public struct Ranks: Sendable, Hashable {
        var title: DenseRanks?
        var color: DenseRanks?
        /// Ranks of the sortOrder the cards were given (before any manual reorder).
        var givenSortOrder: DenseRanks?
        /// Ranks of the colour as the number 0xRRGGBB (a host's sort by colour).
        var colorNumber: DenseRanks?
        var id: DenseRanks?

        /// No ranks computed yet.
        public init() {}
    }

    /// The dense ranks for `key`, computing and caching them on first use (titles: a comparison sort, colours: their
    /// few distinct values, given sortOrders: a counting pass, ids: a radix sort — each O(n) but the titles'
    /// O(n log n); sortOrder after a manual reorder: the user's ranks themselves, with the user's order as the card
    /// of each rank when it is kept, so that the sort gathers). `prepareRanks()` computes them all for a large deck.
    mutating func ranks(for key: Key) -> DenseRanks {
        switch key {
        case .title:
            return cached(\.title) {
                $0.base.isAsGenerated ? $0.generatedRanks() : $0.indexed(Self.titleRanks($0.base))
            }
        case .color:
            return cached(\.color) { Self.colorRanks($0.base).compacted() }
        case .sortOrder:
            settlePositions()
            if let manualRank {
                var ranks = DenseRanks(ranks: manualRank, distinct: manualRank.count)
                if let usersOrder = manualRankIsPosition ? (slots, displayIDs) : storedManualOrder {
                    ranks.cards = usersOrder.order
                    ranks.rankIDs = usersOrder.ids
                }
                return ranks
            }
            return cached(\.givenSortOrder) {
                $0.base.isAsGenerated ? $0.generatedRanks() : $0.indexed(Self.givenSortOrderRanks($0.base))
            }
        case .id:
            // Generated ids are random 64-bit values: no order can be assumed, so a radix sort of them.
            return cached(\.id) { $0.indexed(DenseRanks(sortedBy: $0.ids.map { $0.rawValue })) }
        case .colorNumber:
            return cached(\.colorNumber) { Self.colorRanks($0.base) { $0 }.compacted() }
        }
    }

    /// The ranks cached at `path`, made by `make` and cached on first use.
    private mutating func cached(
        _ path: WritableKeyPath<Ranks, DenseRanks?>, _ make: (DeckOrder) -> DenseRanks
    ) -> DenseRanks {
        if let ranks = keyRanks[keyPath: path] { return ranks }
        let ranks = make(self)
        keyRanks[keyPath: path] = ranks
        return ranks
    }

    /// `ranks` with the card and id of each rank and the sorted orders' checksums, when every key is distinct
    /// (`DenseRanks.indexedByRank(ids:checksum:)`).
    private func indexed(_ ranks: DenseRanks) -> DenseRanks {
        ranks.indexedByRank(ids: ids, checksum: checksum)
    }

    /// The ranks of a generated deck's titles and given sortOrders (`Deck.isAsGenerated`): both the identity, as
    /// `DeckGenerator` makes them, with the cards by rank the identity and the ids by rank the ids themselves (shared,
    /// not gathered). One key's computed ranks serve the other. O(n): the identity and the two checksums.
    private func generatedRanks() -> DenseRanks {
        if let known = keyRanks.title ?? keyRanks.givenSortOrder { return known }
        let identity = (0..<Int32(truncatingIfNeeded: count)).map { $0 }
        var ranks = DenseRanks(ranks: identity, distinct: count)
        guard count > 1 else { return ranks }
        ranks.cards = identity
        ranks.rankIDs = ids
        ranks.sortedChecksums = (checksum(ids), checksum(Array(ids.reversed())))
        return ranks
    }

    /// Computes the ranks of every key (the given sortOrder's only while the user's order is the given one), so that
    /// even the first sort of a large deck by any key costs only the sort. For a generated million-card deck the ids'
    /// radix sort is the largest part (its titles and sortOrders are known, `generatedRanks()`); other titles take
    /// a comparison sort. (Ranking the ids on a second thread meanwhile made a reopening in a new process slower
    /// with the machine busy: 444 against 328 ms median, issue 48.)
    mutating func prepareRanks() {
        let hasManualRank = manualRankIsPosition || storedManualRank != nil
        for key in Key.allCases where key != .sortOrder || !hasManualRank { _ = ranks(for: key) }
    }

    static func titleRanks(_ deck: Deck) -> DenseRanks {
        deck.cards.withUnsafeBufferPointer { cards in DenseRanks(titles: cards.count) { cards[$0].title } }
    }

    static func colorRanks(_ deck: Deck) -> DenseRanks {
        colorRanks(deck) { packed in
            hueKey(RGBColor(red: UInt8(packed >> 16), green: UInt8((packed >> 8) & 0xFF), blue: UInt8(packed & 0xFF)))
        }
    }

    /// The ranks of the cards' colours by `key` of their packed `0xRRGGBB`: only the few distinct colours are keyed
    /// and compared (`DenseRanks(count:value:key:)`). O(n + d log d).
    static func colorRanks<Key: Comparable>(_ deck: Deck, by key: (UInt32) -> Key) -> DenseRanks {
        deck.cards.withUnsafeBufferPointer { cards in
            DenseRanks(
                count: cards.count,
                value: { index in
                    let color = cards[index].color
                    return UInt32(color.red) << 16 | UInt32(color.green) << 8 | UInt32(color.blue)
                }, key: key)
        }
    }

    static func givenSortOrderRanks(_ deck: Deck) -> DenseRanks {
        DenseRanks(integers: deck.cards.map(\.sortOrder))
    }

    /// The hue-first key of a colour (`Key.color`): hue in 0…360 (greys first, below 0, by lightness), then
    /// lightness.
    public static func hueKey(_ color: RGBColor) -> Double {
        let red = Double(color.red) / 255
        let green = Double(color.green) / 255
        let blue = Double(color.blue) / 255
        let high = max(red, green, blue)
        let low = min(red, green, blue)
        let chroma = high - low
        let lightness = (high + low) / 2
        guard chroma > 1e-9 else { return -1 + lightness / 2 }
        var hue: Double
        if high == red {
            hue = (green - blue) / chroma
        } else if high == green {
            hue = (blue - red) / chroma + 2
        } else {
            hue = (red - green) / chroma + 4
        }
        hue = (hue * 60).truncatingRemainder(dividingBy: 360)
        if hue < 0 { hue += 360 }
        return hue * 1000 + lightness
    }
}
