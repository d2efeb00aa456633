/// Why a spring, curve or animation could not be made: the offending parameter, its value and the rule it broke.
public enum PhysicsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The value is NaN or infinite.
    case notFinite(parameter: String, value: Double)
    /// The value must be greater than zero.
    case notPositive(parameter: String, value: Double)
    /// The value must not be negative.
    case negative(parameter: String, value: Double)
    /// The value lies outside the documented range (described in words, e.g. "-1 < bounce ≤ 1").
    case outOfRange(parameter: String, value: Double, range: String)

    public var description: String {
        switch self {
        case .notFinite(let parameter, let value): "\(parameter) must be a finite number, got \(value)"
        case .notPositive(let parameter, let value): "\(parameter) must be greater than 0, got \(value)"
        case .negative(let parameter, let value): "\(parameter) must not be negative, got \(value)"
        case .outOfRange(let parameter, let value, let range): "\(parameter) must satisfy \(range), got \(value)"
        }
    }

    /// Throws unless `value` is finite and > 0.
    static func requirePositive(_ value: Double, _ parameter: String) throws {
        guard value.isFinite else { throw PhysicsError.notFinite(parameter: parameter, value: value) }
        guard value > 0 else { throw PhysicsError.notPositive(parameter: parameter, value: value) }
    }

    /// Throws unless `value` is finite and ≥ 0.
    static func requireNonNegative(_ value: Double, _ parameter: String) throws {
        guard value.isFinite else { throw PhysicsError.notFinite(parameter: parameter, value: value) }
        guard value >= 0 else { throw PhysicsError.negative(parameter: parameter, value: value) }
    }

    /// Throws unless `value` is finite.
    static func requireFinite(_ value: Double, _ parameter: String) throws {
        guard value.isFinite else { throw PhysicsError.notFinite(parameter: parameter, value: value) }
    }
}
