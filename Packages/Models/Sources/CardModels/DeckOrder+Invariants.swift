extension DeckOrder {
    /// Checks in debug builds (as swift-collections' `_checkInvariants`) that `positionBase` with the pending moves
    /// settled is the inverse of `slots`, that `slot(of:)` reads the same through them, that `displayIDs` is
    /// `slots`' ids, that a kept user's order is its ranks' inverse with its ids, and that a sort is a scene's. O(n),
    /// so only for decks of up to 10,000 cards; nothing in release builds.
    public func _checkInvariants() {
        #if DEBUG
            guard slots.count <= 10_000 else { return }
            precondition(
                slots.count == positionBase.count && slots.count == displayIDs.count && slots.count == ids.count,
                "order sizes differ")
            precondition(pendingMoves.count < Self.pendingMoveLimit, "too many pending moves")
            let settled = settledPositions()
            for (slot, card) in slots.lazy.map(Int.init).enumerated() {
                precondition(Int(settled[card]) == slot, "position is not the inverse of the order at \(slot)")
                precondition(displayIDs[slot] == ids[card], "displayIDs is not the order's ids at \(slot)")
            }
            if let storedManualRank {
                precondition(!manualRankIsPosition, "the user's order is both kept and the display order")
                precondition(storedManualRank.count == slots.count, "the user's ranks have another size")
            }
            if let storedManualOrder, let storedManualRank {
                precondition(storedManualOrder.order.count == slots.count, "the user's order has another size")
                for (slot, card) in storedManualOrder.order.lazy.map(Int.init).enumerated() {
                    precondition(Int(storedManualRank[card]) == slot, "the user's order is not its ranks' inverse")
                    precondition(storedManualOrder.ids[slot] == ids[card], "the user's order ids at \(slot)")
                }
            }
            if let sort { precondition(sort.key != .id && sort.key != .colorNumber, "a host's key as a scene sort") }
            for slot in Swift.stride(from: 0, to: slots.count, by: max(1, slots.count / 64)) {
                precondition(
                    self.slot(of: card(at: slot)) == slot, "slot(of:) is not the inverse of the order at \(slot)")
            }
        #endif
    }
}
