import CardEngine

/// What the screen-reader mode (`cardistry tui --screen-reader`) says: each change of what the app shows, once,
/// as a line of plain text a screen reader or a braille display follows ("Travel, card 4 of 12, collapsed").
///
/// A state machine in the swift-nio style: `announce(_:)` is the one event, called after the app handled input; it
/// compares the app with what it last said (the screen, the help, the message, the scene's accessibility tree) and
/// returns the lines to write. It writes nothing itself and reads no clock. O(nodes in the layout) per call.
struct ScreenReaderAnnouncer {
    /// What was said last, to say only what changed.
    private var screen: Screen?
    private var homeSelection: Int?
    private var message: String?
    private var tree: AccessibilityTree?

    /// What the app shows: the home screen, a scene, or the help over either.
    private enum Screen: Equatable {
        case home
        case scene(String)
        case help(page: Int)
    }

    /// The lines to say about `app` now: nothing when nothing a reader follows changed.
    mutating func announce(_ app: TUIApp) -> [String] {
        var lines: [String] = []
        let now: Screen =
            app.showsHelp ? .help(page: app.helpPage) : app.engine.map { .scene($0.scene.name) } ?? .home
        if now != screen {
            lines += enter(now, app: app)
            screen = now
        }
        if case .help = now {
            return lines
        } else if let engine = app.engine {
            let next = engine.accessibilityTree()
            lines += changes(to: next)
            tree = next
            homeSelection = nil
        } else {
            if homeSelection != app.selection { lines.append(homeItem(app)) }
            homeSelection = app.selection
            tree = nil
        }
        if let text = app.message, text != message { lines.append(text) }
        message = app.message
        return lines
    }

    /// What a screen says as it opens: the home screen's list and keys, a scene's title and keys, the help.
    private mutating func enter(_ screen: Screen, app: TUIApp) -> [String] {
        switch screen {
        case .home:
            homeSelection = nil
            let names = app.configuration.catalog.descriptors.enumerated().map {
                "\($0.offset + 1) \($0.element.title)"
            }
            return [
                "Cardistry. Scenes: \(names.joined(separator: ", ")).",
                "Up and down choose, Enter opens, a digit opens that scene, question mark shows the keys, q quits.",
            ]
        case .scene:
            guard let descriptor = app.engine?.scene.descriptor else { return [] }
            tree = nil
            return [
                "\(descriptor.title). \(descriptor.summary).",
                "Keys: " + descriptor.keyHelp.map { "\(Self.spoken($0.keys)) \($0.summary)" }.joined(separator: "; ")
                    + "; question mark for help, q goes back.",
            ]
        case .help:
            let keys = app.engine?.scene.descriptor.keyHelp ?? []
            guard !keys.isEmpty else { return ["Help. Any key closes it."] }
            return ["Help."] + keys.map { "\(Self.spoken($0.keys)): \($0.summary)." } + ["Any key closes it."]
        }
    }

    /// The home screen's highlighted scene.
    private func homeItem(_ app: TUIApp) -> String {
        let descriptors = app.configuration.catalog.descriptors
        guard descriptors.indices.contains(app.selection) else { return "No scenes." }
        let scene = descriptors[app.selection]
        return "\(scene.title), \(app.selection + 1) of \(descriptors.count), \(scene.summary)"
    }

    /// What changed in a scene's tree that a reader hears: a heading whose text changed, and the focused node when
    /// the focus moved or the node changed. A scene that focuses nothing (it describes no focus) is read linearly instead: every named node
    /// as it opens, then each named node that changed (at most `linearLimit` lines a change).
    private func changes(to next: AccessibilityTree) -> [String] {
        if let focus = next.focus, let node = next[focus] {
            // A heading whose text changed says what happened to the whole (a sort: "Cards 12 cards · by title ↑").
            let headings = (tree.flatMap { next.changes(from: $0) }?.nodes ?? []).filter {
                $0.role == .heading && tree?[$0.id]?.name != $0.name
            }
            var lines = headings.map(Self.sentence)
            if let tree, tree.focus == focus, tree[focus] == node { return lines }
            lines.append(Self.sentence(node))
            return lines
        }
        let changed: [AccessibilityNode]
        if let tree {
            changed = next.changes(from: tree)?.nodes ?? []
        } else {
            changed = next.readingOrder
        }
        let said = changed.filter { $0.id != AccessibilityTree.rootID && $0.name != nil && !$0.isHidden }
        return said.prefix(Self.linearLimit).map(Self.sentence)
    }

    /// The most lines one change of a scene without focus says.
    static let linearLimit = 12

    /// A node as one sentence: its name, what it is and its place ("card 4 of 12"), then its states.
    static func sentence(_ node: AccessibilityNode) -> String {
        var parts: [String] = [node.name ?? "unnamed"]
        var kind = noun(node.role)
        if let position = node.positionInSet {
            kind += node.sizeOfSet.map { " \(position) of \($0)" } ?? " \(position)"
        }
        if !kind.isEmpty { parts.append(kind) }
        if let value = node.value { parts.append(value) }
        if let state = node.stateDescription {
            parts.append(state)
        } else if let expanded = node.isExpanded {
            parts.append(expanded ? "expanded" : "collapsed")
        }
        if node.isSelected == true { parts.append("selected") }
        if node.isDisabled { parts.append("dimmed") }
        return parts.joined(separator: ", ")
    }

    /// The word a role reads as; empty for roles that go unsaid (text, a group).
    static func noun(_ role: AccessibilityRole) -> String {
        switch role {
        case .listItem, .listBoxOption, .gridCell: "card"
        case .button: "button"
        case .slider: "slider"
        case .heading: "heading"
        case .image: "image"
        case .dialog: "dialog"
        case .list, .listBox, .grid: "list"
        case .scrollView: "scroll area"
        case .window, .group, .label: ""
        }
    }

    /// Key labels as words (arrows are read badly or not at all): `← →` → `left right`.
    static func spoken(_ keys: String) -> String {
        let words: [Character: String] = ["←": "left", "→": "right", "↑": "up", "↓": "down"]
        return keys.map { words[$0] ?? String($0) }.joined()
    }
}
