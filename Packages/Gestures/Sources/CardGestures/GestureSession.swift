/// One competition in a ``GestureArena``: the recognisers created for one touch (or one wheel scroll), ranked.
///
/// Members `0..<competitorCount` compete in rank order; the rest are simultaneous. Each member keeps a
/// ``PhaseReporter`` of what has been released to the host, so held-back progress is reported in one step when
/// the member wins.
struct GestureSession<TargetID: Hashable & Sendable>: Sendable {
    struct Member: Sendable {
        var target: TargetID
        var name: String
        var recognizer: any GestureRecognizer
        var released = PhaseReporter()
        /// Cancelled by the arena because another member won (never reported).
        var rejected = false
        var failureReported = false

        init(target: TargetID, name: String, recognizer: any GestureRecognizer) {
            self.target = target
            self.name = name
            self.recognizer = recognizer
        }
    }

    var hitTarget: TargetID
    var pointerID: Int
    var pointerIsDown = true
    var members: [Member]
    let competitorCount: Int
    var winner: Int?

    init(hitTarget: TargetID, pointerID: Int, members: [Member], competitorCount: Int) {
        self.hitTarget = hitTarget
        self.pointerID = pointerID
        self.members = members
        self.competitorCount = competitorCount
    }

    /// Whether every recogniser has finished.
    var isFinished: Bool { members.allSatisfy { $0.recognizer.state.isTerminal } }

    var nextDeadline: Double? {
        var earliest: Double?
        for member in members where !member.recognizer.state.isTerminal {
            if let deadline = member.recognizer.nextDeadline, deadline < (earliest ?? .infinity) { earliest = deadline }
        }
        return earliest
    }

    mutating func deliver(_ event: PointerEvent, into events: inout [GestureEvent<TargetID>]) {
        for index in members.indices where !members[index].recognizer.state.isTerminal {
            _ = members[index].recognizer.handle(event)
        }
        settle(time: event.time, into: &events)
    }

    mutating func advance(to time: Double, into events: inout [GestureEvent<TargetID>]) {
        guard nextDeadline.map({ $0 <= time }) == true else { return }
        for index in members.indices where !members[index].recognizer.state.isTerminal {
            _ = members[index].recognizer.advance(to: time)
        }
        settle(time: time, into: &events)
    }

    /// After the pointer lifts: cancels every recogniser that is undecided without a pending timer (it could
    /// otherwise wait forever), then settles again.
    mutating func sweep(time: Double, into events: inout [GestureEvent<TargetID>]) {
        var changed = false
        for index in members.indices {
            let recognizer = members[index].recognizer
            guard !recognizer.state.isTerminal, recognizer.nextDeadline == nil else { continue }
            _ = members[index].recognizer.cancel()
            if index < competitorCount, index != winner, !recognizer.state.hasRecognized {
                members[index].rejected = true
            }
            changed = true
        }
        if changed { settle(time: time, into: &events) }
    }

    /// A new touch elsewhere while a multi-tap waited: the waiting recognisers give up, lower-ranked finished
    /// gestures may win, then everything left is cancelled.
    mutating func resolveWithoutPointer(time: Double, into events: inout [GestureEvent<TargetID>]) {
        for index in members.indices where !members[index].recognizer.state.isTerminal {
            _ = members[index].recognizer.cancel()
        }
        settle(time: time, into: &events)
    }

    /// Cancels every recogniser, reporting `cancelled` for released active gestures and `failed` for the rest.
    mutating func cancelAll(time: Double, into events: inout [GestureEvent<TargetID>]) {
        for index in members.indices where !members[index].recognizer.state.isTerminal {
            _ = members[index].recognizer.cancel()
        }
        settle(time: time, into: &events)
    }

    /// Picks a winner if one is due, then reports every released member's progress and new failures.
    private mutating func settle(time: Double, into events: inout [GestureEvent<TargetID>]) {
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
            let member = members[index]
            let state = member.recognizer.state
            if index == winner || index >= competitorCount {
                if let transition = members[index].released.move(
                    to: PhaseTarget(state), value: member.recognizer.value)
                {
                    events.append(
                        GestureEvent(
                            target: member.target, gesture: member.name, phase: transition.phase,
                            value: transition.value, time: time))
                }
            } else if state == .failed || state == .cancelled, !member.rejected, !member.failureReported {
                members[index].failureReported = true
                events.append(
                    GestureEvent(target: member.target, gesture: member.name, phase: .failed, value: nil, time: time))
            }
        }
    }
}
