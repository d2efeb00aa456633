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

/// Equivalence of gestures, keys and accessibility actions, scene by scene (issue 51 item 6): seeded sessions of
/// steps, each done by a gesture, by keys alone and by accessibility actions alone, end every step in the same rest
/// state (order, selection, removal, expansion, scroll position, the slider's value).
@Suite struct AccessibilityEquivalenceTests {
    /// Deck: reorders (hold, then drag by whole places; shift+↑/↓; "move up"/"move down"), expanding (a tap;
    /// enter; the default action) and closing (a tap on the background; escape; collapse). The viewport is tall
    /// enough that the twelve cards fit, so that walking the focus by keys does not scroll.
    @Test(arguments: 0..<12)
    func deckReordersAndExpansions(seed: UInt64) throws {
        let viewport = Size(width: 390, height: 1200)
        var ways = try ThreeWays { Engine(scene: try DeckScene(), viewport: viewport) }
        var random = SplitMix64(seed: 0xDEC_0000 + seed)
        for step in 0..<10 {
            let t = ways.time
            if let detail = ways.actions.accessibilityTree().focus, detail.rawValue.hasPrefix("detail.") {
                tap(&ways.gesture, Point(x: 200, y: 20), at: t)
                press(&ways.keys, "escape", at: t)
                try act(&ways.actions, .collapse, on: detail, at: t)
            } else {
                let cards = live(ways.gesture, .listBoxOption)
                let card = cards[Int(random.next() % UInt64(cards.count))]
                let slot = try #require(card.positionInSet) - 1
                let pitch = cards[1].bounds.minY - cards[0].bounds.minY
                if random.next() % 3 == 0 {
                    tap(&ways.gesture, try grip(ways.gesture, card.id), at: t)
                    focusByKeys(&ways.keys, on: card.id, at: t)
                    press(&ways.keys, "enter", at: t + 1.5)
                    try act(&ways.actions, .default, on: card.id, at: t)
                } else {
                    let up = slot == cards.count - 1 || (slot > 0 && random.next() % 2 == 0)
                    let start = try grip(ways.gesture, card.id)
                    ways.gesture.handle(.pointer(PointerEvent(.down, at: start, time: t)))
                    _ = ways.gesture.frame(at: t + 0.6)
                    let end = Point(x: start.x, y: start.y + (up ? -pitch : pitch))
                    for fraction in [0.25, 0.5, 0.75, 1.0] {
                        let point = Point(x: start.x, y: start.y + (end.y - start.y) * fraction)
                        ways.gesture.handle(.pointer(PointerEvent(.move, at: point, time: t + 0.6 + fraction * 0.2)))
                    }
                    ways.gesture.handle(.pointer(PointerEvent(.up, at: end, time: t + 0.85)))
                    focusByKeys(&ways.keys, on: card.id, at: t)
                    press(&ways.keys, up ? "up" : "down", shift: true, at: t + 1.5)
                    try act(&ways.actions, .customAction, on: card.id, custom: up ? "move up" : "move down", at: t)
                }
            }
            ways.rest()
            guard ways.agree("seed \(seed) step \(step)") else { return }
        }
        #expect(ways.changes >= 5, "only \(ways.changes) steps changed anything")
    }

    /// Deck of 1,000 cards: the scroll position by a slow drag of a page held still before the release (no
    /// coast), page up or down, and the column's "scroll up"/"scroll down"; home and end against "scroll to top"
    /// and "scroll to bottom" (a gesture reaches the ends by pages); and the fan by `p` against "open the fan" and
    /// "close the fan" (a gesture's fan closes on release, where both others start).
    @Test(arguments: 0..<6)
    func deckScrollAndFan(seed: UInt64) throws {
        let viewport = Size(width: 390, height: 844)
        var ways = try ThreeWays {
            Engine(scene: try DeckScene(options: SceneOptions(cardCount: 1_000)), viewport: viewport)
        }
        var random = SplitMix64(seed: 0x5C2_0000 + seed)
        var fanOpen = false
        for step in 0..<16 {
            let t = ways.time
            let choice = random.next() % 7
            if fanOpen || choice == 6 {
                press(&ways.keys, "p", at: t)
                try act(
                    &ways.actions, .customAction, on: "column", custom: fanOpen ? "close the fan" : "open the fan",
                    at: t)
                press(&ways.gesture, "p", at: t)  // no gesture holds the fan open at rest
                fanOpen.toggle()
            } else if choice >= 4 {
                let top = choice == 4
                press(&ways.keys, top ? "home" : "end", at: t)
                try act(
                    &ways.actions, .customAction, on: "column", custom: top ? "scroll to top" : "scroll to bottom",
                    at: t)
                press(&ways.gesture, top ? "home" : "end", at: t)
            } else {
                let down = choice < 3
                let page = viewport.height - 72  // the deck's page: the viewport under its title (`contentTop` 72)
                let start = Point(x: 195, y: down ? 820 : 820 - page)
                let end = Point(x: 195, y: down ? 820 - page : 820)
                ways.gesture.handle(.pointer(PointerEvent(.down, at: start, time: t)))
                for fraction in stride(from: 0.1, through: 1.0, by: 0.1) {
                    let point = Point(x: 195, y: start.y + (end.y - start.y) * fraction)
                    ways.gesture.handle(.pointer(PointerEvent(.move, at: point, time: t + fraction * 0.5)))
                }
                ways.gesture.handle(.pointer(PointerEvent(.move, at: end, time: t + 0.7)))
                ways.gesture.handle(.pointer(PointerEvent(.up, at: end, time: t + 0.9)))
                press(&ways.keys, down ? "pagedown" : "pageup", at: t)
                try act(&ways.actions, .customAction, on: "column", custom: down ? "scroll down" : "scroll up", at: t)
            }
            ways.rest()
            ways.rest()
            guard ways.agree("seed \(seed) step \(step)") else { return }
        }
        #expect(ways.changes >= 8, "only \(ways.changes) steps changed anything")
    }

    /// Flashcards: the top card's answer (a tap; space; "reveal answer"/"hide answer") and dismissal either way (a
    /// drag of 120 points; ← →; "dismiss left"/"dismiss right"), until the stack is empty and restarts (a tap on
    /// the button; r; its default action).
    @Test(arguments: 0..<12)
    func flashcards(seed: UInt64) throws {
        let viewport = Size(width: 390, height: 844)
        var ways = try ThreeWays { Engine(scene: try FlashcardsScene(), viewport: viewport) }
        var random = SplitMix64(seed: 0xF1A_0000 + seed)
        for step in 0..<30 {
            let t = ways.time
            let tree = ways.actions.accessibilityTree()
            guard let top = tree.focus, let card = tree[top] else {
                Issue.record("no focus")
                return
            }
            if card.role == .button {
                tap(&ways.gesture, Point(x: card.bounds.midX, y: card.bounds.midY), at: t)
                press(&ways.keys, "r", at: t)
                try act(&ways.actions, .default, on: top, at: t)
            } else if random.next() % 3 == 0 {
                let shown = card.isExpanded == true
                tap(&ways.gesture, Point(x: card.bounds.midX, y: card.bounds.midY), at: t)
                press(&ways.keys, "space", at: t)
                try act(&ways.actions, .customAction, on: top, custom: shown ? "hide answer" : "reveal answer", at: t)
            } else {
                let left = random.next() % 2 == 0
                let start = Point(x: card.bounds.midX, y: card.bounds.midY)
                drag(&ways.gesture, from: start, by: Vector(dx: left ? -120 : 120, dy: 0), at: t)
                press(&ways.keys, left ? "left" : "right", at: t)
                try act(&ways.actions, .customAction, on: top, custom: left ? "dismiss left" : "dismiss right", at: t)
            }
            ways.rest()
            guard ways.agree("seed \(seed) step \(step)") else { return }
        }
        #expect(ways.changes >= 15, "only \(ways.changes) steps changed anything")
    }

    /// Wallet: a card moved back or forward by one place (a press-and-drag of 50 points; shift+↑/↓; "move up" or
    /// "move down"), chosen (a tap; enter; the default action) and let go (a tap on it; escape; collapse).
    @Test(arguments: 0..<12)
    func wallet(seed: UInt64) throws {
        let viewport = Size(width: 390, height: 844)
        var ways = try ThreeWays { Engine(scene: try WalletScene(), viewport: viewport) }
        var random = SplitMix64(seed: 0x3A1_0000 + seed)
        for step in 0..<12 {
            let t = ways.time
            let cards = live(ways.actions, .listBoxOption)
            if let chosen = cards.first(where: { $0.isSelected == true }) {
                tap(&ways.gesture, try grip(ways.gesture, chosen.id), at: t)
                press(&ways.keys, "escape", at: t)
                try act(&ways.actions, .collapse, on: chosen.id, at: t)
            } else {
                let card = cards[Int(random.next() % UInt64(cards.count))]
                if random.next() % 3 == 0 {
                    tap(&ways.gesture, try grip(ways.gesture, card.id), at: t)
                    focusByKeys(&ways.keys, on: card.id, at: t)
                    press(&ways.keys, "enter", at: t + 1.5)
                    try act(&ways.actions, .default, on: card.id, at: t)
                } else {
                    let index = try #require(card.positionInSet) - 1
                    let back = index == 0 || (index < cards.count - 1 && random.next() % 2 == 0)
                    let start = try grip(ways.gesture, card.id)
                    ways.gesture.handle(.pointer(PointerEvent(.down, at: start, time: t)))
                    let dy = back ? -60.0 : 60.0
                    ways.gesture.handle(
                        .pointer(PointerEvent(.move, at: Point(x: start.x, y: start.y + dy / 2), time: t + 0.1)))
                    ways.gesture.handle(
                        .pointer(PointerEvent(.move, at: Point(x: start.x, y: start.y + dy), time: t + 0.2)))
                    ways.gesture.handle(
                        .pointer(PointerEvent(.up, at: Point(x: start.x, y: start.y + dy), time: t + 0.25)))
                    focusByKeys(&ways.keys, on: card.id, at: t)
                    press(&ways.keys, back ? "up" : "down", shift: true, at: t + 1.5)
                    try act(&ways.actions, .customAction, on: card.id, custom: back ? "move up" : "move down", at: t)
                }
            }
            ways.rest()
            guard ways.agree("seed \(seed) step \(step)") else { return }
        }
        #expect(ways.changes >= 6, "only \(ways.changes) steps changed anything")
    }

    /// Wallet history: scrolled by ← → home end and by the history's custom actions, a chosen card's history ends
    /// in the same place (no gesture: a drag's distance is the finger's, not a tile's).
    @Test(arguments: 0..<4)
    func walletHistory(seed: UInt64) throws {
        let viewport = Size(width: 390, height: 844)
        var ways = try ThreeWays { Engine(scene: try WalletScene(), viewport: viewport) }
        let card = try #require(live(ways.actions, .listBoxOption).first).id
        try act(&ways.keys, .default, on: card, at: 1)
        try act(&ways.actions, .default, on: card, at: 1)
        try act(&ways.gesture, .default, on: card, at: 1)
        ways.rest()
        var random = SplitMix64(seed: 0x415_0000 + seed)
        let steps: [(key: String, action: String)] = [
            ("left", "scroll history back"), ("right", "scroll history forward"),
            ("home", "scroll history to start"), ("end", "scroll history to end"),
        ]
        for step in 0..<12 {
            let (key, action) = steps[Int(random.next() % 4)]
            press(&ways.keys, key, at: ways.time)
            press(&ways.gesture, key, at: ways.time)
            try act(&ways.actions, .customAction, on: "history.scroll", custom: action, at: ways.time)
            ways.rest()
            guard ways.agree("seed \(seed) step \(step)") else { return }
            let history = try #require(ways.actions.accessibilityTree()["history.scroll"])
            #expect(history.role == .scrollView)
        }
        #expect(ways.changes >= 3, "only \(ways.changes) steps changed anything")
    }

    /// Hero: a line's details opened (a tap; the focus walked there and enter; the default action) and closed (a
    /// tap on ×; escape; the close button's default action).
    @Test(arguments: 0..<8)
    func hero(seed: UInt64) throws {
        let viewport = Size(width: 390, height: 844)
        var ways = try ThreeWays { Engine(scene: try SceneCatalog.standard.make("hero"), viewport: viewport) }
        var random = SplitMix64(seed: 0x4E2_0000 + seed)
        for step in 0..<8 {
            let t = ways.time
            if let close = ways.actions.accessibilityTree()["details.close"] {
                tap(&ways.gesture, Point(x: close.bounds.midX, y: close.bounds.midY), at: t)
                press(&ways.keys, "escape", at: t)
                try act(&ways.actions, .default, on: close.id, at: t)
            } else {
                let lines = live(ways.actions, .listBoxOption)
                let line = lines[Int(random.next() % UInt64(lines.count))]
                tap(&ways.gesture, Point(x: line.bounds.midX, y: line.bounds.midY), at: t)
                focusByKeys(&ways.keys, on: line.id, at: t)
                press(&ways.keys, "enter", at: t + 1.5)
                try act(&ways.actions, .default, on: line.id, at: t)
            }
            ways.rest()
            guard ways.agree("seed \(seed) step \(step)") else { return }
        }
        #expect(ways.changes >= 4, "only \(ways.changes) steps changed anything")
    }

    /// Scores: the slider (a tap on its track; the test's digit; increment and decrement until the value reads the
    /// same) and a student's chart (a tap; the focus walked there and enter; the default action).
    @Test(arguments: 0..<8)
    func scores(seed: UInt64) throws {
        let viewport = Size(width: 390, height: 844)
        var ways = try ThreeWays { Engine(scene: try SceneCatalog.standard.make("scores"), viewport: viewport) }
        var random = SplitMix64(seed: 0x5C0_0000 + seed)
        for step in 0..<10 {
            let t = ways.time
            if random.next() % 2 == 0 {
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
                    try act(
                        &ways.actions, now < test ? .increment : .decrement, on: "slider", at: t + Double(nudge) * 0.01)
                }
            } else {
                let students = live(ways.actions, .listBoxOption).filter { $0.actions.contains(.default) }
                let student = students[Int(random.next() % UInt64(students.count))]
                tap(&ways.gesture, try grip(ways.gesture, student.id), at: t)
                focusByKeys(&ways.keys, on: student.id, at: t)
                press(&ways.keys, "enter", at: t + 1.5)
                try act(&ways.actions, .default, on: student.id, at: t)
            }
            ways.rest()
            guard ways.agree("seed \(seed) step \(step)") else { return }
        }
        #expect(ways.changes >= 5, "only \(ways.changes) steps changed anything")
    }
}
