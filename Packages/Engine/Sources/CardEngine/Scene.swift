import CardGeometry
import CardGestures
import CardModels
import CardPersistence
import CardPhysics

/// A scene: one of the seed apps as state, semantic actions, and a layout of nodes for a viewport.
///
/// The engine owns time, animation and gesture recognition; a scene only says where things are for its current
/// state (`layout(in:)`) and changes its state in response to actions, gestures and keys, telling the engine
/// through its `SceneContext` how the change should animate (SwiftUI's transaction), which haptics to play and
/// how its deck changed.
public protocol Scene: Sendable {
    /// What the scene is: its name, title, keys and actions (the same for every instance).
    static var descriptor: SceneDescriptor { get }
    /// What this instance is. The default is the type's `descriptor`; a scene played from data (one type, many
    /// scenes) answers with its own description's.
    var descriptor: SceneDescriptor { get }
    /// The scene's cards, in its current order.
    var deck: Deck { get }
    /// The card ids in the current order (a host's checksum of the order). The default reads `deck`; a scene with a
    /// large deck returns them without building a `Deck`.
    var deckIDs: [CardID] { get }
    /// The number of cards in the deck. The default reads `deck`; a scene with a large deck answers in O(1).
    var deckCount: Int { get }
    /// The cards at `range` of the current order (`deck.get`'s page; `range` lies within the deck). The default
    /// reads `deck`; a scene with a large deck builds only those cards.
    func deckCards(_ range: Range<Int>) -> [Card]

    /// The nodes for the current state, in points, for `viewport`.
    func layout(in viewport: Size) -> [Node]
    /// The nodes for `viewport` when text sizes matter: `text` measures text as the front end will show it (a
    /// scene sizes a text block to its wrapped lines with `TextLayout.lines`). The engine calls this one; the
    /// default uses `layout(in:)`.
    func layout(in viewport: Size, text: any TextMeasurer) -> [Node]
    /// Applies a semantic action; throws `SceneError` for an unknown action or bad arguments, changing nothing.
    mutating func perform(_ action: SceneAction, context: inout SceneContext) throws(SceneError)
    /// Reacts to a gesture recognised on one of its nodes.
    mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext)
    /// Reacts to a key; returns false when the key means nothing here (the front end may use it).
    mutating func handle(_ key: KeyInput, context: inout SceneContext) -> Bool
    /// Replaces the deck's order (or content) from outside (`deck.move`, `deck.sort`, `deck.load`).
    mutating func replaceDeck(_ deck: Deck, context: inout SceneContext) throws(SceneError)
    /// Moves one card to `position` (0-based, in the resulting order) from outside (`deck.move`), reporting the
    /// change with `context.deckChanged`. The default copies the deck, moves the card and calls `replaceDeck`
    /// (O(n)); a scene with a large deck overrides it to move without building a `Deck`.
    mutating func moveCard(_ id: CardID, to position: Int, context: inout SceneContext) throws(SceneError)
    /// Sorts the whole deck by `key` (stable) from outside (`deck.sort`), reporting the change with
    /// `context.deckChanged`; the result becomes the deck's order as `replaceDeck` would take it. The default copies
    /// the deck, sorts it and calls `replaceDeck` (O(n log n)).
    mutating func sortDeck(by key: DeckSortKey, descending: Bool, context: inout SceneContext) throws(SceneError)
    /// Called once, right after the engine's first layout (SwiftUI's `onAppear`). A scene that changes its state
    /// here (a launch animation: nodes absent from the first layout that now enter with their transitions) returns
    /// true, and the change is laid out and animated like any other; the default changes nothing.
    mutating func appear(context: inout SceneContext) -> Bool
    /// What only the scene knows of `layout` (its latest layout) for assistive technologies: the focus, roles,
    /// states, places in sets and what each node's actions do (see `SceneSemantics`). The engine derives the rest
    /// from the nodes (`AccessibilityTree.derive`). The default says nothing: names, bounds and roles come from the
    /// nodes alone, and no node offers an action. Called only when a front end asks for the tree.
    func accessibilitySemantics(of layout: [Node]) -> SceneSemantics
    /// Moves the keyboard focus to `node` (an assistive technology's focus action on a node whose semantics say
    /// `takesFocus`); returns false, changing nothing, when the node cannot take it. The default: false.
    mutating func accessibilityFocus(on node: NodeID, context: inout SceneContext) -> Bool

    /// The name the scene's state is stored under, or nil when it persists nothing.
    var stateName: String? { get }
    /// The scene's persistent state as JSON (what to restore on the next launch).
    func encodeState() -> [UInt8]?
    /// What `Engine.takeStateChange` hands the saver to encode off the interaction path: a closure holding what
    /// `encodeState` needs. The default holds the scene as it is (a copy-on-write value: free now, but the scene's
    /// next change in place copies whatever the closure still shares); a scene whose large arrays change in place
    /// right after (a million-card deck's moves) hands over its own copies of those instead.
    func stateSnapshot() -> @Sendable () -> [UInt8]?
    /// Restores a state written by `encodeState`; throws on a document it cannot use, changing nothing.
    mutating func restoreState(_ json: [UInt8]) throws(SceneError)
    /// The changes of persistent state since the last call as journal records (JSON texts, applied in order by
    /// `applyStateJournal`), or nil when the whole state must be saved again (`encodeState`). A scene with a large
    /// state (a million-card order) returns records so that a save costs O(change), and nil now and then to have
    /// its journal compacted into a snapshot; the default (nil) always saves snapshots.
    mutating func takeStateJournal() -> [[UInt8]]?
    /// Applies journal records written by `takeStateJournal`, after `restoreState` of the snapshot before them (or
    /// to the scene as opened, when there is no snapshot); throws on a record it cannot use. Like `restoreState`, it
    /// leaves nothing for `takeStateJournal` to hand out: the records are on disk already.
    mutating func applyStateJournal(_ records: [[UInt8]]) throws(SceneError)
}

extension Scene {
    public func layout(in viewport: Size, text: any TextMeasurer) -> [Node] { layout(in: viewport) }
    public var deckIDs: [CardID] { deck.ids }
    public var deckCount: Int { deck.count }
    public func deckCards(_ range: Range<Int>) -> [Card] { Array(deck[range]) }
    /// The scene type's descriptor.
    public var descriptor: SceneDescriptor { Self.descriptor }
    /// The catalogue name (`descriptor.name`, the instance's).
    public var name: String { descriptor.name }
    public mutating func appear(context: inout SceneContext) -> Bool { false }
    public func accessibilitySemantics(of layout: [Node]) -> SceneSemantics { SceneSemantics() }
    public mutating func accessibilityFocus(on node: NodeID, context: inout SceneContext) -> Bool { false }

    public mutating func moveCard(_ id: CardID, to position: Int, context: inout SceneContext) throws(SceneError) {
        var moved = deck
        guard moved.contains(id: id) else { throw .unknownCard(id) }
        guard (0..<moved.count).contains(position) else {
            throw .invalidArgument(action: "deck.move", argument: "to", reason: "must be in 0…\(moved.count - 1)")
        }
        let old = moved.ids
        do {
            try moved.move(id, to: position)
        } catch {
            throw .invalidArgument(action: "deck.move", argument: "to", reason: "\(error)")
        }
        try replaceDeck(moved, context: &context)
        context.deckChanged(from: old, to: deck)
    }

    public mutating func sortDeck(by key: DeckSortKey, descending: Bool, context: inout SceneContext)
        throws(SceneError)
    {
        var sorted = deck
        let old = sorted.ids
        switch key {
        case .title: sorted.sort(by: { TitleOrder.Key($0.title) }, descending: descending)
        case .id: sorted.sort(by: \.id, descending: descending)
        case .sortOrder: sorted.sort(by: \.sortOrder, descending: descending)
        case .color: sorted.sort(by: { DeckSortKey.colorKey($0.color) }, descending: descending)
        }
        try replaceDeck(sorted, context: &context)
        context.deckChanged(from: old, to: deck)
    }
    public var stateName: String? { nil }
    public func encodeState() -> [UInt8]? { nil }
    public func stateSnapshot() -> @Sendable () -> [UInt8]? {
        let scene = self
        return { scene.encodeState() }
    }
    public mutating func restoreState(_ json: [UInt8]) throws(SceneError) {}
    public mutating func takeStateJournal() -> [[UInt8]]? { nil }
    public mutating func applyStateJournal(_ records: [[UInt8]]) throws(SceneError) {
        throw .invalidState("this scene keeps no state journal")
    }
}

/// What a scene tells the engine while it changes: SwiftUI's transaction (the animation of the changes) plus the
/// side effects to report.
public struct SceneContext: Sendable {
    /// The time of the input being handled, in seconds.
    public let time: Double
    /// The viewport the scene is laid out in.
    public let viewport: Size
    /// The grid the scene lays out on (its text measurer's `layoutGrid`): metrics a scene computes while it handles
    /// an input (a scroll limit, the card under a pointer) must be the ones its layout used.
    public let grid: LayoutGrid
    /// The front end's text measurer, the one the scene's layout gets (on `grid`): for metrics that depend on
    /// text (a tile as wide as its widest date) computed while handling an input.
    public let text: any TextMeasurer
    /// The animation for every node this change moves (SwiftUI's `withAnimation`); nil: changes apply at once.
    public var animation: Animation?
    /// Per-node animations that override `animation` (staggered delays); a node without an entry uses its
    /// nearest ancestor's.
    public var nodeAnimations: [NodeID: Animation] = [:]
    /// Per-node removal transitions that override the node's own for this change (a card flung left or right).
    public var removalTransitions: [NodeID: NodeTransition] = [:]
    /// Velocity kicks: each named node is displaced from wherever its own motion puts it, starting with the kick's
    /// velocity (plus what remains of an earlier kick) and springing back to no displacement with the impulse's
    /// animation — even when the node's target did not change (a bounce without a second layout), and whatever
    /// later layouts do to its target while it plays (the kick adds to the node's motion, as SwiftUI's springs do).
    public var nodeImpulses: [NodeID: NodeImpulse] = [:]
    /// Set when the scene changed state worth persisting.
    public var stateChanged = false
    var haptics: [HapticEvent] = []
    var deckChanges: [DeckChange] = []

    /// A context for handling an input at `time` seconds in `viewport` on the continuous grid; the engine makes one
    /// per change, so a scene needs this only in tests.
    public init(time: Double, viewport: Size, animation: Animation? = nil) {
        self.init(time: time, viewport: viewport, animation: animation, grid: .continuous)
    }

    /// A context for handling an input at `time` seconds in `viewport` on `grid` (a terminal's cells, say).
    public init(time: Double, viewport: Size, animation: Animation?, grid: LayoutGrid) {
        self.init(time: time, viewport: viewport, animation: animation, text: StandardTextMeasurer(), grid: grid)
    }

    /// A context for handling an input at `time` seconds in `viewport` with the front end's `text` measurer, on
    /// `grid` (by default the measurer's own `layoutGrid`).
    public init(time: Double, viewport: Size, animation: Animation?, text: any TextMeasurer, grid: LayoutGrid? = nil) {
        self.time = time
        self.viewport = viewport
        self.grid = grid ?? text.layoutGrid
        self.text = text
        self.animation = animation
    }

    /// Asks the front end for haptic feedback.
    public mutating func haptic(_ style: HapticEvent.Style, target: NodeID? = nil, card: CardID? = nil) {
        haptics.append(HapticEvent(time: time, style: style, target: target, card: card))
    }

    /// Reports that the deck went from `old` to `new` (the engine sends the minimal reorder diff).
    public mutating func deckChanged(from old: Deck, to new: Deck) {
        deckChanged(from: old.ids, to: new)
    }

    /// Reports that the deck went from the order `oldIDs` to `new`. Keeping only the old ids (not the old deck)
    /// while the deck changes avoids a copy-on-write copy of every card.
    public mutating func deckChanged(from oldIDs: [CardID], to new: Deck) {
        deckChanged(from: oldIDs, toIDs: new.ids)
    }

    /// Reports that the deck went from the order `oldIDs` to `newIDs` (both of unique ids).
    mutating func deckChanged(from oldIDs: [CardID], toIDs newIDs: [CardID]) {
        guard oldIDs != newIDs else { return }
        // Both orders come from decks, whose ids are unique, so the diff cannot fail.
        guard let diff = try? ReorderDiff(from: oldIDs, to: newIDs), !diff.isEmpty else { return }
        deckChanges.append(DeckChange(time: time, ids: newIDs, diff: diff, checksum: 0))
        stateChanged = true
    }

    /// Reports a deck change whose diff the scene computed itself (a million-card sort that never builds a
    /// `Deck`): `ids` is the new order and `diff` goes from the old order to it.
    public mutating func deckChanged(to ids: [CardID], diff: ReorderDiff) {
        guard !diff.isEmpty else { return }
        deckChanges.append(DeckChange(time: time, ids: ids, diff: diff, checksum: 0))
        stateChanged = true
    }

    /// `deckChanged(to:diff:)` for a pure reorder whose scene knows each new slot's old slot (`sources`, a
    /// permutation that `diff` was computed from, as `ReorderDiff(permutation:)` does): the change carries them
    /// (`DeckChange.sources`) for front ends that send them instead of the moves.
    public mutating func deckChanged(to ids: [CardID], diff: ReorderDiff, sources: [Int32]) {
        deckChanged(to: ids, diff: diff, sources: sources, checksum: nil)
    }

    /// `deckChanged(to:diff:sources:)` whose scene also knows the checksum of the new order (`OrderChecksum` of
    /// `ids`: a sort by a key with distinct values gives one of two orders, whose checksums it keeps), so the
    /// engine takes it instead of a pass over the ids. Debug builds check it up to 10,000 cards.
    public mutating func deckChanged(to ids: [CardID], diff: ReorderDiff, sources: [Int32], checksum: UInt32?) {
        guard !diff.isEmpty else { return }
        precondition(sources.count == diff.newCount && diff.oldCount == diff.newCount, "sources of another diff")
        var change = DeckChange(time: time, ids: ids, diff: diff, checksum: 0, sources: sources)
        change.knownChecksum = checksum
        deckChanges.append(change)
        stateChanged = true
    }
}

/// What a host's `deck.sort` compares cards by.
public enum DeckSortKey: String, Sendable, Hashable, CaseIterable {
    /// The title, in Swift's `String` order.
    case title
    /// The card id, numerically.
    case id
    /// `Card.sortOrder`.
    case sortOrder
    /// The colour as the number `0xRRGGBB` (`colorKey(_:)`).
    case color

    /// The number `red << 16 | green << 8 | blue` a colour sorts by.
    public static func colorKey(_ color: RGBColor) -> Int {
        Int(color.red) << 16 | Int(color.green) << 8 | Int(color.blue)
    }
}

/// A velocity kick for one node (see `SceneContext.nodeImpulses`).
public struct NodeImpulse: Sendable, Hashable {
    /// Points per second, added to the velocity of the node's origin.
    public var velocity: Vector
    /// The motion that carries the kick (a delay staggers it: the node holds still until then).
    public var animation: Animation

    /// A kick of `velocity` points per second carried by `animation`.
    public init(velocity: Vector, animation: Animation) {
        self.velocity = velocity
        self.animation = animation
    }
}

/// A semantic action with named arguments: `select {test: 3}`, `swipe {card: "204", direction: "left"}`.
public struct SceneAction: Sendable, Hashable {
    /// The action's name (`select`, `swipe`, …), as listed in the scene's `SceneDescriptor.actions`.
    public var name: String
    /// The named arguments; read them with `int(_:)`, `double(_:)`, `string(_:)` and `card(_:)`.
    public var arguments: [String: ActionValue]

    /// The action `name` with `arguments`.
    public init(_ name: String, _ arguments: [String: ActionValue] = [:]) {
        self.name = name
        self.arguments = arguments
    }

    /// A whole-number argument; `SceneError.invalidArgument` when missing (unless optional) or not a whole number.
    public func int(_ key: String) throws(SceneError) -> Int {
        guard let value = arguments[key] else { throw .invalidArgument(action: name, argument: key, reason: "missing") }
        guard case .number(let number) = value, number == number.rounded(), abs(number) < 1e15 else {
            throw .invalidArgument(action: name, argument: key, reason: "must be a whole number")
        }
        return Int(number)
    }

    /// A finite number argument.
    public func double(_ key: String) throws(SceneError) -> Double {
        guard let value = arguments[key] else { throw .invalidArgument(action: name, argument: key, reason: "missing") }
        guard case .number(let number) = value, number.isFinite else {
            throw .invalidArgument(action: name, argument: key, reason: "must be a finite number")
        }
        return number
    }

    /// A string argument.
    public func string(_ key: String) throws(SceneError) -> String {
        guard let value = arguments[key] else { throw .invalidArgument(action: name, argument: key, reason: "missing") }
        guard case .string(let text) = value else {
            throw .invalidArgument(action: name, argument: key, reason: "must be a string")
        }
        return text
    }

    /// A card id argument: a decimal string or a whole number.
    public func card(_ key: String = "card") throws(SceneError) -> CardID {
        guard let value = arguments[key] else { throw .invalidArgument(action: name, argument: key, reason: "missing") }
        switch value {
        case .string(let text):
            if let id = CardID.canonical(text) { return id }
        case .number(let number):
            if number >= 0, number == number.rounded(), number < 1.8e19 { return CardID(UInt64(number)) }
        case .bool:
            break
        }
        throw .invalidArgument(action: name, argument: key, reason: "must be a card id")
    }

    /// Whether the argument is present.
    public func has(_ key: String) -> Bool { arguments[key] != nil }
}

/// An action argument's value.
public enum ActionValue: Sendable, Hashable {
    /// A number (JSON numbers are doubles; `SceneAction.int(_:)` checks for a whole number).
    case number(Double)
    /// A string.
    case string(String)
    /// A Boolean.
    case bool(Bool)
}

/// A key and what it does, for help screens and hosts.
public struct KeyHelp: Sendable, Hashable {
    /// The keys as a person reads them (`← →`, `shift+↑`).
    public var keys: String
    /// What the keys do.
    public var summary: String
    /// The same keys as `KeyInput` names, with modifiers as prefixes (`left`, `right`, `shift+up`, `1`): what a
    /// host sends in `input.key`.
    public var names: [String]
    /// What the keys do in a word or two (`sort`, `swipe`), for a status line that cannot show `summary`; the
    /// summary's first word when not given.
    public var short: String

    /// Keys `keys` (as read) doing `summary` (`short` in brief), sent by hosts as `names`.
    public init(_ keys: String, _ summary: String, short: String? = nil, names: [String] = []) {
        self.keys = keys
        self.summary = summary
        self.short = short ?? summary.split(separator: " ").first.map(String.init) ?? summary
        self.names = names
    }
}

/// A key press, by name: `left`, `right`, `up`, `down`, `tab`, `backtab`, `enter`, `space`, `escape`,
/// `backspace`, `home`, `end`, `pageup`, `pagedown`, or a single printable character.
public struct KeyInput: Sendable, Hashable {
    /// The key's name (see the type's discussion) or the printable character itself.
    public var key: String
    /// Whether Shift was held.
    public var shift: Bool
    /// Whether Control was held.
    public var control: Bool
    /// Whether Alt (Option) was held.
    public var alt: Bool

    /// A press of `key` with the given modifiers (none by default).
    public init(_ key: String, shift: Bool = false, control: Bool = false, alt: Bool = false) {
        self.key = key
        self.shift = shift
        self.control = control
        self.alt = alt
    }
}

/// Why a scene refused an action.
public enum SceneError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The scene has no action with this name.
    case unknownAction(String)
    /// An argument of `action` is missing or unusable; `reason` says why (`"missing"`, `"must be a whole number"`).
    case invalidArgument(action: String, argument: String, reason: String)
    /// No card of the deck has this id.
    case unknownCard(CardID)
    /// The action or data does not fit the scene's state; the text says why (`"the stack is empty; restart it"`).
    case invalidState(String)

    public var description: String {
        switch self {
        case .unknownAction(let name): "unknown action '\(name)'"
        case .invalidArgument(let action, let argument, let reason): "\(action): argument '\(argument)' \(reason)"
        case .unknownCard(let id): "no card with id \(id)"
        case .invalidState(let reason): reason
        }
    }
}

/// The engine's name for a loaded state before the engine and the store shared one type.
@available(*, deprecated, renamed: "LoadedState")
public typealias SavedState = LoadedState

/// Where a scene's state is kept: a store name made of the scene's `stateName` and the identity of the deck it was
/// opened with, so that each deck keeps its own state (a saved order belongs to its deck).
public enum StateKey {
    /// The store name for state `stateName` of the deck `identity` (nil: the scene's own seed deck, stored under
    /// the plain name as before). Names stay within `StoreName`'s 64 characters: a long identity is hashed.
    public static func name(_ stateName: String, deck identity: String?) -> String {
        guard let identity, !identity.isEmpty else { return stateName }
        let name = stateName + "." + identity
        if name.utf8.count <= 64, name.utf8.allSatisfy(Self.isNameByte) { return name }
        return stateName + ".h" + hex(fnv1a64(Array(identity.utf8)))
    }

    /// The identity of a deck read from a file: its content's FNV-1a 64-bit hash (the same bytes, the same state).
    public static func file(contents: [UInt8]) -> String { "file-" + hex(fnv1a64(contents)) }

    /// The identity of a generated deck of `count` cards (the generator is seeded, so the deck is the same).
    public static func generated(count: Int) -> String { "cards-\(count)" }

    /// The identity of a deck from the store, by its name.
    public static func stored(name: String) -> String { "deck-" + name }

    /// The name a session keeps state `name` under after another session wrote it (`<name>.conflict-<session>`,
    /// hashed like `name(_:deck:)` when long): the store keeps both versions.
    public static func conflictCopy(of name: String, session: String) -> String {
        Self.name(name, deck: "conflict-" + session)
    }

    /// FNV-1a, 64 bits (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3:
    /// http://www.isthe.com/chongo/tech/comp/fnv/). O(n).
    public static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }
}
