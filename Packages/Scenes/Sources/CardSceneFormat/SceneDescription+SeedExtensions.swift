import CardEngine
import CardGeometry
import CardModels

// What the format gained so the built-in scenes can be written as descriptions (issue 52; docs/scenes.md,
// "Extensions the seeds needed"): a card's text as a SwiftUI VStack, conditions on nodes and keys, text chosen by
// a condition, accessibility semantics, action arguments beyond a card, and a reset of every card's variables.

extension SceneDescription {
    /// The slot of `total`: how many cards the scene was opened with (a restart's count), fixed while it plays.
    static let totalSlot = Builtin.allCases.count

    /// SwiftUI's `VStack(spacing:) { Text … }.padding()` inside a card: the texts, each as wide as the card less
    /// the padding, wrapped and given the most lines that leave one line for each text after it, the block
    /// centred vertically. Texts whose `when` fails are left out; the whole stack only where `when` holds.
    struct TextStack: Sendable {
        struct Item: Sendable {
            var name: String
            var role: NodeRole
            var when: Expression?
            var text: TextSpec
            var transition: NodeTransition
            /// The run's line limit is the lines it took (`"limit": "used"`), not the lines there was room for
            /// (`"room"`, the default): both draw the same lines; the flashcards seed gives its answer the first.
            var limitIsUsedLines = false
        }
        var when: Expression?
        var padding: Double
        var spacing: Double
        var items: [Item]
    }

    /// A node's accessibility semantics (`NodeSemantics`) as expressions over its card (or the scene, for a node
    /// of `nodes`).
    struct AccessibilitySpec: Sendable {
        struct ActionCase: Sendable {
            enum Kind: Sendable {
                case standard(AccessibilityAction)
                case custom(String)
            }
            var when: Expression?
            var kind: Kind
            var action: String
            var arguments: [String: ActionValue]
        }
        var role: AccessibilityRole?
        var stateDescription: [TextCase]
        var expanded: Expression?
        var disabled: Expression?
        var positionInSet: Expression?
        var sizeOfSet: Expression?
        /// Whether the node takes the focus; the first node (in layout order) whose focus holds is the scene's.
        var focus: Expression?
        var actions: [ActionCase]
    }

    /// A string chosen by a condition: the first case whose `when` holds (a case without one always does).
    struct TextCase: Sendable {
        var when: Expression?
        var text: String
    }

    /// An action's argument beyond the card: a string of fixed choices, read by the action's effects as a
    /// variable of an enumeration.
    struct ChoiceArgument: Sendable {
        var name: String
        var slot: Int
        var choices: [String]
    }
}

extension Loader {
    /// `"text"` or `[{"when": …, "text": …}, …]`.
    func textCases(_ value: Located) throws(SceneFormatError) -> [SceneDescription.TextCase] {
        if case .string = value.value { return [SceneDescription.TextCase(when: nil, text: try value.string())] }
        return try value.array(maximum: 16).map { (item) throws(SceneFormatError) in
            let fields = try item.object(allowed: ["when", "text"])
            return SceneDescription.TextCase(
                when: try fields["when"]?.expression(scope, .bool),
                text: try fields["text"].required(in: item, "text").string())
        }
    }

    func textStack(_ value: Located) throws(SceneFormatError) -> SceneDescription.TextStack {
        let fields = try value.object(allowed: ["when", "padding", "spacing", "items"])
        let items = try fields["items"].required(in: value, "items").array(maximum: 8).map {
            (item) throws(SceneFormatError) in
            let members = try item.object(allowed: ["name", "role", "when", "text", "transition", "limit"])
            let limit = try members["limit"]?.string() ?? "room"
            guard limit == "room" || limit == "used" else {
                throw SceneFormatError(item.child("limit"), "must be room or used")
            }
            let name = try members["name"].required(in: item, "name").string()
            guard Self.isIdentifier(name) else { throw SceneFormatError(item.child("name"), "must be a name") }
            return SceneDescription.TextStack.Item(
                name: name, role: try Self.role(members["role"], default: .text),
                when: try members["when"]?.expression(scope, .bool),
                text: try Self.text(try members["text"].required(in: item, "text")),
                transition: try members["transition"].map { (transition) throws(SceneFormatError) in
                    try Self.transition(transition)
                } ?? .identity, limitIsUsedLines: limit == "used")
        }
        guard !items.isEmpty else { throw SceneFormatError(value.child("items"), "needs at least one text") }
        return SceneDescription.TextStack(
            when: try fields["when"]?.expression(scope, .bool),
            padding: try fields["padding"]?.number(in: 0...1000) ?? 0,
            spacing: try fields["spacing"]?.number(in: 0...1000) ?? 8, items: items)
    }

    func accessibility(_ value: Located) throws(SceneFormatError) -> SceneDescription.AccessibilitySpec {
        let fields = try value.object(allowed: [
            "role", "stateDescription", "expanded", "disabled", "positionInSet", "sizeOfSet", "focus", "actions",
        ])
        var role: AccessibilityRole?
        if let given = fields["role"] {
            let name = try given.string()
            guard let parsed = AccessibilityRole(rawValue: name) else {
                throw given.fail("must be one of " + AccessibilityRole.allCases.map(\.rawValue).joined(separator: ", "))
            }
            role = parsed
        }
        let actions = try (fields["actions"]?.array(maximum: 16) ?? []).map {
            (item) throws(SceneFormatError) -> SceneDescription.AccessibilitySpec.ActionCase in
            let members = try item.object(allowed: ["when", "kind", "custom", "action", "arguments"])
            var standard: AccessibilityAction?
            if let given = members["kind"] {
                guard let parsed = AccessibilityAction(rawValue: try given.string()) else {
                    throw given.fail("must be an accessibility action (default, expand, collapse, …)")
                }
                standard = parsed
            }
            let kind: SceneDescription.AccessibilitySpec.ActionCase.Kind
            if let custom = members["custom"] {
                kind = .custom(try custom.string())
            } else if let standard {
                kind = .standard(standard)
            } else {
                throw item.fail("needs a kind or a custom name")
            }
            return SceneDescription.AccessibilitySpec.ActionCase(
                when: try members["when"]?.expression(scope, .bool), kind: kind,
                action: try members["action"].required(in: item, "action").string(),
                arguments: try constantArguments(members["arguments"]))
        }
        return SceneDescription.AccessibilitySpec(
            role: role,
            stateDescription: try fields["stateDescription"].map { (cases) throws(SceneFormatError) in
                try textCases(cases)
            } ?? [],
            expanded: try fields["expanded"]?.expression(scope, .bool),
            disabled: try fields["disabled"]?.expression(scope, .bool),
            positionInSet: try fields["positionInSet"]?.expression(scope, .number),
            sizeOfSet: try fields["sizeOfSet"]?.expression(scope, .number),
            focus: try fields["focus"]?.expression(scope, .bool), actions: actions)
    }

    /// `{"name": "string" | number | boolean}`: constant action arguments.
    func constantArguments(_ value: Located?) throws(SceneFormatError) -> [String: ActionValue] {
        guard let value else { return [:] }
        var result: [String: ActionValue] = [:]
        for (name, item) in try value.members() {
            switch item.value {
            case .string(let text): result[name] = .string(text)
            case .number: result[name] = .number(try item.number(in: -1e15...1e15))
            case .bool(let flag): result[name] = .bool(flag)
            default: throw item.fail("must be a string, a number or a Boolean")
            }
        }
        return result
    }

    /// An action's `arguments`: `{"name", "kind": "card" | "string", "oneOf", "summary", "required"}`. A string
    /// argument with choices is declared as a variable of an enumeration its effects read.
    mutating func actionArguments(_ value: Located) throws(SceneFormatError) -> (
        [ActionArgument], [SceneDescription.ChoiceArgument]
    ) {
        var arguments: [ActionArgument] = []
        var choices: [SceneDescription.ChoiceArgument] = []
        for item in try value.array(maximum: 8) {
            let fields = try item.object(allowed: ["name", "kind", "oneOf", "summary", "required"])
            let name = try fields["name"].required(in: item, "name").string()
            guard Self.isIdentifier(name) else { throw SceneFormatError(item.child("name"), "must be a name") }
            let summary = try fields["summary"]?.string() ?? name
            let required = try fields["required"]?.bool() ?? true
            switch try fields["kind"].required(in: item, "kind").string() {
            case "card":
                guard name == "card" else { throw SceneFormatError(item.child("name"), "a card argument is 'card'") }
                arguments.append(ActionArgument(name, .card, summary, required: required))
            case "string":
                let values = try fields["oneOf"].required(in: item, "oneOf").array(maximum: 16).map {
                    (choice) throws(SceneFormatError) in try choice.string()
                }
                guard !values.isEmpty, Set(values).count == values.count else {
                    throw SceneFormatError(item.child("oneOf"), "must list distinct values")
                }
                // One variable per name: two actions with the same argument share it.
                if scope.variables[name] == nil { _ = scope.declare(name, scope.enumeration(values)) }
                guard let variable = scope.variables[name], case .enumeration(let index) = variable.type,
                    scope.enumerations[index] == values
                else {
                    throw SceneFormatError(item.child("name"), "'\(name)' is already a variable of another type")
                }
                arguments.append(ActionArgument(name, .string(oneOf: values), summary, required: required))
                choices.append(SceneDescription.ChoiceArgument(name: name, slot: variable.slot, choices: values))
            default:
                throw SceneFormatError(item.child("kind"), "must be card or string")
            }
        }
        return (arguments, choices)
    }
}
