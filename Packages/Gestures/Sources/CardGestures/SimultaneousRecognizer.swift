/// Recognises `first.simultaneously(with: second)`: both parts see every event and neither blocks the other.
///
/// The value carries each part's value while that part is recognised (`nil` otherwise). The composite is active
/// once either part is recognised, ends when both are finished and at least one ended, and fails when both fail.
public struct SimultaneousRecognizer: GestureRecognizer {
    private var first: any GestureRecognizer
    private var second: any GestureRecognizer
    private var reporter = PhaseReporter()

    /// A recogniser in the `possible` state for `first` simultaneously with `second`.
    public init(first: Gesture, second: Gesture) {
        self.first = first.makeRecognizer()
        self.second = second.makeRecognizer()
    }

    public var state: RecognizerState { reporter.state }
    public var value: GestureValue? { reporter.value }

    public var nextDeadline: Double? {
        guard !reporter.state.isTerminal else { return nil }
        let a = first.state.isTerminal ? nil : first.nextDeadline
        let b = second.state.isTerminal ? nil : second.nextDeadline
        switch (a, b) {
        case (let a?, let b?): return min(a, b)
        default: return a ?? b
        }
    }

    public mutating func handle(_ event: PointerEvent) -> GestureTransition? {
        guard !reporter.state.isTerminal else { return nil }
        if !first.state.isTerminal { _ = first.handle(event) }
        if !second.state.isTerminal { _ = second.handle(event) }
        return report()
    }

    public mutating func advance(to time: Double) -> GestureTransition? {
        guard !reporter.state.isTerminal else { return nil }
        _ = first.advance(to: time)
        _ = second.advance(to: time)
        return report()
    }

    public mutating func cancel() -> GestureTransition? {
        _ = first.cancel()
        _ = second.cancel()
        return reporter.move(to: .failed, value: reporter.value)
    }

    private mutating func report() -> GestureTransition? {
        let a = first.state
        let b = second.state
        let value = GestureValue.simultaneous(
            first: a.hasRecognized ? first.value : nil, second: b.hasRecognized ? second.value : nil)
        if a.isTerminal && b.isTerminal {
            return reporter.move(to: a == .ended || b == .ended ? .ended : .failed, value: value)
        }
        return reporter.move(to: a.hasRecognized || b.hasRecognized ? .active : .possible, value: value)
    }
}
