import CardEngine
import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardPhysics

extension DescribedScene {
    // MARK: Gestures

    public mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        if gesture.gesture == Self.scrollGestureName {
            handleScroll(gesture, context: &context)
            return
        }
        guard let index = description.gestures.firstIndex(where: { $0.name == gesture.gesture }) else { return }
        let rule = description.gestures[index]
        let card: CardID?
        switch rule.target {
        case .card:
            guard let id = self.card(of: gesture.target) else { return }
            card = id
        case .background, .node:
            card = nil
        }
        switch gesture.phase {
        case .began, .changed:
            guard !rule.bind.isEmpty else { return }
            live = LiveGesture(rule: index, card: card, values: GestureValues(gesture.value))
            // The bound properties follow the finger: no animation.
            context.animation = nil
        case .ended:
            var values = GestureValues(gesture.value)
            if let held = live, held.rule == index, gesture.value == nil { values = held.values }
            live = LiveGesture(rule: index, card: card, values: values)
            run(rule.onEnd, card: card, context: &context)
            live = nil
            if rule.onEnd.isEmpty { context.animation = description.animation.animation }
        case .cancelled, .failed:
            guard live?.rule == index else { return }
            live = nil
            context.animation = description.animation.animation
        }
    }

    // MARK: Actions and keys

    public mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        guard let rule = description.actions.first(where: { $0.info.name == action.name }) else {
            throw .unknownAction(action.name)
        }
        var card: CardID?
        for choice in rule.choices {
            guard action.has(choice.name) else {
                throw .invalidArgument(action: action.name, argument: choice.name, reason: "is required")
            }
            let given = try action.string(choice.name)
            guard let index = choice.choices.firstIndex(of: given) else {
                throw .invalidArgument(
                    action: action.name, argument: choice.name,
                    reason: "must be one of " + choice.choices.joined(separator: ", "))
            }
            globals[choice.slot] = Double(index).expressionBits
        }
        if rule.info.argument("card") != nil {
            if action.has("card") {
                let id = try action.card()
                guard deck.contains(id: id) else { throw .unknownCard(id) }
                card = id
            } else if let slot = rule.defaultCard, globals[slot] != Expression.noCard,
                deck.contains(id: CardID(globals[slot]))
            {
                card = CardID(globals[slot])
            } else if let chosen = rule.defaultsToLast ? deck.last : deck.first {
                card = chosen.id
            } else {
                throw .invalidState("there are no cards")
            }
        }
        run(rule.effects, card: card, context: &context)
    }

    public mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool {
        let name = (key.shift ? "shift+" : "") + key.key
        let base = baseValues(viewport: context.viewport)
        let held = base.withUnsafeBufferPointer { buffer in
            description.keys.first { $0.help.names.contains(name) && ($0.when?.bool(buffer) ?? true) }
        }
        guard let rule = held else { return false }
        var arguments = rule.arguments
        for (argument, value) in arguments where value == .string("$key") { arguments[argument] = .string(key.key) }
        do {
            try perform(SceneAction(rule.action, arguments), context: &context)
            return true
        } catch {
            return false
        }
    }

    // MARK: Effects

    /// The values `card`'s expressions see in the current layout (or the scene-wide values without a card).
    func values(for card: CardID?, viewport: Size) -> [UInt64] {
        var found: [UInt64]?
        if let card {
            place(viewport: viewport) { _, placed, _, values in
                if placed.id == card { found = values }
            }
        }
        return found ?? baseValues(viewport: viewport)
    }

    /// Applies the first effect of `effects` whose `when` holds (all reading the state before any change).
    mutating func run(_ effects: [SceneDescription.Effect], card: CardID?, context: inout SceneContext) {
        guard !effects.isEmpty else { return }
        let values = values(for: card, viewport: context.viewport)
        let chosen = values.withUnsafeBufferPointer { buffer in
            effects.first { $0.when?.bool(buffer) ?? true }
        }
        guard let effect = chosen else {
            context.animation = description.animation.animation
            return
        }
        apply(effect, card: card, values: values, context: &context)
    }

    mutating func apply(
        _ effect: SceneDescription.Effect, card: CardID?, values: [UInt64], context: inout SceneContext
    ) {
        let spec = effect.animation ?? description.animation
        context.animation = spec.animation
        var changed = false
        // Assignments are simultaneous: every right side reads the values before the change.
        let global = values.withUnsafeBufferPointer { buffer in effect.set.map { ($0.slot, $0.value.evaluate(buffer)) }
        }
        for (slot, value) in global where globals[slot] != value {
            globals[slot] = value
            changed = true
        }
        if let card {
            let own = values.withUnsafeBufferPointer { buffer in
                effect.setCard.map { ($0.slot, $0.value.evaluate(buffer)) }
            }
            for (slot, value) in own {
                guard let position = description.cardVariables.firstIndex(where: { $0.slot == slot }),
                    cardValues[card]?[position] != value
                else { continue }
                cardValues[card]?[position] = value
                changed = true
            }
        }
        if let snap = effect.snap {
            let anchor = values.withUnsafeBufferPointer { buffer in Self.anchor(snap, buffer) }
            let bits = Double(anchor).expressionBits
            if snap.isCardVariable, let card,
                let position = description.cardVariables.firstIndex(where: { $0.slot == snap.slot })
            {
                if cardValues[card]?[position] != bits {
                    cardValues[card]?[position] = bits
                    changed = true
                }
            } else if !snap.isCardVariable, globals[snap.slot] != bits {
                globals[snap.slot] = bits
                changed = true
            }
        }
        if let card, let slot = effect.reorderSlot {
            let wanted = values.withUnsafeBufferPointer { buffer in slot.number(buffer) }
            reorder(card, toSlot: wanted, context: &context)
        }
        if let card, effect.carryVelocity, let animation = spec.animation {
            let velocity = Vector(
                dx: Double(bitPattern: values[Builtin.vx.rawValue]), dy: Double(bitPattern: values[Builtin.vy.rawValue])
            )
            if velocity != .zero {
                context.nodeImpulses[node(card, layout: layoutIndex(of: card, viewport: context.viewport))] =
                    NodeImpulse(velocity: velocity, animation: animation)
            }
        }
        if let card, effect.remove, deck.contains(id: card) {
            let old = deck.ids
            let nodeID = node(card, layout: layoutIndex(of: card, viewport: context.viewport))
            _ = try? deck.remove(card)
            if let removal = effect.removal { context.removalTransitions[nodeID] = removal }
            context.deckChanged(from: old, to: deck)
        }
        if effect.restore, deck.count != allCards.count {
            let old = deck.ids
            for (index, card) in allCards.enumerated() where !deck.contains(id: card.id) {
                cardValues[card.id] = Self.initialValues(description, card: card, index: index, count: allCards.count)
            }
            deck = allCards
            context.deckChanged(from: old, to: deck)
        }
        if effect.resetCards {
            for (index, card) in allCards.enumerated() {
                let initial = Self.initialValues(description, card: card, index: index, count: allCards.count)
                if cardValues[card.id] != initial {
                    cardValues[card.id] = initial
                    changed = true
                }
            }
        }
        if let style = effect.haptic {
            context.haptic(
                style, target: card.map { node($0, layout: layoutIndex(of: $0, viewport: context.viewport)) },
                card: card)
        }
        if let delay = spec.delay, let animation = spec.animation {
            place(viewport: context.viewport) { _, placed, placement, values in
                let seconds = values.withUnsafeBufferPointer { delay.number($0) }
                context.nodeAnimations[node(placed.id, layout: placement.layout)] =
                    animation.delay(Swift.min(Swift.max(seconds, 0), 10))
            }
        }
        if changed { context.stateChanged = true }
    }

    /// The layout a card is in now.
    func layoutIndex(of card: CardID, viewport: Size) -> Int {
        var found = description.layouts.count - 1
        place(viewport: viewport) { _, placed, placement, _ in
            if placed.id == card { found = placement.layout }
        }
        return found
    }

    /// Compose's anchored drag: the index of the anchor `snap` chooses. A fling (|velocity| above `flingVelocity`)
    /// goes to the nearest anchor past the position in the fling's direction; otherwise the nearest anchor.
    static func anchor(_ snap: SceneDescription.Snap, _ values: UnsafeBufferPointer<UInt64>) -> Int {
        let position = snap.value.number(values)
        let velocity = snap.velocity.number(values)
        let points = snap.points.map { $0.number(values) }
        var nearest = 0
        for (index, point) in points.enumerated() where abs(point - position) < abs(points[nearest] - position) {
            nearest = index
        }
        guard abs(velocity) > snap.flingVelocity else { return nearest }
        var best: Int?
        for (index, point) in points.enumerated() {
            let ahead = velocity > 0 ? point > position : point < position
            guard ahead else { continue }
            if best == nil || abs(point - position) < abs(points[best!] - position) { best = index }
        }
        return best ?? nearest
    }

    /// Moves `card` within its layout group (as its variables now place it) to slot `wanted` (rounded, clamped to
    /// the group), reporting the new order.
    mutating func reorder(_ card: CardID, toSlot wanted: Double, context: inout SceneContext) {
        var group: (layout: Int, group: Int)?
        var members: [(CardID, Int, Int)] = []
        place(viewport: context.viewport) { _, placed, placement, _ in
            members.append((placed.id, placement.layout, placement.group))
            if placed.id == card { group = (placement.layout, placement.group) }
        }
        guard let group else { return }
        let others = members.filter { $0.0 != card && $0.1 == group.layout && $0.2 == group.group }.map(\.0)
        let slot = Int(Swift.min(Swift.max(wanted.rounded(), 0), Double(others.count)))
        var ids = deck.ids
        ids.removeAll { $0 == card }
        let destination: Int
        if slot < others.count, let index = ids.firstIndex(of: others[slot]) {
            destination = index
        } else if let last = others.last, let index = ids.firstIndex(of: last) {
            destination = index + 1
        } else {
            destination = Swift.min(deck.index(of: card) ?? 0, ids.count)
        }
        guard deck.index(of: card) != destination else { return }
        let old = deck.ids
        guard (try? deck.move(card, to: destination)) != nil else { return }
        context.deckChanged(from: old, to: deck)
    }

    // MARK: Deck from outside

    public mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {
        for (index, card) in deck.enumerated() where cardValues[card.id] == nil {
            cardValues[card.id] = Self.initialValues(description, card: card, index: index, count: deck.count)
        }
        self.deck = deck
        context.stateChanged = true
    }
}
