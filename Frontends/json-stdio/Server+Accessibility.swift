import CardEngine
import CardJSON

/// The accessibility tree over the protocol (docs/protocol.md, "Accessibility"): opt-in at `initialize`, the whole
/// tree in `scene.open`, its changes in `a11y.update`, actions through `a11y.action`. A session that did not opt in
/// computes nothing of it and sees no member, method or notification of it.
extension Server {
    /// The method that performs an action on a node (a method only of a session that opted in).
    static let accessibilityMethod = "a11y.action"
    /// The notification that carries a tree update.
    static let accessibilityNotification = "a11y.update"

    /// `a11y.update {seq, t, nodes, removed, focus}` when the open scene's tree differs from the one the host was
    /// last told (in `scene.open` or an earlier update). Nothing when accessibility is off. O(nodes in the layout).
    mutating func announceAccessibility(at time: Double, into output: inout [Outbound]) {
        guard let session, session.accessibility, let old = session.accessibilityTree, let driver else { return }
        let tree = driver.accessibilityTree()
        guard let update = tree.changes(from: old) else { return }
        self.session?.accessibilityTree = tree
        let seq = nextSeq()
        output.append(
            .message(
                Messages.notification("a11y.update") { out in
                    Messages.header(seq: seq, time: time, into: &out)
                    AccessibilityJSON.update(update, into: &out)
                }))
    }

    /// `a11y.action {node, action, customAction?, t?}` → `{t, order?}`: performs `action` (one of the node's
    /// `actions`; with `customAction`, the id of one of its custom actions) as the scene action it stands for. The
    /// tree's changes follow as `a11y.update`, and the deck's as `deck.changed`, as for `scene.action`.
    mutating func accessibilityAction(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["node", "action", "customAction", "t"])
        let node = NodeID(try p.requiredString("node"))
        let names = AccessibilityAction.allCases.map(\.rawValue)
        guard let action = AccessibilityAction(rawValue: try p.requiredString("action")) else {
            throw .invalidParams("action", "must be one of \(names.joined(separator: ", "))")
        }
        let custom = try p.int("customAction")
        if custom != nil, action != .customAction {
            throw .invalidParams("customAction", "is taken only with action \"customAction\"")
        }
        if custom == nil, action == .customAction {
            throw .invalidParams(
                "customAction", "is required with action \"customAction\" (the id of one of the node's)")
        }
        let time = try actionTime(p, now: now)
        let before = deckRevision
        try changeScene(at: time, into: &output) { (driver) throws(SceneError) in
            try driver.performAccessibilityAction(action, on: node, customAction: custom, at: time)
        }
        return actionResult(since: before, at: time)
    }
}
