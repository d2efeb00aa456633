/// What a session reports: a member's released transition. The arena turns it into a ``GestureEvent``.
struct SessionOutput: Sendable {
    /// Index of the member's target in the session's chain (0 is the hit target).
    var chainIndex: Int
    var name: String
    var phase: GesturePhase
    var value: GestureValue?
    var time: Double
}

/// One competition in a ``GestureArena``: the recognisers created for one touch (or one wheel scroll), ranked.
///
/// Members `0..<competitorCount` compete in rank order; the rest are simultaneous. Each member keeps a
/// ``PhaseReporter`` of what has been released to the host, so held-back progress is reported in one step when
/// the member wins. Not generic (targets are referred to by their index in the arena's hit chain), so the
/// per-event work is fully specialised.
struct GestureSession: Sendable {
    struct Member: Sendable {
        var chainIndex: Int
        var name: String
        var recognizer: any GestureRecognizer
        var released = PhaseReporter()
        /// Cancelled by the arena because another member won (never reported).
        var rejected = false
        var failureReported = false

        init(chainIndex: Int, name: String, recognizer: any GestureRecognizer) {
            self.chainIndex = chainIndex
            self.name = name
            self.recognizer = recognizer
        }
    }

    var pointerID: Int
    var pointerIsDown = true
    var members: [Member]
    let competitorCount: Int
    var winner: Int?

    init(pointerID: Int, members: [Member], competitorCount: Int) {
        self.pointerID = pointerID
        self.members = members
        self.competitorCount = competitorCount
    }

    /// Whether every recogniser has finished.
    var isFinished: Bool {
        for member in members where !member.recognizer.state.isTerminal { return false }
        return true
    }

    var nextDeadline: Double? {
        var earliest: Double?
        for member in members where !member.recognizer.state.isTerminal {
            if let deadline = member.recognizer.nextDeadline, deadline < (earliest ?? .infinity) { earliest = deadline }
        }
        return earliest
    }

    mutating func deliver(_ event: PointerEvent, into events: inout [SessionOutput]) {
        for index in members.indices where !members[index].recognizer.state.isTerminal {
            _ = members[index].recognizer.handle(event)
        }
        settle(time: event.time, into: &events)
    }

    mutating func advance(to time: Double, into events: inout [SessionOutput]) {
        for index in members.indices where !members[index].recognizer.state.isTerminal {
            _ = members[index].recognizer.advance(to: time)
        }
        settle(time: time, into: &events)
    }

    /// After the pointer lifts: cancels every recogniser that is undecided without a pending timer (it could
    /// otherwise wait forever), then settles again.
    mutating func sweep(time: Double, into events: inout [SessionOutput]) {
        var changed = false
        for index in members.indices {
            let state = members[index].recognizer.state
            guard !state.isTerminal, members[index].recognizer.nextDeadline == nil else { continue }
            _ = members[index].recognizer.cancel()
            if index < competitorCount, index != winner, !state.hasRecognized {
                members[index].rejected = true
            }
            changed = true
        }
        if changed { settle(time: time, into: &events) }
    }

    /// A new touch elsewhere while a multi-tap waited: the waiting recognisers give up, lower-ranked finished
    /// gestures may win, then everything left is cancelled.
    mutating func resolveWithoutPointer(time: Double, into events: inout [SessionOutput]) {
        for index in members.indices where !members[index].recognizer.state.isTerminal {
            _ = members[index].recognizer.cancel()
        }
        settle(time: time, into: &events)
    }

    /// Cancels every recogniser, reporting `cancelled` for released active gestures and `failed` for the rest.
    mutating func cancelAll(time: Double, into events: inout [SessionOutput]) {
        for index in members.indices where !members[index].recognizer.state.isTerminal {
            _ = members[index].recognizer.cancel()
        }
        settle(time: time, into: &events)
    }

    /// Picks a winner if one is due, then reports every released member's progress and new failures.
    private mutating func settle(time: Double, into events: inout [SessionOutput]) {
        if winner == nil {
            for index in 0..<competitorCount {
                let state = members[index].recognizer.state
                if state == .failed || state == .cancelled { continue }
                if state.hasRecognized {
                    winner = index
                    for other in 0..<competitorCount where other != index {
                        guard !members[other].recognizer.state.isTerminal else { continue }
                        _ = members[other].recognizer.cancel()
                        members[other].rejected = true
                    }
                }
                break
            }
        }
        for index in members.indices {
            let state = members[index].recognizer.state
            if index == winner || index >= competitorCount {
                let value = members[index].recognizer.value
                if let transition = members[index].released.move(to: PhaseTarget(state), value: value) {
                    events.append(
                        SessionOutput(
                            chainIndex: members[index].chainIndex, name: members[index].name, phase: transition.phase,
                            value: transition.value, time: time))
                }
            } else if state == .failed || state == .cancelled, !members[index].rejected,
                !members[index].failureReported
            {
                members[index].failureReported = true
                events.append(
                    SessionOutput(
                        chainIndex: members[index].chainIndex, name: members[index].name, phase: .failed, value: nil,
                        time: time))
            }
        }
    }
}
