/// What only a scene knows about its layout for assistive technologies (`Scene.accessibilitySemantics(of:)`):
/// which node has the focus, and per node its role, states, place in a set and what its actions do. Everything
/// else — names from labels and text, bounds, the tree's shape, default roles — the engine reads off the nodes.
///
/// A data scene declares the same per node; the engine's derivation (`AccessibilityTree.derive`) serves both.
public struct SceneSemantics: Sendable {
    /// The node with the keyboard focus, if any: a node of the layout or of `additionalNodes`.
    public var focus: NodeID?
    /// What the scene says about each node it describes, by node id. A described node is always in the tree
    /// (unless it is fully transparent), a container role included.
    public var nodes: [NodeID: NodeSemantics]
    /// Nodes that are not in the layout but belong in the tree, hidden (`AccessibilityNode.isHidden`): the focused
    /// card of a long deck scrolled out of view, so that the focus always names a node. Each should have a
    /// `NodeSemantics` entry (else it shows only when its role and name make it one).
    public var additionalNodes: [Node]

    /// Semantics with `focus`, per-node `nodes` and `additionalNodes` (all empty by default: the engine's
    /// derivation from the nodes alone).
    public init(focus: NodeID? = nil, nodes: [NodeID: NodeSemantics] = [:], additionalNodes: [Node] = []) {
        self.focus = focus
        self.nodes = nodes
        self.additionalNodes = additionalNodes
    }
}

/// What a scene says about one node: anything left nil falls back on what the engine derives from the node.
public struct NodeSemantics: Sendable, Hashable {
    /// The role, instead of the one derived from the node's `NodeRole`.
    public var role: AccessibilityRole?
    /// The name, instead of the node's `accessibilityLabel` or text.
    public var name: String?
    /// The value (a slider's).
    public var value: String?
    /// A state in words (`"answer shown"`).
    public var stateDescription: String?
    /// Whether the node is chosen; nil when it cannot be.
    public var isSelected: Bool?
    /// Whether the node is open; nil when it does not open.
    public var isExpanded: Bool?
    /// Whether the node takes no action now.
    public var isDisabled: Bool
    /// The node's place in its set, from 1.
    public var positionInSet: Int?
    /// The size of the node's set (on the items, as ARIA puts it, and on the set's container).
    public var sizeOfSet: Int?
    /// What each standard action does, as one of the scene's own actions (performed and logged as if a host had
    /// sent it). `.focus` and `.customAction` have no entry here: see `takesFocus` and `customActions`.
    public var actions: [AccessibilityAction: SceneAction]
    /// Whether the node takes the focus (`AccessibilityAction.focus`, which `Scene.accessibilityFocus(on:context:)`
    /// performs).
    public var takesFocus: Bool
    /// The scene's own actions on the node (move up, move down, dismiss, reveal), with what each does; a custom
    /// action's id is its index here.
    public var customActions: [CustomSemanticAction]

    /// Semantics of one node; every part optional (see each property).
    public init(
        role: AccessibilityRole? = nil, name: String? = nil, value: String? = nil, stateDescription: String? = nil,
        isSelected: Bool? = nil, isExpanded: Bool? = nil, isDisabled: Bool = false, positionInSet: Int? = nil,
        sizeOfSet: Int? = nil, actions: [AccessibilityAction: SceneAction] = [:], takesFocus: Bool = false,
        customActions: [CustomSemanticAction] = []
    ) {
        self.role = role
        self.name = name
        self.value = value
        self.stateDescription = stateDescription
        self.isSelected = isSelected
        self.isExpanded = isExpanded
        self.isDisabled = isDisabled
        self.positionInSet = positionInSet
        self.sizeOfSet = sizeOfSet
        self.actions = actions
        self.takesFocus = takesFocus
        self.customActions = customActions
    }
}

/// A custom action of a node (`AccessibilityCustomAction`) and the scene action it performs.
public struct CustomSemanticAction: Sendable, Hashable {
    /// What a person hears (`"move up"`).
    public var description: String
    /// The scene action it performs.
    public var action: SceneAction

    /// The custom action read as `description`, performing `action`.
    public init(_ description: String, _ action: SceneAction) {
        self.description = description
        self.action = action
    }
}
