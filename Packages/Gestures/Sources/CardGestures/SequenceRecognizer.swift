/// Recognises `first.sequenced(before: second)` with SwiftUI's semantics.
///
/// While the first gesture runs the value is `.first(v)`. When it ends, the second gesture is created and sees
/// a touch-down at the current pointer location and time (so a drag's start location is where the long press
/// ended); from then on the value is `.second(v1, v2?)`. The sequence becomes active when the first gesture is
/// recognised, ends when the second ends, fails if the first fails, and is cancelled if the second fails after
/// the first ended. If the first ends on the pointer's up, the second sees that up at once (a zero-length touch).
public struct SequenceRecognizer: GestureRecognizer {
    private let secondGesture: Gesture
    private var first: any GestureRecognizer
    private var second: (any GestureRecognizer)?
    private var reporter = PhaseReporter()
    private var lastEvent: PointerEvent?
    private var pointerIsDown = false

    /// A recogniser in the `possible` state for `first` sequenced before `second`.
    public init(first: Gesture, second: Gesture) {
        self.first = first.makeRecognizer()
        self.secondGesture = second
    }

    public var state: RecognizerState { reporter.state }
    public var value: GestureValue? { reporter.value }

    public var nextDeadline: Double? {
        guard !reporter.state.isTerminal else { return nil }
        if let second { return second.nextDeadline }
        return first.nextDeadline
    }

    public mutating func handle(_ event: PointerEvent) -> GestureTransition? {
        guard !reporter.state.isTerminal else { return nil }
        lastEvent = event
        switch event.kind {
        case .down: pointerIsDown = true
        case .up, .cancel: pointerIsDown = false
        case .move, .wheel: break
        }
        if second == nil {
            _ = first.handle(event)
            startSecondIfReady(time: event.time)
        } else {
            _ = second?.handle(event)
        }
        return report()
    }

    public mutating func advance(to time: Double) -> GestureTransition? {
        guard !reporter.state.isTerminal else { return nil }
        if second == nil {
            _ = first.advance(to: time)
            startSecondIfReady(time: time)
        }
        _ = second?.advance(to: time)
        return report()
    }

    public mutating func cancel() -> GestureTransition? {
        _ = first.cancel()
        _ = second?.cancel()
        return reporter.move(to: .failed, value: reporter.value)
    }

    private mutating func startSecondIfReady(time: Double) {
        guard second == nil, first.state == .ended else { return }
        var recognizer = secondGesture.makeRecognizer()
        if let lastEvent {
            _ = recognizer.advance(to: time)
            _ = recognizer.handle(lastEvent.with(kind: .down, time: time))
            if !pointerIsDown { _ = recognizer.handle(lastEvent.with(kind: .up, time: time)) }
        }
        second = recognizer
    }

    private mutating func report() -> GestureTransition? {
        guard let firstValue = first.value, first.state == .ended, let second else {
            let value = first.value.map { GestureValue.sequenced(.first($0)) }
            return reporter.move(to: PhaseTarget(first.state), value: value)
        }
        let secondValue = second.state.hasRecognized ? second.value : nil
        let value = GestureValue.sequenced(.second(firstValue, secondValue))
        switch second.state {
        case .possible, .began, .changed: return reporter.move(to: .active, value: value)
        case .ended: return reporter.move(to: .ended, value: value)
        case .failed, .cancelled: return reporter.move(to: .failed, value: value)
        }
    }
}
