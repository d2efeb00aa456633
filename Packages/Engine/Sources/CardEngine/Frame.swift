import CardGestures

/// Everything a front end needs to draw one moment of a scene: every visible node at time `time`, in paint order,
/// and the events since the previous frame.
public struct Frame: Sendable, Hashable {
    public var time: Double
    public var viewport: Size
    /// Nodes in paint order (ascending z; ties in layout order; leaving nodes keep their place).
    public var nodes: [FrameNode]
    /// Gestures, haptics and deck changes since the previous frame, oldest first.
    public var events: [EngineEvent]
    /// Whether anything is still moving at `time` (a front end may stop drawing while false).
    public var isAnimating: Bool

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
    public var id: NodeID
    public var role: NodeRole
    public var card: CardID?
    public var parent: NodeID?
    /// The frame before `scale` and `rotation` (which apply about its centre).
    public var rect: Rect
    public var z: Double
    public var opacity: Double
    /// Degrees, clockwise.
    public var rotation: Double
    public var scale: Double
    public var cornerRadius: Double
    public var fill: RGBA?
    public var stroke: RGBA?
    public var shadow: Shadow?
    public var text: [FrameText]
    public var matchedGeometryID: String?
    /// The node has left the layout and is playing its removal transition.
    public var isLeaving: Bool

    public init(
        id: NodeID, role: NodeRole, card: CardID?, parent: NodeID?, rect: Rect, z: Double, opacity: Double,
        rotation: Double, scale: Double, cornerRadius: Double, fill: RGBA?, stroke: RGBA?, shadow: Shadow?,
        text: [FrameText], matchedGeometryID: String?, isLeaving: Bool
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
    }

    /// All text of the node, runs joined by a space.
    public var plainText: String { text.map(\.text).joined(separator: " ") }
}

/// A text run as drawn: the run, and while its digits roll, the text they roll from and each character's progress.
public struct FrameText: Sendable, Hashable {
    public var run: TextRun
    /// The text before the change, while a numeric-text transition runs.
    public var rollingFrom: String?
    /// Per character of `run.text` (right-aligned against `rollingFrom`): 0 shows the old character, 1 the new one.
    /// Unchanged characters are at 1.
    public var digitProgress: [Double]

    public init(run: TextRun, rollingFrom: String? = nil, digitProgress: [Double] = []) {
        self.run = run
        self.rollingFrom = rollingFrom
        self.digitProgress = digitProgress
    }

    public var text: String { run.text }
}

/// Something that happened between two frames.
public enum EngineEvent: Sendable, Hashable {
    case gesture(GestureNote)
    case haptic(HapticEvent)
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
    public var time: Double
    /// The name the scene attached the gesture under (`tap`, `drag`, `reorder`, …).
    public var kind: String
    public var phase: GesturePhase
    public var target: NodeID
    public var card: CardID?

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
    public enum Style: String, Sendable, Hashable, Codable, CaseIterable {
        case light, medium, heavy, soft, rigid, selection, success, warning, error
    }

    public var time: Double
    public var style: Style
    public var target: NodeID?
    public var card: CardID?

    public init(time: Double, style: Style, target: NodeID?, card: CardID?) {
        self.time = time
        self.style = style
        self.target = target
        self.card = card
    }
}

/// The scene's deck changed order or content: the new order and the minimal diff from the old one.
public struct DeckChange: Sendable, Hashable {
    public var time: Double
    public var ids: [CardID]
    public var diff: ReorderDiff

    public init(time: Double, ids: [CardID], diff: ReorderDiff) {
        self.time = time
        self.ids = ids
        self.diff = diff
    }
}
