/// Start-up detection of synchronized output (DECSET 2026): send DECRQM `CSI ? 2026 $ p` and DA1 `CSI c`, then
/// feed replies here until DA1 answers (every terminal answers it, after any DECRPM since replies come in order)
/// or the timeout passes — never a hang on a terminal that ignores the query.
///
/// Per the synchronized-output spec (contour-terminal, "Synchronized Output"), a DECRPM status of 1 (set) or 2
/// (reset) means the mode is supported; 0 (unknown) or 4 (permanently reset) means it is not.
public struct CapabilityProbe: Sendable {
    public enum State: Sendable, Hashable {
        case waiting(until: Double)
        case finished(synchronizedOutput: Bool)
    }

    public private(set) var state: State
    private var synchronizedOutput = false
    /// Replies not about capabilities (keys typed meanwhile), kept for the app in order.
    public private(set) var otherInput: [TerminalInput] = []

    /// Starts waiting at `time` for at most `timeout` seconds (100 ms by default).
    public init(startedAt time: Double, timeout: Double = 0.1) {
        state = .waiting(until: time + timeout)
    }

    public var isFinished: Bool {
        if case .finished = state { true } else { false }
    }

    /// Whether synchronized output may be used (false until finished).
    public var supportsSynchronizedOutput: Bool {
        if case .finished(let value) = state { value } else { false }
    }

    /// Takes decoded input that arrived at `time`.
    public mutating func handle(_ inputs: [TerminalInput], at time: Double) {
        for input in inputs {
            guard case .waiting = state else {
                otherInput.append(input)
                continue
            }
            switch input {
            case .modeReport(let mode, let status) where mode == 2026:
                synchronizedOutput = status == 1 || status == 2
            case .deviceAttributes:
                state = .finished(synchronizedOutput: synchronizedOutput)
            default:
                otherInput.append(input)
            }
        }
        timeout(at: time)
    }

    /// Gives up waiting once the deadline has passed.
    public mutating func timeout(at time: Double) {
        if case .waiting(let until) = state, time >= until {
            state = .finished(synchronizedOutput: synchronizedOutput)
        }
    }

    /// How long to wait for more replies from `time`, or nil when finished.
    public func remaining(at time: Double) -> Double? {
        if case .waiting(let until) = state { max(0, until - time) } else { nil }
    }
}
