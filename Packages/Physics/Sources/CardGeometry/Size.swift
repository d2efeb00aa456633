/// A width and a height, in points. Negative values are allowed (as in CGSize) but `Rect` standardises them.
public struct Size: Sendable, Hashable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size of zero by zero.
    public static let zero = Size(width: 0, height: 0)

    public static func * (size: Size, scale: Double) -> Size {
        Size(width: size.width * scale, height: size.height * scale)
    }
}
