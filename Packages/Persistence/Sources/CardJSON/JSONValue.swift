/// A JSON value as a tree, for small documents (scene states) and for migrations between schema versions.
///
/// Lossless: numbers keep their text, so a migration never rounds a value, and object members keep their order.
/// Parsing is strict (see `JSONScanner`), rejects duplicate keys, and limits nesting to `maxDepth`.
public indirect enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its exact JSON text (for example `"12"` or `"1.5e3"`).
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object: its members in document order (keys are unique).
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        /// The member's key, unescaped.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// A member `key`: `value`.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of the member `key` of an object (nil for a missing key or a non-object).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Sets or appends the member `key` of an object (no effect on other values).
    public mutating func set(_ key: String, _ value: JSONValue) {
        guard case .object(var members) = self else { return }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(Member(key, value))
        }
        self = .object(members)
    }

    /// Removes the member `key` of an object and returns its value.
    @discardableResult
    public mutating func remove(_ key: String) -> JSONValue? {
        guard case .object(var members) = self, let index = members.firstIndex(where: { $0.key == key }) else {
            return nil
        }
        let value = members.remove(at: index).value
        self = .object(members)
        return value
    }

    /// A number value from an integer.
    public static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    /// The integer a number denotes exactly (`"2"`, `"2.0"`, `"0.2e1"`), or nil.
    public var integerValue: Int? {
        guard case .number(let text) = self else { return nil }
        let bytes = Array(text.utf8)
        return try? bytes.withBytes { (buffer) throws(JSONDecodeError) -> Int in
            var scanner = JSONScanner(buffer)
            let raw = try scanner.readRawNumber()
            guard raw.end == buffer.count else { throw scanner.error("not a number") }
            return Int(try scanner.integer(raw, in: Int64(Int.min)...Int64(Int.max), "number"))
        }
    }
    /// The nearest `Double` to a number (nil for other values). Parsing guarantees the number fits a double.
    public var doubleValue: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The elements of an array (nil for other values).
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The string of a string value, or nil.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    // MARK: Parsing and writing

    /// Parses a whole document. O(n) in its bytes; throws with the byte offset of the first problem.
    public init(parsing bytes: some Collection<UInt8>, maxDepth: Int = 512)
        throws(JSONDecodeError)
    {
        let array = Array(bytes)
        self = try array.withBytes { (buffer) throws(JSONDecodeError) -> JSONValue in
            var scanner = JSONScanner(buffer, maxDepth: maxDepth)
            try scanner.expectStart()
            let value = try JSONValue.parse(&scanner, depth: 0)
            try scanner.expectEnd()
            return value
        }
    }

    package static func parse(_ scanner: inout JSONScanner, depth: Int) throws(JSONDecodeError) -> JSONValue {
        let byte = try scanner.peek("a value")
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < scanner.maxDepth else {
                throw scanner.error("nesting deeper than \(scanner.maxDepth) levels")
            }
            if try scanner.openObject("an object") { return .object([]) }
            var members: [Member] = []
            var seen: Set<String> = []
            repeat {
                let keyOffset = scanner.position
                let key = scanner.string(try scanner.readKey())
                guard seen.insert(key).inserted else {
                    throw scanner.error("duplicate key \"\(key)\"", at: keyOffset)
                }
                members.append(Member(key, try parse(&scanner, depth: depth + 1)))
            } while try scanner.nextElement(close: UInt8(ascii: "}"), "an object")
            return .object(members)
        case UInt8(ascii: "["):
            guard depth < scanner.maxDepth else {
                throw scanner.error("nesting deeper than \(scanner.maxDepth) levels")
            }
            if try scanner.openArray("an array") { return .array([]) }
            var elements: [JSONValue] = []
            repeat {
                elements.append(try parse(&scanner, depth: depth + 1))
            } while try scanner.nextElement(close: UInt8(ascii: "]"), "an array")
            return .array(elements)
        case UInt8(ascii: "\""):
            return .string(scanner.string(try scanner.readRawString()))
        case UInt8(ascii: "t"):
            try scanner.readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try scanner.readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try scanner.readLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let raw = try scanner.readRawNumber()
            let text = UnsafeBufferPointer(start: scanner.base + raw.start, count: raw.end - raw.start)
            return .number(String(decoding: text, as: UTF8.self))
        default:
            throw scanner.error("expected a value, found \(JSONScanner.describe(byte))")
        }
    }

    /// Writes the value as compact JSON text.
    package func write(to writer: JSONByteWriter) throws {
        switch self {
        case .null: try writer.raw("null")
        case .bool(let value): try value ? writer.raw("true") : writer.raw("false")
        case .number(let text):
            var text = text
            try text.withUTF8 { try writer.bytes($0) }
        case .string(let text): try writer.string(text)
        case .array(let elements):
            try writer.byte(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { try writer.byte(UInt8(ascii: ",")) }
                try element.write(to: writer)
            }
            try writer.byte(UInt8(ascii: "]"))
        case .object(let members):
            try writer.byte(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { try writer.byte(UInt8(ascii: ",")) }
                try writer.string(member.key)
                try writer.byte(UInt8(ascii: ":"))
                try member.value.write(to: writer)
            }
            try writer.byte(UInt8(ascii: "}"))
        }
    }

    /// The value as compact JSON text (UTF-8).
    public var jsonBytes: [UInt8] {
        (try? JSONByteWriter.collect { try write(to: $0) }) ?? []
    }
}
