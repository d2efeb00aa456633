import CardEngine
import CardGeometry
import CardGestures
import CardModels
import Testing

private let viewport = Size(width: 390, height: 844)

private func rect(_ y: Double) -> Rect { Rect(x: 16, y: y, width: 358, height: 60) }

/// A column of `count` labelled cards under a background container, each with a text child, plus a title and a
/// decorative hairline: the shape of the deck scene's layout.
private func column(_ titles: [String]) -> [Node] {
    var nodes = [
        Node(id: "column", role: .background, rect: Rect(x: 0, y: 0, width: 390, height: 844)),
        Node(id: "title", role: .title, rect: rect(0), text: [TextRun("Cards "), TextRun("3")]),
        Node(id: "rule", role: .hairline, rect: rect(60)),
    ]
    for (index, title) in titles.enumerated() {
        let id = NodeID("card.\(index)")
        nodes.append(
            Node(id: id, role: .card, parent: "column", rect: rect(100 + 60 * Double(index)), accessibilityLabel: title)
        )
        nodes.append(
            Node(
                id: id.child("text"), role: .text, parent: id, rect: rect(100 + 60 * Double(index)),
                text: [TextRun(title)]))
    }
    return nodes
}

@Suite struct AccessibilityTreeTests {
    @Test func nodesBecomeATreeOfWhatAReaderMeets() {
        let layout =
            column(["Travel", "Food"]) + [
                Node(id: "ghost", role: .button, rect: rect(0), opacity: 0, text: [TextRun("Hidden")]),
                Node(id: "symbol", role: .icon, rect: rect(0), text: [TextRun("star.fill")]),
                Node(id: "close", role: .icon, rect: rect(0), text: [TextRun("xmark")], accessibilityLabel: "Close"),
            ]
        let semantics = SceneSemantics(
            focus: "card.1",
            nodes: [
                "column": NodeSemantics(role: .listBox, name: "Cards", sizeOfSet: 2),
                "card.1": NodeSemantics(
                    role: .listBoxOption, isExpanded: false, positionInSet: 2, sizeOfSet: 2,
                    actions: [.default: SceneAction("expand")], takesFocus: true,
                    customActions: [CustomSemanticAction("move up", SceneAction("move"))]),
            ])
        let tree = AccessibilityTree.derive(layout: layout, semantics: semantics, viewport: viewport, name: "Deck")

        #expect(tree.root.role == .window)
        #expect(tree.root.name == "Deck")
        #expect(tree.root.bounds == Rect(x: 0, y: 0, width: 390, height: 844))
        // The hairline, the transparent button, the unlabelled icon and the cards' text children are not nodes.
        #expect(tree.root.children == ["column", "title", "close"])
        #expect(tree["column"]?.children == ["card.0", "card.1"])
        #expect(tree["column"]?.role == .listBox)
        #expect(tree["column"]?.sizeOfSet == 2)
        #expect(tree["title"]?.role == .heading)
        #expect(tree["title"]?.name == "Cards 3")
        #expect(tree["close"]?.role == .image)
        #expect(tree["close"]?.name == "Close")
        #expect(tree["card.0"]?.role == .listItem)
        #expect(tree["card.0"]?.actions == [])
        #expect(tree["card.0.text"] == nil)
        #expect(tree["ghost"] == nil && tree["symbol"] == nil && tree["rule"] == nil)
        let card = tree["card.1"]
        #expect(card?.name == "Food")
        #expect(card?.bounds == rect(160))
        #expect(card?.positionInSet == 2)
        #expect(card?.isExpanded == false)
        #expect(card?.actions == [.default, .focus, .customAction])
        #expect(card?.customActions == [AccessibilityCustomAction(id: 0, description: "move up")])
        #expect(tree.focus == "card.1")
        #expect(tree.nodes.count == 6)
        #expect(tree.readingOrder.map(\.id) == ["#root", "column", "card.0", "card.1", "title", "close"])
    }

    @Test func aDescribedChildOfALeafAndAnAdditionalNodeJoinTheTree() {
        let extra = Node(id: "card.9", role: .card, parent: "column", rect: rect(900), accessibilityLabel: "Far")
        let semantics = SceneSemantics(
            focus: "card.9",
            nodes: [
                "column": NodeSemantics(role: .listBox), "card.0.text": NodeSemantics(role: .button),
                "card.9": NodeSemantics(positionInSet: 10),
            ],
            additionalNodes: [extra])
        let tree = AccessibilityTree.derive(
            layout: column(["Travel"]), semantics: semantics, viewport: viewport, name: "Deck")
        #expect(tree["card.0"]?.children == ["card.0.text"])
        #expect(tree["card.0.text"]?.role == .button)
        #expect(tree["column"]?.children == ["card.0", "card.9"])
        #expect(tree["card.9"]?.isHidden == true)
        #expect(tree["card.0"]?.isHidden == false)
        #expect(tree.focus == "card.9")
    }

    @Test func aFocusOnANodeOutsideTheTreeIsNone() {
        let tree = AccessibilityTree.derive(
            layout: column(["Travel"]), semantics: SceneSemantics(focus: "rule"), viewport: viewport, name: "Deck")
        #expect(tree.focus == nil)
    }

    @Test func anUpdateCarriesOnlyWhatChanged() {
        let old = AccessibilityTree.derive(
            layout: column(["Travel", "Food", "Home"]), semantics: SceneSemantics(focus: "card.0"),
            viewport: viewport, name: "Deck")
        #expect(old.changes(from: old) == nil)

        let renamed = AccessibilityTree.derive(
            layout: column(["Travel", "Meals", "Home"]), semantics: SceneSemantics(focus: "card.0"),
            viewport: viewport, name: "Deck")
        let update = renamed.changes(from: old)
        #expect(update != nil)
        #expect(update?.nodes.map(\.id) == ["card.1"])
        #expect(update?.removed == [])
        #expect(update?.focus == "card.0")

        let refocused = AccessibilityTree.derive(
            layout: column(["Travel", "Food", "Home"]), semantics: SceneSemantics(focus: "card.2"),
            viewport: viewport, name: "Deck")
        #expect(refocused.changes(from: old) == AccessibilityTreeUpdate(nodes: [], removed: [], focus: "card.2"))

        let shorter = AccessibilityTree.derive(
            layout: column(["Travel", "Food"]), semantics: SceneSemantics(focus: "card.0"), viewport: viewport,
            name: "Deck")
        let removal = shorter.changes(from: old)
        #expect(removal?.removed == ["card.2"])
        // The column is no node of the tree (a background nobody described): its cards are the root's children.
        #expect(removal?.nodes.map(\.id) == ["#root"])
    }

    /// Seeded: random layouts and semantics give trees whose updates, applied to the old tree, give the new one;
    /// and an update lists exactly the nodes that differ.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func applyingTheChangesOfTwoRandomTreesGivesTheNewOne(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var previous = randomTree(&random)
        for _ in 0..<40 {
            let next = randomTree(&random)
            if let update = next.changes(from: previous) {
                #expect(previous.applying(update) == next)
                let differing = next.nodes.values.filter { previous[$0.id] != $0 }.map(\.id).sorted()
                #expect(update.nodes.map(\.id).sorted() == differing)
                #expect(Set(update.removed) == Set(previous.nodes.keys).subtracting(next.nodes.keys))
            } else {
                #expect(previous == next)
            }
            previous = next
        }
    }
}

/// A random layout of up to 12 nodes drawn from 16 ids (so consecutive trees share many), with random parents
/// among earlier nodes, roles, labels, opacity and semantics.
private func randomTree(_ random: inout SplitMix64) -> AccessibilityTree {
    let roles = NodeRole.allCases
    let names = ["Travel", "Food", "Home", ""]
    var layout: [Node] = []
    var semantics = SceneSemantics()
    var used: Set<Int> = []
    for _ in 0..<Int.random(in: 0...12, using: &random) {
        let number = Int.random(in: 0..<16, using: &random)
        guard used.insert(number).inserted else { continue }
        let id = NodeID("n\(number)")
        let parent = layout.isEmpty || Bool.random(using: &random) ? nil : layout.randomElement(using: &random)?.id
        let name = names.randomElement(using: &random)!
        layout.append(
            Node(
                id: id, role: roles.randomElement(using: &random)!, parent: parent,
                rect: Rect(x: 0, y: Double(Int.random(in: 0...3, using: &random)) * 50, width: 100, height: 50),
                opacity: Int.random(in: 0..<8, using: &random) == 0 ? 0 : 1,
                text: Bool.random(using: &random) ? [TextRun(name)] : [],
                accessibilityLabel: Bool.random(using: &random) ? name : nil))
        if Int.random(in: 0..<3, using: &random) == 0 {
            semantics.nodes[id] = NodeSemantics(
                role: AccessibilityRole.allCases.randomElement(using: &random),
                isExpanded: Bool.random(using: &random) ? nil : Bool.random(using: &random),
                positionInSet: Int.random(in: 1...3, using: &random),
                actions: Bool.random(using: &random) ? [.default: SceneAction("tap")] : [:],
                takesFocus: Bool.random(using: &random))
        }
        if Int.random(in: 0..<4, using: &random) == 0 { semantics.focus = id }
    }
    return AccessibilityTree.derive(layout: layout, semantics: semantics, viewport: viewport, name: "Random")
}
