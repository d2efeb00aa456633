import CardGeometry

/// A value that animates: a vector space over `Double` (SwiftUI's `VectorArithmetic`).
///
/// Named methods rather than operators, so that geometry's own operators (`Point − Point → Vector`) keep their
/// meaning. Conformances: `Double`, `Point`, `Vector`, `Size`, `Rect`, `Angle`, `RGBA`, `EdgeInsets` and
/// `AnimatablePair` of any two.
public protocol Animatable: Sendable, Equatable {
    /// The additive identity.
    static var zero: Self { get }
    /// Component-wise sum.
    func adding(_ other: Self) -> Self
    /// Component-wise difference.
    func subtracting(_ other: Self) -> Self
    /// Every component multiplied by `factor`.
    func scaled(by factor: Double) -> Self
    /// The sum of the squared components (the squared Euclidean length).
    var magnitudeSquared: Double { get }
}

extension Animatable {
    /// `self + a·x + b·y`: the hot-path combination the timeline evaluates per entry.
    @inlinable
    public func adding(_ x: Self, times a: Double, _ y: Self, times b: Double) -> Self {
        adding(x.scaled(by: a)).adding(y.scaled(by: b))
    }

    /// The Euclidean length.
    @inlinable
    public var magnitude: Double { magnitudeSquared.squareRoot() }
}

extension Double: Animatable {
    @inlinable public func adding(_ other: Double) -> Double { self + other }
    @inlinable public func subtracting(_ other: Double) -> Double { self - other }
    @inlinable public func scaled(by factor: Double) -> Double { self * factor }
    @inlinable public var magnitudeSquared: Double { self * self }
}

extension Point: Animatable {
    @inlinable public func adding(_ other: Point) -> Point { Point(x: x + other.x, y: y + other.y) }
    @inlinable public func subtracting(_ other: Point) -> Point { Point(x: x - other.x, y: y - other.y) }
    @inlinable public func scaled(by factor: Double) -> Point { Point(x: x * factor, y: y * factor) }
    @inlinable public var magnitudeSquared: Double { x * x + y * y }
}

extension Vector: Animatable {
    @inlinable public func adding(_ other: Vector) -> Vector { Vector(dx: dx + other.dx, dy: dy + other.dy) }
    @inlinable public func subtracting(_ other: Vector) -> Vector { Vector(dx: dx - other.dx, dy: dy - other.dy) }
    @inlinable public func scaled(by factor: Double) -> Vector { Vector(dx: dx * factor, dy: dy * factor) }
    @inlinable public var magnitudeSquared: Double { dx * dx + dy * dy }
}

extension Size: Animatable {
    @inlinable public func adding(_ other: Size) -> Size {
        Size(width: width + other.width, height: height + other.height)
    }
    @inlinable public func subtracting(_ other: Size) -> Size {
        Size(width: width - other.width, height: height - other.height)
    }
    @inlinable public func scaled(by factor: Double) -> Size { Size(width: width * factor, height: height * factor) }
    @inlinable public var magnitudeSquared: Double { width * width + height * height }
}

extension Rect: Animatable {
    @inlinable public func adding(_ other: Rect) -> Rect {
        Rect(origin: origin.adding(other.origin), size: size.adding(other.size))
    }
    @inlinable public func subtracting(_ other: Rect) -> Rect {
        Rect(origin: origin.subtracting(other.origin), size: size.subtracting(other.size))
    }
    @inlinable public func scaled(by factor: Double) -> Rect {
        Rect(origin: origin.scaled(by: factor), size: size.scaled(by: factor))
    }
    @inlinable public var magnitudeSquared: Double { origin.magnitudeSquared + size.magnitudeSquared }
}

extension Angle: Animatable {
    @inlinable public func adding(_ other: Angle) -> Angle { Angle(radians: radians + other.radians) }
    @inlinable public func subtracting(_ other: Angle) -> Angle { Angle(radians: radians - other.radians) }
    @inlinable public func scaled(by factor: Double) -> Angle { Angle(radians: radians * factor) }
    @inlinable public var magnitudeSquared: Double { radians * radians }
}

extension RGBA: Animatable {
    public static let zero = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
    @inlinable public func adding(_ other: RGBA) -> RGBA {
        RGBA(red: red + other.red, green: green + other.green, blue: blue + other.blue, alpha: alpha + other.alpha)
    }
    @inlinable public func subtracting(_ other: RGBA) -> RGBA {
        RGBA(red: red - other.red, green: green - other.green, blue: blue - other.blue, alpha: alpha - other.alpha)
    }
    @inlinable public func scaled(by factor: Double) -> RGBA {
        RGBA(red: red * factor, green: green * factor, blue: blue * factor, alpha: alpha * factor)
    }
    @inlinable public var magnitudeSquared: Double { red * red + green * green + blue * blue + alpha * alpha }
}

extension EdgeInsets: Animatable {
    @inlinable public func adding(_ other: EdgeInsets) -> EdgeInsets {
        EdgeInsets(
            top: top + other.top, leading: leading + other.leading, bottom: bottom + other.bottom,
            trailing: trailing + other.trailing)
    }
    @inlinable public func subtracting(_ other: EdgeInsets) -> EdgeInsets { adding(other.scaled(by: -1)) }
    @inlinable public func scaled(by factor: Double) -> EdgeInsets {
        EdgeInsets(top: top * factor, leading: leading * factor, bottom: bottom * factor, trailing: trailing * factor)
    }
    @inlinable public var magnitudeSquared: Double {
        top * top + leading * leading + bottom * bottom + trailing * trailing
    }
}

/// Two animatable values animated together (SwiftUI's `AnimatablePair`); nest pairs for more.
public struct AnimatablePair<First: Animatable, Second: Animatable>: Animatable {
    /// The first value of the pair.
    public var first: First
    /// The second value of the pair.
    public var second: Second

    /// A pair of `first` and `second`, animated component by component.
    @inlinable
    public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    @inlinable public static var zero: AnimatablePair { AnimatablePair(.zero, .zero) }
    @inlinable public func adding(_ other: AnimatablePair) -> AnimatablePair {
        AnimatablePair(first.adding(other.first), second.adding(other.second))
    }
    @inlinable public func subtracting(_ other: AnimatablePair) -> AnimatablePair {
        AnimatablePair(first.subtracting(other.first), second.subtracting(other.second))
    }
    @inlinable public func scaled(by factor: Double) -> AnimatablePair {
        AnimatablePair(first.scaled(by: factor), second.scaled(by: factor))
    }
    @inlinable public var magnitudeSquared: Double { first.magnitudeSquared + second.magnitudeSquared }
}

extension AnimatablePair: Hashable where First: Hashable, Second: Hashable {}
