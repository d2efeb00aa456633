import CardEngine
import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardPersistence
import CardPhysics

/// A scene played from a `SceneDescription`: the engine animates it, recognises its gestures and records it like
/// any scene written in Swift; its layout, gestures, actions and keys are the description's.
///
/// State: the deck's order (cards removed by the description's effects leave it), the global state variables and
/// each card's variables. Those the description marks `persist` are kept per deck with the order (`stateName`).
/// A live gesture's values (translation, velocity, predicted end, location) bind the card's properties while it
/// lasts; they are not state.
public struct DescribedScene: Scene {
    /// The descriptor of the type: a placeholder. Each instance's `descriptor` is its description's (what
    /// catalogues, hosts and recordings read).
    public static let descriptor = SceneDescriptor(
        name: "described", title: "Described scene", summary: "a scene described as data", seed: "data")

    /// The description's descriptor: its name, title, keys and actions.
    public var descriptor: SceneDescriptor { description.descriptor }

    /// What the scene plays.
    public let description: SceneDescription
    /// The cards, in their current order.
    public internal(set) var deck: Deck
    /// Every card the scene was opened with (the order a restart or an unknown saved order falls back to).
    let allCards: Deck
    /// The value of every global state variable, by slot (other slots unused).
    var globals: [UInt64]
    /// Each card's variables, in the order `description.cardVariables` declares them.
    var cardValues: [CardID: [UInt64]]
    /// The gesture in progress whose bindings move a card.
    var live: LiveGesture?
    /// The scroll view of each scrolling layout's group, by `ScrollKey` (made on first use; not state).
    var scrollViews: [ScrollKey: ScrollView] = [:]
    let cardAttachments: [GestureAttachment]
    let backgroundAttachments: [GestureAttachment]
    let nodeAttachments: [String: [GestureAttachment]]

    /// A gesture in progress: its rule, its card and its latest values.
    struct LiveGesture: Sendable, Hashable {
        var rule: Int
        var card: CardID?
        var values: GestureValues
    }

    /// The live values of a gesture, as the expression variables `tx ty vx vy px py lx ly` read them.
    struct GestureValues: Sendable, Hashable {
        var translation = Vector.zero
        var velocity = Vector.zero
        var predicted = Vector.zero
        var location = Point(x: 0, y: 0)

        init() {}

        init(_ value: GestureValue?) {
            guard let value else { return }
            switch value {
            case .drag(let drag):
                translation = drag.translation
                velocity = drag.velocity
                predicted = drag.predictedEndTranslation
                location = drag.location
            case .swipe(let swipe):
                translation = swipe.translation
                velocity = swipe.velocity
                predicted = swipe.translation
                location = swipe.location
            case .tap(let tap):
                location = tap.location
            case .longPress(let press):
                location = press.location
                translation = press.location - press.startLocation
            // A composed gesture's values are those of the part that is running: the second of a sequence once it
            // has begun (a long press's drag), the part an exclusive chose, the second of two simultaneous ones
            // when it has a value.
            case .sequenced(.first(let first)): self = GestureValues(first)
            case .sequenced(.second(let first, let second)): self = GestureValues(second ?? first)
            case .exclusive(.first(let part)), .exclusive(.second(let part)): self = GestureValues(part)
            case .simultaneous(let first, let second): self = GestureValues(second ?? first)
            case .scroll:
                break
            }
        }
    }

    /// The scene of `description`, with `options.deck` when the description takes a deck (else its own cards).
    public init(description: SceneDescription, options: SceneOptions = SceneOptions()) throws(SceneError) {
        self.description = description
        let cards: Deck
        if let given = options.deck {
            guard description.descriptor.takesDeck else {
                throw .invalidArgument(action: "open", argument: "deck", reason: "this scene shows its own cards")
            }
            cards = given
        } else {
            do {
                cards = try Deck(description.cards)
            } catch {
                throw .invalidState("the description's cards: \(error)")
            }
        }
        self.deck = cards
        self.allCards = cards
        var globals = [UInt64](repeating: 0, count: description.scope.slotCount)
        let empty = [UInt64](repeating: 0, count: description.scope.slotCount)
        for variable in description.globals {
            globals[variable.slot] = variable.initial.evaluate(empty)
        }
        globals[SceneDescription.totalSlot] = Double(cards.count).expressionBits
        self.globals = globals
        var cardValues: [CardID: [UInt64]] = [:]
        cardValues.reserveCapacity(cards.count)
        for (index, card) in cards.enumerated() {
            cardValues[card.id] = Self.initialValues(description, card: card, index: index, count: cards.count)
        }
        self.cardValues = cardValues
        func attachments(_ target: SceneDescription.GestureRule.Target) -> [GestureAttachment] {
            description.gestures.filter { $0.target == target }.map {
                GestureAttachment($0.name, $0.gesture, priority: $0.priority)
            }
        }
        cardAttachments = attachments(.card)
        backgroundAttachments = attachments(.background)
        var nodeAttachments: [String: [GestureAttachment]] = [:]
        for node in description.nodes { nodeAttachments[node.name] = attachments(.node(node.name)) }
        self.nodeAttachments = nodeAttachments
    }

    static func initialValues(_ description: SceneDescription, card: Card, index: Int, count: Int) -> [UInt64] {
        var values = [UInt64](repeating: 0, count: description.scope.slotCount)
        values[Builtin.i.rawValue] = Double(index).expressionBits
        values[Builtin.n.rawValue] = Double(count).expressionBits
        values[Builtin.cardID.rawValue] = card.id.rawValue
        values[Builtin.sortOrder.rawValue] = Double(card.sortOrder).expressionBits
        return description.cardVariables.map { $0.initial.evaluate(values) }
    }

    /// The name the scene's state is kept under (per deck, as every scene's).
    public var stateName: String? { "data-" + description.descriptor.name }

    /// The node of a card in layout `layout` (the last layout's cards are `card.<id>`).
    func node(_ id: CardID, layout: Int) -> NodeID {
        layout == description.layouts.count - 1
            ? NodeID("card.\(id)") : NodeID("\(description.layouts[layout].name).\(id)")
    }

    /// The card a node of this scene shows (`card.<id>` or `<layout>.<id>`).
    func card(of node: NodeID) -> CardID? {
        let parts = node.rawValue.split(separator: ".")
        guard parts.count == 2, let id = CardID(String(parts[1])), cardValues[id] != nil, deck.contains(id: id) else {
            return nil
        }
        return id
    }
}
