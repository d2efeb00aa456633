import CardEngine
import CardGestures
import CardModels
import CardPhysics

/// Seed 001 (matched geometry PoC): lines of items that fly between an overview and a details list.
///
/// - Overview: a title bar and one row per line (a card of the deck), each a row of chips: icon + text on a colour
///   rounded rectangle (corner radius 8, padding 4, white foreground).
/// - Tapping a line (`open`) shows the details over the overview, which stays underneath: a white overlay listing
///   the line's items vertically (a 30×30 colour rounded square, the icon, the text, a hairline between rows) and
///   a close (×) button in the corner, a hairline under each row. Every item's colour, icon and text fly from
///   their overview frames to their details frames with the default animation: the nodes `overview.<item>.color`
///   and `details.<item>.color` share the matched-geometry id `<item>.color` (likewise `.icon`, `.text`), and the
///   overview's are left out of the layout while the details show. As SwiftUI draws a matched element, both
///   copies fly: the new one from the old one's frame, fading in, the old one to the new one's frame, fading out
///   (so the white text becomes black by cross-fading). `close` flies them back the same way; closing while they
///   fly reverses from where they are, with their velocity.
/// - A row shows the List's press highlight (systemGray4) while a finger is on it.
/// - Keys: up/down (tab) choose a line, enter/space open it, escape/backspace close.
/// - Haptics: `light` when the details open, `soft` when they close.
public struct HeroScene: Scene {
    /// What the scene is, for front ends and hosts (see `SceneDescriptor`).
    public static let descriptor = SceneDescriptor(
        name: "hero", title: "Hero", summary: "item lines that fly into a details list",
        seed: "001 matched geometry PoC",
        designHeight: nil, textPlacement: .centered, takesDeck: true, takesCardCount: false,
        keyHelp: [
            KeyHelp("↑ ↓ tab", "choose a line", short: "choose", names: ["up", "down", "tab", "backtab"]),
            KeyHelp("enter space", "open the chosen line's details", short: "open", names: ["enter", "space"]),
            KeyHelp("escape backspace", "close the details", short: "close", names: ["escape", "backspace"]),
        ],
        actions: [
            ActionInfo(
                "open", "show a line's details", arguments: [ActionArgument("line", .card, "card id of the line")],
                availability: .deckHasAtLeast(1)),
            ActionInfo("close", "close the details"),
        ]
    )
    .explainingPointer([
        KeyHelp("click a line", "its items fly to the details"), KeyHelp("click ×", "fly them back"),
    ])
    .changingLook(
        "a chip's icon and text are white where white reads on the chip's colour (4.5:1), else black (Palette.label: "
            + "black on every chip but the indigo Moon; the yellow Star's white was 1.5:1)"
    )
    .changingLook(
        "a flying copy of an item keeps its place in paint order (its label over its chip, not under it); a "
            + "terminal draws each item once while it flies, cross-fading, its icon and label whole")

    /// The item lines, top first.
    public private(set) var deck: Deck
    /// The line whose details show, if any (the seed's `selectedLine`).
    public private(set) var selectedLine: CardID?
    /// The line keyboard focus is on, if any.
    public internal(set) var focused: CardID?
    /// The line a finger is pressing, if any (its row shows the List's highlight).
    public private(set) var pressed: CardID?

    /// The hero scene over `options.deck` (cards whose payload is an item line) or the seed's lines; throws
    /// `SceneError.invalidState` when a card is not an item line or an item id appears twice.
    public init(options: SceneOptions = SceneOptions()) throws(SceneError) {
        let deck = options.deck ?? SeedData.itemLines
        try Self.validate(deck)
        self.deck = deck
    }

    /// A deck the scene can show: item lines whose item ids are unique across the deck (they name nodes and
    /// matched-geometry ids).
    static func validate(_ deck: Deck) throws(SceneError) {
        var ids: Set<String> = []
        for card in deck {
            guard case .itemLine(let line) = card.payload else {
                throw .invalidState("the hero scene needs a deck of item lines")
            }
            for item in line.items where !ids.insert(item.id).inserted {
                throw .invalidState("the item id '\(item.id)' appears twice; item ids must be unique")
            }
        }
    }

    // MARK: Changes

    /// Shows `line`'s details (nil closes them), with the default animation (the seed's `withAnimation`).
    mutating func show(_ line: CardID?, context: inout SceneContext) {
        guard line != selectedLine else { return }
        selectedLine = line
        if let line { focused = line }
        context.animation = .default
        context.haptic(line == nil ? .soft : .light, target: line.map(Self.lineNode), card: line)
    }

    public mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError) {
        switch action.name {
        case "open":
            let id = try action.card("line")
            guard deck.contains(id: id) else { throw .unknownCard(id) }
            show(id, context: &context)
        case "close":
            show(nil, context: &context)
        default:
            throw .unknownAction(action.name)
        }
    }

    public mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        if gesture.gesture == "press" {
            // Highlighted at once on touch-down, cleared when the finger lifts or the press is cancelled (UIKit
            // shows a cell's highlight without animation).
            let line = deck.first(where: { Self.lineNode($0.id) == gesture.target })?.id
            switch gesture.phase {
            case .began, .changed: pressed = selectedLine == nil ? line : nil
            case .ended, .cancelled, .failed: pressed = nil
            }
            return
        }
        guard gesture.phase == .ended else { return }
        switch gesture.gesture {
        case "open":
            guard selectedLine == nil, let id = deck.first(where: { Self.lineNode($0.id) == gesture.target })?.id
            else { return }
            show(id, context: &context)
        case "close":
            show(nil, context: &context)
        default:
            break
        }
    }

    public mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool {
        let ids = deck.ids
        switch key.key {
        case "up", "down", "tab", "backtab":
            guard selectedLine == nil, !ids.isEmpty else { return false }
            let forward = key.key == "down" || (key.key == "tab" && !key.shift)
            if let current = focused.flatMap({ deck.index(of: $0) }) {
                focused = ids[(current + (forward ? 1 : ids.count - 1)) % ids.count]
            } else {
                focused = ids[forward ? 0 : ids.count - 1]
            }
        case "enter", "space":
            guard selectedLine == nil, let id = focused ?? ids.first else { return false }
            show(id, context: &context)
        case "escape", "backspace":
            guard selectedLine != nil else { return false }
            show(nil, context: &context)
        default:
            return false
        }
        return true
    }

    public mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError) {
        try Self.validate(deck)
        self.deck = deck
        if let line = selectedLine, !deck.contains(id: line) { selectedLine = nil }
        if let line = focused, !deck.contains(id: line) { focused = nil }
        context.animation = .default
    }

    static func lineNode(_ id: CardID) -> NodeID { NodeID("line.\(id)") }
}
