/// The tops of a patience sort's piles (strictly increasing), with what finds a value's lower bound among them —
/// the first pile whose top is not below it — without a mispredicted branch.
///
/// - A 16-ary tree: level 0 is the tops, level ℓ holds every 16^ℓ-th top. Entries past the last read as
///   `Int32.max`, so every count reads a whole block of 16 and needs no bounds check; counting how many of 16 keys
///   are below the value is four SSE2 comparisons and a sum. A search descends from the top level (at most 16
///   entries) to a pile: ⌈log₁₆ k⌉ counts for k piles.
/// - A hint by value: `hint[b]` is the number of level-1 entries below `b << hintShift`, for about √U buckets over
///   the values `0..<U`. From 257 piles on, one load of the hint replaces the levels above level 1: a search is
///   then two counts however many piles there are — as long as fewer than 16 level-1 entries share the value's
///   bucket, which the count itself tells (otherwise the tree is descended). Level-1 entries change on one
///   placement in 16, so keeping the hint costs little. On 100,000 shuffled values it takes an eighth off the whole
///   patience sort, on a million a sixth (the search is a chain of dependent loads; the hint shortens it).
///
/// The tree only grows: a level is added when the piles outgrow the top one, and a block is filled with
/// `Int32.max` when its first entry is appended, so a tree for n values costs O(k + √U) to keep, not O(n).
@usableFromInline
struct PileTree {
    /// How many values a batch searches before placing any (see `longestIncreasingSubsequenceLength`).
    @usableFromInline static var batch: Int { 16 }
    /// Enough levels for 16⁸ = 2³² piles.
    @usableFromInline static var maxLevels: Int { 8 }

    @usableFromInline let storage: UnsafeMutablePointer<Int32>
    /// Where each level starts in `storage`.
    @usableFromInline let levels: UnsafeMutablePointer<UnsafeMutablePointer<Int32>>
    /// Level 0: the top of each pile.
    @usableFromInline let tops: UnsafeMutablePointer<Int32>
    /// Levels 1 to 3, held apart from `levels` so that a search reads no pointer from memory.
    @usableFromInline let level1: UnsafeMutablePointer<Int32>
    @usableFromInline let level2: UnsafeMutablePointer<Int32>
    @usableFromInline let level3: UnsafeMutablePointer<Int32>
    @usableFromInline var piles = 0
    /// The levels in use: at most 16^depth piles.
    @usableFromInline var depth = 1

    /// `hint[b]`: the number of level-1 entries below `b << hintShift`, valid for `b ≤ hintTop` (above it, all), from
    /// three levels on.
    @usableFromInline let hint: UnsafeMutablePointer<Int32>
    @usableFromInline let hintShift: Int
    /// The highest bucket the hint covers (the bucket of the highest level-1 entry so far); −1 before there is one.
    @usableFromInline var hintTop = -1

    /// A tree for up to `capacity` piles of values in `0..<universe`.
    @inlinable
    init(capacity: Int, universe: Int) {
        // Level ℓ holds ⌈capacity / 16^ℓ⌉ entries, rounded up to a block, and two spare blocks: a hinted count may
        // start anywhere up to the last entry, and a block is filled one ahead.
        @inline(__always) func size(ofLevel level: Int) -> Int {
            let entries = (Swift.max(capacity, 1) &+ (1 << (4 &* level)) &- 1) >> (4 &* level)
            return ((entries &+ 15) & ~15) &+ 32
        }
        var shift = 0
        while universe >> shift > 1 && (universe >> shift) &* (universe >> shift) > universe { shift &+= 1 }
        hintShift = shift
        var total = (Swift.max(universe, 1) >> shift) &+ 1  // the hint's buckets, first
        for level in 0..<PileTree.maxLevels { total &+= size(ofLevel: level) }
        storage = .allocate(capacity: total)
        levels = .allocate(capacity: PileTree.maxLevels)
        hint = storage
        var offset = (Swift.max(universe, 1) >> shift) &+ 1
        for level in 0..<PileTree.maxLevels {
            levels[level] = storage + offset
            offset &+= size(ofLevel: level)
        }
        tops = levels[0]
        level1 = levels[1]
        level2 = levels[2]
        level3 = levels[3]
        tops.initialize(repeating: .max, count: 32)
    }

    @inlinable
    func deallocate() {
        storage.deallocate()
        levels.deallocate()
    }

    /// How many of the `4 × groups` keys at `keys` are below `value` (`groups` is 1, 2 or 4, a constant where this
    /// is inlined). Each group of four is one SSE2 comparison (`pcmpgtd`), whose lanes are −1 or 0.
    @inlinable @inline(__always)
    static func countBelow(_ value: Int32, in keys: UnsafeMutablePointer<Int32>, groups: Int = 4) -> Int {
        let raw = UnsafeRawPointer(keys)
        let splat = SIMD4<Int32>(repeating: value)
        // A mask's storage is its lanes as integers: −1 where the comparison holds, 0 elsewhere.
        func group(_ offset: Int) -> SIMD4<Int32> {
            unsafeBitCast(
                raw.loadUnaligned(fromByteOffset: offset &* 16, as: SIMD4<Int32>.self) .< splat, to: SIMD4<Int32>.self)
        }
        var sum = group(0)
        if groups >= 2 { sum &+= group(1) }
        if groups >= 4 { sum &+= group(2) &+ group(3) }
        return Int(0 &- sum.wrappedSum())
    }

    /// From the block at `base` of a level above 0, the first entry of the block below to search.
    @inlinable @inline(__always)
    static func descend(_ level: UnsafeMutablePointer<Int32>, _ base: Int, _ value: Int32) -> Int {
        (base &+ Swift.max(countBelow(value, in: level + base) &- 1, 0)) << 4
    }

    /// The number of level-1 entries (every 16th top).
    @inlinable var level1Count: Int { (piles &+ 15) >> 4 }

    /// The number of tops below `value`: the pile it goes on (`piles` when it is above every top).
    @inlinable @inline(__always)
    func lowerBound(_ value: Int32) -> Int {
        var base = 0
        if depth >= 3 {
            // Where the value's bucket starts among the level-1 entries, then 16 entries from there.
            let bucket = Int(value) >> hintShift
            let start = bucket > hintTop ? level1Count : Int(hint[bucket])
            let below = PileTree.countBelow(value, in: level1 + start)
            if below < 16 {
                base = Swift.max(start &+ below &- 1, 0) << 4
                return base &+ PileTree.countBelow(value, in: tops + base)
            }
        }
        switch depth {
        case 1:
            break
        case 2:
            base = PileTree.descend(level1, 0, value)
        case 3:
            base = PileTree.descend(level1, PileTree.descend(level2, 0, value), value)
        case 4:
            base = PileTree.descend(level1, PileTree.descend(level2, PileTree.descend(level3, 0, value), value), value)
        default:
            var level = depth &- 1
            while level > 0 {
                base = PileTree.descend(levels[level], base, value)
                level &-= 1
            }
        }
        return base &+ PileTree.countBelow(value, in: tops + base)
    }

    /// Puts `value` on `pile` — an existing pile whose top it lowers, or `piles` for a new pile.
    @inlinable @inline(__always)
    mutating func place(_ value: Int32, on pile: Int) {
        if pile & 15 != 0 {
            // 15 placements in 16: no level above 0 has an entry for this pile, and a new one is not the first of
            // its block (which is padded already).
            tops[pile] = value
            if pile == piles { piles &+= 1 }
        } else if pile != piles && depth <= 2 {
            tops[pile] = value  // a nearly reversed order lowers the first piles over and over
            if depth == 2 { level1[pile >> 4] = value }
        } else {
            placeUpdatingLevels(value, on: pile)
        }
    }

    /// `place` for the first pile of a block when it is new or the tree has three levels or more: kept out of line,
    /// so that the loop around the common case stays small.
    @inlinable @inline(never)
    mutating func placeUpdatingLevels(_ value: Int32, on pile: Int) {
        let appending = pile == piles
        if depth >= 3 {
            if appending {
                appendHint(entry: pile >> 4, value)
            } else {
                lowerHint(from: tops[pile], to: value)
            }
        }
        if appending {
            piles &+= 1
            if piles > 1 << (4 &* depth) && depth < PileTree.maxLevels {
                // A new top level, holding tops[0] until this pile's entry is written below.
                levels[depth].initialize(repeating: .max, count: 32)
                levels[depth][0] = tops[0]
                depth &+= 1
            }
            (tops + pile).initialize(repeating: .max, count: 32)
        }
        tops[pile] = value
        // Level ℓ has an entry for this pile when 16^ℓ divides it.
        var level = 1
        var index = pile
        while level < depth && index & 15 == 0 {
            index >>= 4
            let entries = levels[level]
            if appending && index & 15 == 0 { (entries + index).initialize(repeating: .max, count: 32) }
            entries[index] = value
            level &+= 1
        }
        if appending && depth == 3 && piles == 257 { buildHint() }
    }

    /// Builds `hint` from level 1, when the tree reaches three levels (from then on `place` keeps it).
    /// O(level-1 entries + buckets).
    @inlinable
    mutating func buildHint() {
        let entries = level1Count
        hintTop = Int(level1[entries &- 1]) >> hintShift
        var below = 0
        for bucket in 0...hintTop {
            let start = Int32(truncatingIfNeeded: bucket << hintShift)
            while below < entries && level1[below] < start { below &+= 1 }
            hint[bucket] = Int32(truncatingIfNeeded: below)
        }
    }

    /// Keeps `hint` true when a level-1 entry is lowered from `old` to `new`: the buckets between the two gain an
    /// entry below their start. O(1) expected on shuffled values.
    @inlinable
    mutating func lowerHint(from old: Int32, to new: Int32) {
        var bucket = (Int(new) >> hintShift) &+ 1
        let oldBucket = Swift.min(Int(old) >> hintShift, hintTop)
        while bucket <= oldBucket {
            hint[bucket] &+= 1
            bucket &+= 1
        }
    }

    /// Keeps `hint` true when level-1 entry `entry` is appended with `value`, above every other entry: the buckets
    /// above its own gain it, and buckets past the last covered one start after all the others.
    @inlinable
    mutating func appendHint(entry: Int, _ value: Int32) {
        let newBucket = Int(value) >> hintShift
        var bucket = newBucket &+ 1
        while bucket <= hintTop {
            hint[bucket] &+= 1
            bucket &+= 1
        }
        bucket = hintTop &+ 1
        while bucket <= newBucket {
            hint[bucket] = Int32(truncatingIfNeeded: entry)
            bucket &+= 1
        }
        hintTop = Swift.max(hintTop, newBucket)
    }
}
