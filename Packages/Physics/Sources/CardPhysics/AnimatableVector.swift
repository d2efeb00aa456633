import CardGeometry

/// Up to four numbers animated as one value, so that a single `AnimationTimeline<Key, AnimatableVector>` can
/// hold properties of different types (a position, an opacity, a colour, a frame) under (node, property) keys.
/// Unused components stay 0.
public struct AnimatableVector: Animatable, Hashable {
    /// The first component (an x coordinate, a width, an opacity, a red component…).
    public var x: Double
    /// The second component; 0 when unused.
    public var y: Double
    /// The third component; 0 when unused.
    public var z: Double
    /// The fourth component; 0 when unused.
    public var w: Double

    /// A vector of up to four components; those left out are 0.
    @inlinable
    public init(_ x: Double, _ y: Double = 0, _ z: Double = 0, _ w: Double = 0) {
        self.x = x
        self.y = y
        self.z = z
        self.w = w
    }

    public static let zero = AnimatableVector(0)

    @inlinable public func adding(_ other: AnimatableVector) -> AnimatableVector {
        AnimatableVector(x + other.x, y + other.y, z + other.z, w + other.w)
    }
    @inlinable public func subtracting(_ other: AnimatableVector) -> AnimatableVector {
        AnimatableVector(x - other.x, y - other.y, z - other.z, w - other.w)
    }
    @inlinable public func scaled(by factor: Double) -> AnimatableVector {
        AnimatableVector(x * factor, y * factor, z * factor, w * factor)
    }
    @inlinable public var magnitudeSquared: Double { x * x + y * y + z * z + w * w }
}

/// A value that packs into an `AnimatableVector` and back without loss.
public protocol AnimatableVectorConvertible: Animatable {
    /// Unpacks a value from the components that ``animatableVector`` packed it into.
    init(animatableVector: AnimatableVector)
    /// The value packed into the components of an ``AnimatableVector``; unused components are 0.
    var animatableVector: AnimatableVector { get }
}

extension Double: AnimatableVectorConvertible {
    @inlinable public init(animatableVector vector: AnimatableVector) { self = vector.x }
    @inlinable public var animatableVector: AnimatableVector { AnimatableVector(self) }
}

extension Point: AnimatableVectorConvertible {
    @inlinable public init(animatableVector vector: AnimatableVector) { self.init(x: vector.x, y: vector.y) }
    @inlinable public var animatableVector: AnimatableVector { AnimatableVector(x, y) }
}

extension Vector: AnimatableVectorConvertible {
    @inlinable public init(animatableVector vector: AnimatableVector) { self.init(dx: vector.x, dy: vector.y) }
    @inlinable public var animatableVector: AnimatableVector { AnimatableVector(dx, dy) }
}

extension Size: AnimatableVectorConvertible {
    @inlinable public init(animatableVector vector: AnimatableVector) { self.init(width: vector.x, height: vector.y) }
    @inlinable public var animatableVector: AnimatableVector { AnimatableVector(width, height) }
}

extension Angle: AnimatableVectorConvertible {
    @inlinable public init(animatableVector vector: AnimatableVector) { self.init(radians: vector.x) }
    @inlinable public var animatableVector: AnimatableVector { AnimatableVector(radians) }
}

extension Rect: AnimatableVectorConvertible {
    @inlinable public init(animatableVector vector: AnimatableVector) {
        self.init(x: vector.x, y: vector.y, width: vector.z, height: vector.w)
    }
    @inlinable public var animatableVector: AnimatableVector {
        AnimatableVector(origin.x, origin.y, size.width, size.height)
    }
}

extension RGBA: AnimatableVectorConvertible {
    @inlinable public init(animatableVector vector: AnimatableVector) {
        self.init(red: vector.x, green: vector.y, blue: vector.z, alpha: vector.w)
    }
    @inlinable public var animatableVector: AnimatableVector { AnimatableVector(red, green, blue, alpha) }
}

extension EdgeInsets: AnimatableVectorConvertible {
    @inlinable public init(animatableVector vector: AnimatableVector) {
        self.init(top: vector.x, leading: vector.y, bottom: vector.z, trailing: vector.w)
    }
    @inlinable public var animatableVector: AnimatableVector { AnimatableVector(top, leading, bottom, trailing) }
}

extension AnimationTimeline where Value == AnimatableVector {
    /// Animates `key` to a value of any convertible type (see `animate(_:to:with:at:from:initialVelocity:)`).
    public mutating func animate<V: AnimatableVectorConvertible>(
        _ key: Key, to target: V, with animation: Animation, at time: Double, from start: V? = nil,
        initialVelocity: V? = nil
    ) {
        animate(
            key, to: target.animatableVector, with: animation, at: time, from: start?.animatableVector,
            initialVelocity: initialVelocity?.animatableVector)
    }

    /// Sets `key` to a value of any convertible type at once.
    public mutating func set<V: AnimatableVectorConvertible>(_ key: Key, to value: V) {
        set(key, to: value.animatableVector)
    }

    /// The value of `key` at `time` as `type`.
    @inlinable
    public func value<V: AnimatableVectorConvertible>(for key: Key, as type: V.Type, at time: Double) -> V? {
        value(for: key, at: time).map(V.init(animatableVector:))
    }

    /// The velocity of `key` at `time` (per second) as `type`.
    @inlinable
    public func velocity<V: AnimatableVectorConvertible>(for key: Key, as type: V.Type, at time: Double) -> V? {
        velocity(for: key, at: time).map(V.init(animatableVector:))
    }
}
