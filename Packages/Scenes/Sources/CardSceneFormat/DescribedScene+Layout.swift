import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics
import Foundation

/// One card placed by a layout pass: its layout, group and slot, and every property.
struct Placement {
    var layout: Int
    var group: Int
    var slot: Int
    var slotCount: Int
    var rect: Rect
    var rotation: Double
    var scale: Double
    var opacity: Double
    var z: Double
}

extension DescribedScene {
    /// The variables the layout pass computes per card.
    static let placed: [Builtin] = [
        .slot, .group, .groups, .slotCount, .colWidth, .cw, .ch, .x, .y, .rotation, .scale, .opacity, .z, .hoverGroup,
        .hoverSlot,
    ]

    /// The values every card expression reads before its card's (viewport, count, globals).
    func baseValues(viewport: Size) -> [UInt64] {
        var values = globals
        values[Builtin.n.rawValue] = Double(deck.count).expressionBits
        values[Builtin.vw.rawValue] = viewport.width.expressionBits
        values[Builtin.vh.rawValue] = viewport.height.expressionBits
        return values
    }

    /// Runs the layout pass for `viewport`: chooses each card's layout and group, numbers the slots, places every
    /// card and calls `visit` with its deck index, card, placement and the values its expressions saw (the same
    /// buffer each time: copy what must outlive the call). O(cards × expression size), with each expression first
    /// specialised to the values that are the same for every card (see `LayoutPass`).
    func place(viewport: Size, visit: (Int, Card, Placement, [UInt64]) -> Void) {
        place(LayoutPass(self, viewport: viewport), viewport: viewport, visit: visit)
    }

    /// Each card's layout and group (pass 1) and how many cards each layout's groups hold.
    struct Choice {
        /// By deck index (empty when the pass has nothing to choose: every card is in layout 0, group 0).
        var layouts: [Int]
        var groups: [Int]
        var counts: [[Int]]
    }

    /// Writes a card's own values (index, fields, variables, the live gesture's values) into a pass's buffer.
    struct CardLoader {
        var values: [UInt64]
        let own: [UInt64]
        let variableSlots: [Int]
        let liveCard: CardID?
        let liveValues: GestureValues
        var gestureWritten = false

        init(_ scene: DescribedScene, pass: LayoutPass) {
            values = pass.base
            variableSlots = pass.variableSlots
            let count = scene.deck.count
            let variableCount = variableSlots.count
            // Each card's variables, looked up once.
            var own = [UInt64]()
            if variableCount > 0 {
                own = [UInt64](repeating: 0, count: count * variableCount)
                for (index, card) in scene.deck.enumerated() {
                    guard let stored = scene.cardValues[card.id] else { continue }
                    for position in 0..<Swift.min(variableCount, stored.count) {
                        own[index * variableCount + position] = stored[position]
                    }
                }
            }
            self.own = own
            liveCard = scene.live?.card
            liveValues = scene.live?.values ?? GestureValues()
        }

        mutating func load(_ card: Card, index: Int) {
            values[Builtin.i.rawValue] = Double(index).expressionBits
            values[Builtin.cardID.rawValue] = card.id.rawValue
            values[Builtin.sortOrder.rawValue] = Double(card.sortOrder).expressionBits
            let variableCount = variableSlots.count
            for position in 0..<variableCount {
                values[variableSlots[position]] = own[index * variableCount + position]
            }
            if liveCard != nil, card.id == liveCard {
                DescribedScene.writeGesture(liveValues, active: true, into: &values)
                gestureWritten = true
            } else if gestureWritten {
                DescribedScene.writeGesture(GestureValues(), active: false, into: &values)
                gestureWritten = false
            }
        }
    }

    /// Pass 1: each card's layout (the first whose `when` holds) and group. O(cards × expression size); O(1)
    /// when there is one layout without groups.
    func choose(_ pass: LayoutPass) -> Choice {
        let layouts = pass.layouts
        var counts = layouts.map { [Int](repeating: 0, count: $0.layout.groups) }
        guard pass.needsChoice else {
            counts[0][0] = deck.count
            return Choice(layouts: [], groups: [], counts: counts)
        }
        var loader = CardLoader(self, pass: pass)
        var chosen = [Int](repeating: 0, count: deck.count)
        var groups = [Int](repeating: 0, count: deck.count)
        for (index, card) in deck.enumerated() {
            loader.load(card, index: index)
            var which = layouts.count - 1
            for candidate in layouts.indices {
                guard let when = layouts[candidate].when, !when.bool(loader.values) else {
                    which = candidate
                    break
                }
            }
            chosen[index] = which
            var group = 0
            if let expression = layouts[which].group {
                let raw = expression.number(loader.values).rounded(.down)
                group = Int(Swift.min(Swift.max(raw, 0), Double(layouts[which].layout.groups - 1)))
            }
            groups[index] = group
            counts[which][group] += 1
        }
        return Choice(layouts: chosen, groups: groups, counts: counts)
    }

    /// `place(viewport:visit:)` with a pass prepared by the caller (which reads its plans too). With `virtualised`,
    /// a scrolling layout's cards out of view are not placed (`DescribedScene+Scroll.swift`); without, every card
    /// is (what gestures and effects need).
    func place(
        _ pass: LayoutPass, viewport: Size, virtualised: Bool = false,
        visit: (Int, Card, Placement, [UInt64]) -> Void
    ) {
        let layouts = pass.layouts
        let choice = choose(pass)
        var loader = CardLoader(self, pass: pass)
        // The slots in view of each scrolling group (nil: every slot).
        let visible: [[Range<Int>?]] = layouts.indices.map { which in
            (0..<layouts[which].layout.groups).map { group in
                guard virtualised, layouts[which].layout.scroll else { return nil }
                return Self.visibleSlots(layouts[which], offset: pass.offsets[which][group], viewport: viewport)
            }
        }
        let liveCard = live?.card
        func visitCard(_ index: Int, which: Int, group: Int, slot: Int) {
            let card = deck[index]
            if let range = visible[which][group], !range.contains(slot), card.id != liveCard { return }
            loader.load(card, index: index)
            let placement = loader.values.withUnsafeMutableBufferPointer { values in
                place(
                    card, plan: layouts[which], layout: which, group: group, slot: slot,
                    slotCount: choice.counts[which][group], offsets: pass.offsets[which], viewport: viewport,
                    values: values)
            }
            visit(index, card, placement, loader.values)
        }
        // One layout without groups: a card's slot is its index, so only the slots in view are visited.
        if !pass.needsChoice, let range = visible[0][0] {
            let count = deck.count
            let inView = Swift.min(range.lowerBound, count)..<Swift.min(range.upperBound, count)
            for index in inView { visitCard(index, which: 0, group: 0, slot: index) }
            if let liveCard, let index = deck.index(of: liveCard), !inView.contains(index) {
                visitCard(index, which: 0, group: 0, slot: index)
            }
            return
        }
        // Pass 2: place each card at its slot of its layout's group.
        var next = layouts.map { [Int](repeating: 0, count: $0.layout.groups) }
        for index in deck.indices {
            let which = pass.needsChoice ? choice.layouts[index] : 0
            let group = pass.needsChoice ? choice.groups[index] : 0
            let slot = next[which][group]
            next[which][group] += 1
            visitCard(index, which: which, group: group, slot: slot)
        }
    }

    /// Writes a gesture's values (or zeros) into the slots `tx ty vx vy px py lx ly active`.
    @inline(__always)
    static func writeGesture(_ gesture: GestureValues, active: Bool, into values: inout [UInt64]) {
        values[Builtin.active.rawValue] = active ? 1 : 0
        values[Builtin.tx.rawValue] = gesture.translation.dx.expressionBits
        values[Builtin.ty.rawValue] = gesture.translation.dy.expressionBits
        values[Builtin.vx.rawValue] = gesture.velocity.dx.expressionBits
        values[Builtin.vy.rawValue] = gesture.velocity.dy.expressionBits
        values[Builtin.px.rawValue] = gesture.predicted.dx.expressionBits
        values[Builtin.py.rawValue] = gesture.predicted.dy.expressionBits
        values[Builtin.lx.rawValue] = gesture.location.x.expressionBits
        values[Builtin.ly.rawValue] = gesture.location.y.expressionBits
    }

    /// One card's placement: the layout kind's base, then the layout's property expressions, then the live
    /// gesture's bindings when it holds this card. Every slot the pass computes per card (`Builtin.placed`) is
    /// written here before anything reads it, and the plan's expressions read no other slot that an earlier card
    /// left behind (the specialisation fixed those to the values a card starts from).
    func place(
        _ card: Card, plan: LayoutPass.Plan, layout which: Int, group: Int, slot: Int, slotCount: Int,
        offsets: [Double] = [], viewport: Size, values: UnsafeMutableBufferPointer<UInt64>
    ) -> Placement {
        let read = UnsafeBufferPointer(values)
        let groupCount = Double(plan.layout.groups)
        let padding = plan.layout.padding
        let spacing = plan.layout.spacing
        values[Builtin.slot.rawValue] = Double(slot).expressionBits
        values[Builtin.group.rawValue] = Double(group).expressionBits
        values[Builtin.groups.rawValue] = groupCount.expressionBits
        values[Builtin.slotCount.rawValue] = Double(slotCount).expressionBits
        values[Builtin.colWidth.rawValue] = plan.columnWidth.expressionBits
        // The width first: the height may read it (`cw * 1.4`).
        let width =
            plan.fixedWidth ?? Swift.max(1, plan.number(plan.width, read))
        values[Builtin.cw.rawValue] = width.expressionBits
        let height =
            plan.fixedHeight ?? Swift.max(1, plan.number(plan.height, read))
        values[Builtin.ch.rawValue] = height.expressionBits
        let k = Double(slot)
        let middle = (Double(slotCount) - 1) / 2
        var x = (viewport.width - width) / 2
        var y = (viewport.height - height) / 2
        var rotation = 0.0
        var hoverGroup = 0.0
        var hoverSlot = k
        let isLive = self.live?.card == card.id
        var pointer = isLive ? self.live?.values.location ?? Point(x: 0, y: 0) : Point(x: 0, y: 0)
        // A scrolling layout's content is shifted by its offset; the pointer is read in the content's coordinates
        // (for `groups`, those of the group under it).
        let offset = plan.layout.scroll && group < offsets.count ? offsets[group] : 0
        if plan.layout.scroll && plan.layout.kind == .row { pointer.x += offset }
        if plan.layout.scroll && (plan.layout.kind == .column || plan.layout.kind == .grid) { pointer.y += offset }
        switch plan.layout.kind {
        case .stack:
            y += (k - middle) * spacing
        case .fan:
            x += (k - middle) * spacing
            rotation = (k - middle) * plan.layout.angle
        case .column:
            y = plan.layout.top + k * (height + spacing)
            hoverSlot = ((pointer.y - plan.layout.top) / (height + spacing)).rounded(.down)
        case .row:
            x = padding + k * (width + spacing)
            hoverSlot = ((pointer.x - padding) / (width + spacing)).rounded(.down)
        case .grid:
            let columns = Swift.max(1, ((viewport.width - 2 * padding + spacing) / (width + spacing)).rounded(.down))
            x = padding + k.truncatingRemainder(dividingBy: columns) * (width + spacing)
            y = plan.layout.top + (k / columns).rounded(.down) * (height + spacing)
            let column = Swift.min(
                Swift.max(((pointer.x - padding) / (width + spacing)).rounded(.down), 0), columns - 1)
            hoverSlot = ((pointer.y - plan.layout.top) / (height + spacing)).rounded(.down) * columns + column
        case .groups:
            let columnWidth = plan.columnWidth
            x = padding + Double(group) * (columnWidth + spacing) + (columnWidth - width) / 2
            y = plan.layout.top + k * (height + spacing)
            hoverGroup = ((pointer.x - padding + spacing / 2) / (columnWidth + spacing)).rounded(.down)
            hoverGroup = Swift.min(Swift.max(hoverGroup, 0), groupCount - 1)
            if plan.layout.scroll, Int(hoverGroup) < offsets.count { pointer.y += offsets[Int(hoverGroup)] }
            hoverSlot = ((pointer.y - plan.layout.top + spacing / 2) / (height + spacing)).rounded(.down)
        }
        if plan.layout.scroll {
            if plan.layout.kind == .row { x -= offset } else { y -= offset }
        }
        values[Builtin.hoverGroup.rawValue] = hoverGroup.expressionBits
        values[Builtin.hoverSlot.rawValue] = Swift.max(0, hoverSlot).expressionBits
        // x, y, rotation, scale, opacity, z (in `Property.allCases` order) in a SIMD vector: no heap allocation
        // per card.
        var properties = SIMD8<Double>(x, y, rotation, 1, 1, k, 0, 0)
        func store() {
            values[Builtin.x.rawValue] = properties[0].expressionBits
            values[Builtin.y.rawValue] = properties[1].expressionBits
            values[Builtin.rotation.rawValue] = properties[2].expressionBits
            values[Builtin.scale.rawValue] = properties[3].expressionBits
            values[Builtin.opacity.rawValue] = properties[4].expressionBits
            values[Builtin.z.rawValue] = properties[5].expressionBits
        }
        store()
        if !plan.properties.isEmpty {
            var updated = properties
            for (index, entry) in plan.properties { updated[index] = plan.number(entry, read) }
            properties = updated
            store()
        }
        if isLive, let rule = self.live {
            Self.apply(description.gestures[rule.rule].bind, to: &properties, values: read)
            store()
        }
        return Placement(
            layout: which, group: group, slot: slot, slotCount: slotCount,
            rect: Rect(x: properties[0], y: properties[1], width: width, height: height),
            rotation: properties[2], scale: Swift.max(0, properties[3]),
            opacity: Swift.min(Swift.max(properties[4], 0), 1), z: properties[5])
    }

    /// Evaluates `expressions` into `properties` (each reads the values before any of them changed).
    static func apply(
        _ expressions: [SceneDescription.PropertyExpression], to properties: inout SIMD8<Double>,
        values: UnsafeBufferPointer<UInt64>
    ) {
        guard !expressions.isEmpty else { return }
        var updated = properties
        for assignment in expressions { updated[assignment.index] = assignment.expression.number(values) }
        properties = updated
    }

    // MARK: Nodes

    public func layout(in viewport: Size) -> [Node] { layout(in: viewport, text: StandardTextMeasurer()) }

    public func layout(in viewport: Size, text: any TextMeasurer) -> [Node] {
        var nodes: [Node] = []
        nodes.reserveCapacity(1 + description.nodes.count + deck.count * (1 + description.card.children.count))
        nodes.append(
            Node(
                id: "background", role: .background,
                rect: Rect(x: 0, y: 0, width: viewport.width, height: viewport.height),
                z: -1, fill: description.backgroundFill, gestures: backgroundAttachments,
                isHitTestable: !backgroundAttachments.isEmpty))
        let base = baseValues(viewport: viewport)
        for fixed in description.nodes where Self.holds(fixed.when, base) {
            let rect = base.withUnsafeBufferPointer { buffer in
                Rect(
                    x: fixed.rect[0].number(buffer), y: fixed.rect[1].number(buffer),
                    width: Swift.max(0, fixed.rect[2].number(buffer)),
                    height: Swift.max(0, fixed.rect[3].number(buffer)))
            }
            let attachments = nodeAttachments[fixed.name] ?? []
            nodes.append(
                Node(
                    id: NodeID(fixed.name), role: fixed.role, rect: rect, z: fixed.z, cornerRadius: fixed.cornerRadius,
                    fill: fixed.fill.map { Self.fill($0, nil) },
                    text: fixed.text.map {
                        [
                            Self.run(
                                $0, card: nil, count: deck.count,
                                on: fixed.fill.map { Self.fill($0, nil) } ?? description.backgroundFill ?? .white)
                        ]
                    } ?? [],
                    transition: fixed.transition, gestures: attachments, isHitTestable: !attachments.isEmpty,
                    accessibilityLabel: fixed.accessibilityLabel))
        }
        let template = description.card
        let pass = LayoutPass(self, viewport: viewport)
        let matched = description.layouts.map { $0.matchedGeometry && description.layouts.count > 1 }
        let count = deck.count
        let cardFill = template.fill
        let containers = scrollContainers(pass, viewport: viewport)
        // The card a gesture holds leaves its scroll container while held, so that it is not clipped to its column
        // on its way to another.
        let heldCard = live?.card
        nodes.append(contentsOf: containers.compactMap { $0 }.flatMap { $0 })
        place(pass, viewport: viewport, virtualised: true) { _, card, placement, values in
            let id = node(card.id, layout: placement.layout)
            let fill = Self.fill(cardFill, card)
            nodes.append(
                Node(
                    id: id, role: template.role, card: card.id,
                    parent: heldCard == card.id ? nil : containers[placement.layout]?[placement.group].id,
                    rect: placement.rect, z: placement.z,
                    opacity: placement.opacity, rotation: .degrees(placement.rotation), scale: placement.scale,
                    cornerRadius: template.cornerRadius, fill: fill,
                    shadow: template.shadow.map { Shadow(radius: $0) }, transition: template.transition,
                    matchedGeometryID: matched[placement.layout] ? "card.\(card.id)" : nil,
                    gestures: cardAttachments,
                    clipsContent: true, mayOverflow: template.mayOverflow.map { Self.holds($0, values) } ?? false,
                    accessibilityLabel: accessibilityLabel(of: card, values: values)))
            appendTextStack(
                card: card, node: id, frame: placement.rect, values: values, text: text, to: &nodes)
            guard !template.children.isEmpty else { return }
            let frame = placement.rect
            let plan = pass.layouts[placement.layout]
            values.withUnsafeBufferPointer { buffer in
                for (position, child) in template.children.enumerated() {
                    let rect = plan.childRects.baseAddress! + 4 * position
                    let local = Rect(
                        x: plan.number(rect[0], buffer), y: plan.number(rect[1], buffer),
                        width: Swift.max(0, plan.number(rect[2], buffer)),
                        height: Swift.max(0, plan.number(rect[3], buffer)))
                    // The child is given its place on the unturned card only: the engine composes the card's
                    // rotation, scale and opacity into its children (`Engine.compose`), as SwiftUI carries a view's
                    // children with its modifiers. Giving them here too turned a held card's title twice.
                    nodes.append(
                        Node(
                            id: id.child(child.name), role: child.role, parent: id,
                            rect: local.offsetBy(Vector(dx: frame.minX, dy: frame.minY)),
                            cornerRadius: child.cornerRadius, fill: child.fill.map { Self.fill($0, card) },
                            text: child.text.map {
                                [
                                    Self.run(
                                        $0, card: card, count: count,
                                        on: child.fill.map { Self.fill($0, card) } ?? fill)
                                ]
                            } ?? [],
                            transition: template.transition, isHitTestable: false,
                            mayOverflow: placement.rotation != 0 || placement.scale != 1))
                }
            }
        }
        return nodes
    }

    /// The colour of `spec` on `card` (a node outside a card has only colour fills: the loader refuses
    /// `card.color` there).
    static func fill(_ spec: SceneDescription.FillSpec, _ card: Card?) -> RGBA {
        switch spec {
        case .color(let color): color
        case .cardColor: card.map { Loader.rgba($0.color) } ?? .black
        }
    }

    /// The run of `spec` on `card` (nil outside cards), drawn on `backdrop` (the fill a `"label"` colour reads on).
    static func run(_ spec: SceneDescription.TextSpec, card: Card?, count: Int, on backdrop: RGBA) -> TextRun {
        TextRun(
            card.map { fillTemplate(spec.template, card: $0, count: count) }
                ?? fillTemplate(spec.template, count: count),
            style: spec.style, color: color(spec.color, on: backdrop), weight: spec.weight, alignment: spec.alignment,
            lineLimit: spec.lineLimit)
    }

    /// `color` as drawn on `backdrop`: `"label"` is white where white has 4.5:1 contrast with it, else black.
    static func color(_ color: SceneDescription.TextColor, on backdrop: RGBA) -> RGBA {
        switch color {
        case .fixed(let fixed): fixed
        case .label: RGBA.label(on: backdrop)
        }
    }

    /// `template` with `{title}`, `{id}`, `{sortOrder}`, `{kind}`, `{prompt}`, `{answer}` and `{count}` replaced by
    /// the card's fields (an unknown `{name}` stays as written). O(template).
    static func fillTemplate(_ template: String, card: Card? = nil, count: Int) -> String {
        // Byte-wise (`contains("{")` on a String goes through Foundation's `range(of:)`: 9 % of a board's
        // pointer event at 1,000 cards), and a label that is the title alone shares the title's storage.
        guard template.utf8.contains(UInt8(ascii: "{")) else { return template }
        if let card, template == "{title}" { return card.title }
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = rest[rest.index(after: open)..<close]
            var replacement: String?
            switch name {
            case "count": replacement = String(count)
            case "title": replacement = card?.title
            case "id": replacement = card.map { String($0.id.rawValue) }
            case "sortOrder": replacement = card.map { String($0.sortOrder) }
            case "kind": replacement = card?.payload.kind
            case "prompt", "answer":
                if case .flashcard(let flashcard)? = card?.payload {
                    replacement = name == "prompt" ? flashcard.prompt : flashcard.answer
                }
            default: break
            }
            result += replacement ?? String(rest[open...close])
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
