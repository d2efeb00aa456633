/// Something gestures can be attached to: for the engine, a scene node.
///
/// Hit-testing picks the highest `z` whose `frame` (with corners rounded by `cornerRadius`) contains the point;
/// among equal `z` the target registered later is on top (paint order). Frames are in the same coordinate space
/// as pointer events. A target that is not hit-testable never receives a touch itself (its ancestors still can,
/// through a hit descendant).
public struct GestureTarget<ID: Hashable & Sendable>: Sendable {
    public var id: ID
    public var frame: Rect
    public var z: Double
    public var cornerRadius: Double
    /// The enclosing target, whose gestures compete with this target's (SwiftUI's view hierarchy).
    public var parent: ID?
    public var isHitTestable: Bool

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
    public var target: TargetID
    /// The name the gesture was attached under.
    public var gesture: String
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
