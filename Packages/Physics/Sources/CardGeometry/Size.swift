/// A width and a height, in points. Negative values are allowed (as in CGSize) but `Rect` standardises them.
public struct Size: Sendable, Hashable, Codable {
    /// The horizontal extent, in points.
    public var width: Double
    /// The vertical extent, in points.
    public var height: Double

    /// A size of `width` × `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size of zero by zero.
    public static let zero = Size(width: 0, height: 0)

    /// The size with both dimensions multiplied by `scale`.
    public static func * (size: Size, scale: Double) -> Size {
        Size(width: size.width * scale, height: size.height * scale)
    }
}
