/// The type of a value in a scene description's expression language: every expression has one, found before the
/// scene runs (`Expression.compile`), so a description that adds a Boolean to a number is refused when it loads.
public enum ExpressionType: Sendable, Hashable, CustomStringConvertible {
    /// A finite number (see `Expression` for the rule that keeps every result finite).
    case number
    /// `true` or `false`.
    case bool
    /// A card id, or none (`none`): compared with `==` and `!=` only.
    case card
    /// A value of the enumeration at this index of the scene's enumerations (a state variable declared with
    /// `values`): compared with `==` and `!=` only, with its own values or a quoted literal among them.
    case enumeration(Int)

    public var description: String {
        switch self {
        case .number: "number"
        case .bool: "boolean"
        case .card: "card"
        case .enumeration: "enumeration"
        }
    }
}

/// Where an expression may find its variables: each name's slot in the value array the evaluator reads, and its
/// type. A scene builds one scope for its layouts and gestures and smaller ones for initial values.
public struct ExpressionScope: Sendable {
    /// A variable's slot and type.
    public struct Variable: Sendable, Hashable {
        /// The index in the values an expression is evaluated with.
        public var slot: Int
        /// Its type.
        public var type: ExpressionType
    }

    /// The variables by name.
    public private(set) var variables: [String: Variable] = [:]
    /// Each enumeration's values, in declaration order (an enumeration value is its index).
    public private(set) var enumerations: [[String]] = []

    /// An empty scope (literals and functions only).
    public init() {}

    /// The number of slots an evaluation needs: one past the highest slot.
    public var slotCount: Int { (variables.values.map(\.slot).max() ?? -1) + 1 }

    /// Adds `name` at the next free slot; false when the name is taken.
    @discardableResult
    public mutating func declare(_ name: String, _ type: ExpressionType) -> Bool {
        guard variables[name] == nil else { return false }
        variables[name] = Variable(slot: slotCount, type: type)
        return true
    }

    /// Adds `name` at `slot` (shared with another scope); false when the name is taken.
    @discardableResult
    public mutating func declare(_ name: String, _ type: ExpressionType, slot: Int) -> Bool {
        guard variables[name] == nil else { return false }
        variables[name] = Variable(slot: slot, type: type)
        return true
    }

    /// Registers an enumeration with `values` and returns its type.
    public mutating func enumeration(_ values: [String]) -> ExpressionType {
        enumerations.append(values)
        return .enumeration(enumerations.count - 1)
    }
}

/// Why an expression was refused: the column (1-based, in characters) and what is wrong.
public struct ExpressionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based column in the expression's text.
    public var column: Int
    /// What is wrong.
    public var message: String

    /// An error at `column` saying `message`.
    public init(column: Int, _ message: String) {
        self.column = column
        self.message = message
    }

    public var description: String { "column \(column): \(message)" }
}
