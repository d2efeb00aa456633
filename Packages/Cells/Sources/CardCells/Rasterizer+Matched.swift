import CardEngine
import CardGeometry

/// Matched-geometry elements in flight, drawn as one element cross-fading (what a host that composites draws).
///
/// While a matched element flies (SwiftUI's `matchedGeometryEffect`) a frame holds two copies of it on one frame
/// geometry: the old one leaving, fading out, and the new one fading in. A host that composites (the web host's
/// canvas) draws both, each with its opacity, and the two blend into a cross-fade. Cells cannot: a cell shows one
/// glyph, so two copies of a label drawn a cell apart read "☀☀ SSunny", a copy at 5 % opacity painted last blanks
/// the glyphs of the one under it, and a copy's fill at half opacity shows the stack through the card. So the
/// rasteriser draws each pair once: the copy that is more opaque (the copies' own opacities are compared, without
/// what their containers add), in the place in paint order of the copy painted later (the front one, as SwiftUI
/// draws a matched pair: a deck card growing into its detail is in front of the stack for the whole flight, both
/// ways, as in the seed; drawn at its own place it grew behind the cards in front of it and jumped in front
/// half-way), with the pair's opacities added (the cross-fade has no dip: the element is as solid as it was), and its fill and text
/// colours mixed by the copies' shares (white text cross-fading to black passes through grey). The other copy is
/// not drawn. While in flight, a copy is clipped by no container and clips none of its children: each of them
/// flies on its own (a chip's label flies from the chip to the details row, outside the square its chip flies to,
/// and outside the overview row its chip belongs to), and it is drawn in whole cells
/// (a partial edge of a chip flying past a label replaced one of its letters). A flying label's letter whose mixed
/// colour does not read against what is under it (a white label that has flown off its chip onto the white
/// details) is drawn in whichever copy's own colour reads best there: a glyph cannot be half-transparent, and a
/// white letter on white reads as a cut label ("Rai", "Sno").
///
/// Complexity: O(n) per frame; nothing is hashed when no leaving node has a matched-geometry id.
struct MatchedFlights {
    /// The copies not drawn (the fainter of each pair).
    var hidden: Set<NodeID> = []
    /// The copy drawn for each pair, as drawn: the pair's opacity and mixed colours.
    var drawn: [NodeID: FrameNode] = [:]
    /// For each drawn label (a copy with text and no fill), its two copies' own text colours: where the mixed
    /// colour does not read against what is under a letter, the one that reads best is drawn
    /// (`PaintContext.textAlternatives`).
    var labelColours: [NodeID: [RGBA]] = [:]
    /// The hidden copies painted later than their drawn partner, each with that partner's id: the pair is drawn in
    /// the hidden copy's place, the front one of the two (as SwiftUI draws a matched pair at the front copy's
    /// place: a deck card growing into its detail is in front of the stack from its first frame on).
    var standsIn: [NodeID: NodeID] = [:]
    /// The drawn copies that are painted at their partner's place (`standsIn`), not at their own.
    var deferred: Set<NodeID> = []

    /// Whether no element is in flight.
    var isEmpty: Bool { drawn.isEmpty }

    /// `nodes` as they are drawn: without the hidden copies, each drawn copy as `drawn` holds it, and the flying
    /// labels (drawn copies with text and no fill: a chip's icon and label) last, over everything, so that no
    /// other flying element passes over one (chips fly to the left of their labels, which fly to the right: a
    /// chip crossing its neighbour's label cut it to "Cloud"). O(n).
    func paintOrder(of nodes: [FrameNode]) -> [FrameNode] {
        var result: [FrameNode] = []
        var labels: [FrameNode] = []
        result.reserveCapacity(nodes.count)
        for node in nodes {
            let shown: FrameNode
            if let stand = standsIn[node.id], let copy = drawn[stand] {
                shown = copy
            } else if hidden.contains(node.id) || deferred.contains(node.id) {
                continue
            } else if let copy = drawn[node.id] {
                shown = copy
            } else {
                result.append(node)
                continue
            }
            if shown.fill == nil && !shown.text.isEmpty {
                labels.append(shown)
            } else {
                result.append(shown)
            }
        }
        return result + labels
    }

    /// Whether `id` is a copy of an element in flight (drawn or not).
    func isFlying(_ id: NodeID) -> Bool { drawn[id] != nil || hidden.contains(id) }

    /// The pairs of `frame`: a matched-geometry id held by a leaving node and by a node of the layout.
    init(frame: Frame) {
        guard frame.nodes.contains(where: { $0.isLeaving && $0.matchedGeometryID != nil }) else { return }
        var leaving: [String: Int] = [:]
        for (index, node) in frame.nodes.enumerated() where node.isLeaving {
            if let matched = node.matchedGeometryID { leaving[matched] = index }
        }
        var opacities: [NodeID: Double] = [:]
        var order: [NodeID: Int] = [:]
        for (index, node) in frame.nodes.enumerated() where node.matchedGeometryID != nil { order[node.id] = index }
        for node in frame.nodes where node.parent == nil || !node.isLeaving {
            opacities[node.id] = Self.opacity(of: node)
        }
        /// A node's own opacity: its frame opacity over its parent's (the engine composes them).
        func own(_ node: FrameNode) -> Double {
            let parent = node.parent.flatMap { opacities[$0] } ?? 1
            return parent > 0 ? min(1, Self.opacity(of: node) / parent) : 0
        }
        for node in frame.nodes where !node.isLeaving {
            guard let matched = node.matchedGeometryID, let index = leaving.removeValue(forKey: matched) else {
                continue
            }
            let old = frame.nodes[index]
            // Within 1 %, the new copy: both fade on one animation, and the new one's place is where the element
            // ends (a fill over the old one's place hides its glyphs from half opacity on, as the new one takes over).
            let newShown = own(node) + 0.01 >= own(old)
            let (shown, other) = newShown ? (node, old) : (old, node)
            hidden.insert(other.id)
            drawn[shown.id] = Self.merged(shown, with: other)
            if let place = order[other.id], let own = order[shown.id], place > own {
                standsIn[other.id] = shown.id
                deferred.insert(shown.id)
            }
            if shown.fill == nil, let mine = shown.text.first?.run.color, let theirs = other.text.first?.run.color {
                labelColours[shown.id] = [mine, theirs]
            }
        }
    }

    /// A node's opacity in 0…1 (0 when not finite).
    static func opacity(of node: FrameNode) -> Double {
        node.opacity.isFinite ? min(max(node.opacity, 0), 1) : 0
    }

    /// `shown` drawn for both copies: the sum of their opacities (at most 1), its fill and text runs' colours mixed
    /// with `other`'s by the copies' shares (a fill or run `other` lacks keeps the alpha it had alone).
    static func merged(_ shown: FrameNode, with other: FrameNode) -> FrameNode {
        let mine = opacity(of: shown)
        let theirs = opacity(of: other)
        let total = min(1, mine + theirs)
        guard total > 0 else { return shown }
        let share = theirs / (mine + theirs)
        // What is drawn alone keeps its own opacity: its alpha is scaled against the pair's.
        let alone = mine / total
        var node = shown
        node.opacity = total
        if let fill = shown.fill {
            node.fill = other.fill.map { mix(fill, $0, share) } ?? fill.scaled(alpha: alone)
        }
        for index in node.text.indices {
            let color = node.text[index].run.color
            node.text[index].run.color =
                index < other.text.count ? mix(color, other.text[index].run.color, share) : color.scaled(alpha: alone)
        }
        return node
    }

    /// `a` moved towards `b` by `amount` (0…1), channel by channel.
    static func mix(_ a: RGBA, _ b: RGBA, _ amount: Double) -> RGBA {
        func channel(_ x: Double, _ y: Double) -> Double { x + (y - x) * amount }
        return RGBA(
            red: channel(a.red, b.red), green: channel(a.green, b.green), blue: channel(a.blue, b.blue),
            alpha: channel(a.alpha, b.alpha))
    }
}

extension RGBA {
    /// This colour with its alpha multiplied by `factor`.
    fileprivate func scaled(alpha factor: Double) -> RGBA {
        RGBA(red: red, green: green, blue: blue, alpha: alpha * factor)
    }
}
