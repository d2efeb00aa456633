/// The difference between two orders of unique keys: removals, insertions, and the **minimal** set of moves.
///
/// The number of moves is the number of keys present in both orders minus the length of the longest increasing
/// subsequence of their old positions taken in new order: every key outside one longest such subsequence must
/// move, and moving exactly those suffices.
///
/// A diff can be read in two ways, and both give the new order:
/// - **As one batch update** (UIKit's `performBatchUpdates` semantics): `removals` are indices in the old order,
///   `insertions` are indices in the new order, and each move takes the key at old index `from` to new index `to`.
///   Keys that are neither removed nor moved keep their relative order and fill the remaining new slots. This is
///   what `applied(to:inserting:)` and `Deck.apply(_:inserting:)` do.
/// - **As steps applied one after another** (`steps`): removals from the highest old index down, then one
///   `move(from:to:)` per moved key (each index valid in the array as it is at that step, `to` counted after the
///   key's removal, as `Array.remove` then `Array.insert`), then insertions from the lowest new index up.
public struct ReorderDiff: Sendable, Hashable, Codable {
    /// One key's move: from its index in the old order to its index in the new order (batch reading).
    /// In JSON a move is the pair `[from, to]`.
    public struct Move: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The key's index in the old order.
        public var from: Int
        /// The key's index in the new order.
        public var to: Int

        /// A move of the key at old index `from` to new index `to`.
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }

        public var description: String { "\(from)→\(to)" }

        public init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            from = try container.decode(Int.self)
            to = try container.decode(Int.self)
            guard container.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a move is [from, to]")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(from)
            try container.encode(to)
        }
    }

    /// One step of the sequential reading.
    public enum Step: Sendable, Hashable, CustomStringConvertible {
        /// Remove the element at this index of the current array.
        case remove(at: Int)
        /// Insert the next inserted element (in the order of `insertions`) at this index of the current array.
        case insert(at: Int)
        /// Remove the element at `from`, then insert it at `to` (both indices of the array at that moment).
        case move(from: Int, to: Int)

        public var description: String {
            switch self {
            case .remove(let index): "remove(\(index))"
            case .insert(let index): "insert(\(index))"
            case .move(let from, let to): "move(\(from)→\(to))"
            }
        }
    }

    /// The length of the old order.
    public var oldCount: Int
    /// The length of the new order.
    public var newCount: Int
    /// Old indices of keys that are not in the new order, ascending.
    public var removals: [Int]
    /// New indices of keys that were not in the old order, ascending.
    public var insertions: [Int]
    /// The moves, ascending by `to`. A diff computed from a permutation's sources (`init(permutation:)`,
    /// `init(sortSources:)`) builds them on their first read, O(n) once (after the search a sort's diff defers:
    /// `init(sortSources:counted:)`): `moveCount` counts them without that.
    public var moves: [Move] {
        get { moveList.moves }
        set { moveList = MoveList(newValue) }
    }

    /// The number of moves (`moves.count`), without building a deferred list of them. O(1), except the first read
    /// of a sort's diff (`init(sortSources:counted:)`), which searches the slots that stay: O(n log k).
    public var moveCount: Int { moveList.count }

    /// The fewest and the most moves the diff can have, known without a search: `moveCount...moveCount` once the
    /// count is known; for a sort's diff before the first read of `moveCount` or `moves`, what the sort's pass over
    /// its sources proved (at least one move). O(1).
    public var moveCountBounds: ClosedRange<Int> { moveList.countBounds }

    /// The moves, or what builds them (`MoveList`).
    @usableFromInline var moveList: MoveList

    /// A diff from its parts, taken as given (not validated); to compute one, use `init(from:to:)`.
    public init(oldCount: Int, newCount: Int, removals: [Int], insertions: [Int], moves: [Move]) {
        self.init(
            oldCount: oldCount, newCount: newCount, removals: removals, insertions: insertions,
            moveList: MoveList(moves))
    }

    /// A diff from its parts, the moves as a `MoveList`.
    init(oldCount: Int, newCount: Int, removals: [Int], insertions: [Int], moveList: MoveList) {
        self.oldCount = oldCount
        self.newCount = newCount
        self.removals = removals
        self.insertions = insertions
        self.moveList = moveList
    }

    /// Whether the two orders were the same.
    public var isEmpty: Bool { removals.isEmpty && insertions.isEmpty && moveList.isEmpty }

    /// Applies the diff as one batch update to `old`, taking inserted elements from `inserted` in order. O(n).
    /// Throws `ModelError.diffMismatch` when the diff does not fit (wrong sizes, an index out of range, a slot
    /// filled twice).
    public func applied<Element>(to old: [Element], inserting inserted: [Element]) throws(ModelError) -> [Element] {
        guard old.count == oldCount else { throw .diffMismatch("made for \(oldCount) elements, got \(old.count)") }
        guard inserted.count == insertions.count else {
            throw .diffMismatch("\(insertions.count) insertions but \(inserted.count) elements to insert")
        }
        guard oldCount - removals.count + insertions.count == newCount else {
            throw .diffMismatch("\(oldCount) − \(removals.count) removals + \(insertions.count) ≠ \(newCount)")
        }
        var result = [Element?](repeating: nil, count: newCount)
        var taken = [Bool](repeating: false, count: oldCount)
        for index in removals {
            guard (0..<oldCount).contains(index), !taken[index] else { throw .diffMismatch("bad removal \(index)") }
            taken[index] = true
        }
        for move in moves {
            guard (0..<oldCount).contains(move.from), !taken[move.from], (0..<newCount).contains(move.to),
                result[move.to] == nil
            else { throw .diffMismatch("bad move \(move)") }
            taken[move.from] = true
            result[move.to] = old[move.from]
        }
        for (element, index) in zip(inserted, insertions) {
            guard (0..<newCount).contains(index), result[index] == nil else {
                throw .diffMismatch("bad insertion \(index)")
            }
            result[index] = element
        }
        var cursor = 0
        for slot in 0..<newCount where result[slot] == nil {
            while cursor < oldCount && taken[cursor] { cursor += 1 }
            guard cursor < oldCount else { throw .diffMismatch("not enough elements to fill new slot \(slot)") }
            result[slot] = old[cursor]
            cursor += 1
        }
        return result.map { $0! }
    }
}
