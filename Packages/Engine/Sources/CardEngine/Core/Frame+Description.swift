import CardPersistence

extension Frame {
    /// The frame as a JSON value: `{"t", "viewport", "animating", "nodes": […], "events": […]}`, every number
    /// finite, nodes with the fields front ends draw. Used by `cardistry replay --json` and golden files.
    public var jsonValue: JSONValue {
        .object([
            .init("t", Self.number(time)),
            .init(
                "viewport",
                .object([.init("width", Self.number(viewport.width)), .init("height", Self.number(viewport.height))])),
            .init("animating", .bool(isAnimating)),
            .init("nodes", .array(nodes.map(\.jsonValue))),
            .init("events", .array(events.map(\.jsonValue))),
        ])
    }

    /// A readable, line-per-node rendering for bug reports and `cardistry replay`.
    public var textDescription: String {
        var lines = [
            "frame t=\(Self.format(time)) viewport=\(Self.format(viewport.width))×\(Self.format(viewport.height)) "
                + "nodes=\(nodes.count)\(isAnimating ? " animating" : "")"
        ]
        for node in nodes {
            var line = "  \(node.id) [\(node.role.rawValue)"
            if let card = node.card { line += " card \(card)" }
            line += "] x=\(Self.format(node.rect.minX)) y=\(Self.format(node.rect.minY))"
            line += " w=\(Self.format(node.rect.width)) h=\(Self.format(node.rect.height)) z=\(Self.format(node.z))"
            if node.opacity != 1 { line += " opacity=\(Self.format(node.opacity))" }
            if node.rotation != 0 { line += " rotation=\(Self.format(node.rotation))°" }
            if node.scale != 1 { line += " scale=\(Self.format(node.scale))" }
            if let fill = node.fill { line += " fill=\(Self.hex(fill))" }
            if node.isLeaving { line += " leaving" }
            for text in node.text {
                line += " \"\(text.text)\""
                if let from = text.rollingFrom { line += " (rolling from \"\(from)\")" }
            }
            lines.append(line)
        }
        for event in events { lines.append("  event " + event.textDescription) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .number("0") }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number(String(value))
    }

    /// A number with at most three decimals, trailing zeros dropped.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }

    static func hex(_ color: RGBA) -> String {
        let clamped = color.clamped
        let channels = [clamped.red, clamped.green, clamped.blue].map { UInt8(($0 * 255).rounded()) }
        var text = "#" + channels.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
        if clamped.alpha < 1 { text += "/\(format(clamped.alpha))" }
        return text
    }
}

extension FrameNode {
    /// The node as a JSON value (see `Frame.jsonValue`).
    public var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [.init("id", .string(id.rawValue)), .init("role", .string(role.rawValue))]
        if let card { members.append(.init("card", .string(card.description))) }
        if let parent { members.append(.init("parent", .string(parent.rawValue))) }
        members += [
            .init("x", Frame.number(rect.minX)), .init("y", Frame.number(rect.minY)),
            .init("width", Frame.number(rect.width)), .init("height", Frame.number(rect.height)),
            .init("z", Frame.number(z)), .init("opacity", Frame.number(opacity)),
            .init("rotation", Frame.number(rotation)), .init("scale", Frame.number(scale)),
            .init("cornerRadius", Frame.number(cornerRadius)),
        ]
        if let fill { members.append(.init("fill", .string(Frame.hex(fill)))) }
        if !text.isEmpty { members.append(.init("text", .string(plainText))) }
        if let matchedGeometryID { members.append(.init("matched", .string(matchedGeometryID))) }
        if isLeaving { members.append(.init("leaving", .bool(true))) }
        return .object(members)
    }
}

extension EngineEvent {
    /// The event as a JSON value: `{"type": "gesture"|"haptic"|"deck.changed", "t", …}`.
    public var jsonValue: JSONValue {
        switch self {
        case .gesture(let note):
            var members: [JSONValue.Member] = [
                .init("type", .string("gesture")), .init("t", Frame.number(note.time)),
                .init("kind", .string(note.kind)),
                .init("phase", .string("\(note.phase)")), .init("target", .string(note.target.rawValue)),
            ]
            if let card = note.card { members.append(.init("card", .string(card.description))) }
            return .object(members)
        case .haptic(let haptic):
            var members: [JSONValue.Member] = [
                .init("type", .string("haptic")), .init("t", Frame.number(haptic.time)),
                .init("style", .string(haptic.style.rawValue)),
            ]
            if let target = haptic.target { members.append(.init("target", .string(target.rawValue))) }
            if let card = haptic.card { members.append(.init("card", .string(card.description))) }
            return .object(members)
        case .deckChanged(let change):
            return .object([
                .init("type", .string("deck.changed")), .init("t", Frame.number(change.time)),
                .init("deck", .array(change.ids.map { .string($0.description) })),
                .init("moves", .integer(change.diff.moves.count)),
            ])
        }
    }

    /// One readable line.
    public var textDescription: String {
        switch self {
        case .gesture(let note): "gesture \(note.kind) \(note.phase) on \(note.target) at \(Frame.format(note.time))"
        case .haptic(let haptic):
            "haptic \(haptic.style.rawValue)\(haptic.target.map { " on \($0)" } ?? "") at \(Frame.format(haptic.time))"
        case .deckChanged(let change):
            "deck changed (\(change.diff.moves.count) moves, \(change.diff.insertions.count) in, "
                + "\(change.diff.removals.count) out) at \(Frame.format(change.time))"
        }
    }
}
