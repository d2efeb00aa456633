import Synchronization

extension ReorderDiff {
    /// A diff's moves: an array, or — for a diff computed from a permutation's sources — the sources and the slots
    /// that stay, from which the array is built on its first read, once.
    ///
    /// A million-card sort moves nearly every card: its moves are a 16 MB array whose writing took 0.7 ms of the
    /// sort on two threads, and the stdio server then sends the sources instead and reads only the count
    /// (`ReorderDiff.moveCount`). Deferred, the array is built only for a reader that wants it (a recording, a test,
    /// a host of the Swift package); the count is known without it.
    @usableFromInline
    struct MoveList: Sendable {
        @usableFromInline
        enum Storage: Sendable {
            case array([Move])
            case deferred(DeferredMoves)
        }

        @usableFromInline var storage: Storage

        /// The moves `moves`. O(1).
        @usableFromInline
        init(_ moves: [Move]) { storage = .array(moves) }

        /// The moves of `sources` (a permutation: `sources[i]` is the old slot of new slot i) whose slots are not in
        /// `stable`, `count` of them, built when first read. O(n / 64) now (the set's words are copied).
        init(sources: [Int32], stable: BitSet, count: Int) {
            storage = .deferred(DeferredMoves(sources: sources, stable: stable, count: count))
        }

        /// The number of moves, without building them. O(1).
        @usableFromInline var count: Int {
            switch storage {
            case .array(let moves): moves.count
            case .deferred(let deferred): deferred.count
            }
        }

        /// Whether the moves are still to be built (tests read it). O(1).
        var isUnbuilt: Bool {
            if case .deferred(let deferred) = storage { return !deferred.isBuilt }
            return false
        }

        /// The moves, ascending by `to`: built on the first read of a deferred list (O(n), split between two
        /// threads from `TwoThreads.minimumCount` slots), then kept.
        @usableFromInline var moves: [Move] {
            switch storage {
            case .array(let moves): moves
            case .deferred(let deferred): deferred.moves
            }
        }
    }

    /// The sources and stable slots a deferred `MoveList` builds its moves from, and the moves once built.
    @usableFromInline
    final class DeferredMoves: Sendable {
        /// For each new slot, the old slot of its card.
        let sources: [Int32]
        /// The slots that stay, one bit each (a copy of the search's set).
        let stableWords: [UInt64]
        /// The number of slots not in `stableWords`.
        @usableFromInline let count: Int
        /// The moves, once built.
        private let built = Mutex<[Move]?>(nil)

        init(sources: [Int32], stable: BitSet, count: Int) {
            self.sources = sources
            stableWords = Array(stable.words.prefix((sources.count + 63) >> 6))
            self.count = count
        }

        /// The moves: every slot not in `stableWords`, from its source. Built on the first read (the lock held, so
        /// that concurrent readers build them once), O(n).
        @usableFromInline var moves: [Move] {
            built.withLock { built in
                if let built { return built }
                let moves = build()
                built = moves
                return moves
            }
        }

        /// Whether the moves have been built.
        var isBuilt: Bool { built.withLock { $0 != nil } }

        /// The moves by halves: the first half's from 0, the second half's after the moves before the middle.
        private func build() -> [Move] {
            let slots = sources.count
            guard count > 0 else { return [] }
            let middle = slots / 2
            var movesBefore = middle
            for word in 0..<(middle >> 6) { movesBefore &-= stableWords[word].nonzeroBitCount }
            for index in (middle & ~63)..<middle where isStable(index) { movesBefore &-= 1 }
            return [Move](unsafeUninitializedCapacity: count) { storage, initialized in
                let storage = storage.baseAddress!
                sources.withUnsafeBufferPointer { sources in
                    TwoThreads.run(count: slots) { part in
                        var written = part == 0 ? 0 : movesBefore
                        for index in TwoThreads.half(part, of: slots) where !isStable(index) {
                            (storage + written).initialize(to: Move(from: Int(sources[index]), to: index))
                            written &+= 1
                        }
                    }
                }
                initialized = count
            }
        }

        @inline(__always)
        private func isStable(_ slot: Int) -> Bool {
            stableWords[slot >> 6] & (1 << UInt64(slot & 63)) != 0
        }
    }
}

extension ReorderDiff {
    public static func == (lhs: ReorderDiff, rhs: ReorderDiff) -> Bool {
        lhs.oldCount == rhs.oldCount && lhs.newCount == rhs.newCount && lhs.removals == rhs.removals
            && lhs.insertions == rhs.insertions && lhs.moveCount == rhs.moveCount && lhs.moves == rhs.moves
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(oldCount)
        hasher.combine(newCount)
        hasher.combine(removals)
        hasher.combine(insertions)
        hasher.combine(moves)
    }

    private enum CodingKeys: String, CodingKey {
        case oldCount, newCount, removals, insertions, moves
    }

    /// Decodes `{oldCount, newCount, removals, insertions, moves}` (each move `[from, to]`), the keys in the order
    /// the compiler's own conformance used.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            oldCount: try container.decode(Int.self, forKey: .oldCount),
            newCount: try container.decode(Int.self, forKey: .newCount),
            removals: try container.decode([Int].self, forKey: .removals),
            insertions: try container.decode([Int].self, forKey: .insertions),
            moves: try container.decode([Move].self, forKey: .moves))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(oldCount, forKey: .oldCount)
        try container.encode(newCount, forKey: .newCount)
        try container.encode(removals, forKey: .removals)
        try container.encode(insertions, forKey: .insertions)
        try container.encode(moves, forKey: .moves)
    }
}
