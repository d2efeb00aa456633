extension DeckOrder {
    /// Moves the card at `from` to `to` (slots in the resulting order); the result becomes the user's order
    /// (sortOrder = position) and any sort is dropped, also when the card stays. Only the slots between `from` and
    /// `to` shift, in `slots` and `displayIDs` (two memmoves); the move joins `pendingMoves` instead of rewriting the
    /// shifted cards' positions (every `pendingMoveLimit`-th move settles them, `settlePositions()`).
    /// O(|to − from|), plus O(n) for the settling move.
    public mutating func move(from: Int, to: Int) {
        let card = self.card(at: from)
        if from != to {
            let lower = min(from, to)
            let upper = max(from, to)
            slots.withUnsafeMutableBufferPointer { order in
                displayIDs.withUnsafeMutableBufferPointer { displayIDs in
                    // The cards between shift by one towards `from` (copyMemory allows overlap).
                    let id = displayIDs[from]
                    let (source, target) = from < to ? (from + 1, from) : (to, to + 1)
                    let shifted = upper - lower
                    UnsafeMutableRawPointer(order.baseAddress! + target).copyMemory(
                        from: order.baseAddress! + source, byteCount: shifted * MemoryLayout<Int32>.stride)
                    UnsafeMutableRawPointer(displayIDs.baseAddress! + target).copyMemory(
                        from: displayIDs.baseAddress! + source, byteCount: shifted * MemoryLayout<CardID>.stride)
                    order[to] = Int32(truncatingIfNeeded: card)
                    displayIDs[to] = id
                }
            }
            orderSlotWrites += abs(to - from) + 1
            pendingMoves.append(PendingMove(from: from, to: to))
            if pendingMoves.count >= Self.pendingMoveLimit { settlePositions() }
        }
        makeOrderTheUsersOrder()
        sort = nil
        record(.move(base[card].id, to: to), cost: abs(to - from) + 1)
        _checkInvariants()
    }

    /// A move not yet applied to `positionBase`.
    struct PendingMove: Sendable, Hashable {
        var from: Int
        var to: Int

        /// Where the card at `slot` before the move is after it. O(1).
        @inline(__always)
        func carry(_ slot: Int) -> Int {
            if slot == from { return to }
            if from < to { return slot > from && slot <= to ? slot - 1 : slot }
            return slot >= to && slot < from ? slot + 1 : slot
        }
    }

    /// Applies the pending moves to `positionBase`. A card whose position a move changed ends inside the slots of
    /// the last move that shifted it, so rewriting the positions of the cards now in the union of the moves' slot
    /// ranges settles them all: O(the union), at most n.
    mutating func settlePositions() {
        guard !pendingMoves.isEmpty else { return }
        let written = Self.settle(&positionBase, order: slots, moves: pendingMoves)
        pendingMoves.removeAll(keepingCapacity: true)
        orderSlotWrites += written
    }

    /// `positionBase` with the pending moves applied, without changing the order (for reads that cannot mutate it):
    /// O(1) with none pending, else a copy, O(n).
    func settledPositions() -> [Int32] {
        guard !pendingMoves.isEmpty else { return positionBase }
        var positions = positionBase
        _ = Self.settle(&positions, order: slots, moves: pendingMoves)
        return positions
    }

    /// Rewrites `positions[order[slot]] = slot` over the union of the moves' slot ranges; returns how many slots.
    static func settle(_ positions: inout [Int32], order: [Int32], moves: [PendingMove]) -> Int {
        let ranges = moves.map { min($0.from, $0.to)...max($0.from, $0.to) }.sorted { $0.lowerBound < $1.lowerBound }
        var written = 0
        positions.withUnsafeMutableBufferPointer { positions in
            order.withUnsafeBufferPointer { order in
                var next = 0  // the first slot not rewritten yet
                for range in ranges where range.upperBound >= next {
                    let lower = max(range.lowerBound, next)
                    for slot in lower...range.upperBound {
                        positions[Int(order[slot])] = Int32(truncatingIfNeeded: slot)
                    }
                    written += range.upperBound - lower + 1
                    next = range.upperBound + 1
                }
            }
        }
        return written
    }

    // MARK: The user's order

    /// The user's order as its ranks (card index → sortOrder), or nil for the given sortOrders. O(1).
    mutating func setManualRank(_ ranks: [Int32]?) {
        storedManualRank = ranks
        storedManualOrder = nil
        manualRankIsPosition = false
    }

    /// The display order becomes the user's order (sortOrder = position), without copying it. O(1).
    mutating func makeOrderTheUsersOrder() {
        storedManualRank = nil
        storedManualOrder = nil
        manualRankIsPosition = true
    }

    /// Before the display order changes while it is the user's order: the user's order is kept as it is — its
    /// positions as the ranks (`storedManualRank`), the order and its ids (`storedManualOrder`) — taking the arrays
    /// the change replaces, not copying them. Positions must be settled. O(1).
    mutating func keepDisplayOrderAsUsersOrder() {
        storedManualRank = positionBase
        storedManualOrder = (slots, displayIDs)
        manualRankIsPosition = false
    }

    /// After a restore: the user's order stays as its ranks only. The order and ids a replayed scene sort kept
    /// (`storedManualOrder`) only spare a later sort by the user's order its scatter; held by a reopened session, a
    /// million cards' 12 MB would make its resident set larger than a fresh open's. Only the first sort back by the
    /// user's order after a reopen pays for it (it scatters by the ranks). O(1).
    mutating func dropKeptUsersOrder() {
        storedManualOrder = nil
    }
}
