import CardGeometry

/// What an accessibility node is, in AccessKit's vocabulary (`accesskit::Role`, serialised in camelCase), which is
/// ARIA's and Chromium's: a host maps each to its platform's role (`listBoxOption` is ARIA `option`, UIA
/// `ListItem`, AppKit `AXRow` under an `AXList`).
public enum AccessibilityRole: String, Sendable, Hashable, CaseIterable {
    /// The scene as a whole (the tree's root).
    case window
    /// A group of nodes with no role of its own.
    case group
    /// A list of items that are read, not chosen.
    case list
    /// An item of a `list`.
    case listItem
    /// A list whose items are chosen or acted on (a deck of cards).
    case listBox
    /// An item of a `listBox` (a card).
    case listBoxOption
    /// Something to press.
    case button
    /// A value chosen on a range (`value` reads it; increment and decrement step it).
    case slider
    /// A title or header.
    case heading
    /// Static text.
    case label
    /// A picture or an icon with a name.
    case image
    /// A view laid over the others that takes the focus while it shows.
    case dialog
    /// A region that scrolls its content.
    case scrollView
    /// Items in rows and columns.
    case grid
    /// An item of a `grid`.
    case gridCell
}

/// What an assistive technology may ask a node to do (AccessKit's `Action`). Which a node supports is in
/// `AccessibilityNode.actions`; `customAction` stands for any of its `customActions`, named by id.
public enum AccessibilityAction: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The node's main action (a tap, a press): AccessKit's `Default`/`Click`.
    case `default`
    /// Moves the keyboard focus to the node.
    case focus
    /// Opens an expandable node (`isExpanded` false → true).
    case expand
    /// Closes an expanded node.
    case collapse
    /// Steps a slider's value up.
    case increment
    /// Steps a slider's value down.
    case decrement
    /// Scrolls the node's container so that the node shows.
    case scrollIntoView
    /// One of the node's `customActions` (move up, move down, dismiss, reveal…), named by its id.
    case customAction

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// An action of the scene's own offered on a node (AccessKit's `CustomAction`): an id unique within the node and
/// what a person hears (`"move up"`).
public struct AccessibilityCustomAction: Sendable, Hashable {
    /// The action's id, unique among the node's custom actions (AccessKit's `i32`).
    public var id: Int
    /// What the action does, as read to a person.
    public var description: String

    /// The custom action `id`, read as `description`.
    public init(id: Int, description: String) {
        self.id = id
        self.description = description
    }
}

/// One node of an accessibility tree (AccessKit's `Node`): a role, a name and states, its place among its siblings,
/// its bounds, and the actions it supports. Its id is the id of the layout node it stands for, so a host that draws
/// frames can match the two.
public struct AccessibilityNode: Sendable, Hashable {
    /// The node's id: its layout node's id (the root's is `AccessibilityTree.rootID`).
    public var id: NodeID
    /// What the node is.
    public var role: AccessibilityRole
    /// What is read first: the scene's label for the node, else its visible text.
    public var name: String?
    /// A value read after the name (a slider's `"Test 3 of 10"`).
    public var value: String?
    /// A state in words, read after the name and value (`"answer shown"`).
    public var stateDescription: String?
    /// Whether the node is chosen (nil: the node cannot be chosen).
    public var isSelected: Bool?
    /// Whether the node is open (nil: the node does not open).
    public var isExpanded: Bool?
    /// Whether the node is shown but takes no action now.
    public var isDisabled: Bool
    /// Whether the node is present but not shown (it is kept for its place, as the focused card scrolled away).
    public var isHidden: Bool
    /// The node's place in its set, from 1 (ARIA's `aria-posinset`), when it belongs to one.
    public var positionInSet: Int?
    /// How many items the set has, all of them (ARIA's `aria-setsize`): a million-card deck says 1,000,000 while
    /// its tree holds the cards in view.
    public var sizeOfSet: Int?
    /// The node's frame in points, in the viewport's coordinates (the layout node's `rect`).
    public var bounds: Rect
    /// The child nodes in reading order.
    public var children: [NodeID]
    /// The actions the node supports, in `AccessibilityAction` order.
    public var actions: [AccessibilityAction]
    /// The scene's own actions on this node, by id.
    public var customActions: [AccessibilityCustomAction]

    /// A node with `id`, `role` and `bounds`; everything else empty, false or absent.
    public init(
        id: NodeID, role: AccessibilityRole, name: String? = nil, value: String? = nil,
        stateDescription: String? = nil, isSelected: Bool? = nil, isExpanded: Bool? = nil, isDisabled: Bool = false,
        isHidden: Bool = false, positionInSet: Int? = nil, sizeOfSet: Int? = nil, bounds: Rect,
        children: [NodeID] = [], actions: [AccessibilityAction] = [], customActions: [AccessibilityCustomAction] = []
    ) {
        self.id = id
        self.role = role
        self.name = name
        self.value = value
        self.stateDescription = stateDescription
        self.isSelected = isSelected
        self.isExpanded = isExpanded
        self.isDisabled = isDisabled
        self.isHidden = isHidden
        self.positionInSet = positionInSet
        self.sizeOfSet = sizeOfSet
        self.bounds = bounds
        self.children = children
        self.actions = actions
        self.customActions = customActions
    }
}
