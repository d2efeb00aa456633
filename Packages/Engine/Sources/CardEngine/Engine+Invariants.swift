extension Engine {
    /// Checks the engine's internal consistency in debug builds (as swift-collections' `_checkInvariants`): every
    /// current node is at its index in `nodeIndex` and ids are unique; a leaving node is not also current, and
    /// `leavingOrder` lists exactly the leaving ids; every rolling text belongs to a numeric run of a current or
    /// leaving node and rolls between different texts. Called after every change and every prune; compiled out of
    /// release builds. O(nodes + leaving + rolls).
    @inline(__always)
    func _checkInvariants() {
        #if DEBUG
            precondition(
                nodeIndex.count == nodes.count, "nodeIndex has \(nodeIndex.count) ids for \(nodes.count) nodes")
            for (index, node) in nodes.enumerated() {
                precondition(nodeIndex[node.id] == index, "node \(node.id) is not at its index \(index)")
            }
            precondition(leavingOrder.count == leaving.count, "leavingOrder and leaving disagree")
            for id in leavingOrder {
                precondition(leaving[id] != nil, "leavingOrder lists \(id), which is not leaving")
                precondition(nodeIndex[id] == nil, "node \(id) is both current and leaving")
            }
            for (key, roll) in rolls {
                let node = nodeIndex[key.node].map { nodes[$0] } ?? leaving[key.node]?.node
                guard let node else { preconditionFailure("a rolling text of \(key.node), which is gone") }
                precondition(node.text.indices.contains(key.run), "a rolling text of a missing run of \(key.node)")
                precondition(roll.from != roll.to, "node \(key.node) rolls from a text to itself")
            }
        #endif
    }
}
