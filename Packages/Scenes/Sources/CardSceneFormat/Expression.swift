/// A compiled expression of a scene description: a small, total, typed language.
///
/// - Values: numbers, Booleans, card ids (`none` for no card) and enumeration values (quoted: `'done'`).
/// - Operators: `+ - * / %`, `< <= > >=` on numbers, `== !=` on two values of one type, `&& || !` on Booleans,
///   `c ? a : b` (both branches of one type), parentheses.
/// - Functions on numbers: `min(a, b, …)`, `max(a, b, …)`, `clamp(x, lo, hi)`, `abs(x)`, `mix(a, b, t)` (`a + (b −
///   a)·t`), `rubberBand(x, lo, hi, dimension)` (UIKit's rubber band: inside `lo…hi` x itself, beyond it the excess
///   `e` becomes `(1 − 1/(e·0.55/d + 1))·d`), `floor(x)`, `round(x)` (half away from zero), `sign(x)`, `sqrt(x)`.
/// - Variables: what the scope declares (a card's index, the count, card fields, state, live gesture values).
///
/// Total: there are no loops, no recursion and no calls of user code, so an expression of n characters evaluates
/// in O(n) steps. Every number is finite: a division or remainder by zero gives 0, `sqrt` of a negative number
/// gives 0, and every arithmetic result (and every variable read) is clamped to ±`limit` (1e9, far beyond any
/// point on a screen) with NaN read as 0. Deterministic: the same values give the same bits on every platform
/// (IEEE 754 arithmetic, no transcendental functions).
///
/// Compiling parses and type-checks the whole text up front (O(n)); evaluating runs a stack program on a
/// stack allocated once per call on the call stack (`withUnsafeTemporaryAllocation`), so it allocates nothing on
/// the heap.
public struct Expression: Sendable, Hashable {
    /// The largest magnitude a number reaches; results beyond it are clamped to it.
    public static let limit = 1e9
    /// The longest expression text accepted, in characters.
    public static let maximumLength = 2000
    /// The deepest nesting of parentheses, operators and calls accepted.
    public static let maximumDepth = 48
    /// The bits of `none`, the card value of no card.
    public static let noCard = UInt64.max

    /// The expression's type.
    public let type: ExpressionType
    /// The source text.
    public let text: String
    let code: [Instruction]
    let stackDepth: Int

    enum Instruction: Sendable, Hashable {
        case constant(UInt64)
        case load(Int)
        case loadNumber(Int)
        case add, subtract, multiply, divide, remainder, negate
        case less, lessOrEqual, greater, greaterOrEqual, equalNumber, notEqualNumber, equalBits, notEqualBits
        case and, or, not, select
        case minimum(Int)
        case maximum(Int)
        case clamp, abs, mix, rubberBand, floor, round, sign, sqrt
    }

    /// Compiles `text` in `scope`; `expected` is the type the caller needs (a quoted enumeration value is resolved
    /// against it), nil for any. Throws with the column of the first fault.
    public init(_ text: String, scope: ExpressionScope, expected: ExpressionType? = nil) throws(ExpressionError) {
        guard text.count <= Self.maximumLength else {
            throw ExpressionError(column: Self.maximumLength + 1, "longer than \(Self.maximumLength) characters")
        }
        var parser = ExpressionParser(text: text, scope: scope)
        let found = try parser.parseTop(expected: expected)
        self.type = found
        self.text = text
        self.code = parser.code
        self.stackDepth = Self.depth(of: parser.code)
        if let expected, expected != found {
            throw ExpressionError(column: 1, "is a \(found) where a \(expected) is needed")
        }
    }

    /// A constant number (for defaults).
    public static func constant(_ value: Double) -> Expression {
        Expression(type: .number, text: "\(value)", code: [.constant(finite(value).bitPattern)], stackDepth: 1)
    }

    /// A constant Boolean (for defaults).
    public static func constant(_ value: Bool) -> Expression {
        Expression(type: .bool, text: "\(value)", code: [.constant(value ? 1 : 0)], stackDepth: 1)
    }

    init(type: ExpressionType, text: String, code: [Instruction], stackDepth: Int) {
        self.type = type
        self.text = text
        self.code = code
        self.stackDepth = stackDepth
    }

    /// Whether the expression is a constant (it reads no variable).
    public var isConstant: Bool {
        !code.contains {
            switch $0 {
            case .load, .loadNumber: true
            default: false
            }
        }
    }

    /// The slots the expression reads.
    public var slotsRead: Set<Int> {
        Set(
            code.compactMap {
                switch $0 {
                case .load(let slot), .loadNumber(let slot): slot
                default: nil
                }
            })
    }

    /// `x` made finite and within ±`limit` (NaN is 0).
    @inline(__always)
    public static func finite(_ x: Double) -> Double {
        if x.isNaN { return 0 }
        return Swift.min(Swift.max(x, -limit), limit)
    }

    static func depth(of code: [Instruction]) -> Int {
        var depth = 0
        var deepest = 0
        for instruction in code {
            switch instruction {
            case .constant, .load, .loadNumber: depth += 1
            case .negate, .not, .abs, .floor, .round, .sign, .sqrt: break
            case .add, .subtract, .multiply, .divide, .remainder, .less, .lessOrEqual, .greater, .greaterOrEqual,
                .equalNumber, .notEqualNumber, .equalBits, .notEqualBits, .and, .or:
                depth -= 1
            case .select, .clamp, .mix: depth -= 2
            case .rubberBand: depth -= 3
            case .minimum(let count), .maximum(let count): depth -= count - 1
            }
            deepest = Swift.max(deepest, depth)
        }
        return Swift.max(deepest, 1)
    }
}
