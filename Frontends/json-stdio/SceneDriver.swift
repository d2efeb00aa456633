import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPersistence

/// An open scene as the server drives it: the `Engine` in production (`EngineDriver`), and `ScriptedDriver` in
/// `Tests/CardStdioTests` (a double whose answers a test sets, to show the server drives any `SceneDriver`).
public protocol SceneDriver: Sendable {
    /// The catalogue name of the scene.
    var sceneName: String { get }
    /// A human title.
    var title: String { get }
    /// The semantic actions `scene.action` accepts.
    var actions: [ActionInfo] { get }
    /// The names of the actions available in the current state.
    var availableActions: [String] { get }
    /// The keys the scene understands.
    var keyMap: [KeyHelp] { get }
    /// The latest input time processed.
    var time: Double { get }
    /// The scene's deck, in its current order.
    var deck: Deck { get }
    /// The card ids in the current order, without building a `Deck` where the scene can.
    var deckIDs: [CardID] { get }
    /// The number of cards in the deck, in O(1) where the scene can.
    var deckCount: Int { get }
    /// The cards at `range` of the current order (within the deck).
    func deckCards(_ range: Range<Int>) -> [Card]
    /// The checksum of the current order (`OrderChecksum`); the engine keeps it change by change.
    var deckChecksum: UInt32 { get }
    /// Pointer and wheel input at the event's own time.
    mutating func pointer(_ event: PointerEvent)
    /// A key press at `time`; whether the scene used it.
    mutating func key(_ key: KeyInput, at time: Double) -> Bool
    /// A new viewport from `time` on.
    mutating func resize(_ viewport: Size, at time: Double)
    /// Measures text with `measurer` from `time` on (a cells session whose scale changed with its grid).
    mutating func setTextMeasurer(_ measurer: any TextMeasurer, at time: Double)
    /// Whether a host of cells gives the scene a tab when it opens, to focus its first card (`FirstFocus`).
    func wantsFirstCardFocus(in viewport: Size) -> Bool
    /// A semantic action; throws, changing nothing, for an unknown action or bad arguments.
    mutating func perform(_ action: SceneAction, at time: Double) throws(SceneError)
    /// Replaces the deck from outside.
    mutating func replaceDeck(_ deck: Deck, at time: Double) throws(SceneError)
    /// Moves one card from outside (`deck.move`), without copying the deck where the scene can.
    mutating func moveCard(_ id: CardID, to position: Int, at time: Double) throws(SceneError)
    /// Sorts the deck from outside (`deck.sort`), without copying the deck where the scene can.
    mutating func sortDeck(by key: DeckSortKey, descending: Bool, at time: Double) throws(SceneError)
    /// Every node at `time` and the events since the previous frame.
    mutating func frame(at time: Double) -> Frame
    /// The events since the previous frame, without sampling the nodes.
    mutating func takeEvents(at time: Double) -> [EngineEvent]
    /// Starts recording the session (see `Engine.startRecording`).
    mutating func startRecording(options: SceneOptions)
    /// The recorded lines since the last call.
    mutating func takeRecording() -> [UInt8]
    /// When frames may still change, or nil when idle.
    func nextWakeTime() -> Double?
    /// What changed in the scene's persistent state since the last call (see `Engine.takeStateChange`).
    mutating func takeStateChange() -> StateChange?
    /// Makes the next `takeStateChange` a whole snapshot (see `Engine.requestStateSnapshot`).
    mutating func requestStateSnapshot()
    /// The scene's accessibility tree now (see `Engine.accessibilityTree()`); asked only in a session that opted in.
    func accessibilityTree() -> AccessibilityTree
    /// Performs an assistive technology's action on a node (see `Engine.performAccessibilityAction`).
    mutating func performAccessibilityAction(
        _ action: AccessibilityAction, on node: NodeID, customAction: Int?, at time: Double) throws(SceneError)
}

/// Where scenes come from: the engine's catalogue in production.
public protocol SceneProvider: Sendable {
    /// The names `scene.list` reports and `scene.open` accepts.
    var names: [String] { get }
    /// What each scene is, in the order of `names` (`scene.list` reports which take a deck or a card count).
    var descriptors: [SceneDescriptor] { get }
    /// Opens `name` for `viewport` at `startTime` with `options` (a deck, a card count, the deck's identity); with
    /// `persistState` the scene restores its state (the last selection, the cards swiped away, a deck's order) from
    /// the store, kept per scene and deck, and the server saves its changes.
    func open(
        _ name: String, options: SceneOptions, persistState: Bool, viewport: Size, startTime: Double
    ) throws(SceneError) -> OpenedScene
    /// `open` with the text measurer the scene lays out with (a cells session's: the grid's cells); nil: the
    /// provider's own. The default ignores it.
    func open(
        _ name: String, options: SceneOptions, persistState: Bool, viewport: Size, startTime: Double,
        textMeasurer: (any TextMeasurer)?
    ) throws(SceneError) -> OpenedScene
    /// This provider with `entry` added, or in place of the scene of its name (`scene.define`); nil when the
    /// provider cannot add scenes (the default).
    func defining(_ entry: SceneCatalog.Entry) -> (any SceneProvider)?
}

extension SceneProvider {
    /// Cannot add scenes.
    public func defining(_ entry: SceneCatalog.Entry) -> (any SceneProvider)? { nil }

    /// Opens the scene with the provider's own measurer (`textMeasurer` is ignored).
    public func open(
        _ name: String, options: SceneOptions, persistState: Bool, viewport: Size, startTime: Double,
        textMeasurer: (any TextMeasurer)?
    ) throws(SceneError) -> OpenedScene {
        try open(name, options: options, persistState: persistState, viewport: viewport, startTime: startTime)
    }
}

extension SceneDriver {
    /// Ignores the measurer (a driver that measures no text).
    public mutating func setTextMeasurer(_ measurer: any TextMeasurer, at time: Double) {}

    /// No first focus (a driver without a scene to ask).
    public func wantsFirstCardFocus(in viewport: Size) -> Bool { false }

    /// The checksum of `deckIDs`, O(n); the engine's own is kept change by change.
    public var deckChecksum: UInt32 { OrderChecksum.of(deckIDs) }

    /// A tree of the root alone (a driver without a scene to ask), named by the title.
    public func accessibilityTree() -> AccessibilityTree {
        let root = AccessibilityNode(
            id: AccessibilityTree.rootID, role: .window, name: title, bounds: Rect(x: 0, y: 0, width: 0, height: 0))
        return AccessibilityTree(nodes: [root.id: root], focus: nil)
    }

    /// Refuses every action: the root-only tree offers none.
    public mutating func performAccessibilityAction(
        _ action: AccessibilityAction, on node: NodeID, customAction: Int?, at time: Double
    ) throws(SceneError) {
        throw .invalidArgument(action: "a11y.action", argument: "node", reason: "names no node ('\(node)')")
    }
}
