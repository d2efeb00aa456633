/// A gesture recogniser: a value-type state machine fed pointer events and clock ticks.
///
/// Every function returns the single transition the input caused (or `nil`), so recognisers are deterministic
/// and need no callbacks. Callers must fire due timers first: call `advance(to: event.time)` before
/// `handle(event)` (``GestureArena`` does this). A recogniser only ever sees the events of one pointer.
public protocol GestureRecognizer: Sendable {
    /// The current UIKit-style state.
    var state: RecognizerState { get }
    /// The latest value (`nil` while nothing has been recognised yet).
    var value: GestureValue? { get }
    /// The earliest time at which ``advance(to:)`` will change something without a pointer event, if any.
    var nextDeadline: Double? { get }
    /// Feeds one pointer event of the recogniser's pointer.
    mutating func handle(_ event: PointerEvent) -> GestureTransition?
    /// Fires every timer whose deadline is at or before `time`.
    mutating func advance(to time: Double) -> GestureTransition?
    /// Stops the recogniser: `possible` becomes `failed`, `began`/`changed` become `cancelled`.
    mutating func cancel() -> GestureTransition?
}
