import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics
import CardScenes

/// A sixth scene that exists only for the tests: the proof that adding a scene to a catalogue needs its type and
/// one entry, and nothing else (docs/architecture.md, "Adding a scene"). The catalogue-wide checks run over
/// `SceneCatalog.testing`, which holds it beside the five standard scenes: the scene property tests and lint, the
/// terminal goldens (`sixth-start`), help, status line and home list, the protocol's description of scenes
/// (`scene.list`, `scene.open`) and the icon table.
///
/// What it shows: a title and three cards in a column, each with a star icon; the picked card is outlined. A tap
/// picks a card; ↑ ↓ pick the previous or next one; the `pick` action picks a card by id.
package struct ThrowawayScene: Scene {
    package static let descriptor = SceneDescriptor(
        name: "sixth", title: "Sixth", summary: "three cards and a star, added by the tests", seed: "999 Throwaway",
        designHeight: 320, textPlacement: .centered, takesDeck: false, takesCardCount: false,
        keyHelp: [KeyHelp("↑ ↓", "pick the previous or next card", short: "pick", names: ["up", "down"])],
        actions: [
            ActionInfo("pick", "outline a card", arguments: [ActionArgument("card", .card, "card id")])
        ])

    /// The entry a catalogue lists the scene under.
    package static let entry = SceneCatalog.Entry(ThrowawayScene.self) { options throws(SceneError) in
        try ThrowawayScene(options: options)
    }

    package private(set) var deck: Deck
    /// The position of the outlined card.
    package private(set) var picked = 0

    /// Three plain cards; the options are not used (the scene takes no deck and no card count).
    package init(options: SceneOptions = SceneOptions()) throws(SceneError) {
        let colors = [RGBColor.blue, RGBColor.purple, RGBColor(red: 0, green: 110, blue: 60)]
        do {
            deck = try Deck(
                ["One", "Two", "Three"].enumerated().map { index, title in
                    Card(id: CardID(UInt64(6_001 + index)), title: title, color: colors[index], sortOrder: index)
                })
        } catch {
            throw .invalidState("the throwaway deck: \(error)")
        }
    }

    static let cardGestures = [GestureAttachment("pick", TapGesture())]

    package func layout(in viewport: Size) -> [Node] {
        let width = max(viewport.width - 32, 120)
        var nodes = [
            Node(
                id: "background", role: .background,
                rect: Rect(x: 0, y: 0, width: viewport.width, height: viewport.height), z: -1,
                fill: RGBA(red: 0.95, green: 0.95, blue: 0.97), isHitTestable: false),
            Node(
                id: "title", role: .title, rect: Rect(x: 16, y: 16, width: width, height: 40),
                text: [TextRun(Self.descriptor.title, style: .title, weight: .bold, lineLimit: 1)],
                isHitTestable: false),
        ]
        for (index, card) in deck.cards.enumerated() {
            let id = NodeID("card.\(card.id)")
            let rect = Rect(x: 16, y: 72 + Double(index) * 80, width: width, height: 64)
            nodes.append(
                Node(
                    id: id, role: .card, card: card.id, rect: rect, cornerRadius: 12,
                    fill: RGBA(card.color), stroke: index == picked ? RGBA(red: 1, green: 0.8, blue: 0) : nil,
                    text: [TextRun(card.title, color: .white, weight: .bold, lineLimit: 1)],
                    gestures: Self.cardGestures))
            nodes.append(
                Node(
                    id: NodeID("card.\(card.id).star"), role: .icon, parent: id,
                    rect: Rect(x: rect.maxX - 40, y: rect.minY + 20, width: 24, height: 24),
                    text: [TextRun("star.fill", color: .white, isSymbol: true)], isHitTestable: false))
        }
        return nodes
    }

    mutating func pick(_ position: Int, context: inout SceneContext) {
        guard position != picked, deck.cards.indices.contains(position) else { return }
        picked = position
        context.animation = .default
        context.haptic(.selection, target: NodeID("card.\(deck[position].id)"), card: deck[position].id)
    }

    package mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        guard action.name == "pick" else { throw .unknownAction(action.name) }
        let id = try action.card()
        // A card the deck does not have is an unknown card (−32011 on the wire), as in every scene.
        guard let position = deck.index(of: id) else { throw .unknownCard(id) }
        pick(position, context: &context)
    }

    package mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        guard gesture.gesture == "pick", gesture.phase == .ended,
            let position = deck.cards.firstIndex(where: { NodeID("card.\($0.id)") == gesture.target })
        else { return }
        pick(position, context: &context)
    }

    package mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool {
        switch key.key {
        case "up": pick(max(picked - 1, 0), context: &context)
        case "down": pick(min(picked + 1, deck.count - 1), context: &context)
        default: return false
        }
        return true
    }

    package mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {
        let old = self.deck
        self.deck = deck
        picked = min(picked, max(deck.count - 1, 0))
        context.deckChanged(from: old, to: deck)
    }
}

extension SceneCatalog {
    /// The standard catalogue and the throwaway sixth scene (`ThrowawayScene`), in menu order: what the
    /// catalogue-wide checks run over, so a check that only knows the five scenes by name fails here.
    package static let testing = SceneCatalog(SceneCatalog.standard.entries + [ThrowawayScene.entry])
}
