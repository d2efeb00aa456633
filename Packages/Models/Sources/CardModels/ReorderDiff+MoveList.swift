import Synchronization

extension ReorderDiff {
    /// A diff's moves: an array, or — for a diff computed from a permutation's sources — the sources, from which the
    /// slots that stay are searched and the array is built when first needed, once each.
    ///
    /// A million-card sort moves nearly every card: its moves are a 16 MB array whose writing took 0.7 ms of the
    /// sort on two threads, and the stdio server then sends the sources instead and reads only the count
    /// (`ReorderDiff.moveCount`). Deferred, the array is built only for a reader that wants it (a recording, a test,
    /// a host of the Swift package); the count is known without it. A sort's diff (`init(sortSources:counted:)`)
    /// defers the search for the slots that stay as well — a longest increasing subsequence of the sources, 5 ms of
    /// a million-card sort on two threads — to the first read of `moveCount` or `moves`: the stdio server sends the
    /// sources first and reads the count while they travel (`moveCountBounds` tells it, from the sort's own pass,
    /// whether the sources are the shorter form).
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
        /// `stable`, `count` of them (at least one), built when first read. O(n / 64) now (the set's words are
        /// copied).
        init(sources: [Int32], stable: BitSet, count: Int) {
            storage = .deferred(DeferredMoves(sources: sources, stable: stable, count: count))
        }

        /// The moves of `sources`, a permutation other than the identity with `farSteps` far steps
        /// (`ReorderDiff.farStep`) and at least `leastCount` moves: the slots that stay are searched when the count
        /// or the moves are first read, the moves built when first read. O(1) now.
        init(searching sources: [Int32], farSteps: Int, leastCount: Int) {
            storage = .deferred(DeferredMoves(sources: sources, farSteps: farSteps, leastCount: leastCount))
        }

        /// The number of moves, without building them (a deferred search runs first: O(n log k) once). O(1) after.
        @usableFromInline var count: Int {
            switch storage {
            case .array(let moves): moves.count
            case .deferred(let deferred): deferred.count
            }
        }

        /// The fewest and the most moves there can be, without a search: the count itself once known. O(1).
        var countBounds: ClosedRange<Int> {
            switch storage {
            case .array(let moves): moves.count...moves.count
            case .deferred(let deferred): deferred.countBounds
            }
        }

        /// Whether there are no moves. O(1): a deferred list has at least one.
        @usableFromInline var isEmpty: Bool {
            switch storage {
            case .array(let moves): moves.isEmpty
            case .deferred: false
            }
        }

        /// Whether the moves are still to be built (tests read it). O(1).
        var isUnbuilt: Bool {
            if case .deferred(let deferred) = storage { return !deferred.isBuilt }
            return false
        }

        /// Whether the slots that stay are still to be searched (tests read it). O(1).
        var isUnsearched: Bool {
            if case .deferred(let deferred) = storage { return !deferred.isSearched }
            return false
        }

        /// The moves, ascending by `to`: built on the first read of a deferred list (O(n), split between two
        /// threads from `TwoThreads.minimumCount` slots, after the search if it has not run), then kept.
        @usableFromInline var moves: [Move] {
            switch storage {
            case .array(let moves): moves
            case .deferred(let deferred): deferred.moves
            }
        }
    }

    /// The sources a deferred `MoveList` searches and builds its moves from, the slots that stay once searched, and
    /// the moves once built.
    @usableFromInline
    final class DeferredMoves: Sendable {
        /// What the search found: the slots that stay, one bit each, and the number of the others (the moves).
        struct Searched {
            let stableWords: [UInt64]
            let count: Int
        }

        /// What the list knows after its search and its build.
        struct State {
            /// The search's result; nil before the search.
            var searched: Searched?
            /// The moves, once built.
            var moves: [Move]?
        }

        /// For each new slot, the old slot of its card.
        let sources: [Int32]
        /// The sources' far steps, which choose the search.
        private let farSteps: Int
        /// The fewest moves the sources can have (the count itself when searched at creation).
        private let leastCount: Int
        private let state: Mutex<State>

        /// Searched already: `stable` holds the slots that stay (copied), `count` is the number of the others.
        init(sources: [Int32], stable: BitSet, count: Int) {
            precondition(count > 0, "a deferred list has moves")
            self.sources = sources
            farSteps = 0
            leastCount = count
            state = Mutex(
                State(
                    searched: Searched(
                        stableWords: Array(stable.words.prefix((sources.count + 63) >> 6)), count: count),
                    moves: nil))
        }

        /// To be searched: `sources` is a permutation other than the identity, with `farSteps` far steps and at
        /// least `leastCount` moves.
        init(sources: [Int32], farSteps: Int, leastCount: Int) {
            precondition(leastCount > 0 && leastCount < sources.count, "a permutation with moves")
            self.sources = sources
            self.farSteps = farSteps
            self.leastCount = leastCount
            state = Mutex(State(searched: nil, moves: nil))
        }

        /// The number of moves: searched on the first read (the lock held, so that concurrent readers search
        /// once), O(n log k) then; O(1) when the bounds already say it (a reversal).
        @usableFromInline var count: Int {
            // All but one slot move (a reversal): no search needed to count them.
            if leastCount == sources.count - 1 { return leastCount }
            return state.withLock { state in search(&state).count }
        }

        /// The count once searched; before, from the least there can be to all but one slot (a permutation other
        /// than the identity keeps at least one). O(1).
        var countBounds: ClosedRange<Int> {
            state.withLock { state in
                state.searched.map { $0.count...$0.count } ?? leastCount...(sources.count - 1)
            }
        }

        /// The moves: every slot that does not stay, from its source. Built on the first read (after the search if
        /// it has not run; the lock held, so that concurrent readers build them once), O(n).
        @usableFromInline var moves: [Move] {
            state.withLock { state in
                if let moves = state.moves { return moves }
                let searched = search(&state)
                let moves = build(stableWords: searched.stableWords, count: searched.count)
                state.moves = moves
                return moves
            }
        }

        /// Whether the moves have been built.
        var isBuilt: Bool { state.withLock { $0.moves != nil } }

        /// Whether the slots that stay have been searched.
        var isSearched: Bool { state.withLock { $0.searched != nil } }

        /// The search's result: one longest increasing subsequence of the sources, searched unless done (the
        /// search the far steps choose, `ReorderDiff.search`, split between two threads from
        /// `TwoThreads.minimumCount` slots).
        private func search(_ state: inout State) -> Searched {
            if let searched = state.searched { return searched }
            let slots = sources.count
            var stable = BitSet(count: slots)
            defer { stable.deallocate() }
            let stableCount = ReorderDiff.search(sources, farSteps: farSteps, markingStableIn: &stable)
            let searched = Searched(
                stableWords: Array(stable.words.prefix((slots + 63) >> 6)), count: slots - stableCount)
            state.searched = searched
            return searched
        }

        /// The moves by halves: the first half's from 0, the second half's after the moves before the middle.
        private func build(stableWords: [UInt64], count: Int) -> [Move] {
            let slots = sources.count
            guard count > 0 else { return [] }
            @inline(__always) func isStable(_ slot: Int) -> Bool {
                stableWords[slot >> 6] & (1 << UInt64(slot & 63)) != 0
            }
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
