import CardPhysics

extension Engine {
    /// Every node sampled at `time`, in paint order, with the events since the previous frame.
    ///
    /// Taking a frame first fires the timers due by `time` (at their own deadlines), so the nodes are the same
    /// whatever frames were taken before. A time earlier than the latest input samples the current layout at that
    /// time. O(n log n) in the visible nodes (the paint-order sort), allocation-light.
    public mutating func frame(at time: Double) -> Frame {
        let at = time.isFinite ? time : self.time
        advance(to: at)
        // The nodes, and beside them their paint-order keys: sorting is rare, and then it permutes the nodes once
        // (a node is a large value with several references; moving it twice, as sorting pairs would, costs).
        var frameNodes: [FrameNode] = []
        var keys: [(z: Double, index: Int)] = []
        frameNodes.reserveCapacity(nodes.count + leavingOrder.count)
        keys.reserveCapacity(nodes.count + leavingOrder.count)
        for index in nodes.indices {
            keys.append((nodes[index].z, index))
            frameNodes.append(frameNode(nodes[index], at: at, isLeaving: false))
        }
        for id in leavingOrder {
            guard let leavingNode = leaving[id] else { continue }
            keys.append((leavingNode.node.z, leavingNode.orderIndex))
            frameNodes.append(frameNode(leavingNode.node, at: at, isLeaving: true))
        }
        // Scenes usually emit nodes nearly in paint order already; sort only when they are not.
        let inOrder = zip(keys, keys.dropFirst()).allSatisfy { $0.z < $1.z || ($0.z == $1.z && $0.index <= $1.index) }
        if !inOrder {
            let order = keys.indices.sorted { left, right in
                let (a, b) = (keys[left], keys[right])
                return a.z != b.z ? a.z < b.z : a.index != b.index ? a.index < b.index : left < right
            }
            frameNodes = order.map { frameNodes[$0] }
        }
        let events = pending
        pending.removeAll(keepingCapacity: true)
        return Frame(
            time: at, viewport: viewport, nodes: frameNodes, events: events, isAnimating: isAnimating(at: at))
    }

    /// The events since the previous frame (or the previous call), after firing the timers due by `time` — for
    /// hosts that want the events of an input without sampling every node.
    public mutating func takeEvents(at time: Double) -> [EngineEvent] {
        advance(to: time.isFinite ? time : self.time)
        let events = pending
        pending.removeAll(keepingCapacity: true)
        return events
    }

    /// Whether anything still moves at `time`.
    public func isAnimating(at time: Double) -> Bool {
        !geometry.isSettled(at: time) || !fills.isSettled(at: time) || !rollProgress.isSettled(at: time)
            || !leaving.isEmpty
    }

    /// A node's drawn state at `time`: its animated values, or its target where nothing animates.
    func frameNode(_ node: Node, at time: Double, isLeaving: Bool) -> FrameNode {
        var motion = geometry.isEmpty ? node.motion : (geometry.value(for: node.id, at: time) ?? node.motion)
        if !motion.isFinite { motion = node.motion }
        var fill = node.fill
        if !fills.isEmpty, let animated = fills.value(for: node.id, at: time) { fill = animated.clamped }
        var text: [FrameText] = []
        text.reserveCapacity(node.text.count)
        for (index, run) in node.text.enumerated() {
            let key = RollKey(node: node.id, run: index)
            if run.isNumeric, !rolls.isEmpty, let roll = rolls[key], !rollProgress.isSettled(key, at: time),
                let progress = rollProgress.value(for: key, at: time)
            {
                text.append(
                    FrameText(
                        run: run, rollingFrom: roll.from,
                        digitProgress: Self.digitProgress(from: roll.from, to: roll.to, progress: progress)))
            } else {
                text.append(FrameText(run: run))
            }
        }
        return FrameNode(
            id: node.id, role: node.role, card: node.card, parent: node.parent, rect: motion.rect, z: node.z,
            opacity: min(max(motion.opacity, 0), 1), rotation: motion.rotation, scale: motion.scale,
            cornerRadius: max(0, motion.cornerRadius), fill: fill, stroke: node.stroke, shadow: node.shadow,
            text: text, matchedGeometryID: node.matchedGeometryID, isLeaving: isLeaving)
    }

    /// Per character of `to`, right-aligned against `from` (digits of a number line up from the right): 1 where
    /// the character did not change, else the transition's progress clamped to 0…1 (a spring's overshoot does
    /// not roll a digit past its place).
    static func digitProgress(from: String, to: String, progress: Double) -> [Double] {
        let old = Array(from)
        let new = Array(to)
        let clamped = progress.isFinite ? min(max(progress, 0), 1) : 1
        return new.indices.map { index in
            let oldIndex = index - (new.count - old.count)
            return oldIndex >= 0 && oldIndex < old.count && old[oldIndex] == new[index] ? 1 : clamped
        }
    }

    /// Drops what has come to rest by `time`: settled animations sample exactly as their targets and finished
    /// removals are gone, so no frame changes — this only keeps the timelines small.
    mutating func prune(at time: Double) {
        if !geometry.isEmpty && geometry.isSettled(at: time) {
            geometry.removeAll()
            leaving.removeAll()
            leavingOrder.removeAll()
        } else if !leavingOrder.isEmpty {
            let done = leavingOrder.filter { geometry.isSettled($0, at: time) }
            if !done.isEmpty {
                for id in done {
                    leaving[id] = nil
                    geometry.remove(id)
                    fills.remove(id)
                }
                let doneSet = Set(done)
                leavingOrder.removeAll { doneSet.contains($0) }
            }
        }
        if !fills.isEmpty && fills.isSettled(at: time) { fills.removeAll() }
        if !rollProgress.isEmpty && rollProgress.isSettled(at: time) {
            rollProgress.removeAll()
            rolls.removeAll()
        }
        _checkInvariants()
    }
}
