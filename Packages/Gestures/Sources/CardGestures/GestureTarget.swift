import CardGeometry

/// Something gestures can be attached to: for the engine, a scene node.
///
/// Hit-testing picks the highest `z` whose `frame` (with corners rounded by `cornerRadius`) contains the point;
/// among equal `z` the target registered later is on top (paint order). Frames are in the same coordinate space
/// as pointer events. A target that is not hit-testable never receives a touch itself (its ancestors still can,
/// through a hit descendant).
public struct GestureTarget<ID: Hashable & Sendable>: Sendable {
    /// The host's identifier of the target (the engine uses node ids); unique within an arena.
    public var id: ID
    /// The area that receives touches, in points, in the pointer events' coordinate space.
    public var frame: Rect
    /// The stacking order: among targets that contain a point, the highest `z` is hit.
    public var z: Double
    /// The radius, in points, by which the corners of `frame` are rounded for hit-testing.
    public var cornerRadius: Double
    /// The enclosing target, whose gestures compete with this target's (SwiftUI's view hierarchy).
    public var parent: ID?
    /// Whether the target can be hit itself; when `false` touches pass through it to the targets below.
    public var isHitTestable: Bool

    /// A target; by default at z 0 with square corners, without a parent, and hit-testable.
    public init(
        id: ID, frame: Rect, z: Double = 0, cornerRadius: Double = 0, parent: ID? = nil, isHitTestable: Bool = true
    ) {
        self.id = id
        self.frame = frame
        self.z = z
        self.cornerRadius = cornerRadius
        self.parent = parent
        self.isHitTestable = isHitTestable
    }

    func contains(_ point: Point) -> Bool {
        isHitTestable && frame.contains(point, cornerRadius: cornerRadius)
    }
}

/// How an attached gesture competes with the gestures of its target's descendants and ancestors (SwiftUI's
/// `.gesture`, `.highPriorityGesture` and `.simultaneousGesture`).
public enum GesturePriority: Sendable, Hashable {
    /// Loses to the gestures of the targets it contains (the child wins over the parent).
    case normal
    /// Wins over the gestures of the targets it contains.
    case high
    /// Takes no part in the competition: recognised alongside whatever wins.
    case simultaneous
}

/// One output of a ``GestureArena``: a gesture attached to a target changed phase.
public struct GestureEvent<TargetID: Hashable & Sendable>: Sendable {
    /// The target the gesture is attached to.
    public var target: TargetID
    /// The name the gesture was attached under.
    public var gesture: String
    /// The gesture's new phase.
    public var phase: GesturePhase
    /// The gesture's value (nil for failures).
    public var value: GestureValue?
    /// The time of the input that caused the event, in seconds.
    public var time: Double
}

extension GestureEvent: Equatable where TargetID: Equatable {}

/// Why the arena refused a request.
public enum GestureArenaError<TargetID: Hashable & Sendable>: Error, Equatable {
    /// No target with this id has been registered with ``GestureArena/setTarget(_:)``.
    case unknownTarget(TargetID)
}
