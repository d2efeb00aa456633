import CardGeometry
import CardGestures
import CardPhysics

extension Engine {
    /// Wraps each run of `node` in the node's width with the engine's measurer (text is laid out once per layout,
    /// in the node's target width: it does not re-wrap while the node springs). O(characters · log(word length)).
    func layOutText(of node: inout Node) {
        if node.role == .icon {
            // An icon's text names a symbol (what `TextRun.isSymbol` promises for every icon run).
            for index in node.text.indices { node.text[index].isSymbol = true }
        }
        node.textLines = node.text.map { run in
            // A symbol is one "line", never wrapped.
            run.isSymbol
                ? [run.text]
                : TextLayout.lines(
                    run.text, width: node.rect.width, style: run.style, weight: run.weight, lineLimit: run.lineLimit,
                    measurer: layoutMeasurer)
        }
    }

    /// Lays the scene out and turns every difference from the previous layout into animations (see `Engine`).
    /// O(n) in the nodes of both layouts, plus the arena updates of the nodes that changed.
    ///
    /// Most layouts after an input (every move of a drag) hold the same nodes in the same order as the previous
    /// one: then the previous id index is reused and each node is compared with the node at its own position,
    /// with no hashing of ids at all; any difference in the ids falls back to the index.
    ///
    /// In steps: the new layout is indexed and cleaned (`indexLayout`), then each node that stays, returns or
    /// arrives is animated (`animateArrivals`), kicks applied, and each node that goes is sent off
    /// (`animateDepartures`); matched-geometry pairs hand over between the two (`MatchedHandoff`).
    mutating func applyLayout(context: inout SceneContext, isInitial: Bool) {
        var newNodes = scene.layout(in: viewport, text: layoutMeasurer)
        let sameIDs = !isInitial && Self.haveSameIDs(newNodes, nodes)
        let newIndex = indexLayout(&newNodes, sameIDs: sameIDs)
        defer {
            syncArena(newNodes: newNodes, newIndex: newIndex, sameIDs: sameIDs)
            nodes = newNodes
            nodeIndex = newIndex
        }
        if isInitial { return }
        // Nodes leaving now whose matched-geometry id an entering node takes over.
        var handoff = MatchedHandoff()
        for position in nodes.indices where !sameIDs && newIndex[nodes[position].id] == nil {
            if let matched = nodes[position].matchedGeometryID { handoff.sources[matched] = position }
        }
        animateArrivals(newNodes, index: newIndex, sameIDs: sameIDs, handoff: &handoff, context: context)
        applyImpulses(context: context, in: newNodes, index: newIndex)
        animateDepartures(newNodes, index: newIndex, sameIDs: sameIDs, handoff: handoff, context: context)
    }

    /// The matched-geometry hand-over of one layout: the leaving nodes whose matched id an entering node takes
    /// over, and where each handed-over node flies (its partner's frame, fading out there: SwiftUI draws both
    /// copies of a matched element during the flight, the old one fading out as the new one fades in).
    struct MatchedHandoff {
        /// Leaving nodes by matched-geometry id: their positions in the previous layout.
        var sources: [String: Int] = [:]
        /// The leaving nodes handed over to an entering partner.
        var handedOver: Set<NodeID> = []
        /// Where each handed-over node flies.
        var targets: [NodeID: NodeMotion] = [:]

        /// Hands the leaving node matched with `node` (if any, and not yet handed over) to it; returns its
        /// position in the previous layout.
        mutating func take(for node: Node, in previous: [Node]) -> Int? {
            guard let matched = node.matchedGeometryID, let source = sources[matched],
                handedOver.insert(previous[source].id).inserted
            else { return nil }
            targets[previous[source].id] = node.motion
            return source
        }
    }

    /// Indexes `newNodes` by id (reusing the previous index when the ids are the same), makes non-finite geometry
    /// finite, lays out text, and drops a node whose id is given twice (the first one counts: scenes should not do
    /// this; the engine stays consistent). Returns the index. O(n).
    private func indexLayout(_ newNodes: inout [Node], sameIDs: Bool) -> [NodeID: Int] {
        var newIndex: [NodeID: Int] = [:]
        if sameIDs {
            newIndex = nodeIndex
        } else {
            newIndex.reserveCapacity(newNodes.count)
        }
        var hasDuplicates = false
        for position in newNodes.indices {
            if !sameIDs {
                if newIndex[newNodes[position].id] == nil {
                    newIndex[newNodes[position].id] = position
                } else {
                    hasDuplicates = true
                }
            }
            if !Self.isFinite(newNodes[position]) { newNodes[position] = Self.sanitized(newNodes[position]) }
            if !newNodes[position].text.isEmpty { layOutText(of: &newNodes[position]) }
        }
        if hasDuplicates {
            var seen: Set<NodeID> = []
            newNodes = newNodes.filter { seen.insert($0.id).inserted }
            newIndex = [:]
            for position in newNodes.indices { newIndex[newNodes[position].id] = position }
        }
        return newIndex
    }

    /// Animates every node of the new layout: one that stays from where it was, one back before its removal
    /// finished from where it is (its matched partner leaving now flies back with it), one whose matched partner
    /// leaves from the partner's frame, and any other arrival by its insertion transition.
    private mutating func animateArrivals(
        _ newNodes: [Node], index newIndex: [NodeID: Int], sameIDs: Bool, handoff: inout MatchedHandoff,
        context: SceneContext
    ) {
        let time = context.time
        for position in newNodes.indices {
            let node = newNodes[position]
            let id = node.id
            let previousPosition = sameIDs ? position : nodeIndex[id]
            // (No closure over `self` here or in `resolveAnimation`: one captures a copy of the whole engine.)
            var previousImplicit: String?
            if let previousPosition { previousImplicit = nodes[previousPosition].implicitAnimation?.value }
            let animation = resolveAnimation(
                for: node, previousImplicit: previousImplicit, in: newNodes, newIndex: newIndex, context: context)
            if let previousPosition {
                update(node, fromPosition: previousPosition, animation: animation, at: time)
            } else if leaving.removeValue(forKey: id) != nil {
                leavingOrder.removeAll { $0 == id }
                retarget(id, to: node, animation: animation, at: time, from: nil)
                _ = handoff.take(for: node, in: nodes)
            } else if let source = handoff.take(for: node, in: nodes) {
                guard let animation else { continue }
                if reducesMotion {
                    fadeIn(node, animation: animation, at: time)
                } else {
                    flyIn(node, from: nodes[source], animation: animation, at: time)
                }
            } else if let animation, reducesMotion, node.transition.isVisible(isInsertion: true) {
                fadeIn(node, animation: animation, at: time)
            } else if let animation, node.transition.isVisible(isInsertion: true) {
                var absent = node.transition.absent(node.motion, viewport: viewport, isInsertion: true)
                absent.rect = absent.rect.offsetBy(parentLag(of: node, in: newNodes, index: newIndex, at: time))
                geometry.animate(id, to: node.motion, with: animation, at: time, from: absent)
            }
        }
    }

    /// Starts the new copy `node` of a matched element on its old copy's (`source`'s) frame and fill, faded in by
    /// its own insertion transition's opacity (SwiftUI's default transition, `.opacity`, for a view without one).
    private mutating func flyIn(_ node: Node, from source: Node, animation: Animation, at time: Double) {
        var (value, velocity) = geometry.sample(source.id, at: time) ?? (source.motion, .zero)
        let absent = node.transition.absent(node.motion, viewport: viewport, isInsertion: true)
        value.opacity *= node.motion.opacity > 0 ? min(absent.opacity / node.motion.opacity, 1) : 0
        if node.transition == .identity { value.opacity = 0 }
        geometry.animate(node.id, to: node.motion, with: animation, at: time, from: value, initialVelocity: velocity)
        if let fill = node.fill, let sourceFill = fills.value(for: source.id, at: time) ?? source.fill {
            fills.animate(node.id, to: fill, with: animation, at: time, from: sourceFill)
        }
    }

    /// Sends off every node of the previous layout that is not in the new one: a handed-over node flies to its
    /// partner's frame, fading out, painted as a root (its container no longer places, clips or fades it: the
    /// flight is the element's own) in its old place in paint order (`LeavingNode.paintParent`); another leaves by
    /// its removal transition; the rest go at once.
    ///
    /// How far each leaving node's transition carries it: a leaving child without a visible transition of its
    /// own goes along with its leaving parent (SwiftUI removes a view's subtree with the view's transition), so
    /// a swiped card's text flies with the card instead of vanishing on the flight's first frame. Parents come
    /// before their children in a layout, so one pass sees each parent first.
    private mutating func animateDepartures(
        _ newNodes: [Node], index newIndex: [NodeID: Int], sameIDs: Bool, handoff: MatchedHandoff,
        context: SceneContext
    ) {
        let time = context.time
        var carried: [NodeID: Vector] = [:]
        for position in nodes.indices where !sameIDs && newIndex[nodes[position].id] == nil {
            let node = nodes[position]
            let id = node.id
            dropRolls(of: id, runs: node.text.count)
            let animation = removalAnimation(for: node, context: context)
            var transition = context.removalTransitions[id] ?? node.transition
            if !transition.isVisible(isInsertion: false), let parent = node.parent, let offset = carried[parent] {
                transition = .offset(offset)
            }
            let handedOver = handoff.handedOver.contains(id)
            if reducesMotion, let animation, handedOver || transition.isVisible(isInsertion: false) {
                fadeOut(node, animation: animation, at: time, orderIndex: position)
            } else if handedOver, let animation, let destination = handoff.targets[id] {
                var absent = destination
                absent.opacity = 0
                var flying = node
                flying.parent = nil
                geometry.animate(
                    id, to: absent, with: animation, at: time, from: geometry.contains(id) ? nil : node.motion)
                leaving[id] = LeavingNode(node: flying, orderIndex: position, paintParent: node.parent)
                leavingOrder.append(id)
            } else if !handedOver, let animation, transition.isVisible(isInsertion: false) {
                var absent = transition.absent(node.motion, viewport: viewport, isInsertion: false)
                absent.rect = absent.rect.offsetBy(parentMove(of: node, in: newNodes, index: newIndex))
                carried[id] = Vector(
                    dx: absent.rect.minX - node.motion.rect.minX, dy: absent.rect.minY - node.motion.rect.minY)
                geometry.animate(
                    id, to: absent, with: animation, at: time, from: geometry.contains(id) ? nil : node.motion)
                leaving[id] = LeavingNode(node: node, orderIndex: position)
                leavingOrder.append(id)
            } else {
                geometry.remove(id)
                fills.remove(id)
            }
        }
    }

    /// How far behind its new place the parent of an entering `node` is drawn now (zero without a parent that was
    /// in the previous layout too). A transition is relative to the parent, as SwiftUI's are: a child entering a
    /// parent that is on its way somewhere starts from where the parent is, not from where it is going. (A chart
    /// opened by a tap that also scrolls its list came in from its final place while its card was still rising
    /// there, over the card's title.) An entering parent's children are not moved: a scene gives them their own
    /// transitions. O(1).
    func parentLag(of node: Node, in newNodes: [Node], index newIndex: [NodeID: Int], at time: Double) -> Vector {
        guard let parent = node.parent, nodeIndex[parent] != nil, let position = newIndex[parent],
            let shown = geometry.sample(parent, at: time)?.value.rect
        else { return .zero }
        let target = newNodes[position].rect
        return Vector(dx: shown.minX - target.minX, dy: shown.minY - target.minY)
    }

    /// How far the parent of a leaving `node` moves, from its previous place to its new one (zero when the parent
    /// leaves too or there is none): a leaving child goes with a parent that stays, so its removal transition plays
    /// relative to the parent (a closing chart slides down inside its card while the list scrolls back). O(1).
    func parentMove(of node: Node, in newNodes: [Node], index newIndex: [NodeID: Int]) -> Vector {
        guard let parent = node.parent, let old = nodeIndex[parent], let new = newIndex[parent] else { return .zero }
        let from = nodes[old].rect
        let to = newNodes[new].rect
        return Vector(dx: to.minX - from.minX, dy: to.minY - from.minY)
    }

    /// Kicks the nodes named in `context.nodeImpulses`: each kick is a displacement that starts at zero with the
    /// kick's velocity (plus what is left of an earlier kick's) and springs back to zero with the impulse's
    /// animation, added to the node's own motion when frames are sampled. Because it is separate from the node's
    /// motion, later changes of the node's target leave it playing (SwiftUI's springs add up: a bounce survives
    /// the pull that moves the card under it). Ids not in the layout and non-finite kicks are ignored.
    /// O(kicked nodes).
    mutating func applyImpulses(context: SceneContext, in newNodes: [Node], index newIndex: [NodeID: Int]) {
        // A kick is motion and nothing else: reduced motion plays none.
        guard !reducesMotion else { return }
        for (id, impulse) in context.nodeImpulses {
            guard newIndex[id] != nil, impulse.velocity.dx.isFinite, impulse.velocity.dy.isFinite else { continue }
            let (value, velocity) = kicks.sample(id, at: context.time) ?? (.zero, .zero)
            kicks.animate(
                id, to: .zero, with: impulse.animation, at: context.time, from: value,
                initialVelocity: velocity.adding(impulse.velocity))
        }
    }

    /// Animates (or jumps) a node that stays in the layout from its previous target (`nodes[previousPosition]`,
    /// read in place rather than copied) to its new one.
    mutating func update(_ node: Node, fromPosition previousPosition: Int, animation: Animation?, at time: Double) {
        let id = node.id
        let previousMotion = nodes[previousPosition].motion
        if node.motion != previousMotion {
            retarget(id, to: node, animation: animation, at: time, from: previousMotion)
        }
        if node.fill != nodes[previousPosition].fill {
            if let animation, let fill = node.fill, let oldFill = nodes[previousPosition].fill {
                fills.animate(id, to: fill, with: animation, at: time, from: fills.contains(id) ? nil : oldFill)
            } else {
                fills.remove(id)
            }
        }
        guard !node.text.isEmpty else { return }
        let previousText = nodes[previousPosition].text
        for (index, run) in node.text.enumerated() where run.isNumeric {
            guard index < previousText.count, previousText[index].text != run.text else { continue }
            let key = RollKey(node: id, run: index)
            if let animation {
                rolls[key] = RollingText(from: previousText[index].text, to: run.text)
                rollProgress.animate(key, to: 1, with: animation, at: time, from: 0)
            } else {
                rolls[key] = nil
                rollProgress.remove(key)
            }
        }
    }

    /// Moves a node's geometry towards `node` with `animation` (from its running motion when there is one, else
    /// from `start`), or puts it there at once without an animation.
    mutating func retarget(_ id: NodeID, to node: Node, animation: Animation?, at time: Double, from start: NodeMotion?)
    {
        if let animation, reducesMotion, moves(id, to: node.motion, from: start, at: time) {
            crossFade(id, to: node.motion, animation: animation, at: time)
        } else if let animation {
            geometry.animate(id, to: node.motion, with: animation, at: time, from: geometry.contains(id) ? nil : start)
        } else {
            geometry.remove(id)
            fills.remove(id)
        }
    }

    mutating func dropRolls(of id: NodeID, runs: Int) {
        for index in 0..<runs {
            let key = RollKey(node: id, run: index)
            if rolls.removeValue(forKey: key) != nil { rollProgress.remove(key) }
        }
    }

    /// The animation for a node in the new layout: a per-node override (its own or its nearest ancestor's), its
    /// implicit animation when the watched value changed (or it is new), else the transaction's.
    /// `previousImplicit`: the value the node's previous version's implicit animation watched (nil for a new node
    /// or one that had none).
    func resolveAnimation(
        for node: Node, previousImplicit: String?, in newNodes: [Node], newIndex: [NodeID: Int],
        context: SceneContext
    ) -> Animation? {
        if !context.nodeAnimations.isEmpty {
            var cursor: NodeID? = node.id
            var depth = 0
            while let id = cursor, depth < 64 {
                if let animation = context.nodeAnimations[id] { return animation }
                if let position = newIndex[id] {
                    cursor = newNodes[position].parent
                } else if let position = nodeIndex[id] {
                    cursor = nodes[position].parent
                } else {
                    cursor = nil
                }
                depth += 1
            }
        }
        if let implicit = node.implicitAnimation, implicit.value != previousImplicit {
            return implicit.animation
        }
        return context.animation
    }

    /// The animation for a node leaving the layout: a per-node override (walking its old ancestors), else the
    /// transaction's.
    func removalAnimation(for node: Node, context: SceneContext) -> Animation? {
        var cursor: NodeID? = node.id
        var depth = 0
        while let id = cursor, depth < 64, !context.nodeAnimations.isEmpty {
            if let animation = context.nodeAnimations[id] { return animation }
            if let position = nodeIndex[id] { cursor = nodes[position].parent } else { cursor = nil }
            depth += 1
        }
        return context.animation
    }

    /// Whether two layouts hold the same ids in the same order (ids are compared, not hashed). O(n).
    static func haveSameIDs(_ new: [Node], _ old: [Node]) -> Bool {
        guard new.count == old.count else { return false }
        for position in new.indices where new[position].id != old[position].id { return false }
        return true
    }

    /// Keeps the gesture arena's targets in step with the layout (only nodes whose hit area or gestures changed).
    /// With `sameIDs` (the new layout's ids are the previous one's, in order) each node's previous version is the
    /// one at its own position and nothing is removed.
    mutating func syncArena(newNodes: [Node], newIndex: [NodeID: Int], sameIDs: Bool = false) {
        if !sameIDs {
            for position in nodes.indices where newIndex[nodes[position].id] == nil {
                arena.removeTarget(nodes[position].id)
            }
        }
        for position in newNodes.indices {
            let previousPosition = sameIDs ? position : nodeIndex[newNodes[position].id]
            guard let previousPosition else {
                attachTarget(newNodes[position], previousGestures: [])
                continue
            }
            // Fields read in place: binding the two nodes would copy them (a dozen references each).
            if nodes[previousPosition].rect != newNodes[position].rect
                || nodes[previousPosition].z != newNodes[position].z
                || nodes[previousPosition].cornerRadius != newNodes[position].cornerRadius
                || nodes[previousPosition].parent != newNodes[position].parent
                || nodes[previousPosition].isHitTestable != newNodes[position].isHitTestable
            {
                let node = newNodes[position]
                arena.setTarget(
                    GestureTarget(
                        id: node.id, frame: node.rect, z: node.z, cornerRadius: node.cornerRadius, parent: node.parent,
                        isHitTestable: node.isHitTestable))
            }
            if nodes[previousPosition].gestures != newNodes[position].gestures {
                attachGestures(of: newNodes[position], previousGestures: nodes[previousPosition].gestures)
            }
        }
    }

    /// A node new to the layout: its hit target and its gestures.
    private mutating func attachTarget(_ node: Node, previousGestures: [GestureAttachment]) {
        arena.setTarget(
            GestureTarget(
                id: node.id, frame: node.rect, z: node.z, cornerRadius: node.cornerRadius, parent: node.parent,
                isHitTestable: node.isHitTestable))
        if !node.gestures.isEmpty { attachGestures(of: node, previousGestures: previousGestures) }
    }

    /// Detaches the gestures a node no longer has and attaches its current ones.
    private mutating func attachGestures(of node: Node, previousGestures: [GestureAttachment]) {
        for attachment in previousGestures where !node.gestures.contains(where: { $0.name == attachment.name }) {
            arena.detach(named: attachment.name, from: node.id)
        }
        for attachment in node.gestures {
            try? arena.attach(attachment.gesture, named: attachment.name, to: node.id, priority: attachment.priority)
        }
    }

    /// Whether every number of the node is finite (the common case, which needs no copy).
    static func isFinite(_ node: Node) -> Bool {
        node.rect.origin.x.isFinite && node.rect.origin.y.isFinite && node.rect.size.width.isFinite
            && node.rect.size.height.isFinite && node.z.isFinite && node.opacity.isFinite && node.opacity >= 0
            && node.opacity <= 1 && node.rotation.radians.isFinite && node.scale.isFinite && node.cornerRadius.isFinite
            && node.cornerRadius >= 0
    }

    /// A node with every non-finite number replaced, so nothing a scene computes can put NaN in a frame.
    static func sanitized(_ node: Node) -> Node {
        var node = node
        func finite(_ value: Double, _ fallback: Double) -> Double { value.isFinite ? value : fallback }
        node.rect = Rect(
            x: finite(node.rect.origin.x, 0), y: finite(node.rect.origin.y, 0),
            width: finite(node.rect.size.width, 0), height: finite(node.rect.size.height, 0))
        node.z = finite(node.z, 0)
        node.opacity = min(max(finite(node.opacity, 1), 0), 1)
        node.rotation = Angle(radians: finite(node.rotation.radians, 0))
        node.scale = finite(node.scale, 1)
        node.cornerRadius = max(0, finite(node.cornerRadius, 0))
        return node
    }
}
