import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardScenes
import Testing

/// What a scene shows at rest, as its accessibility tree says, without the focus (a gesture does not move the
/// keyboard's focus, a key does): per visible node its role, name, value, states, place in its set, bounds and
/// children, with the deck's order. Two sessions that end in the same rest state have reached the same order,
/// selection, removal, expansion, scroll position (the bounds) and slider value.
private struct RestState: Equatable, CustomStringConvertible {
    struct Item: Equatable {
        var id: NodeID
        var role: AccessibilityRole
        var name: String?
        var value: String?
        var state: String?
        var selected: Bool?
        var expanded: Bool?
        var disabled: Bool
        var position: Int?
        var size: Int?
        var bounds: Rect
        var children: [NodeID]
    }
    var order: [CardID]
    var items: [Item]

    init(_ engine: Engine) {
        order = Array(engine.deck.ids.prefix(64))
        items = engine.accessibilityTree().readingOrder.filter { !$0.isHidden }.map {
            Item(
                id: $0.id, role: $0.role, name: $0.name, value: $0.value, state: $0.stateDescription,
                selected: $0.isSelected, expanded: $0.isExpanded, disabled: $0.isDisabled, position: $0.positionInSet,
                size: $0.sizeOfSet, bounds: $0.bounds, children: $0.children)
        }
    }

    var description: String { "order \(order.prefix(4)), \(items.count) nodes: \(items.prefix(4).map(\.id.rawValue))…" }
}

/// One scene driven three ways side by side: by gestures (pointer events on the nodes' bounds), by keys alone and
/// by accessibility actions alone. Each step is done all three ways; the engines then rest a second.
private struct ThreeWays {
    var gesture: Engine
    var keys: Engine
    var actions: Engine
    var time = 1.0
    /// The rest state after the last step, and how many steps changed it (a session that changes nothing proves
    /// nothing: each test checks that most of its steps did).
    var last: RestState?
    var changes = 0

    init(_ make: () throws -> Engine) rethrows {
        gesture = try make()
        keys = try make()
        actions = try make()
    }

    /// Lets a second pass on every engine (springs settle, delayed selections land).
    mutating func rest() {
        time += 1
        _ = gesture.frame(at: time)
        _ = keys.frame(at: time)
        _ = actions.frame(at: time)
        time += 1
    }

    /// One step each plain way: a tap at `point` (nil: no gesture reaches the state, and the gesture engine presses
    /// the key too), the key `key`, and `action` on `node` (the custom action read as `custom`).
    mutating func each(
        tap point: Point?, key: String, _ action: AccessibilityAction, on node: NodeID, custom: String? = nil
    ) throws {
        if let point { tap(&gesture, point, at: time) } else { press(&gesture, key, at: time) }
        press(&keys, key, at: time)
        try act(&actions, action, on: node, custom: custom, at: time)
    }

    /// Opens (expands, chooses) `node`: a tap on its strip; the focus walked there by keys, then enter; its default
    /// action.
    mutating func open(_ node: NodeID) throws {
        tap(&gesture, try grip(gesture, node), at: time)
        focusByKeys(&keys, on: node, at: time)
        press(&keys, "enter", at: time + 1.5)
        try act(&actions, .default, on: node, at: time)
    }

    /// Moves `node` one place: a press on its strip held `hold` seconds, a drag by `dy` in four moves over 0.2 s and
    /// a release; the focus walked there by keys, then shift+↑ (`up`) or shift+↓; its custom action `custom`.
    mutating func move(_ node: NodeID, dy: Double, hold: Double, up: Bool, custom: String) throws {
        let start = try grip(gesture, node)
        gesture.handle(.pointer(PointerEvent(.down, at: start, time: time)))
        _ = gesture.frame(at: time + hold)
        for fraction in [0.25, 0.5, 0.75, 1.0] {
            let point = Point(x: start.x, y: start.y + dy * fraction)
            gesture.handle(.pointer(PointerEvent(.move, at: point, time: time + hold + fraction * 0.2)))
        }
        let end = Point(x: start.x, y: start.y + dy)
        gesture.handle(.pointer(PointerEvent(.up, at: end, time: time + hold + 0.25)))
        focusByKeys(&keys, on: node, at: time)
        press(&keys, up ? "up" : "down", shift: true, at: time + 1.5)
        try act(&actions, .customAction, on: node, custom: custom, at: time)
    }

    /// Rests, then whether all three ended in the same rest state (`agree`).
    mutating func settled(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        rest()
        return agree(step, sourceLocation: sourceLocation)
    }

    /// Whether all three ended in the same rest state; records an issue naming `step` if not.
    mutating func agree(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let byGesture = RestState(gesture)
        let byKeys = RestState(keys)
        let byActions = RestState(actions)
        #expect(byKeys == byGesture, "\(step): keys \(byKeys) vs gestures \(byGesture)", sourceLocation: sourceLocation)
        #expect(
            byActions == byGesture, "\(step): actions \(byActions) vs gestures \(byGesture)",
            sourceLocation: sourceLocation)
        if last != nil, last != byGesture { changes += 1 }
        last = byGesture
        return byKeys == byGesture && byActions == byGesture
    }
}

// MARK: The three ways

/// A tap at `point`.
private func tap(_ engine: inout Engine, _ point: Point, at time: Double) {
    engine.handle(.pointer(PointerEvent(.down, at: point, time: time)))
    engine.handle(.pointer(PointerEvent(.up, at: point, time: time + 0.04)))
}

/// A point on the visible strip of `node` (its top 20 points: a stacked card's later neighbours cover the rest).
private func grip(_ engine: Engine, _ node: NodeID) throws -> Point {
    let bounds = try #require(engine.accessibilityTree()[node]).bounds
    return Point(x: bounds.midX, y: bounds.minY + min(20, bounds.height / 2))
}

/// A slow drag from `start` to `end` (ten moves over 0.5 s), held still there and released at 0.9 s, so the content
/// moves by the finger's distance and does not coast.
private func heldDrag(_ engine: inout Engine, from start: Point, to end: Point, at time: Double) {
    engine.handle(.pointer(PointerEvent(.down, at: start, time: time)))
    for fraction in stride(from: 0.1, through: 1.0, by: 0.1) {
        let point = Point(x: start.x + (end.x - start.x) * fraction, y: start.y + (end.y - start.y) * fraction)
        engine.handle(.pointer(PointerEvent(.move, at: point, time: time + fraction * 0.5)))
    }
    engine.handle(.pointer(PointerEvent(.move, at: end, time: time + 0.7)))
    engine.handle(.pointer(PointerEvent(.up, at: end, time: time + 0.9)))
}

/// Presses `key`.
private func press(_ engine: inout Engine, _ key: String, shift: Bool = false, at time: Double) {
    engine.handle(.key(KeyInput(key, shift: shift), time: time))
}

/// Moves the keyboard focus to `node` by arrow keys alone: down while that brings it nearer (by place in the set),
/// else up. Fails the test if it never gets there.
private func focusByKeys(_ engine: inout Engine, on node: NodeID, at time: Double) {
    func distance(_ engine: Engine) -> Int {
        let tree = engine.accessibilityTree()
        let here = tree.focus.flatMap { tree[$0]?.positionInSet } ?? 0
        return abs((tree[node]?.positionInSet ?? 0) - here)
    }
    var key = "down"
    for step in 0..<100 {
        if engine.accessibilityTree().focus == node { return }
        let before = distance(engine)
        var trial = engine
        press(&trial, key, at: time + Double(step) * 0.01)
        if distance(trial) >= before, trial.accessibilityTree().focus != node {
            key = key == "down" ? "up" : "down"
            press(&engine, key, at: time + Double(step) * 0.01)
        } else {
            engine = trial
        }
    }
    Issue.record("the keys never brought the focus to \(node)")
}

/// Performs `action` on `node`; for `.customAction`, the one read as `custom`.
private func act(
    _ engine: inout Engine, _ action: AccessibilityAction, on node: NodeID, custom: String? = nil, at time: Double
) throws {
    let id = custom.flatMap { name in engine.accessibilityTree()[node]?.customActions.first { $0.description == name } }
    if custom != nil, id == nil { Issue.record("\(node) offers no custom action '\(custom!)'") }
    try engine.performAccessibilityAction(action, on: node, customAction: id?.id, at: time)
}

/// The nodes of the tree of `role` that are shown and take actions, in reading order.
private func live(_ engine: Engine, _ role: AccessibilityRole) -> [AccessibilityNode] {
    engine.accessibilityTree().readingOrder.filter { $0.role == role && !$0.isHidden && !$0.isDisabled }
}

/// A seeded session of `steps` steps on a scene `make` builds three times: each step (`step`, given the three ways
/// and the session's generator) is followed by a rest and the check that all three agree; at least `changing` of
/// the steps must have changed the rest state (a session that changes nothing proves nothing).
private func play(
    seed: UInt64, steps: Int, changing: Int, _ make: () throws -> Engine,
    step: (inout ThreeWays, inout SplitMix64) throws -> Void
) throws {
    var ways = try ThreeWays(make)
    var random = SplitMix64(seed: seed)
    for index in 0..<steps {
        try step(&ways, &random)
        guard ways.settled("seed \(seed) step \(index)") else { return }
    }
    #expect(ways.changes >= changing, "only \(ways.changes) steps changed anything")
}

private let phone = Size(width: 390, height: 844)

/// Equivalence of gestures, keys and accessibility actions, scene by scene (issue 51 item 6): seeded sessions of
/// steps, each done by a gesture, by keys alone and by accessibility actions alone, end every step in the same rest
/// state (order, selection, removal, expansion, scroll position, the slider's value).
@Suite struct AccessibilityEquivalenceTests {
    /// Deck: reorders (hold, then drag by whole places; shift+↑/↓; "move up"/"move down"), expanding (a tap;
    /// enter; the default action) and closing (a tap on the background; escape; collapse). The viewport is tall
    /// enough that the twelve cards fit, so that walking the focus by keys does not scroll.
    @Test(arguments: 0..<12)
    func deckReordersAndExpansions(seed: UInt64) throws {
        let tall = Size(width: 390, height: 1200)
        let make = { Engine(scene: try DeckScene(), viewport: tall) }
        try play(seed: 0xDEC_0000 + seed, steps: 10, changing: 5, make) { ways, random in
            if let detail = ways.actions.accessibilityTree().focus, detail.rawValue.hasPrefix("detail.") {
                try ways.each(tap: Point(x: 200, y: 20), key: "escape", .collapse, on: detail)
                return
            }
            let cards = live(ways.gesture, .listBoxOption)
            let card = cards[Int(random.next() % UInt64(cards.count))]
            let slot = try #require(card.positionInSet) - 1
            let pitch = cards[1].bounds.minY - cards[0].bounds.minY
            if random.next() % 3 == 0 {
                try ways.open(card.id)
            } else {
                let up = slot == cards.count - 1 || (slot > 0 && random.next() % 2 == 0)
                try ways.move(card.id, dy: up ? -pitch : pitch, hold: 0.6, up: up, custom: up ? "move up" : "move down")
            }
        }
    }

    /// Deck of 1,000 cards: the scroll position by a slow drag of a page held still before the release (no
    /// coast), page up or down, and the column's "scroll up"/"scroll down"; home and end against "scroll to top"
    /// and "scroll to bottom" (a gesture reaches the ends by pages); and the fan by `p` against "open the fan" and
    /// "close the fan" (a gesture's fan closes on release, where both others start).
    @Test(arguments: 0..<6)
    func deckScrollAndFan(seed: UInt64) throws {
        var fanOpen = false
        let make = { Engine(scene: try DeckScene(options: SceneOptions(cardCount: 1_000)), viewport: phone) }
        try play(seed: 0x5C2_0000 + seed, steps: 16, changing: 8, make) { ways, random in
            let t = ways.time
            let choice = random.next() % 7
            if fanOpen || choice == 6 {
                // No gesture holds the fan open at rest.
                try ways.each(
                    tap: nil, key: "p", .customAction, on: "column",
                    custom: fanOpen ? "close the fan" : "open the fan")
                fanOpen.toggle()
            } else if choice >= 4 {
                let top = choice == 4
                try ways.each(
                    tap: nil, key: top ? "home" : "end", .customAction, on: "column",
                    custom: top ? "scroll to top" : "scroll to bottom")
            } else {
                let down = choice < 3
                let page = phone.height - 72  // the deck's page: the viewport under its title (`contentTop` 72)
                let start = Point(x: 195, y: down ? 820 : 820 - page)
                let end = Point(x: 195, y: down ? 820 - page : 820)
                heldDrag(&ways.gesture, from: start, to: end, at: t)
                press(&ways.keys, down ? "pagedown" : "pageup", at: t)
                try act(&ways.actions, .customAction, on: "column", custom: down ? "scroll down" : "scroll up", at: t)
            }
            ways.rest()
        }
    }

    /// Flashcards: the top card's answer (a tap; space; "reveal answer"/"hide answer") and dismissal either way (a
    /// drag of 120 points; ← →; "dismiss left"/"dismiss right"), until the stack is empty and restarts (a tap on
    /// the button; r; its default action).
    @Test(arguments: 0..<12)
    func flashcards(seed: UInt64) throws {
        let make = { Engine(scene: try FlashcardsScene(), viewport: phone) }
        try play(seed: 0xF1A_0000 + seed, steps: 30, changing: 15, make) { ways, random in
            let tree = ways.actions.accessibilityTree()
            let top = try #require(tree.focus)
            let card = try #require(tree[top])
            let center = Point(x: card.bounds.midX, y: card.bounds.midY)
            if card.role == .button {
                try ways.each(tap: center, key: "r", .default, on: top)
            } else if random.next() % 3 == 0 {
                let custom = card.isExpanded == true ? "hide answer" : "reveal answer"
                try ways.each(tap: center, key: "space", .customAction, on: top, custom: custom)
            } else {
                let left = random.next() % 2 == 0
                drag(&ways.gesture, from: center, by: Vector(dx: left ? -120 : 120, dy: 0), at: ways.time)
                press(&ways.keys, left ? "left" : "right", at: ways.time)
                try act(
                    &ways.actions, .customAction, on: top, custom: left ? "dismiss left" : "dismiss right",
                    at: ways.time)
            }
        }
    }

    /// Wallet: a card moved back or forward by one place (a press-and-drag of 60 points; shift+↑/↓; "move up" or
    /// "move down"), chosen (a tap; enter; the default action) and let go (a tap on it; escape; collapse).
    @Test(arguments: 0..<12)
    func wallet(seed: UInt64) throws {
        let make = { Engine(scene: try WalletScene(), viewport: phone) }
        try play(seed: 0x3A1_0000 + seed, steps: 12, changing: 6, make) { ways, random in
            let cards = live(ways.actions, .listBoxOption)
            if let chosen = cards.first(where: { $0.isSelected == true }) {
                try ways.each(tap: try grip(ways.gesture, chosen.id), key: "escape", .collapse, on: chosen.id)
                return
            }
            let card = cards[Int(random.next() % UInt64(cards.count))]
            if random.next() % 3 == 0 {
                try ways.open(card.id)
            } else {
                let index = try #require(card.positionInSet) - 1
                let back = index == 0 || (index < cards.count - 1 && random.next() % 2 == 0)
                try ways.move(card.id, dy: back ? -60 : 60, hold: 0.1, up: back, custom: back ? "move up" : "move down")
            }
        }
    }

    /// Wallet history: scrolled by ← → home end and by the history's custom actions, a chosen card's history ends
    /// in the same place (no gesture: a drag's distance is the finger's, not a tile's; the gesture engine presses
    /// the keys too).
    @Test(arguments: 0..<4)
    func walletHistory(seed: UInt64) throws {
        let steps: [(key: String, action: String)] = [
            ("left", "scroll history back"), ("right", "scroll history forward"),
            ("home", "scroll history to start"), ("end", "scroll history to end"),
        ]
        let chosen = {
            var engine = Engine(scene: try WalletScene(), viewport: phone)
            let card = try #require(live(engine, .listBoxOption).first).id
            try act(&engine, .default, on: card, at: 0.5)
            _ = engine.frame(at: 0.9)
            return engine
        }
        try play(seed: 0x415_0000 + seed, steps: 12, changing: 3, chosen) { ways, random in
            let (key, action) = steps[Int(random.next() % 4)]
            try ways.each(tap: nil, key: key, .customAction, on: "history.scroll", custom: action)
            #expect(ways.actions.accessibilityTree()["history.scroll"]?.role == .scrollView)
        }
    }

    /// Hero: a line's details opened (a tap; the focus walked there and enter; the default action) and closed (a
    /// tap on ×; escape; the close button's default action).
    @Test(arguments: 0..<8)
    func hero(seed: UInt64) throws {
        let make = { Engine(scene: try SceneCatalog.standard.make("hero"), viewport: phone) }
        try play(seed: 0x4E2_0000 + seed, steps: 8, changing: 4, make) { ways, random in
            if let close = ways.actions.accessibilityTree()["details.close"] {
                let center = Point(x: close.bounds.midX, y: close.bounds.midY)
                try ways.each(tap: center, key: "escape", .default, on: close.id)
            } else {
                let lines = live(ways.actions, .listBoxOption)
                try ways.open(lines[Int(random.next() % UInt64(lines.count))].id)
            }
        }
    }

    /// Scores in a short window, where the list scrolls: a page by a slow drag held still before the release (no
    /// coast), page up or down, and the list's "scroll up"/"scroll down"; home and end against "scroll to top" and
    /// "scroll to bottom" (a gesture reaches the ends by pages); a chart opened now and then (a tap; the focus walked
    /// there and enter; the default action) makes the list longer.
    @Test(arguments: 0..<6)
    func scoresScroll(seed: UInt64) throws {
        let short = Size(width: 390, height: 420)
        let make = { Engine(scene: try SceneCatalog.standard.make("scores"), viewport: short) }
        try play(seed: 0x5C5_0000 + seed, steps: 18, changing: 6, make) { ways, random in
            let t = ways.time
            let list = try #require(ways.gesture.accessibilityTree()["list"]).bounds
            let choice = random.next() % 6
            if choice == 5 {
                let students = live(ways.actions, .listBoxOption).filter { $0.actions.contains(.default) }
                    .filter { $0.bounds.minY >= list.minY && $0.bounds.minY + 20 <= list.maxY }
                guard let student = students.first else { return }
                try ways.open(student.id)
            } else if choice >= 3 {
                // The list offers a scroll action only where it moves the list; where it would not, the key does
                // nothing either.
                let top = choice == 3
                press(&ways.gesture, top ? "home" : "end", at: t)
                press(&ways.keys, top ? "home" : "end", at: t)
                try scrollAction(&ways.actions, top ? "scroll to top" : "scroll to bottom", at: t)
            } else {
                let down = choice < 2
                // A finger a page long: from the list's bottom edge up (down: the content moves up), or back.
                let from = Point(x: 195, y: down ? list.maxY - 1 : list.minY + 1)
                let finish = Point(x: 195, y: from.y + (down ? -list.height : list.height))
                heldDrag(&ways.gesture, from: from, to: finish, at: t)
                press(&ways.keys, down ? "pagedown" : "pageup", at: t)
                try scrollAction(&ways.actions, down ? "scroll down" : "scroll up", at: t)
            }
            ways.rest()
        }
        /// Performs the list's custom action `name` when the list offers it.
        func scrollAction(_ engine: inout Engine, _ name: String, at time: Double) throws {
            let offered = engine.accessibilityTree()["list"]?.customActions.contains { $0.description == name }
            if offered == true { try act(&engine, .customAction, on: "list", custom: name, at: time) }
        }
    }

    /// Scores: the slider (a tap on its track; the test's digit; increment and decrement until the value reads the
    /// same) and a student's chart (a tap; the focus walked there and enter; the default action).
    @Test(arguments: 0..<8)
    func scores(seed: UInt64) throws {
        let make = { Engine(scene: try SceneCatalog.standard.make("scores"), viewport: phone) }
        try play(seed: 0x5C0_0000 + seed, steps: 10, changing: 5, make) { ways, random in
            let t = ways.time
            guard random.next() % 2 == 0 else {
                let students = live(ways.actions, .listBoxOption).filter { $0.actions.contains(.default) }
                try ways.open(students[Int(random.next() % UInt64(students.count))].id)
                return
            }
            let slider = try #require(ways.gesture.accessibilityTree()["slider"]).bounds
            let x = slider.minX + Double(random.next() % 1000) / 1000 * slider.width
            tap(&ways.gesture, Point(x: x, y: slider.midY), at: t)
            let reached = try #require(ways.gesture.accessibilityTree()["slider"]?.value)
            let test = try #require(reached.split(separator: " ").dropFirst().first.flatMap { Int($0) })
            press(&ways.keys, test == 10 ? "0" : String(test), at: t)
            for nudge in 0..<10 {
                let value = ways.actions.accessibilityTree()["slider"]?.value ?? ""
                let now = value.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? test
                guard now != test else { break }
                try act(&ways.actions, now < test ? .increment : .decrement, on: "slider", at: t + Double(nudge) * 0.01)
            }
        }
    }
}
