import CardGeometry

/// What one layout pass evaluates per card, prepared once per pass: each layout's expressions specialised to the
/// values that are the same for every card in it (the viewport, the count, the global state, the layout's group
/// count and column width, and a card size that reads only those), so that a card pays only for what reads its own
/// values. A 10,000-card stack whose size reads the viewport evaluates its size once, not 10,000 times.
///
/// Specialising is exact (`Expression.specialised`): a placement is bit for bit the one the unspecialised
/// expressions give. It relies on the order the pass writes a card's values in (`DescribedScene.place`): at each
/// point where an expression is evaluated, a slot the pass has not yet written for this card holds what an
/// earlier card left, so every such slot is *fixed* at that point, to the value a card starts from (0).
///
/// - Complexity: O(layouts × expression size) to prepare.
struct LayoutPass {
    /// One layout's plan for this pass. A class that owns its expressions' code in one buffer, so that a card
    /// reads its plan without copying (or retaining) an expression.
    final class Plan {
        /// The layout as described (its kind, groups, padding, spacing, top, angle and whether it scrolls).
        let layout: SceneDescription.Layout
        let columnWidth: Double
        /// Whether a card is chosen for this layout (pass 1, with the placed slots at 0).
        let when: Expression?
        /// The group a card takes (pass 1).
        let group: Expression?
        /// The card size when it is the same for every card.
        let fixedWidth: Double?
        let fixedHeight: Double?
        /// The entries of the card size (specialised) in `entries`.
        let width: Int
        let height: Int
        /// The property expressions (specialised): the property's index and the entry.
        let properties: UnsafeMutableBufferPointer<(index: Int, entry: Int)>
        /// The card template's child rectangles, specialised as the properties are (they read the placed card):
        /// four entries per child.
        let childRects: UnsafeMutableBufferPointer<Int>
        /// Every expression's code, one after another, and where each starts and ends and the stack it needs.
        private let code: UnsafeMutableBufferPointer<Expression.Instruction>
        private let entries: UnsafeMutableBufferPointer<(start: Int, end: Int, depth: Int)>

        init(
            _ layout: SceneDescription.Layout, columnWidth: Double, when: Expression?, group: Expression?,
            width: Expression, height: Expression, properties: [SceneDescription.PropertyExpression],
            childRects: [[Expression]]
        ) {
            self.layout = layout
            self.columnWidth = columnWidth
            self.when = when
            self.group = group
            fixedWidth = width.constantBits.map { Swift.max(1, Double(bitPattern: $0)) }
            fixedHeight = height.constantBits.map { Swift.max(1, Double(bitPattern: $0)) }
            let all = [width, height] + properties.map(\.expression) + childRects.flatMap(\.self)
            var code: [Expression.Instruction] = []
            var entries: [(start: Int, end: Int, depth: Int)] = []
            for expression in all {
                entries.append((code.count, code.count + expression.code.count, expression.stackDepth))
                code.append(contentsOf: expression.code)
            }
            self.code = .allocate(capacity: code.count)
            _ = self.code.initialize(from: code)
            self.entries = .allocate(capacity: entries.count)
            _ = self.entries.initialize(from: entries)
            self.width = 0
            self.height = 1
            self.properties = .allocate(capacity: properties.count)
            _ = self.properties.initialize(from: properties.enumerated().map { ($1.index, 2 + $0) })
            self.childRects = .allocate(capacity: childRects.count * 4)
            _ = self.childRects.initialize(from: (0..<childRects.count * 4).map { 2 + properties.count + $0 })
        }

        deinit {
            code.deallocate()
            entries.deallocate()
            properties.deallocate()
            childRects.deallocate()
        }

        /// The value of entry `entry` as a number. O(its code).
        @inline(__always)
        func number(_ entry: Int, _ values: UnsafeBufferPointer<UInt64>) -> Double {
            let (start, end, depth) = entries[entry]
            let program = UnsafeBufferPointer(rebasing: code[start..<end])
            return Expression.finite(Double(bitPattern: Expression.run(program, stackDepth: depth, values)))
        }
    }

    /// The values before any card's: the globals, the count and the viewport.
    let base: [UInt64]
    /// One plan per layout, in the description's order.
    let layouts: [Plan]
    /// Whether pass 1 must evaluate anything (more than one layout, or groups chosen by an expression).
    let needsChoice: Bool
    /// The slot of each card variable, in `description.cardVariables` order.
    let variableSlots: [Int]
    /// Each layout's groups' scroll offsets (0 where the layout does not scroll).
    let offsets: [[Double]]

    init(_ scene: DescribedScene, viewport: Size) {
        let description = scene.description
        var base = scene.baseValues(viewport: viewport)
        self.variableSlots = description.cardVariables.map(\.slot)
        self.needsChoice = !(description.layouts.count == 1 && description.layouts[0].group == nil)
        // Slots that hold the same value for every card at the time an expression reads them.
        var common = Set([Builtin.n, .vw, .vh].map(\.rawValue))
        common.formUnion(description.globals.map(\.slot))
        let placed = Set(DescribedScene.placed.map(\.rawValue))
        var plans: [Plan] = []
        plans.reserveCapacity(description.layouts.count)
        for layout in description.layouts {
            // Pass 1 reads every placed slot as 0.
            for slot in placed { base[slot] = 0 }
            let choice = base.withUnsafeBufferPointer { buffer in
                (
                    layout.when?.specialised(fixing: { common.contains($0) || placed.contains($0) }, values: buffer),
                    layout.group?.specialised(fixing: { common.contains($0) || placed.contains($0) }, values: buffer)
                )
            }
            let groupCount = Double(layout.groups)
            let columnWidth = Swift.max(
                1, (viewport.width - 2 * layout.padding - (groupCount - 1) * layout.spacing) / groupCount)
            var values = base
            values[Builtin.groups.rawValue] = groupCount.expressionBits
            values[Builtin.colWidth.rawValue] = columnWidth.expressionBits
            var fixed = common.union([Builtin.groups.rawValue, Builtin.colWidth.rawValue])
            // The width is read before the card's size and position are written: they are 0 then.
            let unwritten = placed.subtracting(
                [Builtin.slot, .group, .groups, .slotCount, .colWidth].map(\.rawValue))
            // The card size, then (when it is the same for every card) its value, fixed for what reads it later.
            func size(_ expression: Expression, slot: Builtin, unwritten: Set<Int>) -> Expression {
                let specialised = values.withUnsafeBufferPointer { buffer in
                    expression.specialised(fixing: { fixed.contains($0) || unwritten.contains($0) }, values: buffer)
                }
                if let bits = specialised.constantBits {
                    values[slot.rawValue] = Swift.max(1, Double(bitPattern: bits)).expressionBits
                    fixed.insert(slot.rawValue)
                }
                return specialised
            }
            let width = size(layout.width ?? description.card.width, slot: .cw, unwritten: unwritten)
            let height = size(
                layout.height ?? description.card.height, slot: .ch,
                unwritten: unwritten.subtracting([Builtin.cw.rawValue]))
            // Properties and child rectangles read the card once everything is written.
            let properties = values.withUnsafeBufferPointer { buffer in
                layout.properties.map {
                    SceneDescription.PropertyExpression(
                        index: $0.index, expression: $0.expression.specialised(fixing: fixed.contains, values: buffer))
                }
            }
            let childRects = values.withUnsafeBufferPointer { buffer in
                description.card.children.map { child in
                    child.rect.map { $0.specialised(fixing: fixed.contains, values: buffer) }
                }
            }
            plans.append(
                Plan(
                    layout, columnWidth: columnWidth, when: choice.0, group: choice.1, width: width, height: height,
                    properties: properties, childRects: childRects))
        }
        self.layouts = plans
        self.base = scene.baseValues(viewport: viewport)
        self.offsets = description.layouts.enumerated().map { index, layout in
            (0..<layout.groups).map { group in
                layout.scroll ? scene.scrollViews[ScrollKey(layout: index, group: group)]?.offset ?? 0 : 0
            }
        }
    }
}
