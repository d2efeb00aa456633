import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardScenes
import CardTestScenes
import Testing

private let viewport = Size(width: 390, height: 844)

private func performed(
    _ engine: inout Engine, _ action: AccessibilityAction, on node: NodeID, custom: Int? = nil, at t: Double
)
    throws
{
    try engine.performAccessibilityAction(action, on: node, customAction: custom, at: t)
}

/// The custom action of `node` read as `description`.
private func custom(_ tree: AccessibilityTree, _ node: NodeID, _ description: String) -> Int? {
    tree[node]?.customActions.first { $0.description == description }?.id
}

@Suite struct AccessibilitySceneTests {
    @Test func theDeckIsAListBoxOfOptionsWithTheirPlaces() throws {
        let engine = Engine(scene: try DeckScene(), viewport: viewport)
        let tree = engine.accessibilityTree()
        #expect(tree.root.name == "Card Deck")
        let column = try #require(tree["column"])
        #expect(column.role == .listBox)
        #expect(column.name == "Cards")
        #expect(column.sizeOfSet == 12)
        #expect(column.children.first == "card.401")
        let travel = try #require(tree["card.404"])
        #expect(travel.role == .listBoxOption)
        #expect(travel.name == "Travel")
        #expect(travel.positionInSet == 4)
        #expect(travel.sizeOfSet == 12)
        #expect(travel.isExpanded == false)
        #expect(travel.actions == [.default, .focus, .expand, .customAction])
        #expect(travel.customActions.map(\.description) == ["move up", "move down", "move to top", "move to bottom"])
        #expect(tree.focus == "card.401")
        #expect(tree["card.401"]?.customActions.map(\.description) == ["move down", "move to bottom"])
    }

    @Test func theDecksActionsReorderExpandAndFocus() throws {
        var engine = Engine(scene: try DeckScene(), viewport: viewport)
        var tree = engine.accessibilityTree()
        try performed(&engine, .customAction, on: "card.404", custom: custom(tree, "card.404", "move up"), at: 1)
        #expect(Array(engine.deck.ids.prefix(4)) == [401, 402, 404, 403].map { CardID(UInt64($0)) })
        let moved = engine.accessibilityTree()
        #expect(moved["card.404"]?.positionInSet == 3)
        // A move changes the two cards' places (and bounds) and the column's order of children, nothing else.
        let update = try #require(moved.changes(from: tree))
        #expect(Set(update.nodes.map(\.id)) == ["column", "card.403", "card.404"])
        #expect(tree.applying(update) == moved)

        try performed(&engine, .focus, on: "card.406", at: 2)
        #expect(engine.accessibilityTree().focus == "card.406")

        tree = engine.accessibilityTree()
        try performed(&engine, .default, on: "card.406", at: 3)
        let expanded = engine.accessibilityTree()
        #expect(expanded.focus == "detail.406")
        #expect(expanded["detail.406"]?.role == .dialog)
        #expect(expanded["detail.406"]?.isExpanded == true)
        #expect(expanded["detail.406"]?.name?.hasPrefix("Projects Card 6 of 12 · your order: 6") == true)
        try performed(&engine, .collapse, on: "detail.406", at: 4)
        #expect(engine.accessibilityTree().focus == "card.406")
        #expect(engine.accessibilityTree() == tree)
    }

    /// Accessibility actions are logged as the scene actions they perform (and the focus as
    /// `engine.accessibilityFocus`), so the log replays them.
    @Test func theLogReplaysAccessibilityActions() throws {
        var engine = Engine(scene: try DeckScene(), viewport: viewport)
        try performed(&engine, .focus, on: "card.405", at: 1)
        let tree = engine.accessibilityTree()
        try performed(&engine, .customAction, on: "card.405", custom: custom(tree, "card.405", "move to top"), at: 2)
        var replay = Engine(scene: try DeckScene(), viewport: viewport)
        for input in engine.log.inputs {
            if case .action(let action, let at) = input {
                try replay.perform(action, at: at)
            } else {
                replay.handle(input)
            }
        }
        #expect(replay.accessibilityTree() == engine.accessibilityTree())
        #expect(replay.accessibilityTree().focus == "card.405")
        #expect(replay.deck.ids.first == CardID(405))
    }

    @Test func unknownNodesAndActionsAreRefusedByName() throws {
        var engine = Engine(scene: try DeckScene(), viewport: viewport)
        let before = engine.accessibilityTree()
        #expect(
            throws: SceneError.invalidArgument(
                action: "a11y.action", argument: "node", reason: "names no node ('card.999')")
        ) {
            try performed(&engine, .default, on: "card.999", at: 1)
        }
        #expect(
            throws: SceneError.invalidArgument(
                action: "a11y.action", argument: "action",
                reason:
                    "'increment' is not offered by node 'card.401' (it offers: default, focus, expand, customAction)")
        ) {
            try performed(&engine, .increment, on: "card.401", at: 1)
        }
        #expect(throws: SceneError.self) { try performed(&engine, .customAction, on: "card.401", custom: 7, at: 1) }
        #expect(throws: SceneError.self) { try performed(&engine, .customAction, on: "card.401", at: 1) }
        #expect(engine.accessibilityTree() == before)
    }

    @Test func aLongDecksTreeHoldsTheCardsInViewAndTheFocusedOne() throws {
        var engine = Engine(scene: try DeckScene(options: SceneOptions(cardCount: 200_000)), viewport: viewport)
        var tree = engine.accessibilityTree()
        #expect(tree["column"]?.sizeOfSet == 200_000)
        #expect(tree.nodes.count < 30)
        try engine.perform(SceneAction("scroll", ["to": .number(60 * 5_000)]), at: 1)
        tree = engine.accessibilityTree()
        let focus = try #require(tree.focus)
        #expect(tree[focus]?.isHidden == true)
        #expect(tree[focus]?.positionInSet == 1)
        #expect(tree[focus].map { $0.bounds.maxY <= 0 } == true)  // just above the column
        #expect(tree.nodes.count < 30)
        #expect(
            tree.readingOrder.filter { !$0.isHidden && $0.role == .listBoxOption }.allSatisfy {
                $0.positionInSet! > 4_000
            })
    }

    @Test func flashcardsCountFromTheTopCardWhichRevealsAndIsDismissed() throws {
        var engine = Engine(scene: try FlashcardsScene(), viewport: viewport)
        var tree = engine.accessibilityTree()
        let top = try #require(tree.focus)
        #expect(tree[top]?.positionInSet == 1)
        #expect(tree[top]?.sizeOfSet == 12)
        #expect(tree[top]?.isExpanded == false)
        #expect(tree[top]?.stateDescription == "answer hidden")
        #expect(tree[top]?.actions == [.default, .focus, .expand, .customAction])
        #expect(tree.nodes.values.filter { $0.isDisabled }.count == 11)

        try performed(&engine, .expand, on: top, at: 1)
        tree = engine.accessibilityTree()
        #expect(tree[top]?.isExpanded == true)
        #expect(tree[top]?.stateDescription == "answer shown")
        #expect(tree[top]?.actions == [.default, .focus, .collapse, .customAction])

        try performed(&engine, .customAction, on: top, custom: custom(tree, top, "dismiss right"), at: 2)
        tree = engine.accessibilityTree()
        #expect(tree[top] == nil)
        let next = try #require(tree.focus)
        #expect(tree[next]?.sizeOfSet == 11)
        #expect(tree[next]?.positionInSet == 1)
        #expect(engine.deck.count == 11)
    }

    /// Every scene, at rest after seeded random input: the tree holds together, each node's bounds are its layout
    /// node's frame and its name the frame's label, and each action it offers is performed without an error.
    @Test(arguments: SceneCatalog.testing.names)
    func everySceneAtRestMatchesItsFrameAndItsActionsWork(scene name: String) throws {
        var generator = SplitMix64(seed: 0xA11_0000 ^ UInt64(name.utf8.count))
        for _ in 0..<30 {
            var engine = Engine(scene: try SceneCatalog.testing.make(name), viewport: viewport)
            var input = RandomInput(generator: SplitMix64(seed: generator.next()), viewport: viewport)
            var time = 0.0
            for _ in 0..<(1 + Int(input.generator.next() % 3)) {
                let (inputs, end) = input.burst(at: time, scene: engine.scene)
                for item in inputs { feed(&engine, item) }
                time = end
            }
            engine.handle(.pointer(PointerEvent(.cancel, at: Point(x: 0, y: 0), time: time)))
            time += 60
            let frame = engine.frame(at: time)
            let tree = engine.accessibilityTree()
            for node in tree.readingOrder where node.id != AccessibilityTree.rootID && !node.isHidden {
                let drawn = try #require(frame.node(node.id), "\(name): \(node.id) is not in the frame")
                if !frame.isAnimating { #expect(drawn.rect == node.bounds, "\(name): \(node.id)") }
                #expect(node.name?.isEmpty == false, "\(name): \(node.id) has no name")
                if let label = drawn.accessibilityLabel { #expect(node.name == label, "\(name): \(node.id)") }
            }
            for node in tree.readingOrder {
                for action in node.actions {
                    var copy = engine
                    let customs = action == .customAction ? node.customActions.map(\.id) : [nil]
                    for customID in customs {
                        #expect(throws: Never.self, "\(name): \(action) on \(node.id)") {
                            try copy.performAccessibilityAction(
                                action, on: node.id, customAction: customID, at: time + 1)
                        }
                        let after = copy.accessibilityTree()
                        if let update = after.changes(from: tree) { #expect(tree.applying(update) == after) }
                        copy = engine
                    }
                }
            }
        }
    }

    /// The other scenes by actions alone: the scores' slider steps the test, a student's chart opens; the hero's line
    /// opens its details and the close button closes them; a wallet card moves up the stack and is chosen.
    @Test func scoresHeroAndWalletByActionsAlone() throws {
        var scores = Engine(scene: try SceneCatalog.standard.make("scores"), viewport: viewport)
        var tree = scores.accessibilityTree()
        #expect(tree["slider"]?.value == "test 1 of 10")
        #expect(tree["slider"]?.actions == [.increment])
        try performed(&scores, .increment, on: "slider", at: 1)
        tree = scores.accessibilityTree()
        #expect(tree["slider"]?.value == "test 2 of 10")
        #expect(tree["slider"]?.actions == [.increment, .decrement])
        let student = try #require(tree["list"]?.children.first)
        try performed(&scores, .focus, on: student, at: 2)
        try performed(&scores, .expand, on: student, at: 3)
        tree = scores.accessibilityTree()
        #expect(tree.focus == student)
        #expect(tree[student]?.isExpanded == true)

        var hero = Engine(scene: try SceneCatalog.standard.make("hero"), viewport: viewport)
        tree = hero.accessibilityTree()
        let line = try #require(tree.readingOrder.first { $0.role == .listBoxOption }?.id)
        try performed(&hero, .default, on: line, at: 1)
        tree = hero.accessibilityTree()
        #expect(tree.focus == "details.close")
        #expect(tree["details"]?.role == .dialog)
        #expect(tree[line]?.isDisabled == true)
        try performed(&hero, .default, on: "details.close", at: 2)
        #expect(hero.accessibilityTree()["details"] == nil)

        var wallet = Engine(scene: try SceneCatalog.standard.make("wallet"), viewport: viewport)
        tree = wallet.accessibilityTree()
        let front = wallet.deck.ids[0]
        let node = NodeID("card.\(front)")
        #expect(tree[node]?.positionInSet == 1)
        try performed(&wallet, .customAction, on: node, custom: custom(tree, node, "move up"), at: 1)
        #expect(wallet.deck.ids[1] == front)
        try performed(&wallet, .default, on: node, at: 2)
        tree = wallet.accessibilityTree()
        #expect(tree[node]?.isSelected == true)
        #expect(tree[node]?.customActions == [])
        try performed(&wallet, .collapse, on: node, at: 3)
        #expect(wallet.accessibilityTree()[node]?.isSelected == false)
    }
}
