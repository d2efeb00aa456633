/// A small, strict parser for `--flag`, `--option VALUE`, `--option=VALUE` and positional arguments.
///
/// Unknown options, missing values and malformed numbers are usage errors with a message naming the argument.
/// Complexity: O(n) in the number of arguments for parsing; each lookup is O(1).
public struct ParsedArguments: Sendable {
    /// Option values by name (without dashes), in the order given; repeated options keep every value.
    public private(set) var options: [String: [String]] = [:]
    /// Flags that were present.
    public private(set) var flags: Set<String> = []
    /// Positional arguments, in order.
    public private(set) var positionals: [String] = []

    /// Parses `arguments`, accepting only the named options (which take a value) and flags (which do not).
    public init(_ arguments: [String], options allowedOptions: Set<String>, flags allowedFlags: Set<String>) throws {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                if !onlyPositionals && argument.hasPrefix("-") && argument != "-" && Double(argument) == nil {
                    throw UsageError("unknown option '\(argument)'")
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if allowedFlags.contains(name) {
                guard inlineValue == nil else { throw UsageError("option '--\(name)' takes no value") }
                flags.insert(name)
            } else if allowedOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("option '--\(name)' needs a value") }
                    value = arguments[index]
                    index += 1
                }
                options[name, default: []].append(value)
            } else {
                throw UsageError("unknown option '--\(name)'")
            }
        }
    }

    /// The last value given for `name`, if any.
    public func value(_ name: String) -> String? { options[name]?.last }

    /// The last value for `name` as a finite number, or nil when absent; a usage error when malformed.
    public func double(_ name: String) throws -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw UsageError("option '--\(name)' needs a finite number, got '\(text)'")
        }
        return number
    }

    /// The last value for `name` as an integer, or nil when absent; a usage error when malformed.
    public func int(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else {
            throw UsageError("option '--\(name)' needs a whole number, got '\(text)'")
        }
        return number
    }
}
