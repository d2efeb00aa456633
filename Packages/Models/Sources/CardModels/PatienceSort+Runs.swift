/// Finds one longest strictly increasing subsequence of `values`, marks its positions in `stable` (which is
/// cleared first and must hold at least `values.count` bits) and returns its length — one value at a time, which
/// suits sources made of rising runs (a sort's equal keys); `longestIncreasingSubsequenceLength(_:markingStableIn:)`
/// is faster on arbitrary orders.
///
/// Patience sorting (Fredman 1975; Knuth TAOCP vol. 3, §5.1.4): pile tops are strictly increasing, and each value
/// goes on the first pile whose top is not below it. O(n log k) comparisons for a longest length k, O(n) when the
/// input is nearly increasing or made of long rising runs: a value above the last top, between the last two, or
/// just past the previous value's pile needs no search.
///
/// The search counts instead of bisecting (a bisection is a chain of dependent loads and mispredicted branches): a
/// summary holds every 32nd top, so the pile is 32·(c − 1) plus the count of tops below the value in block c − 1,
/// where c counts the summary entries below the value. Both counts are branch-free loops the compiler vectorises;
/// for more than 64 blocks the summary is bisected instead, so a search is O(log k + 32) however long the piles.
@inlinable
func runsLongestIncreasingSubsequenceLength(
    _ values: UnsafeBufferPointer<Int32>, markingStableIn stable: inout BitSet
) -> Int {
    longestIncreasingSubsequenceLength(
        values, universe: values.count, searching: RunsPatiencePiles.self, markingStableIn: &stable)
}

/// The piles of `runsLongestIncreasingSubsequenceLength`'s one-at-a-time patience sort (see it), as
/// `PatiencePiles` keeps those of the batched one. Owns its memory: `deallocate()` it.
@usableFromInline
struct RunsPatiencePiles: IncreasingPiles {
    @usableFromInline let tops: UnsafeMutableBufferPointer<Int32>  // value at the top of each pile
    @usableFromInline let topPositions: UnsafeMutableBufferPointer<Int32>  // its position in the values
    @usableFromInline let previous: UnsafeMutableBufferPointer<Int32>  // each value's link to the pile before
    @usableFromInline let count: Int

    /// The piles of `values` (at least one); `universe` is not needed.
    @inlinable
    init(_ values: UnsafeBufferPointer<Int32>, universe: Int) {
        let count = values.count
        let tops = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count + 32)
        let summary = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count / 32 + 2)  // tops[0], tops[32], …
        let topPositions = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
        let previous = UnsafeMutableBufferPointer<Int32>.allocate(capacity: count)
        defer { summary.deallocate() }
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
            } else if value > lastValue,
                let near = gallop(value, from: lastPile, tops: tops.baseAddress!, piles: piles)
            {
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
        self.tops = tops
        self.topPositions = topPositions
        self.previous = previous
        self.count = piles
    }

    @inlinable func top(_ pile: Int) -> Int32 { tops[pile] }

    @inlinable
    func forEachPosition(endingOnPile pile: Int, _ body: (Int) -> Void) {
        var position = Int(topPositions[pile])
        while position >= 0 {
            body(position)
            position = Int(previous[position])
        }
    }

    @inlinable
    func deallocate() {
        tops.deallocate()
        topPositions.deallocate()
        previous.deallocate()
    }
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
