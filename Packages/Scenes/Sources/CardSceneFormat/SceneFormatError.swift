import CardEngine
import CardJSON

/// Why a scene description was refused: the engine's `SceneDefinitionError` (the JSON pointer of the fault, the
/// column inside an expression, what is wrong), which front ends receive through `SceneDefiner`.
public typealias SceneFormatError = SceneDefinitionError

extension SceneDefinitionError {
    /// An error at `pointer` (and `column`) saying `message`.
    init(_ pointer: String, column: Int? = nil, _ message: String) {
        self.init(pointer: pointer, column: column, message: message)
    }
}

/// A JSON value with the pointer it was found at, for reading a description with errors that name their place.
struct Located {
    let value: JSONValue
    let pointer: String

    init(_ value: JSONValue, at pointer: String = "") {
        self.value = value
        self.pointer = pointer
    }

    func fail(_ message: String, column: Int? = nil) -> SceneFormatError {
        SceneFormatError(pointer, column: column, message)
    }

    /// The escaped pointer of member `key` (RFC 6901: `~` is `~0`, `/` is `~1`).
    func child(_ key: String) -> String {
        var escaped = ""
        for character in key {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return pointer + "/" + escaped
    }

    /// The members of an object, refusing any key outside `allowed`.
    func object(allowed: Set<String>) throws(SceneFormatError) -> [String: Located] {
        guard case .object(let members) = value else { throw fail("must be an object") }
        var result: [String: Located] = [:]
        for member in members {
            guard allowed.contains(member.key) else {
                throw SceneFormatError(
                    child(member.key), "unknown member (expected one of \(allowed.sorted().joined(separator: ", ")))")
            }
            result[member.key] = Located(member.value, at: child(member.key))
        }
        return result
    }

    /// The members of an object in document order, with any keys.
    func members() throws(SceneFormatError) -> [(String, Located)] {
        guard case .object(let members) = value else { throw fail("must be an object") }
        return members.map { ($0.key, Located($0.value, at: child($0.key))) }
    }

    func array(maximum: Int) throws(SceneFormatError) -> [Located] {
        guard case .array(let items) = value else { throw fail("must be an array") }
        guard items.count <= maximum else { throw fail("has \(items.count) items; at most \(maximum) are allowed") }
        return items.enumerated().map { Located($0.element, at: pointer + "/\($0.offset)") }
    }

    func string() throws(SceneFormatError) -> String {
        guard case .string(let text) = value else { throw fail("must be a string") }
        return text
    }

    func bool() throws(SceneFormatError) -> Bool {
        guard case .bool(let flag) = value else { throw fail("must be true or false") }
        return flag
    }

    func number(in range: ClosedRange<Double>) throws(SceneFormatError) -> Double {
        guard let number = value.doubleValue, case .number = value, number.isFinite else {
            throw fail("must be a number")
        }
        guard range.contains(number) else { throw fail("must be in \(range.lowerBound)…\(range.upperBound)") }
        return number
    }

    /// An expression: a string of the language, or a JSON number or Boolean as a constant.
    func expression(_ scope: ExpressionScope, _ expected: ExpressionType? = nil) throws(SceneFormatError)
        -> Expression
    {
        let text: String
        switch value {
        case .string(let string): text = string
        case .number(let number): text = number
        case .bool(let flag): text = flag ? "true" : "false"
        default: throw fail("must be an expression (a string), a number or a Boolean")
        }
        do {
            return try Expression(text, scope: scope, expected: expected)
        } catch {
            throw fail(error.message, column: error.column)
        }
    }
}

extension Optional where Wrapped == Located {
    func required(in parent: Located, _ key: String) throws(SceneFormatError) -> Located {
        guard let self else { throw SceneFormatError(parent.child(key), "missing") }
        return self
    }
}
