import CardGeometry
import CardPhysics
import Foundation

extension Engine {
    /// Every node sampled at `time`, in paint order, with the events since the previous frame.
    ///
    /// Taking a frame first fires the timers due by `time` (at their own deadlines), so the nodes are the same
    /// whatever frames were taken before. A time earlier than the latest input samples the current layout at that
    /// time. O(n log n) in the visible nodes (the paint-order sort; O(n) when the layout is in paint order),
    /// plus the text layout of each run.
    public mutating func frame(at time: Double) -> Frame {
        let at = time.isFinite ? time : self.time
        advance(to: at)
        // The nodes, and beside them their places in the tree: sorting permutes the nodes once (a node is a large
        // value with several references; moving it twice, as sorting pairs would, costs).
        var frameNodes: [FrameNode] = []
        var entries: [PaintOrder.Entry] = []
        frameNodes.reserveCapacity(nodes.count + leavingOrder.count)
        entries.reserveCapacity(nodes.count + leavingOrder.count)
        var hasParents = false
        var focus = 0
        for index in nodes.indices {
            entries.append(PaintOrder.Entry(parent: nil, zIndex: nodes[index].z, layoutIndex: index))
            hasParents = hasParents || nodes[index].parent != nil
            frameNodes.append(frameNode(nodes[index], at: at, isLeaving: false))
            // Focus order: the nodes that take input, in layout (reading) order.
            if !nodes[index].gestures.isEmpty && nodes[index].isHitTestable {
                frameNodes[index].focusOrder = focus
                focus += 1
            }
        }
        for id in leavingOrder {
            guard let leavingNode = leaving[id] else { continue }
            entries.append(
                PaintOrder.Entry(parent: nil, zIndex: leavingNode.node.z, layoutIndex: leavingNode.orderIndex))
            hasParents = hasParents || leavingNode.node.parent != nil || leavingNode.paintParent != nil
            frameNodes.append(frameNode(leavingNode.node, at: at, isLeaving: true))
        }
        var composes = false
        if hasParents {
            // A parent may be current (its position is its layout index) or leaving (after the current nodes); a
            // leaving node whose parent is gone paints as a root, naming no parent.
            var leavingPosition: [NodeID: Int] = [:]
            for index in nodes.count..<frameNodes.count { leavingPosition[frameNodes[index].id] = index }
            for index in frameNodes.indices {
                guard let parent = frameNodes[index].parent else {
                    // A flying matched copy: a root for painting, in its old parent's place in paint order.
                    if index >= nodes.count, let paintParent = leaving[frameNodes[index].id]?.paintParent {
                        entries[index].parent = nodeIndex[paintParent] ?? leavingPosition[paintParent]
                    }
                    continue
                }
                let position = nodeIndex[parent] ?? leavingPosition[parent]
                entries[index].parent = position
                if let position {
                    let owner = frameNodes[position]
                    composes = composes || owner.opacity != 1 || owner.scale != 1 || owner.rotation != 0
                } else {
                    frameNodes[index].parent = nil
                }
            }
        }
        let order = PaintOrder.order(entries)
        if !order.elementsEqual(frameNodes.indices) { frameNodes = order.map { frameNodes[$0] } }
        // Only a parent that is translucent, scaled or rotated changes its subtree; a grandparent's effect reaches
        // a node through its parent, which then has children too.
        if composes { Self.compose(&frameNodes) }
        let events = pending
        pending.removeAll(keepingCapacity: true)
        let frame = Frame(
            time: at, viewport: viewport, nodes: frameNodes, events: events, isAnimating: isAnimating(at: at))
        if log.isRecording { log.record(frame: frame) }
        return frame
    }

    /// The events since the previous frame (or the previous call), after firing the timers due by `time` — for
    /// hosts that want the events of an input without sampling every node.
    public mutating func takeEvents(at time: Double) -> [EngineEvent] {
        advance(to: time.isFinite ? time : self.time)
        let events = pending
        pending.removeAll(keepingCapacity: true)
        return events
    }

    /// Applies each parent's opacity, scale and rotation to its subtree, as SwiftUI composites a view with its
    /// children: a node's opacity is multiplied by its ancestors'; its centre is carried by its parent's scale and
    /// rotation about the parent's centre (a similarity transform, composed down the tree), and its own scale and
    /// rotation add the parent's. Translation is not composed: a child's rect is already where the layout put it.
    /// `nodes` must be in paint order (a parent before its children). O(n), hashing only the nodes whose transform
    /// is not the identity and the nodes with a parent.
    static func compose(_ nodes: inout [FrameNode]) {
        /// x ↦ offset + scale · R(angle) · x, the transform that carries a node's layout points to the viewport.
        struct Similarity {
            var scale: Double
            var angle: Double
            var offset: Point
            var opacity: Double

            var isIdentity: Bool { scale == 1 && angle == 0 && opacity == 1 && offset == .zero }

            func apply(_ point: Point) -> Point {
                let (sine, cosine) = (sin(angle), cos(angle))
                return Point(
                    x: offset.x + scale * (cosine * point.x - sine * point.y),
                    y: offset.y + scale * (sine * point.x + cosine * point.y))
            }

            /// The transform of a node whose own scale and rotation act about `center`, placed by this one.
            func child(center: Point, scale own: Double, degrees: Double, opacity: Double) -> Similarity {
                let placed = apply(center)
                let total = Similarity(
                    scale: scale * own, angle: angle + degrees * .pi / 180, offset: .zero,
                    opacity: self.opacity * opacity)
                let moved = total.apply(center)
                return Similarity(
                    scale: total.scale, angle: total.angle,
                    offset: Point(x: placed.x - moved.x, y: placed.y - moved.y), opacity: total.opacity)
            }
        }
        let identity = Similarity(scale: 1, angle: 0, offset: .zero, opacity: 1)
        var transforms: [NodeID: Similarity] = [:]
        for index in nodes.indices {
            let node = nodes[index]
            let parent = node.parent.flatMap { transforms[$0] } ?? identity
            // Most nodes neither inherit nor pass on a transform: nothing to compute (no trigonometry).
            if parent.isIdentity && node.scale == 1 && node.rotation == 0 && node.opacity == 1 { continue }
            let center = node.rect.center
            let own = parent.child(center: center, scale: node.scale, degrees: node.rotation, opacity: node.opacity)
            // Only transforms that change something are kept: a node without one composes as the identity, and a
            // 10,000-card stack with one fading card hashes a few ids, not 10,000.
            if !own.isIdentity { transforms[node.id] = own }
            guard node.parent != nil, parent.scale != 1 || parent.angle != 0 || parent.opacity != 1 else { continue }
            let placed = parent.apply(center)
            nodes[index].rect.origin = Point(
                x: node.rect.origin.x + placed.x - center.x, y: node.rect.origin.y + placed.y - center.y)
            nodes[index].scale = own.scale
            nodes[index].rotation = own.angle * 180 / .pi
            nodes[index].opacity = own.opacity
        }
    }

    /// Whether anything still moves at `time`.
    public func isAnimating(at time: Double) -> Bool {
        !geometry.isSettled(at: time) || !fills.isSettled(at: time) || !rollProgress.isSettled(at: time)
            || !kicks.isSettled(at: time) || !leaving.isEmpty
    }

    /// A node's drawn state at `time`: its animated values, or its target where nothing animates.
    func frameNode(_ node: Node, at time: Double, isLeaving: Bool) -> FrameNode {
        var motion = geometry.isEmpty ? node.motion : (geometry.value(for: node.id, at: time) ?? node.motion)
        if !motion.isFinite { motion = node.motion }
        if !kicks.isEmpty, let kick = kicks.value(for: node.id, at: time), kick.dx.isFinite, kick.dy.isFinite {
            motion.rect = motion.rect.offsetBy(kick)
        }
        var fill = node.fill
        if !fills.isEmpty, let animated = fills.value(for: node.id, at: time) { fill = animated.clamped }
        var text: [FrameText] = []
        text.reserveCapacity(node.text.count)
        for (index, run) in node.text.enumerated() {
            let key = RollKey(node: node.id, run: index)
            let lines = index < node.textLines.count ? node.textLines[index] : [run.text]
            if run.isNumeric, !rolls.isEmpty, let roll = rolls[key], !rollProgress.isSettled(key, at: time),
                let progress = rollProgress.value(for: key, at: time)
            {
                text.append(
                    FrameText(
                        run: run, rollingFrom: roll.from,
                        digitProgress: Self.digitProgress(from: roll.from, to: roll.to, progress: progress),
                        lines: lines))
            } else {
                text.append(FrameText(run: run, lines: lines))
            }
        }
        return FrameNode(
            id: node.id, role: node.role, card: node.card, parent: node.parent, rect: motion.rect, z: node.z,
            opacity: min(max(motion.opacity, 0), 1), rotation: motion.rotation, scale: motion.scale,
            cornerRadius: max(0, motion.cornerRadius), fill: fill, stroke: node.stroke, shadow: node.shadow,
            text: text, matchedGeometryID: node.matchedGeometryID, isLeaving: isLeaving,
            clipsContent: node.clipsContent, mayOverflow: node.mayOverflow, gestures: node.gestures,
            accessibilityLabel: node.accessibilityLabel)
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
            var done = leavingOrder.filter { geometry.isSettled($0, at: time) }
            // A subtree leaves with its root: leaving descendants of a node that is gone go with it.
            if !done.isEmpty {
                var gone = Set(done)
                var grew = true
                while grew {
                    grew = false
                    for id in leavingOrder where !gone.contains(id) {
                        if let parent = leaving[id]?.node.parent, gone.contains(parent), nodeIndex[parent] == nil {
                            gone.insert(id)
                            done.append(id)
                            grew = true
                        }
                    }
                }
            }
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
        if !kicks.isEmpty && kicks.isSettled(at: time) { kicks.removeAll() }
        if !rollProgress.isEmpty && rollProgress.isSettled(at: time) {
            rollProgress.removeAll()
            rolls.removeAll()
        }
        _checkInvariants()
    }
}
