import CardGeometry
import CardGestures
import CardModels

/// Everything a front end needs to draw one moment of a scene: every visible node at time `time`, in paint order,
/// and the events since the previous frame.
public struct Frame: Sendable, Hashable {
    /// The time the frame was sampled at, in seconds on the engine's time line.
    public var time: Double
    /// The size of the area the scene is laid out in, in points.
    public var viewport: Size
    /// Nodes in paint order: depth-first through the view tree (a node, then its children in ascending z with
    /// ties in layout order, each followed by its subtree); leaving nodes keep their place in the tree.
    public var nodes: [FrameNode]
    /// Gestures, haptics and deck changes since the previous frame, oldest first.
    public var events: [EngineEvent]
    /// Whether anything is still moving at `time` (a front end may stop drawing while false).
    public var isAnimating: Bool

    /// A frame from its parts; the engine builds frames with `Engine.frame(at:)`.
    public init(time: Double, viewport: Size, nodes: [FrameNode], events: [EngineEvent], isAnimating: Bool) {
        self.time = time
        self.viewport = viewport
        self.nodes = nodes
        self.events = events
        self.isAnimating = isAnimating
    }

    /// The node with `id`, if it is in the frame. O(n).
    public func node(_ id: NodeID) -> FrameNode? { nodes.first { $0.id == id } }

    /// The main node of `card`, if it is in the frame. O(n).
    public func node(card: CardID) -> FrameNode? { nodes.first { $0.card == card && $0.role == .card } }
}

/// A node as drawn at one moment: its animated values sampled at the frame's time.
public struct FrameNode: Sendable, Hashable {
    /// The node's identity, stable across frames.
    public var id: NodeID
    /// What the node is (a card, a title, a button…).
    public var role: NodeRole
    /// The card this node shows, on a card's main node.
    public var card: CardID?
    /// The enclosing node, if any.
    public var parent: NodeID?
    /// The frame before `scale` and `rotation` (which apply about its centre).
    public var rect: Rect
    /// The stacking order: higher is drawn on top; `nodes` is already sorted by it.
    public var z: Double
    /// The opacity, 0 (invisible) to 1; may overshoot briefly under a bouncy spring.
    public var opacity: Double
    /// Degrees, clockwise.
    public var rotation: Double
    /// The scale factor about the centre of `rect` (1 is unscaled).
    public var scale: Double
    /// The radius of the corners, in points.
    public var cornerRadius: Double
    /// The fill colour, or nil for none; components are not clamped (see `RGBA.clamped`).
    public var fill: RGBA?
    /// The outline colour, or nil for none.
    public var stroke: RGBA?
    /// The drop shadow, if any.
    public var shadow: Shadow?
    /// The text runs, with their rolling-digit state.
    public var text: [FrameText]
    /// The matched-geometry id the node flies under, if any (see `Node.matchedGeometryID`).
    public var matchedGeometryID: String?
    /// The node has left the layout and is playing its removal transition.
    public var isLeaving: Bool
    /// The node clips its subtree to its rounded rect.
    public var clipsContent: Bool
    /// The node may lie outside its parent at rest (see `Node.mayOverflow`).
    public var mayOverflow: Bool
    /// The gestures attached to the node: what pointer input on it does (a host draws no hit areas of its own).
    public var gestures: [GestureAttachment]
    /// What an assistive technology reads for the node, when the scene gave one (`Node.accessibilityLabel`);
    /// without one, a node's text (`plainText`) is its label, and an icon or a node without text has none.
    public var accessibilityLabel: String?
    /// The node's place in the focus order (0 first), for the nodes that take input, in reading (layout) order;
    /// nil for nodes that take none and for leaving nodes.
    public var focusOrder: Int?

    /// A frame node from its sampled values; the engine builds them in `Engine.frame(at:)`.
    public init(
        id: NodeID, role: NodeRole, card: CardID?, parent: NodeID?, rect: Rect, z: Double, opacity: Double,
        rotation: Double, scale: Double, cornerRadius: Double, fill: RGBA?, stroke: RGBA?, shadow: Shadow?,
        text: [FrameText], matchedGeometryID: String?, isLeaving: Bool, clipsContent: Bool = false,
        mayOverflow: Bool = false, gestures: [GestureAttachment] = [], accessibilityLabel: String? = nil,
        focusOrder: Int? = nil
    ) {
        self.id = id
        self.role = role
        self.card = card
        self.parent = parent
        self.rect = rect
        self.z = z
        self.opacity = opacity
        self.rotation = rotation
        self.scale = scale
        self.cornerRadius = cornerRadius
        self.fill = fill
        self.stroke = stroke
        self.shadow = shadow
        self.text = text
        self.matchedGeometryID = matchedGeometryID
        self.isLeaving = isLeaving
        self.clipsContent = clipsContent
        self.mayOverflow = mayOverflow
        self.gestures = gestures
        self.accessibilityLabel = accessibilityLabel
        self.focusOrder = focusOrder
    }

    /// All text of the node: a run ending in whitespace runs on into the next ("Test " + "3" is "Test 3"), other
    /// runs are separate paragraphs, joined by a space.
    public var plainText: String {
        var result = ""
        for text in text {
            if !result.isEmpty && result.last?.isWhitespace != true { result += " " }
            result += text.text
        }
        return result
    }
}

/// A text run as drawn: the run, and while its digits roll, the text they roll from and each character's progress.
public struct FrameText: Sendable, Hashable {
    /// The text run as laid out (its final text, style, colour, weight and alignment).
    public var run: TextRun
    /// The text before the change, while a numeric-text transition runs.
    public var rollingFrom: String?
    /// Per character of `run.text` (right-aligned against `rollingFrom`): 0 shows the old character, 1 the new one.
    /// Unchanged characters are at 1.
    public var digitProgress: [Double]
    /// The run laid out inside the node's width with the engine's `TextMeasurer`: its lines, wrapped at word
    /// boundaries and cut with "…" at the run's line limit. Empty when the frame was made without layout.
    public var lines: [String]

    /// A run, by default not rolling, with its laid-out lines.
    public init(run: TextRun, rollingFrom: String? = nil, digitProgress: [Double] = [], lines: [String] = []) {
        self.run = run
        self.rollingFrom = rollingFrom
        self.digitProgress = digitProgress
        self.lines = lines
    }

    /// The run's final text.
    public var text: String { run.text }
}

/// Something that happened between two frames.
public enum EngineEvent: Sendable, Hashable {
    /// A gesture attached to a node changed phase.
    case gesture(GestureNote)
    /// The scene asked for haptic feedback.
    case haptic(HapticEvent)
    /// The scene's deck changed order or content.
    case deckChanged(DeckChange)

    /// When it happened, in seconds.
    public var time: Double {
        switch self {
        case .gesture(let note): note.time
        case .haptic(let haptic): haptic.time
        case .deckChanged(let change): change.time
        }
    }
}

/// A recognised gesture, as front ends and hosts see it.
public struct GestureNote: Sendable, Hashable {
    /// When the gesture changed phase, in seconds.
    public var time: Double
    /// The name the scene attached the gesture under (`tap`, `drag`, `reorder`, …).
    public var kind: String
    /// The gesture's new phase.
    public var phase: GesturePhase
    /// The node the gesture is attached to.
    public var target: NodeID
    /// The card of that node, if it shows one.
    public var card: CardID?

    /// A note of gesture `kind` entering `phase` on `target` at `time` seconds.
    public init(time: Double, kind: String, phase: GesturePhase, target: NodeID, card: CardID?) {
        self.time = time
        self.kind = kind
        self.phase = phase
        self.target = target
        self.card = card
    }
}

/// Haptic feedback requested by a scene (UIKit's feedback generators); front ends render it their own way.
public struct HapticEvent: Sendable, Hashable {
    /// The kind of feedback, as UIKit's impact, selection and notification feedback generators name them.
    public enum Style: String, Sendable, Hashable, Codable, CaseIterable {
        /// A light impact.
        case light
        /// A medium impact.
        case medium
        /// A heavy impact.
        case heavy
        /// A soft (damped) impact.
        case soft
        /// A rigid (sharp) impact.
        case rigid
        /// A selection change (a tick).
        case selection
        /// A task succeeded.
        case success
        /// A warning.
        case warning
        /// A task failed.
        case error
    }

    /// When the scene asked for it, in seconds.
    public var time: Double
    /// The kind of feedback.
    public var style: Style
    /// The node the feedback is about, if any.
    public var target: NodeID?
    /// The card the feedback is about, if any.
    public var card: CardID?

    /// A haptic of `style` at `time` seconds about `target` and `card`.
    public init(time: Double, style: Style, target: NodeID?, card: CardID?) {
        self.time = time
        self.style = style
        self.target = target
        self.card = card
    }
}

/// The scene's deck changed order or content: the new order and the minimal diff from the old one.
public struct DeckChange: Sendable, Hashable {
    /// When the deck changed, in seconds.
    public var time: Double
    /// The deck's card ids in their new order.
    public var ids: [CardID]
    /// The minimal diff from the previous order to `ids`.
    public var diff: ReorderDiff
    /// The checksum of `ids` (`OrderChecksum`). The engine keeps it up to date change by change, so a one-card
    /// move costs O(1) here, not O(n).
    public var checksum: UInt32
    /// For a pure reorder whose scene knew it (a sort), each new slot's old slot — what `diff` says in its batch
    /// reading, kept so that a front end sending source slots (the stdio server's packed `deck.changed`) need not
    /// rebuild them from a million moves; nil otherwise. Derived from `diff`, so equality and hashing ignore it.
    public var sources: [Int32]?
    /// The checksum of `ids` as the scene reported it (`SceneContext.deckChanged(to:diff:sources:checksum:)`),
    /// which the engine takes instead of computing it when it stamps `checksum`.
    var knownChecksum: UInt32?

    /// A deck change at `time` seconds to the order `ids`, reached by `diff`; the checksum is computed from `ids`
    /// (O(n)).
    public init(time: Double, ids: [CardID], diff: ReorderDiff) {
        self.init(time: time, ids: ids, diff: diff, checksum: OrderChecksum.of(ids))
    }

    /// A deck change whose checksum is known (the engine stamps it when it commits the change).
    init(time: Double, ids: [CardID], diff: ReorderDiff, checksum: UInt32, sources: [Int32]? = nil) {
        self.time = time
        self.ids = ids
        self.diff = diff
        self.checksum = checksum
        self.sources = sources
    }

    public static func == (lhs: DeckChange, rhs: DeckChange) -> Bool {
        lhs.time == rhs.time && lhs.checksum == rhs.checksum && lhs.diff == rhs.diff && lhs.ids == rhs.ids
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(time)
        hasher.combine(ids)
        hasher.combine(diff)
        hasher.combine(checksum)
    }
}
