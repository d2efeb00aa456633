/// The state of a gesture recogniser, as UIKit's `UIGestureRecognizer.State`.
///
/// Continuous gestures go possible → began → changed… → ended | cancelled; discrete ones and those that never
/// start go possible → ended | failed. `ended`, `cancelled` and `failed` are terminal.
public enum RecognizerState: Sendable, Hashable {
    /// Not recognised yet; the initial state.
    case possible
    /// A continuous gesture was recognised and has started.
    case began
    /// A continuous gesture that has begun reported a new value.
    case changed
    /// The gesture finished successfully (terminal).
    case ended
    /// The gesture was recognised and then cancelled, by a cancel event or by losing to another gesture (terminal).
    case cancelled
    /// The gesture was never recognised (terminal).
    case failed

    /// Whether the recogniser will never change again.
    public var isTerminal: Bool {
        switch self {
        case .ended, .cancelled, .failed: true
        case .possible, .began, .changed: false
        }
    }

    /// Whether the gesture has been recognised (began, changed or ended): what "accepts" in an arena.
    public var hasRecognized: Bool {
        switch self {
        case .began, .changed, .ended: true
        case .possible, .cancelled, .failed: false
        }
    }
}

/// What a gesture reports to its owner: the phases of ``RecognizerState`` other than `possible`.
public enum GesturePhase: Sendable, Hashable {
    /// The gesture was recognised and started.
    case began
    /// The gesture's value changed.
    case changed
    /// The gesture finished successfully.
    case ended
    /// The gesture was cancelled after it had begun.
    case cancelled
    /// The gesture will not be recognised for this touch.
    case failed
}

/// One reported step of a recogniser: its new phase and its value at that moment.
public struct GestureTransition: Sendable, Hashable {
    /// The phase the recogniser entered.
    public var phase: GesturePhase
    /// The gesture's value; `nil` for failures and for cancellations before any value existed.
    public var value: GestureValue?

    /// A transition to `phase` with `value`.
    public init(phase: GesturePhase, value: GestureValue?) {
        self.phase = phase
        self.value = value
    }
}

/// Where a recogniser wants to be after an input; ``PhaseReporter`` turns it into at most one transition.
enum PhaseTarget: Sendable {
    case possible
    case active
    case ended
    case failed

    init(_ state: RecognizerState) {
        switch state {
        case .possible: self = .possible
        case .began, .changed: self = .active
        case .ended: self = .ended
        case .cancelled, .failed: self = .failed
        }
    }
}

/// The outward state machine shared by every recogniser: it enforces the UIKit transition rules and reports
/// `changed` only when the value really changed (SwiftUI's `onChanged` semantics).
struct PhaseReporter: Sendable {
    private(set) var state: RecognizerState = .possible
    private(set) var value: GestureValue?

    /// Moves towards `target` with `newValue`; returns the transition to report, if any. Terminal states stick.
    mutating func move(to target: PhaseTarget, value newValue: GestureValue?) -> GestureTransition? {
        guard !state.isTerminal else { return nil }
        switch target {
        case .possible:
            value = newValue
            return nil
        case .active:
            if state == .possible {
                state = .began
                value = newValue
                return GestureTransition(phase: .began, value: newValue)
            }
            guard newValue != value else { return nil }
            state = .changed
            value = newValue
            return GestureTransition(phase: .changed, value: newValue)
        case .ended:
            state = .ended
            value = newValue
            return GestureTransition(phase: .ended, value: newValue)
        case .failed:
            if state == .possible {
                state = .failed
                return GestureTransition(phase: .failed, value: nil)
            }
            state = .cancelled
            return GestureTransition(phase: .cancelled, value: value)
        }
    }
}
