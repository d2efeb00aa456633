extension ReorderDiff {
    /// The diff as steps applied one after another (see the type's documentation); exactly one `move` step per
    /// move, so the sequential reading is as minimal as the batch one. O(n log n).
    ///
    /// How the move indices are found: every kept key that does not move (a "stable" key) stays put, and each
    /// moved key, taken in ascending new index, is reinserted just before the next stable key in the new order.
    /// That fixes one total order of "slots" (a moved key's old slot, its new slot, each stable key) in which the
    /// array at any step is the occupied slots; a Fenwick tree over the slots counts the occupied ones before
    /// a slot, which is the index.
    public var steps: [Step] {
        // `mapping[newIndex]` is the old index there (or -1 for an insertion), from the batch reading.
        guard
            let mapping = try? applied(
                to: Array(0..<oldCount), inserting: Array(repeating: -1, count: insertions.count))
        else { return [] }
        var isMoved = [Bool](repeating: false, count: oldCount)
        for move in moves { isMoved[move.from] = true }
        var isRemoved = [Bool](repeating: false, count: oldCount)
        for index in removals { isRemoved[index] = true }

        // Stable keys in old order (which is also their new order); rank of each stable key among them.
        var stableRankOfOld = [Int](repeating: -1, count: oldCount)
        var stableCount = 0
        for index in 0..<oldCount where !isRemoved[index] && !isMoved[index] {
            stableRankOfOld[index] = stableCount
            stableCount += 1
        }
        // Block of a moved key's old slot: the number of stable keys before it in old order.
        var oldBlock = [Int](repeating: 0, count: oldCount)
        var seen = 0
        for index in 0..<oldCount {
            if stableRankOfOld[index] >= 0 { seen += 1 } else { oldBlock[index] = seen }
        }
        // Block of a moved key's new slot: the number of stable keys before it in new order.
        var newBlock = [Int](repeating: 0, count: oldCount)
        seen = 0
        for old in mapping where old >= 0 {
            if stableRankOfOld[old] >= 0 { seen += 1 } else { newBlock[old] = seen }
        }
        // Slot numbers: block k holds moved keys' old slots (old order), then new slots (new order), then stable k.
        var blockSize = [Int](repeating: 0, count: stableCount + 1)
        for move in moves {
            blockSize[oldBlock[move.from]] += 1
            blockSize[newBlock[move.from]] += 1
        }
        var blockStart = [Int](repeating: 0, count: stableCount + 2)
        for block in 0...stableCount {
            blockStart[block + 1] = blockStart[block] + blockSize[block] + (block < stableCount ? 1 : 0)
        }
        var fill = blockStart
        var oldSlot = [Int](repeating: -1, count: oldCount)
        var newSlot = [Int](repeating: -1, count: oldCount)
        for index in 0..<oldCount where isMoved[index] {
            oldSlot[index] = fill[oldBlock[index]]
            fill[oldBlock[index]] += 1
        }
        for old in mapping where old >= 0 && isMoved[old] {
            newSlot[old] = fill[newBlock[old]]
            fill[newBlock[old]] += 1
        }
        var occupied = FenwickTree(count: blockStart[stableCount + 1])
        for index in 0..<oldCount where !isRemoved[index] {
            occupied.add(isMoved[index] ? oldSlot[index] : blockStart[stableRankOfOld[index] + 1] - 1, 1)
        }

        var result: [Step] = []
        result.reserveCapacity(removals.count + moves.count + insertions.count)
        for index in removals.reversed() { result.append(.remove(at: index)) }
        for move in moves {
            let from = occupied.prefixSum(before: oldSlot[move.from])
            occupied.add(oldSlot[move.from], -1)
            let to = occupied.prefixSum(before: newSlot[move.from])
            occupied.add(newSlot[move.from], 1)
            result.append(.move(from: from, to: to))
        }
        for index in insertions { result.append(.insert(at: index)) }
        return result
    }

    /// Applies `steps` to `old`, one after another; the sequential reading's reference implementation.
    public func appliedStepByStep<Element>(to old: [Element], inserting inserted: [Element]) -> [Element] {
        var array = old
        var nextInsertion = inserted.makeIterator()
        for step in steps {
            switch step {
            case .remove(let index):
                array.remove(at: index)
            case .insert(let index):
                if let element = nextInsertion.next() { array.insert(element, at: index) }
            case .move(let from, let to):
                array.insert(array.remove(at: from), at: to)
            }
        }
        return array
    }
}

/// A Fenwick (binary indexed) tree of counts: point update and prefix sum in O(log n).
/// Fenwick, "A New Data Structure for Cumulative Frequency Tables", Software—Practice and Experience 24(3), 1994.
struct FenwickTree {
    private var tree: [Int]

    init(count: Int) {
        tree = [Int](repeating: 0, count: count + 1)
    }

    mutating func add(_ index: Int, _ delta: Int) {
        var position = index + 1
        while position < tree.count {
            tree[position] += delta
            position += position & -position
        }
    }

    /// The sum of the counts at indices `0..<index`.
    func prefixSum(before index: Int) -> Int {
        var position = index
        var sum = 0
        while position > 0 {
            sum += tree[position]
            position -= position & -position
        }
        return sum
    }
}
