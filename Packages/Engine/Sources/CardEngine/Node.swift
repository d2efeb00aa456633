import CardGeometry
import CardGestures
import CardModels
import CardPhysics

/// One element of a scene's layout, in points: what a SwiftUI view would be after layout.
///
/// `rect` is the node's frame *including* any offset (the seeds' `.offset` modifiers are folded in); `rotation` and
/// `scale` apply about the frame's centre (SwiftUI's `rotationEffect` and `scaleEffect` with the default anchor),
/// so rotating before offsetting (as seed 003 does) is exactly this model.
///
/// Nodes form a view tree through `parent`, as SwiftUI composes views: a node paints, then its children in
/// ascending `z` (SwiftUI's `zIndex`, which orders siblings only; ties in layout order), each with its subtree, then
/// the node's next sibling. A node with `clipsContent` clips its subtree to its rounded rect.
public struct Node: Sendable, Hashable {
    /// The node's identity, stable across layouts: nodes with the same id in two layouts animate between them.
    public var id: NodeID
    /// What the node is, for front ends and hosts.
    public var role: NodeRole
    /// The card this node shows (set on a card's main node, role `card`).
    public var card: CardID?
    /// The composition parent: the node paints with it (after it, before its later siblings), is clipped by it
    /// when it clips, and in hit-testing a child reaches the parent's gestures too.
    public var parent: NodeID?
    /// The node's frame in points, offsets included, before `rotation` and `scale`.
    public var rect: Rect
    /// The stacking order (SwiftUI's `zIndex`): higher paints on top; ties paint in layout order.
    public var z: Double
    /// The opacity, 0 (invisible) to 1 (opaque).
    public var opacity: Double
    /// The rotation about the centre of `rect`, clockwise for positive angles.
    public var rotation: Angle
    /// The scale factor about the centre of `rect` (1 is unscaled).
    public var scale: Double
    /// The radius of the corners, in points (also rounds the hit-test area).
    public var cornerRadius: Double
    /// The fill colour; nil draws nothing (a container or a text-only node).
    public var fill: RGBA?
    /// An outline colour, if any (hairlines, slider tracks).
    public var stroke: RGBA?
    /// The drop shadow, if any.
    public var shadow: Shadow?
    /// The text runs drawn inside `rect`, in order.
    public var text: [TextRun]
    /// How the node enters and leaves (SwiftUI's `.transition`); identity by default.
    public var transition: NodeTransition
    /// Nodes of two layouts with the same matched-geometry id are one element moving between frames
    /// (SwiftUI's `matchedGeometryEffect`); at most one node per id may be in a layout.
    public var matchedGeometryID: String?
    /// SwiftUI's `.animation(_:value:)` on this node: when `value` differs from the previous layout's, the change
    /// animates with `animation` whatever the transaction says.
    public var implicitAnimation: ImplicitAnimation?
    /// Gestures attached to the node.
    public var gestures: [GestureAttachment]
    /// Whether pointer input can land on this node (a node with `false` is seen through).
    public var isHitTestable: Bool
    /// Whether the node clips its subtree to its rounded rect (SwiftUI's `.clipShape(RoundedRectangle(…))`).
    public var clipsContent: Bool
    /// Whether the node may lie outside its parent at rest (a card held by a drag); the frame lint excuses it.
    public var mayOverflow: Bool
    /// What an assistive technology reads for the node (SwiftUI's `accessibilityLabel`); nil: its text, if any.
    public var accessibilityLabel: String?
    /// Each run's lines, laid out by the engine once per layout (see `Engine.applyLayout`).
    var textLines: [[String]] = []

    /// A node; everything but its id, role and rect has a neutral default (z 0, opaque, unrotated, unscaled, square
    /// corners, no fill, no text, identity transition, no gestures, hit-testable).
    public init(
        id: NodeID, role: NodeRole, card: CardID? = nil, parent: NodeID? = nil, rect: Rect, z: Double = 0,
        opacity: Double = 1, rotation: Angle = .zero, scale: Double = 1, cornerRadius: Double = 0, fill: RGBA? = nil,
        stroke: RGBA? = nil, shadow: Shadow? = nil, text: [TextRun] = [], transition: NodeTransition = .identity,
        matchedGeometryID: String? = nil, implicitAnimation: ImplicitAnimation? = nil,
        gestures: [GestureAttachment] = [], isHitTestable: Bool = true, clipsContent: Bool = false,
        mayOverflow: Bool = false, accessibilityLabel: String? = nil
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
        self.transition = transition
        self.matchedGeometryID = matchedGeometryID
        self.implicitAnimation = implicitAnimation
        self.gestures = gestures
        self.isHitTestable = isHitTestable
        self.clipsContent = clipsContent
        self.mayOverflow = mayOverflow
        self.accessibilityLabel = accessibilityLabel
    }

    /// The animatable part of the node.
    var motion: NodeMotion {
        NodeMotion(rect: rect, opacity: opacity, rotation: rotation.degrees, scale: scale, cornerRadius: cornerRadius)
    }
}

/// What a node is, so front ends can draw it well and hosts can find things.
public enum NodeRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// A full-screen or container background.
    case background
    /// A card's main node (its `card` is set).
    case card
    /// A text-only node.
    case text
    /// A small labelled rounded rectangle (a tag, an item of a line).
    case chip
    /// An icon (an SF Symbol name in its text; front ends map it to a glyph).
    case icon
    /// Something to tap that is not a card (close, restart).
    case button
    /// A bar: a bar of a chart, or the track of a bar or slider.
    case bar
    /// A slider as a whole (the container of its track, thumb and ticks).
    case slider
    /// A slider's thumb.
    case sliderThumb
    /// A tick mark or tick label of a slider.
    case tick
    /// A title or header.
    case title
    /// A view laid over others (a details view, an expanded card's backdrop).
    case overlay
    /// A thin separator line.
    case hairline
    /// A row of a list (a transaction, a detail item).
    case row
}

/// A run of text in a node. Each run is a paragraph laid out inside the node's width (`FrameText.lines`), except
/// that a run ending in whitespace continues on the same line as the next (SwiftUI's `Text + Text`: "Test " + "3").
public struct TextRun: Sendable, Hashable, Codable {
    /// The text to show.
    public var text: String
    /// The dynamic-type style, which front ends map to a size.
    public var style: TextStyle
    /// The text colour.
    public var color: RGBA
    /// The font weight.
    public var weight: TextWeight
    /// The horizontal alignment inside the node's rect.
    public var alignment: TextAlignment
    /// Rolls changed digits when the text changes (SwiftUI's `.contentTransition(.numericText())`).
    public var isNumeric: Bool
    /// The most lines the run may take (SwiftUI's `.lineLimit`); the last one ends in "…" when text is cut. Nil:
    /// as many as it needs.
    public var lineLimit: Int?
    /// The text names a symbol (an SF Symbols name such as `xmark.circle`) to draw as one glyph, not as words.
    /// The engine marks every run of an `icon` node so when it lays the scene out, so frames always carry it.
    public var isSymbol: Bool

    /// A run of `text`; by default black, body style, regular weight, leading-aligned, not numeric.
    public init(
        _ text: String, style: TextStyle = .body, color: RGBA = .black, weight: TextWeight = .regular,
        alignment: TextAlignment = .leading, isNumeric: Bool = false, lineLimit: Int? = nil, isSymbol: Bool = false
    ) {
        self.text = text
        self.style = style
        self.color = color
        self.weight = weight
        self.alignment = alignment
        self.isNumeric = isNumeric
        self.lineLimit = lineLimit
        self.isSymbol = isSymbol
    }
}

/// SwiftUI's dynamic-type text styles, which front ends map to sizes.
public enum TextStyle: String, Sendable, Hashable, Codable {
    /// The largest style (SwiftUI's `.largeTitle`, 34 pt on iOS).
    case largeTitle
    /// A title (`.title`, 28 pt on iOS).
    case title
    /// A bold heading in body size (`.headline`, 17 pt on iOS).
    case headline
    /// Running text (`.body`, 17 pt on iOS).
    case body
    /// Small text (`.footnote`, 13 pt on iOS).
    case footnote
    /// The smallest style (`.caption`, 12 pt on iOS).
    case caption
}

/// The weight of a text run's font.
public enum TextWeight: String, Sendable, Hashable, Codable {
    /// The normal weight.
    case regular
    /// Bold.
    case bold
    /// Heavier than bold.
    case heavy
}

/// How a text run is aligned horizontally in its node.
public enum TextAlignment: String, Sendable, Hashable, Codable {
    /// Against the left edge.
    case leading
    /// Centred.
    case center
    /// Against the right edge.
    case trailing
}

/// A drop shadow: SwiftUI's `.shadow(color:radius:x:y:)`.
public struct Shadow: Sendable, Hashable, Codable {
    /// The shadow's colour (by default black at 33 % opacity, as SwiftUI's).
    public var color: RGBA
    /// The blur radius, in points.
    public var radius: Double
    /// The shadow's offset from the node, in points.
    public var offset: Vector

    /// A shadow of blur `radius` points, offset by `offset`.
    public init(color: RGBA = RGBA(red: 0, green: 0, blue: 0, alpha: 0.33), radius: Double, offset: Vector = .zero) {
        self.color = color
        self.radius = radius
        self.offset = offset
    }
}

/// SwiftUI's `.animation(_:value:)`: the animation and the value it watches, as any hashable token.
public struct ImplicitAnimation: Sendable, Hashable {
    /// The animation that changes run with when `value` changes.
    public var animation: Animation
    /// The watched value, as a string token (for example `"\(score)"`); compared with the previous layout's.
    public var value: String

    /// Animates the node's changes with `animation` whenever `value` differs from the previous layout's.
    public init(_ animation: Animation, value: String) {
        self.animation = animation
        self.value = value
    }
}

/// A gesture attached to a node under a name the scene recognises in its gesture events.
public struct GestureAttachment: Sendable, Hashable {
    /// The name the scene recognises in its gesture events (`tap`, `drag`, `reorder`, …).
    public var name: String
    /// The gesture, possibly composed.
    public var gesture: Gesture
    /// How it competes with the gestures of the node's ancestors and descendants.
    public var priority: GesturePriority

    /// Attaches `gesture` under `name` with `priority` (normal by default: a child's gesture wins over its parent's).
    public init(_ name: String, _ gesture: some GestureConvertible, priority: GesturePriority = .normal) {
        self.name = name
        self.gesture = gesture.gesture
        self.priority = priority
    }
}
