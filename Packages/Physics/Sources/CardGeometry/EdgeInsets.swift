/// Insets on the four edges of a rectangle, in points (SwiftUI's `EdgeInsets`).
public struct EdgeInsets: Sendable, Hashable, Codable {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double

    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// The same inset on every edge.
    public init(all value: Double) {
        self.init(top: value, leading: value, bottom: value, trailing: value)
    }

    /// No inset.
    public static let zero = EdgeInsets()
}
