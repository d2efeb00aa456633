import CardEngine
import CardGestures
import CardModels
import CardPhysics

/// Seed 004 (Card Deck Interactions): a compact, overlapping stack of cards in a scrollable column.
///
/// - Stack: card at position i is `step` (60 pt on a phone) below the one before, overlapping it, with z = i and a
///   depth shadow cast upwards onto the card behind. The column scrolls (drag or wheel, `ScrollGesture`).
/// - Pull to fan: scrolling past the top by `overscroll` points widens every gap by `overscroll·0.25`, so card i
///   moves down by `i·overscroll·0.25` (the spread grows linearly down the stack, the seed's resistance factor
///   0.25); releasing springs the stack closed (`.spring`). A drag or wheel past the top is rubber-banded first
///   (UIScrollView's `(1 − 1/(x·0.55/d + 1))·d`, the seed's `contentOffset` being UIKit's damped one), so the
///   fan's growth slows the further the finger goes; the `pull` action and the `p` key give the overscroll itself.
/// - Tap: the card flies to a full-screen detail (matched geometry `card.<id>`) with spring(response 0.35,
///   dampingFraction 0.85); tapping the background (the strips above and below the detail) closes it.
/// - Drag down on the detail (`DragGesture(minimumDistance: 20)`, simultaneous): offset = vertical·0.6, downward
///   only; release dismisses past 120 pt, or past 60 pt when the downward speed exceeds 1.5 pt/ms
///   (`fastVelocity`, 1500 pt/s); otherwise it springs back.
/// - Reorder: long press (0.5 s) then drag. The card under the pointer is found by coordinate math
///   (`cardPosition(at:metrics:)`: the topmost card whose rect holds the point); scrolling is suspended while dragging (the column's scroll
///   gesture loses the arena to the reorder gesture); the other cards spring aside as the dragged card's drop
///   slot changes. On drop the new order is committed and persisted (sortOrder = the new positions).
/// - Bounce: reaching the top while scrolling up faster than 1.5 pt/ms (or `scroll {to: 0}` from a screen or more
///   away) kicks each visible card downwards by `bounceKick` pt/s with a bouncy spring, card k of the window 0.03·k s
///   after the one above (`SceneContext.nodeImpulses`). The kicks add to the cards' own motion, so a flick that
///   goes on past the top (as real flicks do) fans the stack and bounces every card in turn.
/// - The column is the engine's `ScrollView`: a drag follows with UIScrollView's rubber band past either end and
///   coasts on release with its deceleration; the wheel (a trackpad) moves it and may pull past the top too. A
///   coast lays out every card it carries through the view (`coastSlots`), those not in view starting where the
///   old offset had them, so the whole column moves as one; any next input stops the coast where it shows.
/// - Large decks: up to `maximumCount` (1,000,000) cards. Only cards intersecting the viewport (plus one step) become
///   nodes, so layout is O(visible). The order is a `DeckOrder` (moves O(distance), sorts a stable counting sort
///   over cached key ranks, O(n)); a sort's diff comes from the sort itself (each new slot's old slot, then a longest
///   increasing subsequence: `ReorderDiff(sortSources:)`), with no id hashing; cards in view animate to their new places, cards entering the view slide in from the side of
///   their old place and cards leaving slide towards their new one (see `SortPlan`).
/// - sortOrder is the user's own order: manual reorders (drag, `move`, shift+arrows, a host's reorder) set it to the
///   new positions; sorting by title or colour leaves it alone, so sorting by sortOrder returns to it. It persists
///   (see `DeckScene+Persistence.swift`).
/// - Options: `cardCount` generates `DeckGenerator.deck(count:)` (0…1,000,000, else `SceneError`) and wins over
///   `deck`; `deck` is the user's deck; the default is `SeedData.colorDeck`.
///
/// Haptics (what each interaction asks for):
/// tap/expand → light; close (background tap, escape, `collapse`) → soft; drag-dismiss → soft; dismiss spring back
/// → rigid; long-press begin → medium; drop slot crosses a card → selection; drop at a new place → success; drop in
/// place → rigid; reorder cancelled → warning; fan opens (pull past 40 pt) → light; fan released → soft; bounce →
/// light; sort → success; keyboard or action move → selection; focus change → selection; plain scrolling → none
/// (as a scroll view).
public struct DeckScene: Scene {
    /// What the scene is, for front ends and hosts (see `SceneDescriptor`).
    public static let descriptor = SceneDescriptor(
        name: "deck", title: "Card Deck", summary: "stacked cards: fan, expand, reorder, bounce; up to 1M cards",
        seed: "004 Card Deck Interactions",
        designHeight: nil, textPlacement: .top, takesDeck: true, takesCardCount: true,
        keyHelp: [
            KeyHelp(
                "↑ ↓ tab", "move the focus (the column follows)", short: "focus",
                names: ["up", "down", "tab", "backtab"]),
            KeyHelp("pageup pagedown home end", "scroll", names: ["pageup", "pagedown", "home", "end"]),
            KeyHelp("enter space", "expand the focused card", short: "expand", names: ["enter", "space"]),
            KeyHelp("escape", "close the expanded card", short: "close", names: ["escape"]),
            KeyHelp("shift+↑ shift+↓", "move the focused card", short: "move", names: ["shift+up", "shift+down"]),
            KeyHelp("s", "sort by title, colour or your order, in turn", short: "sort", names: ["s"]),
            KeyHelp("p", "pull the stack open (fan) or release it", short: "fan", names: ["p"]),
        ],
        actions: [
            ActionInfo("expand", "show a card full screen", arguments: [ActionArgument("card", .card, "card id")]),
            ActionInfo("collapse", "close the expanded card"),
            ActionInfo(
                "move", "move a card to a position",
                arguments: [
                    ActionArgument("card", .card, "card id"),
                    ActionArgument("to", .position, "0-based position (at most the card count − 1)"),
                ]),
            ActionInfo(
                "scroll", "scroll the column to an offset or by a distance (to 0 from afar bounces)",
                arguments: [
                    ActionArgument("to", .number(), "offset in points", required: false),
                    ActionArgument("by", .number(), "distance in points", required: false),
                ],
                exactlyOneOf: ["to", "by"]),
            ActionInfo(
                "pull", "pull the stack past its top (fans it); 0 releases",
                arguments: [ActionArgument("distance", .number(minimum: 0, maximum: 10_000), "points")]),
            ActionInfo(
                "sort", "sort the whole deck (stable)",
                arguments: [
                    ActionArgument("by", .string(oneOf: ["title", "color", "sortOrder"]), "the sort key"),
                    ActionArgument(
                        "order", .string(oneOf: ["ascending", "descending"]), "ascending by default", required: false),
                ]),
        ]
    )
    .explainingPointer([
        KeyHelp("pull down at the top", "fan the stack"), KeyHelp("click a card", "expand it"),
        KeyHelp("drag it down", "close the expanded card"), KeyHelp("hold, then drag", "move a card"),
    ])
    .changingLook(
        "the expanded card counts its place in your order from 1, as it counts its place in the deck "
            + "(\"Card 3 of 12 · your order: 3\", was \"your order: 2\")"
    )
    .changingLook(
        "titles sort as people count them (TitleOrder: Card 1, Card 2 … Card 10, letters without case), not by "
            + "their bytes (Card 1, Card 10, Card 100 …)"
    )
    .changingLook(
        "a card's title (and the expanded card's lines) are white where white reads on its colour (4.5:1), else "
            + "black (Palette.label: white only on indigo); the header's count is a darker gray (96, 96, 100)"
    )
    .changingLook(
        "an expanding card grows from its place in the stack, behind the cards in front of it, until its detail "
            + "takes over in front (it painted over them from the first frame); a terminal draws it once, solid"
    )
    .changingLook(
        "on a terminal's grid the fan opens by whole rows per gap, each gap only widening as the pull grows (the "
            + "cards' exact tops, rounded one by one, made the gaps go 3, 4, 3, 4 rows)")

    /// The most cards a deck may hold.
    public static let maximumCount = 1_000_000
    /// Above this many cards the state persists the operations since the initial order, not the whole order
    /// (`DeckOrder.largeCount`).
    static let persistListLimit = DeckOrder.largeCount

    // Seed constants.
    static let fanResistance = 0.25
    static let expandAnimation = (try? Animation.spring(response: 0.35, dampingFraction: 0.85)) ?? .spring
    static let dismissResistance = 0.6
    static let dismissDistance = 120.0
    static let fastDismissDistance = 60.0
    /// "Fast" in the seed's comparison `velocity > 1.5`: points per millisecond (1500 pt/s).
    static let fastVelocity = 1.5
    static let dismissMinimumDistance = 20.0
    static let longPressDuration = 0.5
    // Documented choices.
    static let fanHapticPull = 40.0
    static let bounceKick = 500.0
    static let bounceStagger = 0.03
    static let bounceAnimation = (try? Animation.spring(response: 0.4, dampingFraction: 0.45)) ?? .bouncy

    /// The order of the cards: slots, positions, the user's order, the sort, key ranks and the saved state's
    /// records (`DeckOrder`, whose doc comment gives each operation's cost).
    var order: DeckOrder

    /// The column's content offset (0 at the top).
    public internal(set) var scrollOffset = 0.0
    /// How far the column is pulled past its top (≥ 0); the fan spreads by `pull·0.25`.
    public internal(set) var pull = 0.0
    /// What the pointer is doing.
    var mode = Mode.browsing
    /// The keyboard focus: a display position.
    public internal(set) var focus = 0
    /// Where cards entering the view after a sort or on a coast come from (cleared by the next change).
    var sortPlan: SortPlan?
    /// The column's scroll physics (drag and wheel with the rubber band, the coast on release): `scrollOffset`
    /// and `pull` are what it shows.
    var column = ScrollView(axis: .vertical, wheelBounces: true)
    /// The slots a coast carries through the view, laid out besides the window until the next change (so that
    /// every card the content passes shows on the way, not only those at either end).
    var coastSlots: Range<Int>?
    /// The column's offset as the last scroll event of the current drag left it, and when: the content's own speed
    /// between two events is what makes a scroll to the top "fast" (the seed watches the content offset), also
    /// when the finger's fitted velocity has too few samples to say. A scroll's first event has no previous one:
    /// a flick that crosses the top on its very first move is judged by the finger's velocity alone, which reads
    /// zero until the tracker has three samples (such a flick does not bounce).
    var lastScroll: ScrollSample?
    /// The interaction in progress.
    enum Mode: Sendable, Hashable {
        case browsing
        /// A card lifted by a long press and dragged.
        case reordering(ReorderDrag)
        /// A card shown full screen, dragged down by `dismissOffset` (already resisted).
        case expanded(card: Int, dismissOffset: Double)
    }

    /// A card being reordered.
    struct ReorderDrag: Sendable, Hashable {
        var card: Int
        /// Its position when lifted.
        var from: Int
        /// Vertical translation of the pointer since the long press.
        var translation: Double
        /// The position it would drop at now.
        var drop: Int
    }

    /// The deck scene over `options.deck` (or `options.cardCount` generated cards, or the seed deck); throws
    /// `SceneError.invalidArgument` for a card count outside 0…`maximumCount` and `SceneError.invalidState` for a
    /// larger deck.
    public init(options: SceneOptions = SceneOptions()) throws(SceneError) {
        let deck: Deck
        var cachedRanks = DeckOrder.Ranks()
        if let count = options.cardCount {
            guard (0...Self.maximumCount).contains(count) else {
                throw .invalidArgument(
                    action: "open", argument: "cardCount", reason: "must be 0…\(Self.maximumCount), got \(count)")
            }
            // A large generated deck opened again comes with its ranks, from the process's cache.
            (deck, cachedRanks) = GeneratedDeckCache.shared.deck(count: count)
        } else {
            deck = options.deck ?? SeedData.colorDeck
        }
        guard deck.count <= Self.maximumCount else {
            throw .invalidState("the deck scene holds at most \(Self.maximumCount) cards, got \(deck.count)")
        }
        // A large deck computes every key's ranks as it opens, so its first sort by any key costs no more than the
        // next ones (tens of milliseconds for a million cards, once).
        order = DeckOrder(deck, ranks: cachedRanks, checksum: OrderChecksum.of)
        if let count = options.cardCount {
            GeneratedDeckCache.shared.remember(count: count, deck: deck, ranks: order.keyRanks)
        }
    }

    /// The cards in display order, each with its current sortOrder. O(n) (builds a `Deck`).
    public var deck: Deck { order.deck }

    /// The number of cards.
    public var count: Int { order.count }

    /// The cards as given, by card index (the order permutes them).
    var base: Deck { order.base }

    /// The sort applied on top of the manual order, if any.
    public var sort: DeckSort? { order.sort.map(DeckSort.init) }

    /// The card shown full screen, if any.
    public var expandedCard: CardID? {
        if case .expanded(let card, _) = mode { return base[card].id }
        return nil
    }

    /// The card being reordered, if any.
    public var reorderingCard: CardID? {
        if case .reordering(let drag) = mode { return base[drag.card].id }
        return nil
    }

    public var stateName: String? { "deck" }

    // MARK: Lookups

    /// The card index of `id`. O(1).
    func cardIndex(of id: CardID) -> Int? { order.cardIndex(of: id) }

    /// The card index in display position `slot`. O(1).
    func card(at slot: Int) -> Int { order.card(at: slot) }

    /// The display position of `card`. O(pending moves) (`DeckOrder.slot(of:)`).
    func slot(of card: Int) -> Int { order.slot(of: card) }

    static func node(_ id: CardID) -> NodeID { NodeID("card.\(id)") }
    static func detailNode(_ id: CardID) -> NodeID { NodeID("detail.\(id)") }
    static func matchedID(_ id: CardID) -> String { "card.\(id)" }
}

/// How the deck is sorted on top of the user's own order.
public struct DeckSort: Sendable, Hashable {
    /// What the cards are compared by.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The card's title, in Swift's `String` order (Unicode canonical, case-sensitive).
        case title
        /// The card's colour: greys first (dark to light), then by hue, then by lightness.
        case color
        /// The user's own order (`Card.sortOrder`), as manual reorders last set it.
        case sortOrder
    }

    /// The key the cards are compared by.
    public var key: Key
    /// Whether the largest key comes first.
    public var descending: Bool

    /// A stable sort by `key`, ascending unless `descending`.
    public init(_ key: Key, descending: Bool = false) {
        self.key = key
        self.descending = descending
    }

    /// The scene's sort of `DeckOrder`'s (whose sorts are always by a scene's key).
    init(_ sort: DeckOrder.Sort) {
        let key: Key =
            switch sort.key {
            case .title: .title
            case .color, .colorNumber: .color
            case .sortOrder, .id: .sortOrder
            }
        self.init(key, descending: sort.descending)
    }

    /// `DeckOrder`'s sort of this one.
    var orderSort: DeckOrder.Sort {
        let key: DeckOrder.Key =
            switch key {
            case .title: .title
            case .color: .color
            case .sortOrder: .sortOrder
            }
        return DeckOrder.Sort(key, descending: descending)
    }
}
