import CardGeometry

/// Checks a frame against what a view tree means, for tests, `cardistry replay --lint` and hosts.
///
/// Always: nodes are in depth-first paint order (every node after its parent, each subtree contiguous, siblings in
/// ascending `z` with ties in layout order) and a node's parent, if named, is in the frame. At rest (the frame is
/// not animating, no node is leaving) also: each text run fits its node (its lines fit the width and the line
/// height times the lines fits the height, or the last line is cut with "…"; icons, whose text names a symbol,
/// are not measured); sibling texts do not overlap (a sibling with a fill covers what it overlaps, so only a
/// later sibling without a fill counts); a node lies inside its parent unless the parent clips it (content scrolled
/// or slid out of a clipping parent is hidden, not spilled) or the node `mayOverflow`.
public struct FrameLint: Sendable {
    /// One problem, with the node it concerns and the frame's time.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// What is wrong.
        public enum Kind: String, Sendable, Hashable {
            /// A node paints outside its parent's subtree, or after a sibling with a higher z.
            case paintOrder
            /// A node names a parent that is not in the frame.
            case missingParent
            /// A text run is wider or taller than its node and not cut with "…".
            case textOverflow
            /// Two sibling nodes' texts overlap (the later one has no fill to cover the earlier).
            case textOverlap
            /// A node lies outside its parent, which does not clip it, and may not overflow.
            case outsideParent
        }

        /// What is wrong.
        public var kind: Kind
        /// The node it concerns.
        public var node: NodeID
        /// The other node, for an overlap or a node outside its parent or clip.
        public var other: NodeID?
        /// The frame's time, in seconds.
        public var time: Double
        /// A sentence for people.
        public var message: String

        public var description: String { "t=\(time) \(kind.rawValue) \(node): \(message)" }
    }

    /// Measures text as the frame's front end does (the measurer the engine laid the text out with).
    public var measurer: any TextMeasurer
    /// How far, in points, a node may stick out of its parent or clip before it counts (rounding).
    public var tolerance: Double

    /// A lint measuring text with `measurer`, allowing `tolerance` points of rounding.
    public init(measurer: any TextMeasurer = StandardTextMeasurer(), tolerance: Double = 0.5) {
        self.measurer = measurer
        self.tolerance = tolerance
    }

    /// Every finding in `frame`. O(n + text + siblings² among text nodes of one parent).
    public func findings(in frame: Frame) -> [Finding] {
        var findings: [Finding] = []
        func report(_ kind: Finding.Kind, _ node: NodeID, _ other: NodeID? = nil, _ message: String) {
            findings.append(Finding(kind: kind, node: node, other: other, time: frame.time, message: message))
        }
        let nodes = frame.nodes
        var position: [NodeID: Int] = [:]
        for (index, node) in nodes.enumerated() { position[node.id] = index }

        // Paint order: walk with a stack of open ancestors; a node's parent must be the innermost open one, and the
        // previous sibling under the same parent must not paint after it.
        var open: [Int] = []
        var lastChild: [Int: Int] = [:]  // parent position (-1: root) → last child position seen
        var lastRoot: Int?
        for (index, node) in nodes.enumerated() {
            // A matched copy flying to its partner paints as a root in its old place (`LeavingNode.paintParent`),
            // which may be inside another subtree: it is no part of the tree around it.
            if node.isLeaving && node.parent == nil && node.matchedGeometryID != nil { continue }
            let parent = node.parent.flatMap { position[$0] }
            if node.parent != nil && parent == nil {
                report(.missingParent, node.id, node.parent, "its parent \(node.parent!) is not in the frame")
            }
            while let top = open.last, top != parent { open.removeLast() }
            if let parent, open.last != parent {
                report(.paintOrder, node.id, nodes[parent].id, "paints outside its parent's subtree")
            }
            let previous = parent.map { lastChild[$0] } ?? lastRoot
            if let previous, nodes[previous].z > node.z {
                report(.paintOrder, node.id, nodes[previous].id, "paints after a sibling with a higher z")
            }
            if let parent { lastChild[parent] = index } else { lastRoot = index }
            open.append(index)
        }

        let atRest = !frame.isAnimating && !nodes.contains(where: \.isLeaving)
        guard atRest else { return findings }
        var textChildren: [Int: [Int]] = [:]
        for (index, node) in nodes.enumerated() {
            // Text fits its node.
            if !node.text.isEmpty && node.role != .icon {
                var height = 0.0
                var previousContinues = false
                for text in node.text where !text.run.isSymbol {
                    let lines = text.lines.isEmpty ? [text.text] : text.lines
                    if !previousContinues { height += Double(lines.count) * measurer.lineHeight(of: text.run.style) }
                    previousContinues = text.text.last?.isWhitespace == true
                    for line in lines where !line.hasSuffix(TextLayout.ellipsis) && line.count > 1 {
                        let width = measurer.width(of: line[...], style: text.run.style, weight: text.run.weight)
                        if width > node.rect.width + tolerance {
                            report(.textOverflow, node.id, nil, "\"\(line)\" is \(width) wide in \(node.rect.width)")
                        }
                    }
                }
                if height > node.rect.height + tolerance {
                    report(.textOverflow, node.id, nil, "its text is \(height) tall in \(node.rect.height)")
                }
                textChildren[node.parent.flatMap { position[$0] } ?? -1, default: []].append(index)
            }
            // Inside its parent, unless the parent clips it or it may overflow.
            if let parent = node.parent.flatMap({ position[$0] }), !nodes[parent].clipsContent, !node.mayOverflow,
                node.rect.width > 0, node.rect.height > 0,
                !Self.contains(nodes[parent].rect, node.rect, tolerance: tolerance)
            {
                report(.outsideParent, node.id, nodes[parent].id, "lies outside its parent")
            }
        }
        // Sibling texts do not overlap.
        for siblings in textChildren.values where siblings.count > 1 {
            for (offset, first) in siblings.enumerated() {
                for second in siblings[(offset + 1)...] {
                    let a = nodes[first].rect
                    let b = nodes[second].rect
                    let overlapX = min(a.maxX, b.maxX) - max(a.minX, b.minX)
                    let overlapY = min(a.maxY, b.maxY) - max(a.minY, b.minY)
                    if overlapX > tolerance && overlapY > tolerance && nodes[second].fill == nil {
                        report(.textOverlap, nodes[second].id, nodes[first].id, "its text overlaps a sibling's text")
                    }
                }
            }
        }
        return findings
    }

    static func contains(_ outer: Rect, _ inner: Rect, tolerance: Double) -> Bool {
        inner.minX >= outer.minX - tolerance && inner.maxX <= outer.maxX + tolerance
            && inner.minY >= outer.minY - tolerance && inner.maxY <= outer.maxY + tolerance
    }
}
