/// A rotation angle. Stored in radians; SwiftUI's `.degrees(_:)` and `.radians(_:)` both construct it.
public struct Angle: Sendable, Hashable, Codable, Comparable {
    /// The angle in radians; positive is clockwise on screen (y grows downwards).
    public var radians: Double

    /// An angle of `radians` radians.
    public init(radians: Double) {
        self.radians = radians
    }

    /// An angle of `degrees` degrees (stored as `degrees · π / 180` radians).
    public init(degrees: Double) {
        self.radians = degrees * .pi / 180
    }

    /// No rotation.
    public static let zero = Angle(radians: 0)

    /// An angle of `value` degrees, as SwiftUI's `.degrees(_:)`.
    public static func degrees(_ value: Double) -> Angle { Angle(degrees: value) }
    /// An angle of `value` radians, as SwiftUI's `.radians(_:)`.
    public static func radians(_ value: Double) -> Angle { Angle(radians: value) }

    /// The angle in degrees.
    public var degrees: Double {
        get { radians * 180 / .pi }
        set { radians = newValue * .pi / 180 }
    }

    public static func < (lhs: Angle, rhs: Angle) -> Bool { lhs.radians < rhs.radians }
    /// The sum of two angles.
    public static func + (lhs: Angle, rhs: Angle) -> Angle { Angle(radians: lhs.radians + rhs.radians) }
    /// The difference of two angles.
    public static func - (lhs: Angle, rhs: Angle) -> Angle { Angle(radians: lhs.radians - rhs.radians) }
    /// The angle multiplied by a factor.
    public static func * (lhs: Angle, rhs: Double) -> Angle { Angle(radians: lhs.radians * rhs) }
}
