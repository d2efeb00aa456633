import CardJSON
import CardModels

/// Describes a semantic action as data: its arguments with their types, ranges and whether each is required, and
/// when the action is available. Hosts get it as a JSON Schema fragment (`parametersSchema`); the engine checks
/// every action against it before the scene sees it (`validate`), so a misspelt argument never passes silently.
public struct ActionInfo: Sendable, Hashable {
    /// The name `scene.action` and `SceneAction` use.
    public var name: String
    /// What the action does, in one line.
    public var summary: String
    /// The arguments, in the order they are documented.
    public var arguments: [ActionArgument]
    /// Argument names of which exactly one must be given (`scroll`: `to` or `by`); empty when there is no such
    /// rule. The named arguments are declared optional in `arguments`.
    public var exactlyOneOf: [String]
    /// When the action can be performed.
    public var availability: ActionAvailability

    /// An action named `name`; see each property.
    public init(
        _ name: String, _ summary: String, arguments: [ActionArgument] = [], exactlyOneOf: [String] = [],
        availability: ActionAvailability = .always
    ) {
        self.name = name
        self.summary = summary
        self.arguments = arguments
        self.exactlyOneOf = exactlyOneOf
        self.availability = availability
    }

    /// The argument named `name`, if the action declares one.
    public func argument(_ name: String) -> ActionArgument? { arguments.first { $0.name == name } }

    /// Checks `action`'s arguments against the declaration: no unknown argument, every required one present, each
    /// of its type and in its range (a `position` within a deck of `cardCount` cards), and exactly one of
    /// `exactlyOneOf`. O(arguments²) on short lists.
    public func validate(_ action: SceneAction, cardCount: Int) throws(SceneError) {
        for key in action.arguments.keys.sorted() where argument(key) == nil {
            let known =
                arguments.isEmpty ? "it takes none" : "it takes " + arguments.map(\.name).joined(separator: ", ")
            throw .invalidArgument(action: name, argument: key, reason: "is not an argument of this action (\(known))")
        }
        for declared in arguments {
            guard let value = action.arguments[declared.name] else {
                if declared.isRequired {
                    throw .invalidArgument(action: name, argument: declared.name, reason: "missing")
                }
                continue
            }
            if let reason = declared.kind.problem(with: value, cardCount: cardCount) {
                throw .invalidArgument(action: name, argument: declared.name, reason: reason)
            }
        }
        if !exactlyOneOf.isEmpty {
            let given = exactlyOneOf.filter { action.arguments[$0] != nil }
            guard given.count == 1 else {
                let names = exactlyOneOf.map { "'\($0)'" }.joined(separator: " or ")
                throw .invalidArgument(
                    action: name, argument: given.count > 1 ? given[1] : exactlyOneOf[0],
                    reason: "exactly one of \(names) is required")
            }
        }
    }

    /// The JSON Schema (draft 2020-12) of a `scene.action` request's params for this action while the scene's deck
    /// holds `cardCount` cards: `name` is this action's, `t` is the optional time, every other member is a declared
    /// argument with every range `validate` enforces (a `position`'s maximum is `cardCount − 1`).
    public func parametersSchema(cardCount: Int) -> JSONValue {
        var properties: [JSONValue.Member] = [
            .init("name", .object([.init("const", .string(name))])),
            .init(
                "t",
                .object([
                    .init("type", .string("number")), .init("minimum", .integer(0)),
                    .init("maximum", .integer(1_000_000_000)),
                ])),
        ]
        for argument in arguments { properties.append(.init(argument.name, argument.schema(cardCount: cardCount))) }
        var schema: [JSONValue.Member] = [
            .init("type", .string("object")),
            .init("properties", .object(properties)),
            .init("required", .array([.string("name")] + arguments.filter(\.isRequired).map { .string($0.name) })),
            .init("additionalProperties", .bool(false)),
        ]
        if !exactlyOneOf.isEmpty {
            schema.append(
                .init("oneOf", .array(exactlyOneOf.map { .object([.init("required", .array([.string($0)]))]) })))
        }
        return .object(schema)
    }
}

/// When an action can be performed, as a rule the engine evaluates on the scene's state.
public enum ActionAvailability: Sendable, Hashable {
    /// In every state.
    case always
    /// While the scene's deck holds at least this many cards.
    case deckHasAtLeast(Int)

    /// Whether the rule holds for a deck of `count` cards.
    public func holds(cardCount count: Int) -> Bool {
        switch self {
        case .always: true
        case .deckHasAtLeast(let minimum): count >= minimum
        }
    }
}

/// One argument of an action: its name, type and range, and whether it is required.
public struct ActionArgument: Sendable, Hashable {
    /// The type of an argument's value.
    public enum Kind: Sendable, Hashable {
        /// A whole number, optionally bounded (inclusive).
        case integer(minimum: Int? = nil, maximum: Int? = nil)
        /// A finite number, optionally bounded (inclusive).
        case number(minimum: Double? = nil, maximum: Double? = nil)
        /// A string; when `oneOf` is not empty, one of those.
        case string(oneOf: [String] = [])
        /// `true` or `false`.
        case boolean
        /// A card id: a decimal string or a whole number ≥ 0.
        case card
        /// A 0-based position in the scene's deck: a whole number in 0…count − 1, the bound following the deck.
        case position

        /// Why `value` does not fit in a scene whose deck holds `cardCount` cards, or nil when it does.
        func problem(with value: ActionValue, cardCount: Int) -> String? {
            switch (self, value) {
            case (.position, _):
                return Kind.integer(minimum: 0, maximum: cardCount - 1).problem(with: value, cardCount: cardCount)
            case (.integer(let minimum, let maximum), .number(let number)):
                guard number == number.rounded(), abs(number) < 1e15 else { return "must be a whole number" }
                if let minimum, let maximum, number < Double(minimum) || number > Double(maximum) {
                    return "must be \(minimum)…\(maximum)"
                }
                if let minimum, number < Double(minimum) { return "must be at least \(minimum)" }
                if let maximum, number > Double(maximum) { return "must be at most \(maximum)" }
                return nil
            case (.integer, _): return "must be a whole number"
            case (.number(let minimum, let maximum), .number(let number)):
                guard number.isFinite else { return "must be a finite number" }
                if let minimum, number < minimum { return "must be at least \(ActionArgument.text(minimum))" }
                if let maximum, number > maximum { return "must be at most \(ActionArgument.text(maximum))" }
                return nil
            case (.number, _): return "must be a number"
            case (.string(let choices), .string(let text)):
                guard choices.isEmpty || choices.contains(text) else {
                    return "must be one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")
                }
                return nil
            case (.string, _): return "must be a string"
            case (.boolean, .bool): return nil
            case (.boolean, _): return "must be true or false"
            case (.card, .string(let text)): return CardID.canonical(text) == nil ? "must be a card id" : nil
            case (.card, .number(let number)):
                return number >= 0 && number == number.rounded() && number < 1.8e19 ? nil : "must be a card id"
            case (.card, .bool): return "must be a card id"
            }
        }
    }

    /// The argument's name in `SceneAction.arguments` (a member of `scene.action`'s params).
    public var name: String
    /// Its type and range.
    public var kind: Kind
    /// What the argument means, for people.
    public var summary: String
    /// Whether the action needs it.
    public var isRequired: Bool

    /// An argument; required unless `required` is false.
    public init(_ name: String, _ kind: Kind, _ summary: String, required: Bool = true) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.isRequired = required
    }

    /// The argument's JSON Schema in a scene whose deck holds `cardCount` cards, with its summary as the
    /// `description`.
    public func schema(cardCount: Int) -> JSONValue {
        var members: [JSONValue.Member] = []
        switch kind {
        case .position:
            members.append(.init("type", .string("integer")))
            members.append(.init("minimum", .integer(0)))
            members.append(.init("maximum", .integer(cardCount - 1)))
        case .integer(let minimum, let maximum):
            members.append(.init("type", .string("integer")))
            if let minimum { members.append(.init("minimum", .integer(minimum))) }
            if let maximum { members.append(.init("maximum", .integer(maximum))) }
        case .number(let minimum, let maximum):
            members.append(.init("type", .string("number")))
            if let minimum { members.append(.init("minimum", .number(Self.text(minimum)))) }
            if let maximum { members.append(.init("maximum", .number(Self.text(maximum)))) }
        case .string(let choices):
            members.append(.init("type", .string("string")))
            if !choices.isEmpty { members.append(.init("enum", .array(choices.map(JSONValue.string)))) }
        case .boolean:
            members.append(.init("type", .string("boolean")))
        case .card:
            members.append(
                .init(
                    "anyOf",
                    .array([
                        .object([.init("type", .string("string")), .init("pattern", .string("^(0|[1-9][0-9]*)$"))]),
                        .object([.init("type", .string("integer")), .init("minimum", .integer(0))]),
                    ])))
        }
        members.append(.init("description", .string(summary)))
        return .object(members)
    }

    /// A bound as JSON number text (whole numbers without a fraction).
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension Engine {
    /// The names of the scene's actions that are available in its current state, in descriptor order. Reads the
    /// deck only when an action's availability depends on it.
    public var availableActions: [String] {
        let actions = scene.descriptor.actions
        guard actions.contains(where: { $0.availability != .always }) else { return actions.map(\.name) }
        let count = scene.deckCount
        return actions.filter { $0.availability.holds(cardCount: count) }.map(\.name)
    }
}
