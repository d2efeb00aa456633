import CardGeometry
import CardGestures
import CardModels
import CardPersistence
import CardPhysics

/// The engine: a scene, its animations and its gestures, advanced by timed input and sampled into frames.
///
/// Determinism: the engine is a pure function of its scene's initial state, the inputs with their times, and the
/// times frames are taken at — it never reads a clock. Timers (a long press) fire at their own deadlines, not at
/// the time a frame happens to be taken, so the nodes of a frame at time t are the same whatever frames were
/// taken before (docs/architecture.md, "Determinism"). Inputs whose time is earlier than the latest input are processed at the
/// latest time (and logged that way), so a replay reproduces them.
///
/// How changes animate (SwiftUI's transactions): after every input the scene is laid out again and each node is
/// compared with its previous layout. A node whose animatable values changed animates with, in order of
/// precedence, the scene's per-node animation for it or its nearest ancestor, the node's implicit animation when
/// its watched value changed, or the transaction's animation; with none it jumps. Animations start from where the
/// node is and with its current velocity. Nodes that appear or disappear play their transition; a node whose
/// matched-geometry id was on a node that just left starts from that node's current frame instead.
public struct Engine: Sendable {
    /// The scene being played.
    public internal(set) var scene: any Scene
    /// The viewport, in points.
    public private(set) var viewport: Size
    /// The time of the latest input or timer processed.
    public private(set) var time: Double
    /// The inputs so far, replayable, within the log's fixed in-memory budget (`InputLog.defaultCapacity`
    /// inputs; later inputs are counted in `log.droppedCount`, so memory stays bounded however long a session runs).
    public internal(set) var log: InputLog
    /// Why the saved state given to `init` could not be restored (nil: it was, or there was none). The scene then
    /// starts fresh and the front end leaves the saved state alone.
    public private(set) var stateError: SceneError?
    /// The checksum of the scene's current order (`OrderChecksum`), kept change by change: O(n) when the engine
    /// opens, then O(1) for a one-card move and O(n) for a change of many cards. Every `DeckChange` carries the
    /// value after it.
    public var deckChecksum: UInt32 { orderChecksum.value }
    var orderChecksum: OrderChecksum
    /// How text is measured: scenes lay text out with it and frames carry each run's lines as it wraps them.
    public var textMeasurer: any TextMeasurer { layoutMeasurer.base }
    /// The measurer layouts use: `textMeasurer` with a cache of broken lines.
    var layoutMeasurer: CachingTextMeasurer

    /// Persistent-state changes not yet taken by the front end (`takeStateChange`): the scene's journal records,
    /// or the need for a whole snapshot.
    var stateRecords: [[UInt8]] = []
    var stateNeedsSnapshot = false

    /// The current layout in layout order, and the position of each node id in it. Nodes stay in the array the
    /// scene returned (a node is a large value: copying it into a dictionary per layout is what made a
    /// 10,000-card relayout slow).
    var nodes: [Node] = []
    var nodeIndex: [NodeID: Int] = [:]
    /// Nodes that left the layout and are playing their removal transition, until `leaving[id].settle`.
    var leaving: [NodeID: LeavingNode] = [:]
    var leavingOrder: [NodeID] = []
    var geometry: AnimationTimeline<NodeID, NodeMotion>
    var fills: AnimationTimeline<NodeID, RGBA>
    /// Velocity kicks (`SceneContext.nodeImpulses`) as displacements added to the nodes' animated frames: a kick
    /// plays on top of whatever the node's own motion does, so a later change of the node's target (a pull that
    /// fans the deck while it bounces) neither cancels nor restarts it, as SwiftUI's springs add up.
    var kicks: AnimationTimeline<NodeID, Vector>
    var rolls: [RollKey: RollingText] = [:]
    var rollProgress: AnimationTimeline<RollKey, Double>
    var arena = GestureArena<NodeID>()
    var pending: [EngineEvent] = []
    /// Reduced motion (iOS's Reduce Motion): animated changes that would move a node cross-fade instead (see
    /// `Engine+ReducedMotion.swift`). Fixed when the engine opens.
    public let reducesMotion: Bool

    /// Opens `scene` in `viewport` at `startTime`. With `savedState` (as the front end loaded it from its store),
    /// the scene's state is restored first: its snapshot, then its journal records (a state that cannot be used is reported in `stateError`, and the scene
    /// starts fresh). After the first layout (which never animates) the scene's `appear` runs; its changes animate
    /// from that layout. The engine does no I/O: the front end loads the state and saves what `takeStateChange`
    /// hands out.
    ///
    /// `animator` evaluates every motion: the SwiftUI-exact closed forms by default, or `InstantAnimator()` for a
    /// host that wants changes applied at once (tests of end states). For reduced motion (animated changes that
    /// would move, scale or rotate a node cross-fade it at its new place instead, as iOS's Reduce Motion does), see
    /// `init(scene:viewport:savedState:startTime:animator:textMeasurer:reducesMotion:)`.
    public init(
        scene: any Scene, viewport: Size, savedState: LoadedState? = nil, startTime: Double = 0,
        animator: any Animator = ClosedFormAnimator(), textMeasurer: any TextMeasurer = StandardTextMeasurer()
    ) {
        self.init(
            scene: scene, viewport: viewport, savedState: savedState, startTime: startTime, animator: animator,
            textMeasurer: textMeasurer, reducesMotion: false)
    }

    /// Opens `scene` as `init(scene:viewport:savedState:startTime:animator:textMeasurer:)` does, with reduced
    /// motion or not (`reducesMotion`: see `Engine+ReducedMotion.swift`).
    public init(
        scene: any Scene, viewport: Size, savedState: LoadedState? = nil, startTime: Double = 0,
        animator: any Animator = ClosedFormAnimator(), textMeasurer: any TextMeasurer = StandardTextMeasurer(),
        reducesMotion: Bool
    ) {
        self.scene = scene
        self.reducesMotion = reducesMotion
        self.layoutMeasurer = CachingTextMeasurer(textMeasurer)
        self.geometry = AnimationTimeline(animator: animator)
        self.fills = AnimationTimeline(animator: animator)
        self.kicks = AnimationTimeline(animator: animator)
        self.rollProgress = AnimationTimeline(animator: animator)
        self.viewport = Self.sanitized(viewport)
        self.time = startTime.isFinite ? startTime : 0
        self.log = InputLog(scene: scene.name, viewport: self.viewport, startTime: self.time)
        if let savedState, scene.stateName != nil {
            var restored = scene
            do throws(SceneError) {
                if let snapshot = savedState.snapshot { try restored.restoreState(snapshot) }
                if !savedState.journal.isEmpty { try restored.applyStateJournal(savedState.journal) }
                self.scene = restored
            } catch {
                stateError = error
            }
        }
        orderChecksum = OrderChecksum(self.scene.deckIDs)
        var context = SceneContext(time: time, viewport: self.viewport, animation: nil, text: layoutMeasurer)
        applyLayout(context: &context, isInitial: true)
        var appearing = SceneContext(
            time: time, viewport: self.viewport, animation: nil, text: layoutMeasurer)
        if self.scene.appear(context: &appearing) { commit(&appearing) }
        _checkInvariants()
    }

    /// The scene's deck, in its current order.
    public var deck: Deck { scene.deck }

    // MARK: Input

    /// Processes a pointer, wheel, key or resize input at its own time (clamped to `time` if earlier), in one
    /// pass, and says whether the scene used it: a key the scene does not understand, or an action it refuses,
    /// returns false (and changes nothing), so that a front end can give the key a meaning of its own (Esc: back)
    /// without asking the scene twice. Pointer and resize inputs are always used.
    @discardableResult
    public mutating func handle(_ input: InputEvent) -> Bool {
        let at = max(input.time.isFinite ? input.time : time, time)
        advance(to: at)
        let input = input.at(at)
        switch input {
        case .pointer(let event):
            log.append(input)
            dispatch(arena.handle(event), at: at)
            return true
        case .key(let key, _):
            log.append(input)
            var context = SceneContext(time: at, viewport: viewport, animation: nil, text: layoutMeasurer)
            guard scene.handle(key, context: &context) else { return false }
            commit(&context)
            return true
        case .action(let action, _):
            do {
                try perform(action, at: at)
                return true
            } catch {
                return false
            }
        case .resize(let size, _):
            log.append(input)
            viewport = Self.sanitized(size)
            var context = SceneContext(time: at, viewport: viewport, animation: nil, text: layoutMeasurer)
            commit(&context)
            return true
        }
    }

    /// Measures text with `measurer` from `time` on (a front end whose cells changed size): the scene is laid out
    /// again, and what moves because of it animates like any other change without an animation (it jumps).
    public mutating func setTextMeasurer(_ measurer: any TextMeasurer, at time: Double) {
        let at = max(time.isFinite ? time : self.time, self.time)
        advance(to: at)
        layoutMeasurer = CachingTextMeasurer(measurer)
        log.record(measurer: InputLog.measurerName(measurer), at: at)
        var context = SceneContext(time: at, viewport: viewport, animation: nil, text: layoutMeasurer)
        commit(&context)
    }

    /// Performs a semantic action; an unknown action or a bad argument throws and changes nothing.
    public mutating func perform(_ action: SceneAction, at time: Double) throws(SceneError) {
        switch action.name {
        case Self.replaceDeckAction:
            try replayReplaceDeck(action, at: time)
            return
        case Self.moveCardAction:
            try moveCard(try action.card("card"), to: try action.int("to"), at: time)
            return
        case Self.accessibilityFocusAction:
            try focusAccessibility(on: NodeID(try action.string("node")), at: time)
            return
        case SceneAction.keyPressName:
            try pressKey(of: action, at: time)
            return
        case Self.sortDeckAction:
            guard let key = DeckSortKey(rawValue: try action.string("by")) else {
                throw .invalidArgument(
                    action: action.name, argument: "by", reason: "must be title, id, sortOrder or color")
            }
            try sortDeck(by: key, descending: try action.string("order") == "descending", at: time)
            return
        default:
            break
        }
        // Every scene's actions are checked against their declaration first (unknown or misspelt arguments,
        // types, ranges); an action the scene does not declare is the scene's to refuse.
        if let info = scene.descriptor.actions.first(where: { $0.name == action.name }) {
            try info.validate(action, cardCount: scene.deckCount)
        }
        let at = max(time.isFinite ? time : self.time, self.time)
        advance(to: at)
        var context = SceneContext(time: at, viewport: viewport, animation: nil, text: layoutMeasurer)
        try scene.perform(action, context: &context)
        log.append(.action(action, time: at))
        commit(&context)
    }

    /// The logged forms of the host's reorders: `replaceDeck` as its reorder diff (`removals`, `insertions`,
    /// `moves` as text, see `ReorderDiff.logText`), `moveCard` as `{card, to}`, `sortDeck` as `{by, order}` — each
    /// O(change), never the whole order.
    static let replaceDeckAction = "engine.replaceDeck"
    static let moveCardAction = "engine.moveCard"
    static let sortDeckAction = "engine.sortDeck"
    /// The logged form of an assistive technology's focus action (`focusAccessibility(on:at:)`): `{node}`.
    static let accessibilityFocusAction = "engine.accessibilityFocus"

    /// Replaces the scene's deck (a host's `deck.load`), animating the change. Logged as the reorder diff from the
    /// old order to the new one, so a replay reorders the cards the deck holds.
    public mutating func replaceDeck(_ deck: Deck, at time: Double) throws(SceneError) {
        let at = max(time.isFinite ? time : self.time, self.time)
        advance(to: at)
        var context = SceneContext(time: at, viewport: viewport, animation: .default, text: layoutMeasurer)
        // The change is one of ids (what `deckChanged(from:to:)` compares), so only the ids are kept before and read
        // after: building the old and the new `Deck` (every card, and an index of their ids) took a million-card
        // `deck.load` to 2.3 times the server's resident size.
        let oldIDs = scene.deckIDs
        try scene.replaceDeck(deck, context: &context)
        context.deckChanged(from: oldIDs, toIDs: scene.deckIDs)
        let diff =
            context.deckChanges.last?.diff
            ?? ReorderDiff(oldCount: oldIDs.count, newCount: oldIDs.count, removals: [], insertions: [], moves: [])
        log.append(.action(SceneAction(Self.replaceDeckAction, ReorderDiffText.arguments(of: diff)), time: at))
        commit(&context)
    }

    /// Moves card `id` to `position` (a host's `deck.move`), animating the change; the scene reports the one-move
    /// diff. O(1) in the log; O(n) at most in the scene (the deck scene never builds a `Deck`).
    public mutating func moveCard(_ id: CardID, to position: Int, at time: Double) throws(SceneError) {
        let at = max(time.isFinite ? time : self.time, self.time)
        advance(to: at)
        var context = SceneContext(time: at, viewport: viewport, animation: .default, text: layoutMeasurer)
        try scene.moveCard(id, to: position, context: &context)
        let arguments: [String: ActionValue] = ["card": .string(id.description), "to": .number(Double(position))]
        log.append(.action(SceneAction(Self.moveCardAction, arguments), time: at))
        commit(&context)
    }

    /// Sorts the deck by `key` (stable; a host's `deck.sort`), animating the change. O(1) in the log.
    public mutating func sortDeck(by key: DeckSortKey, descending: Bool, at time: Double) throws(SceneError) {
        let at = max(time.isFinite ? time : self.time, self.time)
        advance(to: at)
        var context = SceneContext(time: at, viewport: viewport, animation: .default, text: layoutMeasurer)
        try scene.sortDeck(by: key, descending: descending, context: &context)
        let arguments: [String: ActionValue] = [
            "by": .string(key.rawValue), "order": .string(descending ? "descending" : "ascending"),
        ]
        log.append(.action(SceneAction(Self.sortDeckAction, arguments), time: at))
        commit(&context)
    }

    /// Replays a logged `replaceDeck`: applies its diff to the deck's current order (a diff that inserts cards
    /// cannot be replayed: the log does not hold their content).
    mutating func replayReplaceDeck(_ action: SceneAction, at time: Double) throws(SceneError) {
        let current = scene.deck
        let diff = try ReorderDiffText.diff(from: action, count: current.count)
        guard diff.insertions.isEmpty else {
            throw .invalidState("a logged replaceDeck inserts cards, which a log cannot reproduce")
        }
        let cards: [Card]
        do {
            cards = try diff.applied(to: Array(current), inserting: [])
        } catch {
            throw .invalidArgument(action: action.name, argument: "moves", reason: "does not fit the deck: \(error)")
        }
        guard let deck = try? Deck(cards) else {
            throw .invalidArgument(action: action.name, argument: "moves", reason: "repeats a card")
        }
        try replaceDeck(deck, at: time)
    }

    // MARK: Time

    /// Fires every timer due by `target` at its own deadline, then moves the clock to `target`. Settled
    /// animations and finished removals are dropped (they sample exactly as their targets, so this changes no
    /// frame).
    mutating func advance(to target: Double) {
        guard target > time else { return }
        while let deadline = arena.nextDeadline, deadline <= target {
            let at = max(deadline, time)
            time = at
            dispatch(arena.advance(to: at), at: at)
        }
        time = target
        prune(at: target)
    }

    /// The earliest time from which frames may still change: an animation in flight or a pending timer.
    /// Nil when the scene is at rest. O(1) for animations, O(leaving nodes) for removals.
    public func nextWakeTime() -> Double? {
        var wake: Double?
        if isAnimating(at: time) {
            wake = time
        }
        if let deadline = arena.nextDeadline { wake = min(wake ?? deadline, deadline) }
        return wake
    }

    // MARK: Scene changes

    /// Routes recognised gestures to the scene, one transaction each, and records them for the frame.
    mutating func dispatch(_ events: [GestureEvent<NodeID>], at time: Double) {
        for event in events {
            pending.append(
                .gesture(
                    GestureNote(
                        time: event.time, kind: event.gesture, phase: event.phase, target: event.target,
                        card: nodeIndex[event.target].map { nodes[$0].card } ?? nil)))
            var context = SceneContext(time: time, viewport: viewport, animation: nil, text: layoutMeasurer)
            scene.handle(event, context: &context)
            commit(&context)
        }
    }

    /// Lays the scene out again after a change, starts the animations, records events and persists state.
    mutating func commit(_ context: inout SceneContext) {
        pending.append(contentsOf: context.haptics.map(EngineEvent.haptic))
        for var change in context.deckChanges {
            if let known = change.knownChecksum {
                orderChecksum = OrderChecksum(value: known)
            } else {
                orderChecksum.update(for: change.diff, to: change.ids)
            }
            #if DEBUG
                // The checksum kept change by change is the checksum of the order (checked up to 10,000 cards).
                if change.ids.count <= 10_000 {
                    precondition(orderChecksum.value == OrderChecksum.of(change.ids), "the order checksum drifted")
                }
            #endif
            change.checksum = orderChecksum.value
            pending.append(.deckChanged(change))
        }
        applyLayout(context: &context, isInitial: false)
        if context.stateChanged { noteStateChange() }
        _checkInvariants()
    }

    /// Collects a persistent-state change: the scene's journal records, or (when it keeps none, or asks for a
    /// fresh snapshot) the need for a snapshot, which includes every record before it.
    mutating func noteStateChange() {
        guard scene.stateName != nil else { return }
        if !stateNeedsSnapshot, let records = scene.takeStateJournal() {
            stateRecords += records
        } else {
            _ = scene.takeStateJournal()
            stateNeedsSnapshot = true
            stateRecords.removeAll()
        }
    }

    /// Asks for the next `takeStateChange` to be a whole snapshot (a front end that must save the state anew under
    /// another name, after another session wrote it). Nothing for a scene that keeps no state.
    public mutating func requestStateSnapshot() {
        guard scene.stateName != nil else { return }
        stateNeedsSnapshot = true
        stateRecords.removeAll()
    }

    /// What changed in the scene's persistent state since the last call, for the front end's saver (nil:
    /// nothing): journal records, or a snapshot to encode (off the interaction path: the closure holds the scene's
    /// state as it is now, `Scene.stateSnapshot`). O(records), plus what the scene's `stateSnapshot` copies.
    public mutating func takeStateChange() -> StateChange? {
        if stateNeedsSnapshot {
            stateNeedsSnapshot = false
            stateRecords.removeAll()
            return StateChange(snapshot: scene.stateSnapshot(), records: [])
        }
        guard !stateRecords.isEmpty else { return nil }
        defer { stateRecords.removeAll() }
        return StateChange(snapshot: nil, records: stateRecords)
    }

    static func sanitized(_ size: Size) -> Size {
        let width = size.width.isFinite ? min(max(size.width, 1), 100_000) : 390
        let height = size.height.isFinite ? min(max(size.height, 1), 100_000) : 844
        return Size(width: width, height: height)
    }
}

/// A node playing its removal transition.
struct LeavingNode: Sendable {
    var node: Node
    /// Its index in the layout it left (its paint position among nodes of equal z).
    var orderIndex: Int
    /// For a matched-geometry copy flying to its partner as a root (`node.parent` nil: its container no longer
    /// places, clips or fades it), the parent it had: it keeps its place in paint order under that parent while
    /// the parent is in the frame (a chip's label over its chip, a deck's card behind the cards in front of it),
    /// as SwiftUI draws a removed matched view in its place in the hierarchy.
    var paintParent: NodeID? = nil
}

/// One numeric text run: a node and the index of the run.
struct RollKey: Sendable, Hashable {
    var node: NodeID
    var run: Int
}

/// A numeric text run rolling from one text to another.
struct RollingText: Sendable {
    var from: String
    var to: String
}
