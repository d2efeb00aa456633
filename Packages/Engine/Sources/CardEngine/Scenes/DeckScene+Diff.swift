import CardModels

extension DeckScene {
    /// The minimal reorder diff of a permutation, given for each new slot the old slot of the card now there.
    ///
    /// A sort knows where every card came from, so the id matching a general diff does with a hash table is not
    /// needed: the cards that stay are one longest increasing subsequence of `sources` and every other card is a
    /// move (the same count as `ReorderDiff(from:to:)`, which may pick another subsequence of equal length).
    /// Patience sorting with predecessor links (Fredman 1975; Knuth TAOCP vol. 3 §5.1.4): O(n log k) for a longest
    /// run k, O(n) when the sources mostly rise (a value above the last pile top is appended without a search).
    /// A sort's sources are rising runs (one per key), so inside a run the search gallops forward from the previous
    /// element's pile (exponential then binary search), O(log distance) instead of O(log k).
    static func permutationDiff(sources: [Int32]) -> ReorderDiff {
        let count = sources.count
        guard count > 1 else {
            return ReorderDiff(oldCount: count, newCount: count, removals: [], insertions: [], moves: [])
        }
        var moves: [ReorderDiff.Move] = []
        sources.withUnsafeBufferPointer { sources in
            let previous = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
            let tops = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
            let topValues = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
            defer {
                previous.deallocate()
                tops.deallocate()
                topValues.deallocate()
            }
            var piles = 0
            var lastPile = -1
            var lastValue = Int32.min
            for index in 0..<count {
                let value = sources[index]
                var pile = piles
                if piles > 0 && value <= topValues[piles &- 1] {
                    // The first pile whose top is not below `value`. Within a rising run (a sort's equal keys) it
                    // lies past the previous element's pile, usually just past it: gallop from there.
                    var low = 0
                    var high = piles &- 1
                    if value > lastValue {
                        low = lastPile &+ 1
                        var step = 1
                        while low &+ step < high && topValues[low &+ step] < value {
                            low &+= step
                            step <<= 1
                        }
                        if topValues[low] >= value {
                            high = low
                        } else {
                            high = Swift.min(high, low &+ step)
                        }
                    }
                    while low < high {
                        let middle = (low &+ high) >> 1
                        if topValues[middle] < value { low = middle &+ 1 } else { high = middle }
                    }
                    pile = low
                } else {
                    piles &+= 1
                }
                previous[index] = pile > 0 ? tops[pile &- 1] : -1
                tops[pile] = Int32(truncatingIfNeeded: index)
                topValues[pile] = value
                lastPile = pile
                lastValue = value
            }
            // Walk one longest subsequence back from the last pile, marking its members in `previous` as −2.
            var cursor = Int(tops[piles &- 1])
            while cursor >= 0 {
                let next = Int(previous[cursor])
                previous[cursor] = -2
                cursor = next
            }
            moves.reserveCapacity(count &- piles)
            for index in 0..<count where previous[index] != -2 {
                moves.append(ReorderDiff.Move(from: Int(sources[index]), to: index))
            }
        }
        return ReorderDiff(oldCount: count, newCount: count, removals: [], insertions: [], moves: moves)
    }
}
