import CardGestures
import CardPhysics

/// One element of a scene's layout, in points: what a SwiftUI view would be after layout.
///
/// `rect` is the node's frame *including* any offset (the seeds' `.offset` modifiers are folded in); `rotation` and
/// `scale` apply about the frame's centre (SwiftUI's `rotationEffect` and `scaleEffect` with the default anchor),
/// so rotating before offsetting (as seed 003 does) is exactly this model. Nodes paint in ascending `z`, ties
/// in layout order.
public struct Node: Sendable, Hashable {
    public var id: NodeID
    public var role: NodeRole
    /// The card this node shows (set on a card's main node, role `card`).
    public var card: CardID?
    /// The enclosing node: gestures of the parent compete with this node's, and hit-testing a child reaches it.
    public var parent: NodeID?
    public var rect: Rect
    public var z: Double
    public var opacity: Double
    public var rotation: Angle
    public var scale: Double
    public var cornerRadius: Double
    /// The fill colour; nil draws nothing (a container or a text-only node).
    public var fill: RGBA?
    /// An outline colour, if any (hairlines, slider tracks).
    public var stroke: RGBA?
    public var shadow: Shadow?
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

    public init(
        id: NodeID, role: NodeRole, card: CardID? = nil, parent: NodeID? = nil, rect: Rect, z: Double = 0,
        opacity: Double = 1, rotation: Angle = .zero, scale: Double = 1, cornerRadius: Double = 0, fill: RGBA? = nil,
        stroke: RGBA? = nil, shadow: Shadow? = nil, text: [TextRun] = [], transition: NodeTransition = .identity,
        matchedGeometryID: String? = nil, implicitAnimation: ImplicitAnimation? = nil,
        gestures: [GestureAttachment] = [], isHitTestable: Bool = true
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
    }

    /// The animatable part of the node.
    var motion: NodeMotion {
        NodeMotion(rect: rect, opacity: opacity, rotation: rotation.degrees, scale: scale, cornerRadius: cornerRadius)
    }
}

/// What a node is, so front ends can draw it well and hosts can find things.
public enum NodeRole: String, Sendable, Hashable, Codable, CaseIterable {
    case background, card, text, chip, icon, button, bar, slider, sliderThumb, tick, title, overlay, hairline, row
}

/// A run of text in a node, laid out by the front end inside the node's rect.
public struct TextRun: Sendable, Hashable, Codable {
    public var text: String
    public var style: TextStyle
    public var color: RGBA
    public var weight: TextWeight
    public var alignment: TextAlignment
    /// Rolls changed digits when the text changes (SwiftUI's `.contentTransition(.numericText())`).
    public var isNumeric: Bool

    public init(
        _ text: String, style: TextStyle = .body, color: RGBA = .black, weight: TextWeight = .regular,
        alignment: TextAlignment = .leading, isNumeric: Bool = false
    ) {
        self.text = text
        self.style = style
        self.color = color
        self.weight = weight
        self.alignment = alignment
        self.isNumeric = isNumeric
    }
}

/// SwiftUI's dynamic-type text styles, which front ends map to sizes.
public enum TextStyle: String, Sendable, Hashable, Codable {
    case largeTitle, title, headline, body, footnote, caption
}

public enum TextWeight: String, Sendable, Hashable, Codable {
    case regular, bold, heavy
}

public enum TextAlignment: String, Sendable, Hashable, Codable {
    case leading, center, trailing
}

/// A drop shadow: SwiftUI's `.shadow(color:radius:x:y:)`.
public struct Shadow: Sendable, Hashable, Codable {
    public var color: RGBA
    public var radius: Double
    public var offset: Vector

    public init(color: RGBA = RGBA(red: 0, green: 0, blue: 0, alpha: 0.33), radius: Double, offset: Vector = .zero) {
        self.color = color
        self.radius = radius
        self.offset = offset
    }
}

/// SwiftUI's `.animation(_:value:)`: the animation and the value it watches, as any hashable token.
public struct ImplicitAnimation: Sendable, Hashable {
    public var animation: Animation
    public var value: String

    public init(_ animation: Animation, value: String) {
        self.animation = animation
        self.value = value
    }
}

/// A gesture attached to a node under a name the scene recognises in its gesture events.
public struct GestureAttachment: Sendable, Hashable {
    public var name: String
    public var gesture: Gesture
    public var priority: GesturePriority

    public init(_ name: String, _ gesture: some GestureConvertible, priority: GesturePriority = .normal) {
        self.name = name
        self.gesture = gesture.gesture
        self.priority = priority
    }
}
