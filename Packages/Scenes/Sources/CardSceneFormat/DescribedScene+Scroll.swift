import CardEngine
import CardGeometry
import CardGestures
import CardPhysics

/// Which scroll view: a scrolling layout's, and for a `groups` layout the group's (each column scrolls on its own).
struct ScrollKey: Sendable, Hashable {
    var layout: Int
    var group: Int
}

/// Scroll containers (a layout with `"scroll": true`): the layout's cards sit in a container node that clips them
/// and carries the engine's `ScrollGesture` (drag or wheel; UIScrollView's deceleration and rubber band through
/// `ScrollView`), shifted by the container's offset along its axis — vertical for a column, a grid and each group of
/// `groups`, horizontal for a row.
///
/// Virtualised: when the card size along the axis is the same for every card, a frame lays out only the cards whose
/// slot lies within one container length of the visible part (and the card a gesture holds), so a 100,000-card
/// column costs what its few dozen visible cards cost. Property expressions move a card from its slot; the choice
/// of what is in view is made on the slot. The overscan of one container length on each side keeps cards present
/// during a coast of up to that length; a longer fling lands on cards that were not laid out at its start, which
/// the engine brings in with the template's insertion transition.
extension DescribedScene {
    /// The gesture name of every scroll container (not an identifier, so no rule of a description can take it).
    static let scrollGestureName = "scroll.view"

    /// The node of a scroll container.
    func scrollNode(_ key: ScrollKey) -> NodeID {
        NodeID("scroll.\(description.layouts[key.layout].name).\(key.group)")
    }

    /// The scroll key a container node names, if it is one of this scene's.
    func scrollKey(of node: NodeID) -> ScrollKey? {
        let parts = node.rawValue.split(separator: ".")
        guard parts.count == 3, parts[0] == "scroll", let group = Int(parts[2]),
            let layout = description.layouts.firstIndex(where: { $0.name == parts[1] && $0.scroll }),
            (0..<description.layouts[layout].groups).contains(group)
        else { return nil }
        return ScrollKey(layout: layout, group: group)
    }

    /// The container's frame: below the layout's `top` to the bottom of the viewport (a `groups` layout's group:
    /// its column's width); a row's, the whole width.
    static func scrollFrame(_ plan: LayoutPass.Plan, group: Int, viewport: Size) -> Rect {
        let height = Swift.max(0, viewport.height - plan.layout.top)
        switch plan.layout.kind {
        case .groups:
            return Rect(
                x: plan.layout.padding + Double(group) * (plan.columnWidth + plan.layout.spacing), y: plan.layout.top,
                width: plan.columnWidth, height: height)
        default:
            return Rect(x: 0, y: plan.layout.top, width: viewport.width, height: height)
        }
    }

    /// The axis a plan scrolls along.
    static func scrollAxis(_ plan: LayoutPass.Plan) -> GestureAxis {
        plan.layout.kind == .row ? .horizontal : .vertical
    }

    /// The content's length along the axis for `count` cards of `size`, and the container's length.
    static func scrollLengths(_ plan: LayoutPass.Plan, count: Int, size: Size, viewport: Size) -> (
        content: Double, view: Double
    ) {
        let frame = scrollFrame(plan, group: 0, viewport: viewport)
        let spacing = plan.layout.spacing
        switch plan.layout.kind {
        case .row:
            return (plan.layout.padding * 2 + Double(count) * (size.width + spacing) - spacing, frame.width)
        case .grid:
            let columns = gridColumns(plan, width: size.width, viewport: viewport)
            let rows = (Double(count) / columns).rounded(.up)
            return (rows * (size.height + spacing) - spacing + plan.layout.padding, frame.height)
        default:
            return (Double(count) * (size.height + spacing) - spacing + plan.layout.padding, frame.height)
        }
    }

    /// How many cards a grid row holds.
    static func gridColumns(_ plan: LayoutPass.Plan, width: Double, viewport: Size) -> Double {
        Swift.max(
            1,
            ((viewport.width - 2 * plan.layout.padding + plan.layout.spacing) / (width + plan.layout.spacing)).rounded(
                .down))
    }

    /// The slots of a scrolling group within one container length of its visible part, or nil when the card size
    /// along the axis is not the same for every card (then every card is laid out). O(1).
    static func visibleSlots(_ plan: LayoutPass.Plan, offset: Double, viewport: Size) -> Range<Int>? {
        let frame = scrollFrame(plan, group: 0, viewport: viewport)
        let isRow = plan.layout.kind == .row
        guard let along = isRow ? plan.fixedWidth : plan.fixedHeight else { return nil }
        let view = isRow ? frame.width : frame.height
        let stride = Swift.max(1, along + plan.layout.spacing)
        let start = isRow ? plan.layout.padding : 0
        let low = ((offset - view - start - along) / stride).rounded(.down)
        let high = ((offset + 2 * view - start) / stride).rounded(.up)
        var per = 1.0
        if plan.layout.kind == .grid, let width = plan.fixedWidth {
            per = gridColumns(plan, width: width, viewport: viewport)
        }
        let first = Int(Swift.min(Swift.max(low * per, 0), 1e9))
        let last = Int(Swift.min(Swift.max((high + 1) * per, 0), 1e9))
        return first..<Swift.max(first, last)
    }

    /// The container nodes of each layout's groups (nil for a layout that does not scroll): each clips its cards
    /// and carries the scroll gesture from its scroll view's offset over the content's range.
    func scrollContainers(_ pass: LayoutPass, viewport: Size) -> [[Node]?] {
        guard pass.layouts.contains(where: \.layout.scroll) else { return pass.layouts.map { _ in nil } }
        let choice = choose(pass)
        return pass.layouts.enumerated().map { which, plan in
            guard plan.layout.scroll else { return nil }
            return (0..<plan.layout.groups).map { group in
                let key = ScrollKey(layout: which, group: group)
                let view = scrollViews[key]
                var range = view?.range ?? 0...0
                if let width = plan.fixedWidth, let height = plan.fixedHeight {
                    let lengths = Self.scrollLengths(
                        plan, count: choice.counts[which][group], size: Size(width: width, height: height),
                        viewport: viewport)
                    range = 0...Swift.max(0, lengths.content - lengths.view)
                }
                let offset = pass.offsets[which][group]
                let gesture = ScrollGesture(
                    axis: Self.scrollAxis(plan),
                    contentOffset: Swift.min(Swift.max(offset, range.lowerBound), range.upperBound),
                    offsetRange: range)
                return Node(
                    id: scrollNode(key), role: .background,
                    rect: Self.scrollFrame(plan, group: group, viewport: viewport),
                    gestures: [GestureAttachment(Self.scrollGestureName, gesture)], clipsContent: true)
            }
        }
    }

    // MARK: Events

    /// A scroll container's gesture event: the container's scroll view, sized for its cards now, follows it.
    mutating func handleScroll(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        guard let key = scrollKey(of: gesture.target) else { return }
        let pass = LayoutPass(self, viewport: context.viewport)
        let plan = pass.layouts[key.layout]
        let choice = choose(pass)
        let count = choice.counts[key.layout][key.group]
        var lengths: (content: Double, view: Double)
        if let width = plan.fixedWidth, let height = plan.fixedHeight {
            lengths = Self.scrollLengths(
                plan, count: count, size: Size(width: width, height: height), viewport: context.viewport)
        } else {
            // Cards of different sizes: the content reaches the far edge of the farthest card's slot.
            let frame = Self.scrollFrame(plan, group: key.group, viewport: context.viewport)
            let offset = pass.offsets[key.layout][key.group]
            var far = 0.0
            place(pass, viewport: context.viewport) { _, _, placement, values in
                guard placement.layout == key.layout, placement.group == key.group else { return }
                let end =
                    plan.layout.kind == .row
                    ? Double(bitPattern: values[Builtin.x.rawValue]) + placement.rect.width + offset - frame.minX
                    : Double(bitPattern: values[Builtin.y.rawValue]) + placement.rect.height + offset - frame.minY
                far = Swift.max(far, end)
            }
            lengths = (far + plan.layout.padding, plan.layout.kind == .row ? frame.width : frame.height)
        }
        var view = scrollViews[key] ?? ScrollView(axis: Self.scrollAxis(plan))
        view.resize(contentLength: lengths.content, viewportLength: lengths.view)
        context.animation = view.handle(gesture.phase, gesture.value, at: context.time)
        scrollViews[key] = view
    }
}
