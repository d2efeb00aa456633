import CardEngine
import CardGestures
import CardJSON
import CardModels
import CardPersistence
import CardPhysics

/// Seed 002 (AppCoda wallet): a stack of payment cards to select and reorder.
///
/// - A title bar "Wallet" with a plus icon; payment cards (number, holder, "Valid Thru" expiry, brand).
/// - The card at index i is offset y = −50·i with zIndex −i (card 0 in front, lowest on screen).
/// - Launch: the cards are absent from the engine's first layout and enter on `appear` (the seed's
///   `.id(isCardPresented)` flipped in `onAppear`): each slides in from the leading edge with opacity
///   (`.slide.combined(with: .move(edge: .leading)).combined(with: .opacity)`) under spring(response 0.1,
///   dampingFraction 0.8, blendDuration 0.02) delayed (count − index)·0.1 s, the last card first.
/// - Tap a card (easeOut 0.15 s after a 0.1 s delay): it and the cards at higher indices go to offset 0, the
///   others drop to offset +1400, and the transaction history slides up from the bottom edge; tap again to return.
///   The history shows the transactions as tiles side by side in a horizontal scroll view (the starter project's
///   `ScrollView(.horizontal)`; `ScrollView` in CardEngine): drag it (rubber band at both ends, a coast with
///   UIScrollView's deceleration on release), turn the wheel over it, or press ← → (a tile) and home/end.
/// - The card gesture is the seed's `TapGesture().exclusively(before: LongPressGesture(minimumDuration: 0.05)
///   .sequenced(before: DragGesture()))`. The press shows (the card lifts by −20, `medium`) 0.05 s after
///   touch-down, the seed's minimum duration, while the tap keeps priority: released before CardGestures' tap
///   fails (held 0.5 s or moved 10 pt) it is still a tap and selects. Once the tap has failed the seed's drag
///   state takes over (`DragState.pressing`, then `.dragging`). A press held past 0.5 s never counts as a tap;
///   released without a drag it is cancelled and the card settles back. While dragging, the card follows the
///   finger vertically, shifts ±20 x once the horizontal translation passes ±10, and its zIndex is
///   −index + height/50. On release newIndex = index + Int(−height/50), clamped to the deck, animated with
///   `.spring()`. The order persists (state `wallet`: `{"order": ["101", …]}`).
/// - Deviations: while a card is selected the press-and-drag does nothing (the seed reorders the deck unseen
///   behind the selected card); the drag state's reset on release or cancel animates with `.spring()` with the
///   reorder (the seed's `@GestureState` reset is part of the same transaction on release).
/// - Haptics: `selection` on a tap that selects or deselects, `medium` when the card lifts (press recognised),
///   `light` when it is dropped in a new place (`soft` when it goes back where it was), `light` on a keyboard move.
public struct WalletScene: Scene {
    /// What the scene is, for front ends and hosts (see `SceneDescriptor`).
    public static let descriptor = SceneDescriptor(
        name: "wallet", title: "Wallet", summary: "a wallet of payment cards to select and reorder",
        seed: "002 AppCoda wallet",
        // The height the layout needs to show whole: title 77 + the five-card stack's rise 200 + a card at least 267 points tall + margins.
        designHeight: 560, textPlacement: .centered, takesDeck: true, takesCardCount: false,
        keyHelp: [
            KeyHelp(
                "↑ ↓ tab", "move the focus up or down the stack", short: "focus",
                names: ["up", "down", "tab", "backtab"]),
            KeyHelp("enter space", "select or deselect the focused card", short: "select", names: ["enter", "space"]),
            KeyHelp("escape backspace", "return to the stack", short: "back", names: ["escape", "backspace"]),
            KeyHelp(
                "shift+↑ shift+↓ ] [", "move the focused card up or down the stack",
                names: ["shift+up", "shift+down", "]", "["]),
            KeyHelp(
                "← → home end", "scroll the transaction history (a card selected)", short: "history",
                names: ["left", "right", "home", "end"]),
        ],
        actions: [
            ActionInfo(
                "select", "select a card and show the transaction history",
                arguments: [ActionArgument("card", .card, "card id")]),
            ActionInfo("deselect", "return to the stack"),
            ActionInfo(
                "move", "move a card to an index of the stack (0 is the front)",
                arguments: [
                    ActionArgument("card", .card, "card id"),
                    ActionArgument("to", .position, "0…count−1"),
                ]),
        ]
    )
    .explainingPointer([
        KeyHelp("click a card", "show it with its history (again: the stack)"),
        KeyHelp("hold, then drag", "move a card in the stack"),
        KeyHelp("drag the history", "scroll it (the wheel too)"),
    ])
    .changingLook(
        "a card's text is white where white reads on its colour (4.5:1), else black (Palette.label: black on the "
            + "blue, orange, teal and red cards, white on the indigo one)")

    /// The cards, front (index 0) first.
    public private(set) var deck: Deck
    /// Whether the cards are shown (false only for the engine's first layout, before `appear`).
    public private(set) var isPresented = false
    /// The selected card (the seed's `selectedCard`; `isCardPressed` is `selected != nil`).
    public private(set) var selected: CardID?
    /// The press-and-drag state (the seed's `@GestureState dragState`): set by the card gesture's updates, reset
    /// when it ends, is cancelled or fails.
    var dragGestureState = GestureStateValue(initialValue: DragState.inactive)
    /// The index of the card held by the 0.05 s press (lifted while the tap may still win), if any.
    var held: Int?
    /// The card keyboard focus is on, if any.
    public internal(set) var focused: CardID?
    /// The transaction history shown under a selected card.
    let transactions: [Transaction]
    /// The history's horizontal scroll view (its offset; back to the start when the selection changes).
    public internal(set) var history = ScrollView(axis: .horizontal)

    /// The seed's `cardOffset`: the vertical step between stacked cards, and the drag distance of one place.
    static let cardOffset = 50.0
    /// Where the cards in front of a selected one (lower indices) go (the seed's offset y +1400).
    static let dropOffset = 1400.0

    /// The wallet scene over `options.deck` or the seed's cards; throws `SceneError.invalidState` unless the deck is a
    /// non-empty deck of payment cards.
    public init(options: SceneOptions = SceneOptions()) throws(SceneError) {
        let deck = options.deck ?? SeedData.wallet
        guard !deck.isEmpty, deck.allSatisfy({ if case .payment = $0.payload { true } else { false } }) else {
            throw .invalidState("the wallet scene needs a deck of payment cards")
        }
        self.deck = deck
        transactions = SeedData.transactions
    }

    public var stateName: String? { "wallet" }

    // MARK: Animations

    /// The seed's launch spring: response 0.1, dampingFraction 0.8, blendDuration 0.02.
    static let launchSpring =
        (try? Animation.spring(response: 0.1, dampingFraction: 0.8, blendDuration: 0.02)) ?? .spring
    /// The seed's selection animation: easeOut over 0.15 s after a 0.1 s delay.
    static let selectionAnimation = ((try? Animation.easeOut(duration: 0.15)) ?? .easeOut).delay(0.1)

    /// The seed's `transitionAnimation(for:)`: the launch spring delayed (count − index)·0.1 s.
    func launchAnimation(index: Int) -> Animation {
        Self.launchSpring.delay(Double(deck.count - index) * 0.1)
    }

    /// The press-and-drag state (the seed's `@GestureState dragState`).
    public var dragState: DragState { dragGestureState.wrappedValue }

    /// Drops the drag state when the deck or the selection changes under a press (the gesture's next update sets
    /// it again from the card's new index).
    mutating func resetDragState() {
        dragGestureState = GestureStateValue(initialValue: .inactive)
        held = nil
    }

    // MARK: Changes

    public mutating func appear(context: inout SceneContext) -> Bool {
        guard !isPresented else { return false }
        isPresented = true
        for (index, card) in deck.enumerated() {
            context.nodeAnimations[Self.node(card.id)] = launchAnimation(index: index)
        }
        return true
    }

    /// The seed's tap: toggles the selection (selecting `id`, or returning to the stack).
    mutating func toggleSelection(_ id: CardID, context: inout SceneContext) {
        setSelection(selected == nil ? id : nil, context: &context)
    }

    mutating func setSelection(_ id: CardID?, context: inout SceneContext) {
        guard id != selected else { return }
        selected = id
        history = ScrollView(axis: .horizontal)
        resetDragState()
        if let id { focused = id }
        context.animation = Self.selectionAnimation
        context.haptic(.selection, target: id.map(Self.node), card: id)
    }

    /// Moves `id` to `destination` (clamped to the deck) with `.spring()`; the seed's `rearrangeCards`.
    /// Returns whether the order changed. O(n).
    @discardableResult
    mutating func move(_ id: CardID, to destination: Int, context: inout SceneContext) -> Bool {
        let old = deck.ids
        let clamped = min(max(destination, 0), deck.count - 1)
        context.animation = .spring
        guard (try? deck.move(id, to: clamped)) != nil, deck.ids != old else { return false }
        context.deckChanged(from: old, to: deck)
        context.stateChanged = true
        return true
    }

    public mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        switch action.name {
        case "select":
            let id = try action.card()
            guard deck.contains(id: id) else { throw .unknownCard(id) }
            setSelection(id, context: &context)
        case "deselect":
            setSelection(nil, context: &context)
        case "move":
            let id = try action.card()
            guard deck.contains(id: id) else { throw .unknownCard(id) }
            let to = try action.int("to")
            guard (0..<deck.count).contains(to) else {
                throw .invalidArgument(action: "move", argument: "to", reason: "must be 0…\(deck.count - 1)")
            }
            resetDragState()
            if move(id, to: to, context: &context) { context.haptic(.light, target: Self.node(id), card: id) }
        default:
            throw .unknownAction(action.name)
        }
    }

    public mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool {
        let ids = deck.ids
        guard !ids.isEmpty else { return false }
        let current = focused.flatMap { deck.index(of: $0) }
        switch key.key {
        case "up" where key.shift, "down" where key.shift, "]", "[":
            let upward = key.key == "up" || key.key == "]"
            guard let current else {
                focused = ids[0]
                return true
            }
            if selected == nil {
                resetDragState()
                if move(ids[current], to: current + (upward ? 1 : -1), context: &context) {
                    context.haptic(.light, target: Self.node(ids[current]), card: ids[current])
                }
            }
        case "up", "down", "tab", "backtab":
            // Up the stack is towards higher indices (the cards behind, higher on screen).
            let forward = key.key == "up" || (key.key == "tab" && !key.shift)
            if let current {
                focused = ids[(current + (forward ? 1 : ids.count - 1)) % ids.count]
            } else {
                focused = ids[forward ? 0 : ids.count - 1]
            }
        case "enter", "space":
            guard let id = focused ?? selected ?? ids.first else { return false }
            toggleSelection(id, context: &context)
        case "escape", "backspace":
            guard selected != nil else { return false }
            setSelection(nil, context: &context)
        case "left", "right", "home", "end":
            guard selected != nil else { return false }
            sizeHistory(viewport: context.viewport, text: context.text)
            let step =
                Self.tileSize(text: context.text, transactions: transactions).width
                + context.grid.width(Self.tileSpacing)
            let animation: Animation? =
                switch key.key {
                case "left": history.scroll(by: -step)
                case "right": history.scroll(by: step)
                case "home": history.scroll(to: 0)
                default: history.scroll(to: history.range.upperBound)
                }
            context.animation = animation
        default:
            return false
        }
        return true
    }

    public mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {
        guard deck.count == self.deck.count, deck.allSatisfy({ self.deck.contains(id: $0.id) }) else {
            throw .invalidState("the wallet's cards can be reordered here, not added or removed")
        }
        self.deck = deck
        resetDragState()
        context.animation = .spring
        context.stateChanged = true
    }

    // MARK: Persistence: the order of the cards

    public func encodeState() -> [UInt8]? {
        JSONValue.object([.init("order", .array(deck.ids.map { .string($0.description) }))]).jsonBytes
    }

    /// Restores the saved order. Ids the deck does not hold and repeats are skipped; cards the saved order does not
    /// name keep their relative order after the named ones (so a changed card set loses nothing).
    public mutating func restoreState(_ json: [UInt8]) throws(SceneError) {
        guard let value = try? JSONValue(parsing: json), case .array(let items)? = value["order"] else {
            throw .invalidState("the saved wallet state is not {\"order\": [card ids]}")
        }
        var seen: Set<CardID> = []
        var ordered: [Card] = []
        for item in items {
            guard let text = item.stringValue else {
                throw .invalidState("the saved wallet order holds something other than card ids")
            }
            guard let id = CardID(text), let card = deck[id: id], seen.insert(id).inserted else { continue }
            ordered.append(card)
        }
        ordered += deck.filter { !seen.contains($0.id) }
        if let restored = try? Deck(ordered) { deck = restored }
    }

    static func node(_ id: CardID) -> NodeID { NodeID("card.\(id)") }
}
