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
    longestIncreasingSubsequenceLength(
        values, universe: universe, searching: PatiencePiles.self, markingStableIn: &stable)
}

/// One longest strictly increasing subsequence of `values` by the search `Piles`, on this thread: its positions
/// marked in `stable` (cleared first), its length returned. O(n log k) for a longest length k.
@inlinable
func longestIncreasingSubsequenceLength<Piles: IncreasingPiles>(
    _ values: UnsafeBufferPointer<Int32>, universe: Int, searching: Piles.Type, markingStableIn stable: inout BitSet
) -> Int {
    stable.removeAll()
    guard !values.isEmpty else { return 0 }
    let piles = Piles(values, universe: universe)
    defer { piles.deallocate() }
    piles.forEachPosition(endingOnPile: piles.count &- 1) { stable.insert($0) }
    return piles.count
}

/// `longestIncreasingSubsequenceLength(_:universe:markingStableIn:)` split between two threads
/// (`TwoThreads`): the first half of `values` patience-sorted forwards on one, the second half backwards on the
/// other (as the mirrored values `universe − 1 − v` in reverse, whose increasing subsequences are the second half's
/// read backwards), then joined at the best threshold. Same length; possibly another subsequence of it.
///
/// A subsequence splits into a part in the first half below some threshold t and a part in the second half at or
/// above it. After the forward sort, the first half's longest subsequence below t is the number of pile tops below
/// t (the tops are the least last values of each length); after the backward sort, the second half's longest one at
/// or above t is the number of its piles whose first value (the greatest one starting each length) is at least t.
/// The sum only needs trying at t = 0 and just above each forward top: O(k) for k piles, after two O(n/2 log k)
/// sorts at once. The subsequence is the forward piles' links from the chosen pile, then the backward ones'.
///
/// `Piles` is the search: `PatiencePiles` (batched, for arbitrary orders) or `RunsPatiencePiles` (for rising
/// runs; mirrored and reversed, runs stay runs). Below `TwoThreads.minimumCount` values the search runs on this
/// thread over all of them.
func splitLongestIncreasingSubsequenceLength<Piles: IncreasingPiles>(
    _ values: UnsafeBufferPointer<Int32>, universe: Int, searching: Piles.Type, markingStableIn stable: inout BitSet
) -> Int {
    let count = values.count
    guard count >= TwoThreads.minimumCount, let base = values.baseAddress else {
        return longestIncreasingSubsequenceLength(
            values, universe: universe, searching: Piles.self, markingStableIn: &stable)
    }
    stable.removeAll()
    let middle = count / 2
    let backCount = count - middle
    let mirrored = UnsafeMutablePointer<Int32>.allocate(capacity: backCount)
    defer { mirrored.deallocate() }
    var front: Piles?
    var back: Piles?
    TwoThreads.run(count: count) { part in
        if part == 0 {
            front = Piles(UnsafeBufferPointer(start: base, count: middle), universe: universe)
        } else {
            let highest = Int32(truncatingIfNeeded: universe &- 1)
            for index in 0..<backCount { mirrored[index] = highest &- base[count &- 1 &- index] }
            back = Piles(UnsafeBufferPointer(start: mirrored, count: backCount), universe: universe)
        }
    }
    guard let front, let back else { preconditionFailure("both halves are sorted") }
    defer {
        front.deallocate()
        back.deallocate()
    }
    // Threshold 0: the second half's longest alone. Then t = front top + 1: the first i + 1 forward piles, and the
    // backward piles whose mirrored top is at most universe − 1 − t (their count only falls as t rises).
    var best = back.count
    var (frontPiles, backPiles) = (0, back.count)
    var backBelow = back.count
    for pile in 0..<front.count {
        let limit = Int64(universe) &- 2 &- Int64(front.top(pile))
        while backBelow > 0 && Int64(back.top(backBelow &- 1)) > limit { backBelow &-= 1 }
        if pile &+ 1 &+ backBelow > best {
            best = pile &+ 1 &+ backBelow
            (frontPiles, backPiles) = (pile &+ 1, backBelow)
        }
    }
    if frontPiles > 0 { front.forEachPosition(endingOnPile: frontPiles &- 1) { stable.insert($0) } }
    if backPiles > 0 { back.forEachPosition(endingOnPile: backPiles &- 1) { stable.insert(count &- 1 &- $0) } }
    return best
}

/// What a patience sort leaves, for `splitLongestIncreasingSubsequenceLength`: the piles' tops (strictly
/// increasing) and, for each pile, an increasing subsequence ending at its top.
@usableFromInline
protocol IncreasingPiles {
    /// Sorts `values` (at least one, each in `0..<universe`) into piles.
    init(_ values: UnsafeBufferPointer<Int32>, universe: Int)
    /// The number of piles: the longest increasing subsequence's length.
    var count: Int { get }
    /// The value on top of `pile`: the least last value of an increasing subsequence of length `pile + 1`.
    func top(_ pile: Int) -> Int32
    /// Calls `body` with the positions of an increasing subsequence of length `pile + 1` ending at `pile`'s top,
    /// last first. O(pile).
    func forEachPosition(endingOnPile pile: Int, _ body: (Int) -> Void)
    /// Frees the piles' memory.
    func deallocate()
}

/// The piles a patience sort of `values` leaves (see `longestIncreasingSubsequenceLength`): each pile's top, and
/// for every value the position of the previous pile's top when it was placed, which spells an increasing
/// subsequence of length p + 1 ending at pile p's top. Owns its memory: `deallocate()` it.
@usableFromInline
struct PatiencePiles: IncreasingPiles {
    @usableFromInline var tree: PileTree
    /// Each pile's top position (after a −1 for "no pile before the first"), then each value's link.
    @usableFromInline let scratch: UnsafeMutablePointer<Int32>
    @usableFromInline let valueCount: Int

    /// The piles of `values` (at least one), each in `0..<universe`. O(n log k) for k piles.
    @inlinable
    init(_ values: UnsafeBufferPointer<Int32>, universe: Int) {
        let count = values.count
        var tree = PileTree(capacity: count, universe: universe)
        // One allocation: each pile's top position (after a −1 for "no pile before the first"), each value's link
        // to the pile before, and a batch's guesses.
        let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 2 &* count &+ 1 &+ PileTree.batch)
        scratch[0] = -1
        let topPositions = scratch + 1  // the position of each pile's top; topPositions[-1] is −1
        let previous = scratch + (1 &+ count)  // each value's link: the position of the previous pile's top
        let guesses = scratch + (1 &+ 2 &* count)
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
        self.tree = tree
        self.scratch = scratch
        valueCount = count
    }

    /// The number of piles: the longest increasing subsequence's length.
    @inlinable var count: Int { tree.piles }

    /// The value on top of `pile`: the least last value of an increasing subsequence of length `pile + 1`.
    @inlinable func top(_ pile: Int) -> Int32 { tree.tops[pile] }

    /// Calls `body` with the positions of an increasing subsequence of length `pile + 1` ending at `pile`'s top,
    /// last first. O(pile).
    @inlinable
    func forEachPosition(endingOnPile pile: Int, _ body: (Int) -> Void) {
        var position = Int(scratch[1 &+ pile])
        while position >= 0 {
            body(position)
            position = Int(scratch[1 &+ valueCount &+ position])
        }
    }

    @inlinable
    func deallocate() {
        tree.deallocate()
        scratch.deallocate()
    }
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
