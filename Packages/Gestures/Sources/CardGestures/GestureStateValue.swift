/// SwiftUI's `@GestureState` for event-driven code: a value derived from a gesture while it runs, reset to its
/// initial value when the gesture ends, is cancelled or fails.
///
/// ```swift
/// var dragOffset = GestureStateValue(initialValue: Vector.zero)
/// for event in arena.handle(input) {
///     dragOffset.update(event.phase, event.value) { value, state in state = value.drag?.translation ?? .zero }
/// }
/// ```
public struct GestureStateValue<Value: Sendable>: Sendable {
    /// The value the state starts from and returns to when the gesture finishes.
    public let initialValue: Value
    /// The current value: updated by `update(_:_:body:)` while the gesture runs, `initialValue` otherwise.
    public private(set) var wrappedValue: Value

    /// A state holding `initialValue`.
    public init(initialValue: Value) {
        self.initialValue = initialValue
        self.wrappedValue = initialValue
    }

    /// Runs `body` for `began` and `changed` (SwiftUI's `updating`); resets for `ended`, `cancelled` and `failed`.
    public mutating func update(
        _ phase: GesturePhase, _ value: GestureValue?, body: (GestureValue, inout Value) -> Void
    ) {
        switch phase {
        case .began, .changed:
            if let value { body(value, &wrappedValue) }
        case .ended, .cancelled, .failed:
            wrappedValue = initialValue
        }
    }
}

/// Closure-style sugar over gesture events (SwiftUI's `onChanged` / `onEnded`): `onChanged` runs for `began` and
/// `changed` (which the recognisers only report when the value changed), `onEnded` only on success.
public struct GestureCallbacks {
    /// Runs with the gesture's value for `began` and `changed`.
    public var onChanged: ((GestureValue) -> Void)?
    /// Runs with the gesture's final value when it ends successfully.
    public var onEnded: ((GestureValue) -> Void)?
    /// Runs for `cancelled` and `failed`.
    public var onCancelled: (() -> Void)?

    /// Callbacks for the phases you care about; the others are ignored.
    public init(
        onChanged: ((GestureValue) -> Void)? = nil, onEnded: ((GestureValue) -> Void)? = nil,
        onCancelled: (() -> Void)? = nil
    ) {
        self.onChanged = onChanged
        self.onEnded = onEnded
        self.onCancelled = onCancelled
    }

    /// Calls the callback matching `phase`.
    public func dispatch(_ phase: GesturePhase, _ value: GestureValue?) {
        switch phase {
        case .began, .changed: if let value { onChanged?(value) }
        case .ended: if let value { onEnded?(value) }
        case .cancelled, .failed: onCancelled?()
        }
    }
}
