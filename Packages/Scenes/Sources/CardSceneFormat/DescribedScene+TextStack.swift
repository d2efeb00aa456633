import CardEngine
import CardGeometry
import CardModels

extension DescribedScene {
    /// Whether `when` holds for `values` (no condition always holds).
    static func holds(_ when: Expression?, _ values: [UInt64]) -> Bool {
        guard let when else { return true }
        return values.withUnsafeBufferPointer { when.bool($0) }
    }

    /// The first case of `cases` that holds, with its card fields filled in; nil when none does.
    static func text(_ cases: [SceneDescription.TextCase], card: Card?, count: Int, values: [UInt64]) -> String? {
        guard let chosen = cases.first(where: { holds($0.when, values) }) else { return nil }
        return card.map { fillTemplate(chosen.text, card: $0, count: count) } ?? fillTemplate(chosen.text, count: count)
    }

    /// The label assistive technologies read for `card`: the first of the template's label cases that holds, its
    /// fixed label, or the card's title.
    func accessibilityLabel(of card: Card, values: [UInt64]) -> String {
        let template = description.card
        if let chosen = Self.text(template.labels, card: card, count: deck.count, values: values) { return chosen }
        return template.accessibilityLabel.map { Self.fillTemplate($0, card: card, count: deck.count) } ?? card.title
    }

    /// Appends the card's text stack (`SceneDescription.TextStack`) inside `frame`, the card's rect before its
    /// rotation and scale (the engine carries its children with them). O(items × text length).
    func appendTextStack(
        card: Card, node id: NodeID, frame: Rect, values: [UInt64], text measurer: any TextMeasurer,
        to nodes: inout [Node]
    ) {
        guard let stack = description.card.textStack, Self.holds(stack.when, values) else { return }
        let items = stack.items.filter { Self.holds($0.when, values) }
        guard !items.isEmpty else { return }
        let inner = Rect(
            x: frame.minX + stack.padding, y: frame.minY + stack.padding,
            width: Swift.max(1, frame.width - 2 * stack.padding), height: Swift.max(1, frame.height - 2 * stack.padding)
        )
        let backdrop = Self.fill(description.card.fill, card)
        let heights = items.map { measurer.lineHeight(of: $0.text.style) }
        // Each text may take the room left after one line (and the spacing) for every text after it.
        var used = 0.0
        var placed: [(run: TextRun, lines: Int)] = []
        for (index, item) in items.enumerated() {
            let later = heights[(index + 1)...].reduce(0) { $0 + stack.spacing + $1 }
            let room = inner.height - used - (index > 0 ? stack.spacing : 0) - later
            let limit = Swift.max(1, Int((room / heights[index]).rounded(.down)))
            var run = Self.run(item.text, card: card, count: deck.count, on: backdrop)
            let lines = TextLayout.lines(
                run.text, width: inner.width, style: run.style, weight: run.weight, lineLimit: limit, measurer: measurer
            ).count
            run.lineLimit = item.text.lineLimit == nil ? limit : Swift.min(limit, item.text.lineLimit ?? limit)
            if item.limitIsUsedLines { run.lineLimit = lines }
            used += (index > 0 ? stack.spacing : 0) + Double(lines) * heights[index]
            placed.append((run, lines))
        }
        var top = inner.midY - used / 2
        for (index, item) in items.enumerated() {
            if index > 0 { top += stack.spacing }
            let height = Double(placed[index].lines) * heights[index]
            nodes.append(
                Node(
                    id: id.child(item.name), role: item.role, parent: id,
                    rect: Rect(x: inner.minX, y: top, width: inner.width, height: height), text: [placed[index].run],
                    transition: item.transition, isHitTestable: false))
            top += height
        }
    }
}
