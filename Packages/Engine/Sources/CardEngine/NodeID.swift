/// The identity of a node in a scene's layout (`"card.101"`, `"header"`, `"slider.thumb"`), stable across layouts so
/// that the engine can animate a node from one layout to the next (SwiftUI's view identity).
public struct NodeID: Sendable, Hashable, Comparable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The id's text; by convention dot-separated (`"card.101"`).
    public var rawValue: String

    /// The id with this text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `"<self>.<suffix>"`, for a child node.
    public func child(_ suffix: String) -> NodeID { NodeID(rawValue + "." + suffix) }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
