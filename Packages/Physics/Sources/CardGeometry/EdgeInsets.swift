/// Insets on the four edges of a rectangle, in points (SwiftUI's `EdgeInsets`).
public struct EdgeInsets: Sendable, Hashable, Codable {
    /// The inset from the top edge, in points.
    public var top: Double
    /// The inset from the leading (left) edge, in points.
    public var leading: Double
    /// The inset from the bottom edge, in points.
    public var bottom: Double
    /// The inset from the trailing (right) edge, in points.
    public var trailing: Double

    /// Insets of the given sizes, in points; an edge left out is not inset.
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
