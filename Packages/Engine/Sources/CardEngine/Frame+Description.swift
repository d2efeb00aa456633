import CardGeometry

extension Frame {
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

extension EngineEvent {
    /// One readable line.
    public var textDescription: String {
        switch self {
        case .gesture(let note): "gesture \(note.kind) \(note.phase) on \(note.target) at \(Frame.format(note.time))"
        case .haptic(let haptic):
            "haptic \(haptic.style.rawValue)\(haptic.target.map { " on \($0)" } ?? "") at \(Frame.format(haptic.time))"
        case .deckChanged(let change):
            "deck changed (\(change.diff.moveCount) moves, \(change.diff.insertions.count) in, "
                + "\(change.diff.removals.count) out) at \(Frame.format(change.time))"
        }
    }
}
