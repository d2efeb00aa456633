import CardEngine
import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardPhysics

/// A scene described as data (`docs/scenes.md`, `docs/scene.schema.json`), parsed and type-checked whole: every
/// expression compiled, every name resolved. A description that loads plays; one that does not is refused with the
/// JSON pointer (and column) of its first fault (`SceneFormatError`).
///
/// Immutable once loaded and shared by every instance of its scene (a class, so a scene value copies a pointer).
public final class SceneDescription: Sendable {
    /// The version of the format this loader reads.
    public static let formatVersion = 1
    /// The most cards a description may list.
    public static let maximumCards = 10_000

    /// What the scene is (its name, title, keys and actions), for catalogues and hosts.
    public let descriptor: SceneDescriptor
    /// The description as it was given (what a recording carries).
    public let source: JSONValue
    /// The cards a scene opened without a deck of its own shows.
    public let cards: [Card]
    /// The scope every card expression compiles in.
    let scope: ExpressionScope
    /// The global state variables, in declaration order.
    let globals: [Variable]
    /// The per-card state variables, in declaration order.
    let cardVariables: [Variable]
    let backgroundFill: RGBA?
    let nodes: [NodeSpec]
    let card: CardTemplate
    let layouts: [Layout]
    let gestures: [GestureRule]
    let actions: [ActionRule]
    let keys: [KeyRule]
    /// The animation of changes that do not name their own.
    let animation: AnimationSpec

    /// A state variable: its name, slot, type, initial value and whether it is kept per deck.
    struct Variable: Sendable {
        var name: String
        var slot: Int
        var type: ExpressionType
        var initial: Expression
        var persist: Bool
    }

    /// A node: drawn once in viewport points (`nodes`: a header, a button), or as a card's child with its rect
    /// relative to the card (`card.nodes`).
    struct NodeSpec: Sendable {
        var name: String
        var role: NodeRole
        var rect: [Expression]
        var fill: FillSpec?
        var cornerRadius: Double
        var text: TextSpec?
        var z: Double
        var accessibilityLabel: String?
        /// Drawn only while this holds (read with the scene's values: `n`, `vw`, state).
        var when: Expression? = nil
        var transition: NodeTransition = .identity
        var accessibility: AccessibilitySpec? = nil
    }

    /// A text's colour: a given one, or `"label"`, the one that reads on what the text sits on.
    enum TextColor: Sendable, Hashable {
        /// This colour.
        case fixed(RGBA)
        /// White where white has at least 4.5:1 contrast with the fill under the text (the node's own, else its
        /// card's, else the scene's background, else white), else black: for any opaque fill one of them has at
        /// least 4.58:1 (WCAG 2.2, 1.4.3). The built-in scenes choose their cards' text the same way (issue 46).
        case label
    }

    /// Text in a node: a template whose `{field}` parts are filled from the card.
    struct TextSpec: Sendable {
        var template: String
        var style: TextStyle
        var color: TextColor
        var weight: TextWeight
        var alignment: TextAlignment
        var lineLimit: Int?
    }

    /// How one card is drawn: its size, look, transitions and child nodes (rects relative to the card).
    struct CardTemplate: Sendable {
        var width: Expression
        var height: Expression
        var cornerRadius: Double
        var fill: FillSpec
        var shadow: Double?
        var transition: NodeTransition
        var children: [NodeSpec]
        var accessibilityLabel: String?
        var role: NodeRole
        /// The card's text as a VStack (see `TextStack`).
        var textStack: TextStack? = nil
        /// The accessibility label chosen by a condition (when given, in place of `accessibilityLabel`).
        var labels: [TextCase] = []
        var accessibility: AccessibilitySpec? = nil
        /// Whether the card may be drawn past its parent's clip (a hint in the frame hosts receive), per card.
        var mayOverflow: Expression? = nil
    }

    enum FillSpec: Sendable {
        case color(RGBA)
        case cardColor
    }

    /// Where a card goes: the first layout whose `when` holds for it places it.
    struct Layout: Sendable {
        enum Kind: String, Sendable, CaseIterable {
            case stack, fan, column, row, grid, groups
        }
        var name: String
        var kind: Kind
        var when: Expression?
        var group: Expression?
        var groups: Int
        var padding: Double
        var spacing: Double
        var top: Double
        var angle: Double
        var properties: [PropertyExpression]
        /// The card's size in this layout, when not the template's.
        var width: Expression?
        var height: Expression?
        var matchedGeometry: Bool
        /// Whether the layout scrolls (a column, grid or each group's column vertically, a row horizontally) inside
        /// a container that clips it, laying out only the cards in view (see `DescribedScene+Scroll.swift`).
        var scroll = false
    }

    /// A card property a layout or a gesture binding may set.
    enum Property: String, Sendable, CaseIterable {
        case x, y, rotation, scale, opacity, z
    }

    /// A property's index in `Property.allCases` and its expression: kept as an array, in that order, so a layout
    /// pass reads them without hashing.
    struct PropertyExpression: Sendable {
        var index: Int
        var expression: Expression
    }

    /// A gesture attached to cards, the background or a named node, and what it does.
    struct GestureRule: Sendable {
        enum Target: Sendable, Hashable {
            case card
            case background
            case node(String)
        }
        var name: String
        var target: Target
        var gesture: Gesture
        var priority: GesturePriority
        var bind: [PropertyExpression]
        var onEnd: [Effect]
    }

    /// What happens: the first effect whose `when` holds applies.
    struct Effect: Sendable {
        var when: Expression?
        var set: [(slot: Int, value: Expression)]
        var setCard: [(slot: Int, value: Expression)]
        var snap: Snap?
        var reorderSlot: Expression?
        var remove: Bool
        var removal: NodeTransition?
        /// Brings back every card removed since the scene opened, with its initial variables, in the order the
        /// scene opened with.
        var restore: Bool
        var carryVelocity: Bool
        var haptic: HapticEvent.Style?
        var animation: AnimationSpec?
        /// Every card's variables back to their initial values (a restart).
        var resetCards = false
    }

    /// Compose's anchored drag as data: the variable takes the index of the anchor chosen from `value` (the
    /// position) and `velocity`: a fling faster than `flingVelocity` goes to the next anchor in its direction,
    /// otherwise the nearest anchor wins, measured from the anchor it started at with `threshold` of the gap.
    struct Snap: Sendable {
        var slot: Int
        var isCardVariable: Bool
        var value: Expression
        var velocity: Expression
        var points: [Expression]
        var flingVelocity: Double
    }

    struct ActionRule: Sendable {
        var info: ActionInfo
        var effects: [Effect]
        var defaultCard: Int?
        /// The string arguments its effects read as variables.
        var choices: [ChoiceArgument] = []
        /// Without a card argument or a default card variable: the last card of the deck (the top of a stack)
        /// rather than the first.
        var defaultsToLast = false
    }

    struct KeyRule: Sendable {
        var help: KeyHelp
        var action: String
        /// The key does something only while this holds (else it is not used, and a later rule may take it).
        var when: Expression? = nil
        /// The action's arguments; the string `"$key"` is replaced by the key's name.
        var arguments: [String: ActionValue] = [:]
        /// Whether the key is listed in the scene's key help.
        var isListed = true
    }

    /// An animation: a SwiftUI preset or parameters, with a per-card delay expression (a stagger).
    struct AnimationSpec: Sendable {
        var animation: Animation?
        var delay: Expression?
    }

    init(
        descriptor: SceneDescriptor, source: JSONValue, cards: [Card], scope: ExpressionScope, globals: [Variable],
        cardVariables: [Variable], backgroundFill: RGBA?, nodes: [NodeSpec], card: CardTemplate, layouts: [Layout],
        gestures: [GestureRule], actions: [ActionRule], keys: [KeyRule], animation: AnimationSpec
    ) {
        // The descriptor carries the description, so a recording of the scene does (its header's `definition`).
        var described = descriptor
        described.definition = source
        self.descriptor = described
        self.source = source
        self.cards = cards
        self.scope = scope
        self.globals = globals
        self.cardVariables = cardVariables
        self.backgroundFill = backgroundFill
        self.nodes = nodes
        self.card = card
        self.layouts = layouts
        self.gestures = gestures
        self.actions = actions
        self.keys = keys
        self.animation = animation
    }
}

/// The variables every card expression sees, in slot order (the runtime fills them in this order).
enum Builtin: Int, CaseIterable {
    case i, n, slot, group, groups, slotCount, vw, vh, cw, ch, colWidth
    case x, y, rotation, scale, opacity, z
    case tx, ty, vx, vy, px, py, lx, ly, hoverGroup, hoverSlot, active
    case cardID, sortOrder

    var name: String {
        switch self {
        case .cardID: "card.id"
        case .sortOrder: "card.sortOrder"
        default: "\(self)"
        }
    }

    var type: ExpressionType {
        switch self {
        case .active: .bool
        case .cardID: .card
        default: .number
        }
    }
}
