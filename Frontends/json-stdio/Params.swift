import CardEngine
import CardJSON
import CardModels

/// Typed access to a request's `params` object; every failure is a −32602 error naming the field.
///
/// Unknown members are rejected too (a misspelt optional field would otherwise be silently ignored).
struct Params {
    private let members: [JSONValue.Member]
    /// The path of this object in messages (`params`, `params.viewport`).
    private let path: String

    /// Wraps `params` (absent or `null` means no members); −32602 when it is neither an object nor absent.
    init(_ value: JSONValue?, path: String = "params") throws(RPCError) {
        self.path = path
        switch value {
        case nil, .null?: members = []
        case .object(let members)?: self.members = members
        case .array?: throw .invalidParams(path, "must be an object (by-position parameters are not supported)")
        default: throw .invalidParams(path, "must be an object")
        }
    }

    func name(_ key: String) -> String { path == "params" ? key : path + "." + key }

    func value(_ key: String) -> JSONValue? {
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// Rejects members outside `allowed` (a short list: a linear scan costs less than hashing).
    func only(_ allowed: [String]) throws(RPCError) {
        for member in members where !allowed.contains(member.key) {
            throw .invalidParams(name(member.key), "is not a known field")
        }
    }

    func has(_ key: String) -> Bool { value(key) != nil }

    func requiredString(_ key: String) throws(RPCError) -> String {
        guard let text = try string(key) else { throw .invalidParams(name(key), "is required (a string)") }
        return text
    }

    func string(_ key: String) throws(RPCError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else { throw .invalidParams(name(key), "must be a string") }
        return text
    }

    func requiredNumber(_ key: String) throws(RPCError) -> Double {
        guard let number = try number(key) else { throw .invalidParams(name(key), "is required (a number)") }
        return number
    }

    /// A finite number (JSON numbers too large for a double are rejected, never turned into infinity).
    func number(_ key: String) throws(RPCError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let text) = value else { throw .invalidParams(name(key), "must be a number") }
        guard let number = Double(text), number.isFinite else {
            throw .invalidParams(name(key), "must be a finite number")
        }
        return number
    }

    func requiredInt(_ key: String) throws(RPCError) -> Int {
        guard let number = try int(key) else { throw .invalidParams(name(key), "is required (a whole number)") }
        return number
    }

    func int(_ key: String) throws(RPCError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .number = value, let number = value.integerValue else {
            throw .invalidParams(name(key), "must be a whole number")
        }
        return number
    }

    /// A whole number that is at least 0, clamped to `Int.max` when it is larger (`1e20` for an offset past any
    /// deck's end): −32602 for anything that is not a whole number, or that is negative.
    func wholeNumberClamped(_ key: String) throws(RPCError) -> Int? {
        guard let value = value(key) else { return nil }
        if let number = value.integerValue { return number }
        guard case .number(let text) = value, let number = Double(text), number.isFinite,
            number == number.rounded(.towardZero)
        else {
            throw .invalidParams(name(key), "must be a whole number")
        }
        guard number >= 0 else { throw .invalidParams(name(key), "must be at least 0") }
        return Int.max
    }

    func bool(_ key: String) throws(RPCError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw .invalidParams(name(key), "must be true or false") }
        return flag
    }

    func object(_ key: String) throws(RPCError) -> Params? {
        guard let value = value(key) else { return nil }
        guard case .object = value else { throw .invalidParams(name(key), "must be an object") }
        return try Params(value, path: name(key))
    }

    func requiredObject(_ key: String) throws(RPCError) -> Params {
        guard let object = try object(key) else { throw .invalidParams(name(key), "is required (an object)") }
        return object
    }

    /// One of `choices`, or nil when absent.
    func choice(_ key: String, _ choices: [String]) throws(RPCError) -> String? {
        guard let text = try string(key) else { return nil }
        guard choices.contains(text) else {
            throw .invalidParams(name(key), "must be one of " + choices.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        return text
    }

    /// A card id: a decimal string or a whole number ≥ 0.
    func card(_ key: String) throws(RPCError) -> CardID? {
        guard let value = value(key) else { return nil }
        guard let id = Self.cardID(value) else {
            throw .invalidParams(name(key), "must be a card id (a decimal string or a whole number)")
        }
        return id
    }

    static func cardID(_ value: JSONValue) -> CardID? {
        switch value {
        case .string(let text): CardID.canonical(text)
        case .number(let text): UInt64(text).map { CardID($0) } ?? Self.wholeNumberID(text)
        default: nil
        }
    }

    /// A card id written as a whole number in another JSON spelling (`4e2`, `400.0`: JSON Schema's integers), exact
    /// up to 2^53; larger ids are exact only as digits or strings. Nil for anything else.
    static func wholeNumberID(_ text: String) -> CardID? {
        guard let value = Double(text), value >= 0, value <= 9_007_199_254_740_992, value == value.rounded() else {
            return nil
        }
        return CardID(UInt64(value))
    }

    func requiredCard(_ key: String) throws(RPCError) -> CardID {
        guard let id = try card(key) else { throw .invalidParams(name(key), "is required (a card id)") }
        return id
    }

    /// An array of card ids.
    func cardList(_ key: String) throws(RPCError) -> [CardID]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value else { throw .invalidParams(name(key), "must be an array of card ids") }
        var ids: [CardID] = []
        ids.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard let id = Self.cardID(element) else {
                throw .invalidParams("\(name(key))[\(index)]", "must be a card id (a decimal string or a whole number)")
            }
            ids.append(id)
        }
        return ids
    }

    /// Every member, for `scene.action` arguments.
    var allMembers: [JSONValue.Member] { members }
}
