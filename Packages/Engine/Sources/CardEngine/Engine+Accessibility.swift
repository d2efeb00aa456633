/// The accessibility tree and its actions: the engine's side of assistive technologies (docs/architecture.md,
/// "Accessibility"). Nothing here runs unless a front end asks: a session without accessibility pays nothing.
extension Engine {
    /// The scene's accessibility tree as it is laid out now (the layout's targets, not a moment of an animation):
    /// derived from the nodes and the scene's `accessibilitySemantics(of:)`. O(nodes in the layout · depth); a
    /// million-card deck's tree holds the cards in view (and the focused one), not the deck.
    public func accessibilityTree() -> AccessibilityTree {
        AccessibilityTree.derive(
            layout: nodes, semantics: scene.accessibilitySemantics(of: nodes), viewport: viewport,
            name: scene.descriptor.title)
    }

    /// Performs an assistive technology's `action` on the accessibility node `id` (with `customAction`, the id of
    /// one of its custom actions): the scene action the scene bound to it, performed and logged as a host's
    /// `scene.action` would be, or for `.focus` the scene's `accessibilityFocus(on:context:)`, logged as
    /// `engine.accessibilityFocus {node}`. Throws `SceneError.invalidArgument` naming `node`, `action` or
    /// `customAction` for a node the tree does not hold or an action it does not offer, changing nothing.
    public mutating func performAccessibilityAction(
        _ action: AccessibilityAction, on id: NodeID, customAction: Int? = nil, at time: Double
    ) throws(SceneError) {
        let semantics = scene.accessibilitySemantics(of: nodes)
        let tree = AccessibilityTree.derive(
            layout: nodes, semantics: semantics, viewport: viewport, name: scene.descriptor.title)
        guard let node = tree[id] else {
            throw .invalidArgument(
                action: Self.accessibilityRequest, argument: "node", reason: "names no node ('\(id)')")
        }
        guard node.actions.contains(action) else {
            let offered = node.actions.map(\.rawValue).joined(separator: ", ")
            throw .invalidArgument(
                action: Self.accessibilityRequest, argument: "action",
                reason:
                    "'\(action.rawValue)' is not offered by node '\(id)' (it offers: \(offered.isEmpty ? "none" : offered))"
            )
        }
        let described = semantics.nodes[id]
        switch action {
        case .focus:
            try focusAccessibility(on: id, at: time)
        case .customAction:
            let customs = described?.customActions ?? []
            guard let customAction, customs.indices.contains(customAction) else {
                throw .invalidArgument(
                    action: Self.accessibilityRequest, argument: "customAction",
                    reason: "must be the id of one of node '\(id)''s custom actions (0…\(customs.count - 1))")
            }
            try perform(customs[customAction].action, at: time)
        default:
            // The tree offers only the actions the scene bound (`AccessibilityTree.derive`).
            guard let bound = described?.actions[action] else { return }
            try perform(bound, at: time)
        }
    }

    /// What errors of `performAccessibilityAction` name as the refused request.
    static let accessibilityRequest = "a11y.action"

    /// Moves the scene's focus to `id` (`Scene.accessibilityFocus(on:context:)`), logged; throws when the scene
    /// refuses it.
    mutating func focusAccessibility(on id: NodeID, at time: Double) throws(SceneError) {
        let at = max(time.isFinite ? time : self.time, self.time)
        advance(to: at)
        var context = SceneContext(time: at, viewport: viewport, animation: nil, text: layoutMeasurer)
        guard scene.accessibilityFocus(on: id, context: &context) else {
            throw .invalidArgument(
                action: Self.accessibilityRequest, argument: "node", reason: "cannot take the focus ('\(id)')")
        }
        log.append(.action(SceneAction(Self.accessibilityFocusAction, ["node": .string(id.rawValue)]), time: at))
        commit(&context)
    }
}

extension SceneAction {
    /// The name of the action that presses a key (`key(_:)`).
    static let keyPressName = "engine.key"

    /// The action that presses `key` (no modifiers), as the keyboard would: what a scene binds to an accessibility
    /// action whose keyboard equivalent has no action of its own (a "scroll down" that is page down, whose page
    /// only the scene's layout metrics know), so that keys and accessibility actions reach the same states by
    /// construction. `Engine.perform(_:at:)` handles it and logs the key press itself, so a replay presses the key;
    /// a key the scene does not use now throws `SceneError.invalidState` and leaves the scene as it was.
    public static func key(_ key: String) -> SceneAction { SceneAction(keyPressName, ["key": .string(key)]) }
}

extension Engine {
    /// Presses the key an `engine.key` action names (`SceneAction.key(_:)`), logged as the key press.
    mutating func pressKey(of action: SceneAction, at time: Double) throws(SceneError) {
        let name = try action.string("key")
        guard handle(.key(KeyInput(name), time: time)) else {
            throw .invalidState("the key '\(name)' does nothing now")
        }
    }
}
