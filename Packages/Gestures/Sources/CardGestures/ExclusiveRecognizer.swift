/// Recognises `first.exclusively(before: second)` with SwiftUI's semantics: the first wins if it is recognised
/// (the second is then cancelled); the second may only win once the first has failed.
///
/// Both parts see every event from the start. While the first is still possible, whatever the second does is
/// held back: when the first fails, the second's current state is reported at once (began with its latest value,
/// or ended). O(1) per event besides the parts' own work.
public struct ExclusiveRecognizer: GestureRecognizer {
    private enum Winner: Sendable {
        case none
        case first
        case second
    }

    private var first: any GestureRecognizer
    private var second: any GestureRecognizer
    private var winner = Winner.none
    private var reporter = PhaseReporter()

    /// A recogniser in the `possible` state for `first` exclusively before `second`.
    public init(first: Gesture, second: Gesture) {
        self.first = first.makeRecognizer()
        self.second = second.makeRecognizer()
    }

    public var state: RecognizerState { reporter.state }
    public var value: GestureValue? { reporter.value }

    public var nextDeadline: Double? {
        switch winner {
        case .first: return first.nextDeadline
        case .second: return second.nextDeadline
        case .none:
            guard !reporter.state.isTerminal else { return nil }
            switch (first.nextDeadline, second.nextDeadline) {
            case (let a?, let b?): return min(a, b)
            case (let a, let b): return a ?? b
            }
        }
    }

    public mutating func handle(_ event: PointerEvent) -> GestureTransition? {
        guard !reporter.state.isTerminal else { return nil }
        if winner != .second, !first.state.isTerminal { _ = first.handle(event) }
        if winner != .first, !second.state.isTerminal { _ = second.handle(event) }
        return settle()
    }

    public mutating func advance(to time: Double) -> GestureTransition? {
        guard !reporter.state.isTerminal else { return nil }
        if winner != .second { _ = first.advance(to: time) }
        if winner != .first { _ = second.advance(to: time) }
        return settle()
    }

    public mutating func cancel() -> GestureTransition? {
        _ = first.cancel()
        _ = second.cancel()
        return reporter.move(to: .failed, value: reporter.value)
    }

    private mutating func settle() -> GestureTransition? {
        if winner == .none {
            if first.state.hasRecognized {
                winner = .first
                _ = second.cancel()
            } else if first.state.isTerminal {
                if second.state.hasRecognized {
                    winner = .second
                } else if second.state.isTerminal {
                    return reporter.move(to: .failed, value: nil)
                }
            }
        }
        switch winner {
        case .none: return nil
        case .first:
            return reporter.move(to: PhaseTarget(first.state), value: first.value.map { .exclusive(.first($0)) })
        case .second:
            return reporter.move(to: PhaseTarget(second.state), value: second.value.map { .exclusive(.second($0)) })
        }
    }
}
