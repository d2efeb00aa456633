import CardEngine
import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardPersistence
import CardPhysics

/// Seed 003 (Flashzilla): a stack of flashcards to swipe away.
///
/// - Cards 450×250 (scaled down to fit a narrower viewport), corner radius 25, white, shadow radius 10; the prompt
///   large and black, the answer smaller and grey, padding 20, centred; the answer shows once the card is tapped
///   (a tap toggles it).
/// - The card at position p of n is offset y = (n − p)·10, and the last card is on top.
/// - Dragging: rotation = width/5 degrees (applied before the offset), x offset = width·5, opacity =
///   2 − |width/50|. On release with |width| > 100 the card is removed and the others slide up 10 points with the
///   default animation (the stack's frame stays where the whole deck centred it); otherwise it snaps back at once,
///   as the seed's `offset = .zero` outside an animation does (it sprang back with `.spring()` before issue 27).
/// - Beyond the seed: the deck may be the user's own; the empty deck offers a restart; which cards were removed
///   persists (state `flashcards`).
public struct FlashcardsScene: Scene {
    /// What the scene is, for front ends and hosts (see `SceneDescriptor`).
    public static let descriptor = SceneDescriptor(
        name: "flashcards", title: "Flashcards", summary: "swipe-away flashcards", seed: "003 Flashzilla",
        // The height the layout needs to show whole: the 250-point card, its stack offsets and margins.
        designHeight: 340, textPlacement: .centered, takesDeck: true, takesCardCount: false,
        keyHelp: [
            KeyHelp("space enter", "reveal or hide the answer", short: "answer", names: ["space", "enter"]),
            KeyHelp("← →", "swipe the top card away", short: "swipe", names: ["left", "right"]),
            KeyHelp("r", "restart when the stack is empty", short: "restart", names: ["r"]),
        ],
        actions: [
            ActionInfo(
                "reveal", "toggle the answer of a card (the top card by default)",
                arguments: [ActionArgument("card", .card, "card id; the top card by default", required: false)],
                availability: .deckHasAtLeast(1)),
            ActionInfo(
                "swipe", "swipe a card away",
                arguments: [
                    ActionArgument("direction", .string(oneOf: ["left", "right"]), "where the card flies"),
                    ActionArgument("card", .card, "card id; the top card by default", required: false),
                ],
                availability: .deckHasAtLeast(1)),
            ActionInfo("restart", "bring every card back"),
        ]
    )
    .explainingPointer([
        KeyHelp("click the card", "show or hide the answer"),
        KeyHelp("drag it left or right", "swipe it away (past a third of its width)"),
    ])
    .changingLook(
        "an answer revealed while its card is still moving fades in on the card where it is drawn (the engine "
            + "started it at the card's final place)"
    )
    .changingLook(
        "the answer is Apple's accessible gray (108, 108, 112; 5.3:1 on the card) where it was the system gray "
            + "(142, 142, 147; 3.3:1)")

    /// The cards still in the stack, bottom first (the last is on top).
    public private(set) var deck: Deck
    /// Every card of the deck, in its original order (what a restart brings back).
    let allCards: Deck
    /// Cards whose answer is showing.
    public private(set) var revealed: Set<CardID> = []
    /// The card being dragged and its translation.
    public private(set) var drag: (card: CardID, translation: Vector)?

    static let cardSize = Size(width: 450, height: 250)
    /// Shared by every card, so the engine's comparison of gesture lists is a storage-identity check.
    static let cardGestures = [GestureAttachment("tap", TapGesture()), GestureAttachment("drag", DragGesture())]
    static let removalThreshold = 100.0

    /// The flashcards scene over `options.deck` or the seed's cards; throws `SceneError.invalidState` when a card is not
    /// a flashcard.
    public init(options: SceneOptions = SceneOptions()) throws(SceneError) {
        let source = options.deck ?? SeedData.flashcards
        guard source.allSatisfy({ if case .flashcard = $0.payload { true } else { false } }) else {
            throw .invalidState("the flashcards scene needs a deck of flashcards (prompt and answer)")
        }
        allCards = source
        deck = source
    }

    public var stateName: String? { "flashcards" }

    // MARK: Changes

    mutating func toggleReveal(_ id: CardID, context: inout SceneContext) {
        if revealed.remove(id) == nil { revealed.insert(id) }
        context.haptic(.light, target: Self.node(id), card: id)
    }

    /// Removes `id` from the stack; `direction` (−1 left, +1 right) flies it off that side when it is at rest.
    mutating func remove(_ id: CardID, direction: Double, context: inout SceneContext) {
        let old = deck.ids
        guard (try? deck.remove(id)) != nil else { return }
        revealed.remove(id)
        drag = nil
        context.animation = .default
        context.removalTransitions[Self.node(id)] = .combined([.move(direction < 0 ? .leading : .trailing), .opacity])
        context.haptic(deck.isEmpty ? .success : .medium, target: Self.node(id), card: id)
        context.deckChanged(from: old, to: deck)
        context.stateChanged = true
    }

    mutating func restart(context: inout SceneContext) {
        let old = deck.ids
        deck = allCards
        revealed = []
        drag = nil
        context.animation = .default
        context.haptic(.success)
        context.deckChanged(from: old, to: deck)
        context.stateChanged = true
    }

    public mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        switch action.name {
        case "reveal":
            let id = try target(of: action)
            toggleReveal(id, context: &context)
        case "swipe":
            let id = try target(of: action)
            let direction = try action.string("direction")
            guard direction == "left" || direction == "right" else {
                throw .invalidArgument(action: "swipe", argument: "direction", reason: "must be left or right")
            }
            remove(id, direction: direction == "left" ? -1 : 1, context: &context)
        case "restart":
            restart(context: &context)
        default:
            throw .unknownAction(action.name)
        }
    }

    /// The card an action names, or the top card.
    func target(of action: SceneAction) throws(SceneError) -> CardID {
        if action.has("card") {
            let id = try action.card()
            guard deck.contains(id: id) else { throw .unknownCard(id) }
            return id
        }
        guard let top = deck.last else { throw .invalidState("the stack is empty; restart it") }
        return top.id
    }

    public mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        if gesture.gesture == "restart", gesture.phase == .ended {
            restart(context: &context)
            return
        }
        guard let id = deck.first(where: { Self.node($0.id) == gesture.target })?.id else { return }
        switch (gesture.gesture, gesture.phase) {
        case ("tap", .ended):
            toggleReveal(id, context: &context)
        case ("drag", .began), ("drag", .changed):
            if let translation = gesture.value?.drag?.translation { drag = (id, translation) }
        case ("drag", .ended):
            let width = gesture.value?.drag?.translation.dx ?? drag?.translation.dx ?? 0
            if abs(width) > Self.removalThreshold {
                // Past the threshold the card is already transparent (2 − |w/50| ≤ 0): it leaves as it is.
                let old = deck.ids
                _ = try? deck.remove(id)
                revealed.remove(id)
                drag = nil
                context.animation = .default
                context.haptic(deck.isEmpty ? .success : .medium, target: Self.node(id), card: id)
                context.deckChanged(from: old, to: deck)
                context.stateChanged = true
            } else {
                // The seed sets `offset = .zero` outside any animation: the card is back at once.
                drag = nil
                context.animation = nil
                context.haptic(.soft, target: Self.node(id), card: id)
            }
        case ("drag", .cancelled):
            drag = nil
            context.animation = .spring
        default:
            break
        }
    }

    public mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool {
        switch key.key {
        case "space", "enter":
            guard let top = deck.last else {
                restart(context: &context)
                return true
            }
            toggleReveal(top.id, context: &context)
        case "left", "right":
            guard let top = deck.last else { return false }
            remove(top.id, direction: key.key == "left" ? -1 : 1, context: &context)
        case "r":
            guard deck.isEmpty else { return false }
            restart(context: &context)
        default:
            return false
        }
        return true
    }

    public mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {
        guard deck.allSatisfy({ if case .flashcard = $0.payload { true } else { false } }) else {
            throw .invalidState("the flashcards scene needs a deck of flashcards")
        }
        guard deck.allSatisfy({ allCards.contains(id: $0.id) }) else {
            throw .invalidState("a flashcards deck can be reordered or shortened here, not given new cards")
        }
        self.deck = deck
        revealed = revealed.filter { deck.contains(id: $0) }
        context.stateChanged = true
    }

    // MARK: Persistence: the ids of the removed cards

    public func encodeState() -> [UInt8]? {
        let removed = allCards.filter { !deck.contains(id: $0.id) }.map { JSONValue.string($0.id.description) }
        return JSONValue.object([.init("removed", .array(removed))]).jsonBytes
    }

    public mutating func restoreState(_ json: [UInt8]) throws(SceneError) {
        guard let value = try? JSONValue(parsing: json), case .array(let items)? = value["removed"] else {
            throw .invalidState("the saved flashcards state is not {\"removed\": [ids]}")
        }
        let removed = Set(items.compactMap { $0.stringValue.flatMap { CardID($0) } })
        deck = (try? Deck(allCards.filter { !removed.contains($0.id) })) ?? allCards
    }

    // MARK: Layout

    static func node(_ id: CardID) -> NodeID { NodeID("card.\(id)") }

    /// The card size for a viewport: 450×250, scaled down to leave 16 points each side.
    static func cardSize(in viewport: Size) -> Size {
        let scale = min(1, (viewport.width - 32) / cardSize.width, (viewport.height - 32) / (cardSize.height + 100))
        return cardSize * max(scale, 0.1)
    }

    public func layout(in viewport: Size) -> [Node] { layout(in: viewport, text: StandardTextMeasurer()) }

    /// The padding between a card's edge and its text, and the spacing between prompt and answer (the seed's
    /// `.padding(20)` and a VStack's default spacing).
    static let textPadding = 20.0
    /// How many cards from the top of the stack show their text.
    static let cardsWithText = 3
    static let textSpacing = 8.0

    /// The card's text as the seed's VStack lays it out: the prompt (large title, black) and, when revealed, the
    /// answer (title, grey), centred, wrapped inside the card's padded width, the block centred vertically; text
    /// that does not fit the card's height is cut with "…" (the answer keeps at least one line).
    func textNodes(_ flashcard: Flashcard, card id: NodeID, in rect: Rect, revealed: Bool, text: any TextMeasurer)
        -> [Node]
    {
        let inner = Rect(
            x: rect.minX + Self.textPadding, y: rect.minY + Self.textPadding,
            width: max(1, rect.width - 2 * Self.textPadding), height: max(1, rect.height - 2 * Self.textPadding))
        let promptHeight = text.lineHeight(of: .largeTitle)
        let answerHeight = text.lineHeight(of: .title)
        let answerRoom = revealed ? Self.textSpacing + answerHeight : 0
        let promptLimit = max(1, Int(((inner.height - answerRoom) / promptHeight).rounded(.down)))
        let promptLines = TextLayout.lines(
            flashcard.prompt, width: inner.width, style: .largeTitle, weight: .regular, lineLimit: promptLimit,
            measurer: text
        ).count
        var blockHeight = Double(promptLines) * promptHeight
        var answerLines = 0
        if revealed {
            let left = inner.height - blockHeight - Self.textSpacing
            let answerLimit = max(1, Int((left / answerHeight).rounded(.down)))
            answerLines =
                TextLayout.lines(
                    flashcard.answer, width: inner.width, style: .title, weight: .regular, lineLimit: answerLimit,
                    measurer: text
                ).count
            blockHeight += Self.textSpacing + Double(answerLines) * answerHeight
        }
        let top = inner.midY - blockHeight / 2
        var nodes = [
            Node(
                id: id.child("prompt"), role: .text, parent: id,
                rect: Rect(x: inner.minX, y: top, width: inner.width, height: Double(promptLines) * promptHeight),
                text: [
                    TextRun(
                        flashcard.prompt, style: .largeTitle, color: Palette.text, alignment: .center,
                        lineLimit: promptLimit)
                ], isHitTestable: false)
        ]
        if revealed {
            nodes.append(
                Node(
                    id: id.child("answer"), role: .text, parent: id,
                    rect: Rect(
                        x: inner.minX, y: top + Double(promptLines) * promptHeight + Self.textSpacing,
                        width: inner.width, height: Double(answerLines) * answerHeight),
                    text: [
                        TextRun(
                            flashcard.answer, style: .title, color: Palette.gray, alignment: .center,
                            lineLimit: answerLines)
                    ], transition: .opacity, isHitTestable: false))
        }
        return nodes
    }

    public func layout(in viewport: Size, text measurer: any TextMeasurer) -> [Node] {
        var nodes: [Node] = [
            Node(
                id: "background", role: .background,
                rect: Rect(x: 0, y: 0, width: viewport.width, height: viewport.height), z: -1,
                fill: RGBA(red: 0.2, green: 0.24, blue: 0.35), isHitTestable: false)
        ]
        let size = Self.cardSize(in: viewport)
        let count = deck.count
        // The seed's stack is a fixed frame its cards are offset inside (`stacked(at:in:)`: (total − position)·10),
        // so a removal slides the others up 10 points; the frame is centred for the whole deck, so the full stack
        // fits and never re-centres as cards go.
        let stackHeight = size.height + Double(allCards.count) * 10
        let originY = (viewport.height - stackHeight) / 2
        let originX = (viewport.width - size.width) / 2
        for (position, card) in deck.enumerated() {
            guard case .flashcard(let flashcard) = card.payload else { continue }
            let id = Self.node(card.id)
            var translation = Vector.zero
            if let drag, drag.card == card.id { translation = drag.translation }
            let offsetY = Double(count - position) * 10
            let rect = Rect(
                x: originX + translation.dx * 5, y: originY + offsetY, width: size.width, height: size.height)
            nodes.append(
                Node(
                    id: id, role: .card, card: card.id, rect: rect, z: Double(position),
                    opacity: 2 - abs(translation.dx / 50), rotation: .degrees(translation.dx / 5), cornerRadius: 25,
                    fill: Palette.white, shadow: Shadow(radius: 10), gestures: Self.cardGestures,
                    clipsContent: true, mayOverflow: translation != .zero,
                    accessibilityLabel: revealed.contains(card.id)
                        ? "\(flashcard.prompt) \(flashcard.answer)" : flashcard.prompt))
            // Only the top cards' text can show (each card covers all but a 10-point strip of the one under it), so
            // only they lay text out: a 10,000-card stack costs 10,000 card nodes, not 30,000 nodes and wraps.
            if position >= count - Self.cardsWithText {
                nodes += textNodes(
                    flashcard, card: id, in: rect, revealed: revealed.contains(card.id), text: measurer)
            }
        }
        if deck.isEmpty {
            let buttonRect = Rect(x: viewport.width / 2 - 80, y: viewport.height / 2 - 24, width: 160, height: 48)
            nodes.append(
                Node(
                    id: "restart", role: .button, rect: buttonRect, z: 1, cornerRadius: 24, fill: Palette.white,
                    text: [TextRun("Start Again", style: .headline, color: Palette.text, alignment: .center)],
                    transition: .opacity, gestures: [GestureAttachment("restart", TapGesture())]))
        }
        return nodes
    }
}
