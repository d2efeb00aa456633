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

    /// Writes card `card` at deck index `index` into `values`: its index, fields, variables, whether a gesture
    /// holds it and the gesture's values.
    func load(_ card: Card, index: Int, into values: inout [UInt64]) {
        // What the layout pass computes for a card starts at 0 for each card: an expression never reads another
        // card's value (a layout's `when` reads `x` as 0, not as the card before's).
        for builtin in Self.placed { values[builtin.rawValue] = 0 }
        values[Builtin.i.rawValue] = Double(index).expressionBits
        values[Builtin.cardID.rawValue] = card.id.rawValue
        values[Builtin.sortOrder.rawValue] = Double(card.sortOrder).expressionBits
        if !description.cardVariables.isEmpty, let own = cardValues[card.id] {
            for (position, variable) in description.cardVariables.enumerated() where position < own.count {
                values[variable.slot] = own[position]
            }
        }
        let gesture = live.flatMap { $0.card == card.id ? $0.values : nil } ?? GestureValues()
        values[Builtin.active.rawValue] = live?.card == card.id && live != nil ? 1 : 0
        values[Builtin.tx.rawValue] = gesture.translation.dx.expressionBits
        values[Builtin.ty.rawValue] = gesture.translation.dy.expressionBits
        values[Builtin.vx.rawValue] = gesture.velocity.dx.expressionBits
        values[Builtin.vy.rawValue] = gesture.velocity.dy.expressionBits
        values[Builtin.px.rawValue] = gesture.predicted.dx.expressionBits
        values[Builtin.py.rawValue] = gesture.predicted.dy.expressionBits
        values[Builtin.lx.rawValue] = gesture.location.x.expressionBits
        values[Builtin.ly.rawValue] = gesture.location.y.expressionBits
    }

    /// Runs the layout pass for `viewport`: chooses each card's layout and group, numbers the slots, places every
    /// card and calls `visit` with its deck index, card, placement and the values its expressions saw (the same
    /// buffer each time: copy what must outlive the call). O(cards × expression size).
    func place(viewport: Size, visit: (Int, Card, Placement, [UInt64]) -> Void) {
        let layouts = description.layouts
        var values = baseValues(viewport: viewport)
        // Pass 1: each card's layout and group.
        var chosen = [Int](repeating: 0, count: deck.count)
        var groups = [Int](repeating: 0, count: deck.count)
        var counts = [[Int]](repeating: [], count: layouts.count)
        for (index, layout) in layouts.enumerated() { counts[index] = [Int](repeating: 0, count: layout.groups) }
        // One layout without groups places every card in it: no expression to evaluate in this pass.
        let single = layouts.count == 1 && layouts[0].group == nil
        if single { counts[0][0] = deck.count }
        for (index, card) in deck.enumerated() where !single {
            load(card, index: index, into: &values)
            var which = layouts.count - 1
            for (candidate, layout) in layouts.enumerated() {
                if let when = layout.when {
                    if when.bool(values) {
                        which = candidate
                        break
                    }
                } else {
                    which = candidate
                    break
                }
            }
            chosen[index] = which
            let layout = layouts[which]
            var group = 0
            if let expression = layout.group {
                let raw = expression.number(values).rounded(.down)
                group = Int(Swift.min(Swift.max(raw, 0), Double(layout.groups - 1)))
            }
            groups[index] = group
            counts[which][group] += 1
        }
        // Pass 2: place each card at its slot of its layout's group.
        var next = [[Int]](repeating: [], count: layouts.count)
        for (index, layout) in layouts.enumerated() { next[index] = [Int](repeating: 0, count: layout.groups) }
        for (index, card) in deck.enumerated() {
            let which = chosen[index]
            let group = groups[index]
            let slot = next[which][group]
            next[which][group] += 1
            load(card, index: index, into: &values)
            let placement = place(
                card, layout: which, group: group, slot: slot, slotCount: counts[which][group], viewport: viewport,
                values: &values)
            visit(index, card, placement, values)
        }
    }

    /// One card's placement: the layout kind's base, then the layout's property expressions, then the live
    /// gesture's bindings when it holds this card.
    func place(
        _ card: Card, layout which: Int, group: Int, slot: Int, slotCount: Int, viewport: Size,
        values: inout [UInt64]
    ) -> Placement {
        let layout = description.layouts[which]
        let groupCount = Double(layout.groups)
        let padding = layout.padding
        let spacing = layout.spacing
        let columnWidth = Swift.max(1, (viewport.width - 2 * padding - (groupCount - 1) * spacing) / groupCount)
        values[Builtin.slot.rawValue] = Double(slot).expressionBits
        values[Builtin.group.rawValue] = Double(group).expressionBits
        values[Builtin.groups.rawValue] = groupCount.expressionBits
        values[Builtin.slotCount.rawValue] = Double(slotCount).expressionBits
        values[Builtin.colWidth.rawValue] = columnWidth.expressionBits
        // The width first: the height may read it (`cw * 1.4`).
        let width = Swift.max(1, (layout.width ?? description.card.width).number(values))
        values[Builtin.cw.rawValue] = width.expressionBits
        let height = Swift.max(1, (layout.height ?? description.card.height).number(values))
        values[Builtin.ch.rawValue] = height.expressionBits
        let k = Double(slot)
        let middle = (Double(slotCount) - 1) / 2
        var x = (viewport.width - width) / 2
        var y = (viewport.height - height) / 2
        var rotation = 0.0
        var hoverGroup = 0.0
        var hoverSlot = k
        let live = self.live?.card == card.id ? self.live?.values : nil
        let pointer = live?.location ?? Point(x: 0, y: 0)
        switch layout.kind {
        case .stack:
            y += (k - middle) * spacing
        case .fan:
            x += (k - middle) * spacing
            rotation = (k - middle) * layout.angle
        case .column:
            y = layout.top + k * (height + spacing)
            hoverSlot = ((pointer.y - layout.top) / (height + spacing)).rounded(.down)
        case .row:
            x = padding + k * (width + spacing)
            hoverSlot = ((pointer.x - padding) / (width + spacing)).rounded(.down)
        case .grid:
            let columns = Swift.max(1, ((viewport.width - 2 * padding + spacing) / (width + spacing)).rounded(.down))
            x = padding + k.truncatingRemainder(dividingBy: columns) * (width + spacing)
            y = layout.top + (k / columns).rounded(.down) * (height + spacing)
            let column = Swift.min(
                Swift.max(((pointer.x - padding) / (width + spacing)).rounded(.down), 0), columns - 1)
            hoverSlot = ((pointer.y - layout.top) / (height + spacing)).rounded(.down) * columns + column
        case .groups:
            x = padding + Double(group) * (columnWidth + spacing) + (columnWidth - width) / 2
            y = layout.top + k * (height + spacing)
            hoverGroup = ((pointer.x - padding + spacing / 2) / (columnWidth + spacing)).rounded(.down)
            hoverGroup = Swift.min(Swift.max(hoverGroup, 0), groupCount - 1)
            hoverSlot = ((pointer.y - layout.top + spacing / 2) / (height + spacing)).rounded(.down)
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
        Self.apply(layout.properties, to: &properties, values: values)
        store()
        if let rule = self.live, rule.card == card.id {
            Self.apply(description.gestures[rule.rule].bind, to: &properties, values: values)
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
        _ expressions: [SceneDescription.PropertyExpression], to properties: inout SIMD8<Double>, values: [UInt64]
    ) {
        guard !expressions.isEmpty else { return }
        var updated = properties
        values.withUnsafeBufferPointer { buffer in
            for assignment in expressions { updated[assignment.index] = assignment.expression.number(buffer) }
        }
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
        place(viewport: viewport) { _, card, placement, values in
            let id = node(card.id, layout: placement.layout)
            let layout = description.layouts[placement.layout]
            nodes.append(
                Node(
                    id: id, role: template.role, card: card.id, rect: placement.rect, z: placement.z,
                    opacity: placement.opacity, rotation: .degrees(placement.rotation), scale: placement.scale,
                    cornerRadius: template.cornerRadius, fill: Self.fill(template.fill, card),
                    shadow: template.shadow.map { Shadow(radius: $0) }, transition: template.transition,
                    matchedGeometryID: layout.matchedGeometry && description.layouts.count > 1
                        ? "card.\(card.id)" : nil,
                    gestures: cardAttachments,
                    clipsContent: true, mayOverflow: template.mayOverflow.map { Self.holds($0, values) } ?? false,
                    accessibilityLabel: accessibilityLabel(of: card, values: values)))
            appendTextStack(
                card: card, node: id, frame: placement.rect, values: values, text: text, to: &nodes)
            guard !template.children.isEmpty else { return }
            let frame = placement.rect
            let angle = placement.rotation * .pi / 180
            let (sine, cosine) = (sin(angle), cos(angle))
            values.withUnsafeBufferPointer { buffer in
                for child in template.children {
                    let local = Rect(
                        x: child.rect[0].number(buffer), y: child.rect[1].number(buffer),
                        width: Swift.max(0, child.rect[2].number(buffer)),
                        height: Swift.max(0, child.rect[3].number(buffer)))
                    // The child turns and scales with its card about the card's centre: its centre moves there
                    // and it takes the card's rotation and scale about its own.
                    let dx = (frame.minX + local.minX + local.width / 2 - frame.midX) * placement.scale
                    let dy = (frame.minY + local.minY + local.height / 2 - frame.midY) * placement.scale
                    let centre = Point(
                        x: frame.midX + dx * cosine - dy * sine, y: frame.midY + dx * sine + dy * cosine)
                    nodes.append(
                        Node(
                            id: id.child(child.name), role: child.role, parent: id,
                            rect: Rect(
                                x: centre.x - local.width / 2, y: centre.y - local.height / 2, width: local.width,
                                height: local.height),
                            opacity: placement.opacity, rotation: .degrees(placement.rotation), scale: placement.scale,
                            cornerRadius: child.cornerRadius, fill: child.fill.map { Self.fill($0, card) },
                            text: child.text.map {
                                [
                                    Self.run(
                                        $0, card: card, count: deck.count,
                                        on: Self.fill(child.fill ?? template.fill, card))
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
        guard template.contains("{") else { return template }
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
