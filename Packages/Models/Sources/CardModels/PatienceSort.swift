/// Finds one longest strictly increasing subsequence of `values` (each in `0..<universe`), marks its positions in
/// `stable` (cleared first; it must hold at least `values.count` bits) and returns its length.
/// O(n log k) for a longest length k; O(n) when the values are nearly increasing.
///
/// Patience sorting (Fredman 1975; Knuth TAOCP vol. 3, §5.1.4): each value goes on the first pile whose top is not
/// below it — its lower bound among the tops, which stay strictly increasing — and remembers the top of the pile
/// before; following those links back from the last pile spells one longest subsequence.
///
/// Two things make it fast:
/// - The lower bound is counted, not bisected, in a `PileTree`: 16 comparisons at a time, four vector operations
///   and no branch, and mostly two such counts (see `PileTree`). A bisection is a chain of mispredicted branches.
/// - Values are placed 16 at a time. Their 16 lower bounds are first searched against the tops as they stand —
///   independent searches the processor overlaps — and then the values are placed in order. Placing a value only
///   lowers a top or appends one, so a value's pile is at or after its searched one; the rare value whose pile an
///   earlier value of the batch moved steps forward to it. One value at a time, every search would wait for the
///   previous value's stores: on 100,000 shuffled values batching takes about a third off (cardistry-bench, diff).
///
/// `runsLongestIncreasingSubsequenceLength(_:markingStableIn:)` is the one-at-a-time version; it is faster on
/// values made of long rising runs, which is what a sort produces.
@inlinable
func longestIncreasingSubsequenceLength(
    _ values: UnsafeBufferPointer<Int32>, universe: Int, markingStableIn stable: inout BitSet
) -> Int {
    let count = values.count
    stable.removeAll()
    guard count > 0 else { return 0 }
    var tree = PileTree(capacity: count, universe: universe)
    // One allocation: each pile's top position (after a −1 for "no pile before the first"), each value's link to
    // the pile before, and a batch's guesses.
    let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 2 &* count &+ 1 &+ PileTree.batch)
    scratch[0] = -1
    let topPositions = scratch + 1  // the position of each pile's top; topPositions[-1] is −1
    let previous = scratch + (1 &+ count)  // each value's link: the position of the previous pile's top
    let guesses = scratch + (1 &+ 2 &* count)
    defer {
        tree.deallocate()
        scratch.deallocate()
    }
    let tops = tree.tops
    var lastPile = -1
    var lastValue = Int32.max
    var start = 0
    while start < count {
        let end = Swift.min(start &+ PileTree.batch, count)
        // 1. Every value's pile among the tops as they are now (nearly sorted values need no search).
        let piles = tree.piles
        let lastTop = piles > 0 ? tops[piles &- 1] : Int32.min
        let lastButOneTop = piles > 1 ? tops[piles &- 2] : Int32.min
        for position in start..<end {
            let value = values[position]
            let pile: Int
            if value > lastTop {
                pile = piles
            } else if value > lastButOneTop {
                pile = piles &- 1
            } else {
                pile = tree.lowerBound(value)
            }
            guesses[position &- start] = Int32(truncatingIfNeeded: pile)
        }
        // 2. Place them in order, stepping past tops that earlier values of this batch lowered or appended.
        for position in start..<end {
            let value = values[position]
            var pile = Int(guesses[position &- start])
            // Above the value placed just before, on `lastPile`: the pile is after that one (rising runs).
            let rising = 0 &- Int(truncatingIfNeeded: UInt32(bitPattern: lastValue &- value) >> 31)
            pile = Swift.max(pile, (lastPile &+ 1) & rising)
            // (No bounds check: `pile` is at most `piles`, and the top past the last pile reads as Int32.max.)
            if tops[pile] < value {
                let piles = tree.piles
                if tops[piles &- 1] < value {
                    pile = piles
                } else {
                    repeat { pile &+= 1 } while tops[pile] < value
                }
            }
            tree.place(value, on: pile)
            lastPile = pile
            lastValue = value
            topPositions[pile] = Int32(truncatingIfNeeded: position)
            previous[position] = topPositions[pile &- 1]
        }
        start = end
    }
    var position = Int(topPositions[tree.piles &- 1])
    while position >= 0 {
        stable.insert(position)
        position = Int(previous[position])
    }
    return tree.piles
}

/// The positions (into `values`) of one longest strictly increasing subsequence of `values`, ascending.
/// Any Int32 values; O(n log k) for a longest length k (O(n log n) when some are negative: they are ranked first).
package func longestIncreasingSubsequence(_ values: [Int32]) -> [Int32] {
    var ranked = values
    if let lowest = values.min(), lowest < 0 {
        // The search needs non-negative values; ranks keep every comparison the same.
        let distinct = Array(Set(values)).sorted()
        ranked = values.map { value in
            var low = 0
            var high = distinct.count
            while low < high {
                let middle = (low + high) / 2
                if distinct[middle] < value { low = middle + 1 } else { high = middle }
            }
            return Int32(low)
        }
    }
    var stable = BitSet(count: values.count)
    defer { stable.deallocate() }
    let universe = Int(ranked.max() ?? 0) + 1
    let length = ranked.withUnsafeBufferPointer {
        longestIncreasingSubsequenceLength($0, universe: universe, markingStableIn: &stable)
    }
    var result: [Int32] = []
    result.reserveCapacity(length)
    for position in values.indices where stable.contains(position) { result.append(Int32(position)) }
    return result
}
