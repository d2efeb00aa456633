import CardGeometry

/// Routes pointer events to the gestures attached to targets and settles their competition.
///
/// On a pointer down the topmost target under the point (see ``GestureTarget``) and its ancestors compete: each
/// attached gesture gets a fresh recogniser. Competitors are ranked: `.high` gestures from the outermost ancestor
/// inwards, then `.normal` gestures from the hit target outwards (the child wins over the parent); a target's own
/// gestures rank in attachment order. `.simultaneous` gestures do not compete. Competition settles as in
/// Flutter's gesture arena, with ranks: a competitor that is recognised (accepts) wins once every higher-ranked
/// competitor has failed (rejected); the winner's held-back state is then reported and all other competitors are
/// cancelled silently. When the pointer lifts, the sweep cancels every recogniser that is still undecided and has
/// no pending timer, so nothing is left waiting; only a multi-tap waiting for its next tap keeps the competition
/// open, until its timer or the next touch.
///
/// Multi-pointer policy: the first pointer down owns the competition. While it is down, every event of any
/// other pointer is ignored (a second finger neither starts nor disturbs a gesture). A second down of the owning
/// pointer (its up was lost) cancels the competition and starts a new one; a `cancel` of the owning pointer
/// cancels every gesture. Wheel events run their own competition among wheel-capable gestures, which ends when
/// the scroll's pause timer fires; touches and the wheel never overlap: wheel events are ignored while a pointer
/// is down, a wheel event ends a multi-tap's wait, and a touch-down cancels a wheel scroll in progress (so one
/// attached gesture never runs twice at once).
///
/// Time: event times that run backwards are clamped to the latest time seen; before each event the arena fires
/// the timers that are due at its time. Without events, the host calls ``advance(to:)`` with its clock's time
/// (``nextDeadline`` says when that matters). Events with non-finite numbers are ignored.
///
/// Cost: a pointer down is O(targets) for the hit test plus O(depth) to collect gestures; other events are
/// O(competing recognisers).
public struct GestureArena<TargetID: Hashable & Sendable>: Sendable {
    struct Attachment: Sendable {
        var name: String
        var gesture: Gesture
        var priority: GesturePriority
    }

    struct Record: Sendable {
        var target: GestureTarget<TargetID>
        var order: Int
        var attachments: [Attachment] = []
    }

    /// The hit-testing data of `records`, in the same order, kept apart so the O(targets) hit test walks a flat,
    /// non-generic array.
    struct HitShape: Sendable {
        var frame: Rect
        var cornerRadius: Double
        var z: Double
        var order: Int
        var isHitTestable: Bool
    }

    private var records: [Record] = []
    private var shapes: [HitShape] = []
    private var indexByID: [TargetID: Int] = [:]
    private var nextOrder = 0
    private var pointerSession: GestureSession?
    /// The pointer session's hit target and its ancestors (members refer to them by index).
    private var pointerChain: [TargetID] = []
    private var wheelSession: GestureSession?
    private var wheelChain: [TargetID] = []
    /// The latest time seen, in seconds.
    public private(set) var now = -Double.infinity

    /// An empty arena: no targets, no gestures, no touch in progress.
    public init() {}

    // MARK: Targets and gestures

    /// Registers `target` or updates it (keeping its attached gestures and its paint order).
    public mutating func setTarget(_ target: GestureTarget<TargetID>) {
        if let index = indexByID[target.id] {
            records[index].target = target
            shapes[index] = Self.shape(of: target, order: records[index].order)
        } else {
            indexByID[target.id] = records.count
            records.append(Record(target: target, order: nextOrder))
            shapes.append(Self.shape(of: target, order: nextOrder))
            nextOrder += 1
        }
    }

    private static func shape(of target: GestureTarget<TargetID>, order: Int) -> HitShape {
        HitShape(
            frame: target.frame, cornerRadius: target.cornerRadius, z: target.z, order: order,
            isHitTestable: target.isHitTestable)
    }

    /// Removes a target and its gestures. Gestures already competing for a touch keep running until it ends.
    public mutating func removeTarget(_ id: TargetID) {
        guard let index = indexByID.removeValue(forKey: id) else { return }
        let last = records.count - 1
        if index != last {
            records[index] = records[last]
            shapes[index] = shapes[last]
            indexByID[records[index].target.id] = index
        }
        records.removeLast()
        shapes.removeLast()
    }

    /// The registered target with this id.
    public func target(_ id: TargetID) -> GestureTarget<TargetID>? {
        indexByID[id].map { records[$0].target }
    }

    /// The number of registered targets.
    public var targetCount: Int { records.count }

    /// Attaches `gesture` to a target under `name`, replacing a gesture attached under the same name (use this to
    /// update a scroll gesture's content offset). Applies from the next touch.
    public mutating func attach(
        _ gesture: some GestureConvertible, named name: String, to id: TargetID, priority: GesturePriority = .normal
    ) throws(GestureArenaError<TargetID>) {
        guard let index = indexByID[id] else { throw .unknownTarget(id) }
        let attachment = Attachment(name: name, gesture: gesture.gesture, priority: priority)
        if let existing = records[index].attachments.firstIndex(where: { $0.name == name }) {
            records[index].attachments[existing] = attachment
        } else {
            records[index].attachments.append(attachment)
        }
    }

    /// Removes the gesture attached under `name`, if any.
    public mutating func detach(named name: String, from id: TargetID) {
        guard let index = indexByID[id] else { return }
        records[index].attachments.removeAll { $0.name == name }
    }

    // MARK: Hit-testing

    /// The topmost hit-testable target containing `point`: highest z, then latest registered. O(targets).
    public func hitTest(_ point: Point) -> TargetID? {
        var best = -1
        var bestZ = -Double.infinity
        var bestOrder = Int.min
        shapes.withUnsafeBufferPointer { shapes in
            for index in shapes.indices {
                let shape = shapes[index]
                guard shape.isHitTestable, shape.z > bestZ || (shape.z == bestZ && shape.order > bestOrder),
                    shape.frame.contains(point, cornerRadius: shape.cornerRadius)
                else { continue }
                best = index
                bestZ = shape.z
                bestOrder = shape.order
            }
        }
        return best >= 0 ? records[best].target.id : nil
    }

    /// The hit target and its ancestors, innermost first (stops at unknown ids and at cycles).
    func chain(from id: TargetID) -> [Record] {
        var result: [Record] = []
        var current: TargetID? = id
        while let id = current, let index = indexByID[id], result.count < records.count {
            let record = records[index]
            if result.contains(where: { $0.target.id == id }) { break }
            result.append(record)
            current = record.target.parent
        }
        return result
    }

    // MARK: Input

    /// Whether no gesture is being recognised (every recogniser has finished).
    public var isIdle: Bool { pointerSession == nil && wheelSession == nil }

    /// The states of every live recogniser (for diagnostics and tests).
    public var recognizerStates: [RecognizerState] {
        (pointerSession?.members ?? []).map(\.recognizer.state) + (wheelSession?.members ?? []).map(\.recognizer.state)
    }

    /// The earliest time at which ``advance(to:)`` would fire a timer, if any.
    public var nextDeadline: Double? {
        switch (pointerSession?.nextDeadline, wheelSession?.nextDeadline) {
        case (let a?, let b?): min(a, b)
        case (let a, let b): a ?? b
        }
    }

    /// Fires every timer due at or before `time` (a long press being recognised, a multi-tap giving up, a wheel
    /// scroll ending) and returns the resulting events. Times earlier than ``now`` are ignored.
    public mutating func advance(to time: Double) -> [GestureEvent<TargetID>] {
        var events: [GestureEvent<TargetID>] = []
        advance(to: time, into: &events)
        return events
    }

    /// Feeds one pointer event and returns the gesture events it caused, in order.
    public mutating func handle(_ input: PointerEvent) -> [GestureEvent<TargetID>] {
        guard input.isFinite else { return [] }
        var events: [GestureEvent<TargetID>] = []
        advance(to: input.time, into: &events)
        let event = input.at(time: now)
        switch event.kind {
        case .wheel: handleWheel(event, into: &events)
        case .down: handleDown(event, into: &events)
        case .move, .up, .cancel: handleOwned(event, into: &events)
        }
        return events
    }

    /// Cancels every gesture in progress (the host lost its input, the scene changed).
    public mutating func cancelAll() -> [GestureEvent<TargetID>] {
        var events: [GestureEvent<TargetID>] = []
        let now = now
        withPointerSession(into: &events) { session, outputs in session.cancelAll(time: now, into: &outputs) }
        withWheelSession(into: &events) { session, outputs in session.cancelAll(time: now, into: &outputs) }
        pointerSession = nil
        wheelSession = nil
        return events
    }

    private mutating func advance(to time: Double, into events: inout [GestureEvent<TargetID>]) {
        guard time.isFinite else { return }
        now = max(now, time)
        let now = now
        if let deadline = pointerSession?.nextDeadline, deadline <= now {
            withPointerSession(into: &events) { session, outputs in session.advance(to: now, into: &outputs) }
        }
        if let deadline = wheelSession?.nextDeadline, deadline <= now {
            withWheelSession(into: &events) { session, outputs in
                session.advance(to: now, into: &outputs)
                session.sweep(time: now, into: &outputs)
            }
        }
    }

    private mutating func handleDown(_ event: PointerEvent, into events: inout [GestureEvent<TargetID>]) {
        if let session = pointerSession, session.pointerIsDown, session.pointerID != event.pointerID {
            return  // a second pointer: ignored
        }
        if wheelSession != nil {  // a touch stops a wheel scroll
            withWheelSession(into: &events) { session, outputs in session.cancelAll(time: event.time, into: &outputs) }
            wheelSession = nil
        }
        if let session = pointerSession {
            if session.pointerIsDown {  // the owner's up was lost
                withPointerSession(into: &events) { session, outputs in
                    session.cancelAll(time: event.time, into: &outputs)
                }
                pointerSession = nil
            } else if hitTest(event.location) == pointerChain.first {  // the next tap of a multi-tap
                withPointerSession(into: &events) { session, outputs in
                    session.pointerID = event.pointerID
                    session.pointerIsDown = true
                    session.deliver(event, into: &outputs)
                }
                return
            } else {
                withPointerSession(into: &events) { session, outputs in
                    session.resolveWithoutPointer(time: event.time, into: &outputs)
                }
                pointerSession = nil
            }
        }
        guard let hit = hitTest(event.location) else { return }
        let (session, chain) = makeSession(hit: hit, pointerID: event.pointerID, wheel: false)
        guard !session.members.isEmpty else { return }
        pointerSession = session
        pointerChain = chain
        withPointerSession(into: &events) { session, outputs in session.deliver(event, into: &outputs) }
    }

    private mutating func handleOwned(_ event: PointerEvent, into events: inout [GestureEvent<TargetID>]) {
        guard let session = pointerSession, session.pointerIsDown, session.pointerID == event.pointerID else { return }
        withPointerSession(into: &events) { session, outputs in
            switch event.kind {
            case .cancel:
                session.cancelAll(time: event.time, into: &outputs)
            case .up:
                session.pointerIsDown = false
                session.deliver(event, into: &outputs)
                session.sweep(time: event.time, into: &outputs)
            default:
                session.deliver(event, into: &outputs)
            }
        }
        if event.kind == .cancel { pointerSession = nil }
    }

    private mutating func handleWheel(_ event: PointerEvent, into events: inout [GestureEvent<TargetID>]) {
        if let session = pointerSession {
            guard !session.pointerIsDown else { return }  // a touch in progress owns the input
            withPointerSession(into: &events) { session, outputs in  // a multi-tap stops waiting
                session.resolveWithoutPointer(time: event.time, into: &outputs)
            }
            pointerSession = nil
        }
        if wheelSession == nil {
            guard let hit = hitTest(event.location) else { return }
            let (session, chain) = makeSession(hit: hit, pointerID: event.pointerID, wheel: true)
            guard !session.members.isEmpty else { return }
            wheelSession = session
            wheelChain = chain
        }
        withWheelSession(into: &events) { session, outputs in
            session.deliver(event, into: &outputs)
            session.sweep(time: event.time, into: &outputs)
        }
    }

    /// Runs `body` on the pointer session with its storage uniquely referenced (so recognisers mutate in place),
    /// turns its outputs into events, and drops the session once every recogniser has finished.
    private mutating func withPointerSession(
        into events: inout [GestureEvent<TargetID>], _ body: (inout GestureSession, inout [SessionOutput]) -> Void
    ) {
        guard var session = pointerSession else { return }
        pointerSession = nil
        var outputs: [SessionOutput] = []
        body(&session, &outputs)
        Self.append(outputs, chain: pointerChain, to: &events)
        pointerSession = session.isFinished ? nil : session
    }

    /// ``withPointerSession(into:_:)`` for the wheel session.
    private mutating func withWheelSession(
        into events: inout [GestureEvent<TargetID>], _ body: (inout GestureSession, inout [SessionOutput]) -> Void
    ) {
        guard var session = wheelSession else { return }
        wheelSession = nil
        var outputs: [SessionOutput] = []
        body(&session, &outputs)
        Self.append(outputs, chain: wheelChain, to: &events)
        wheelSession = session.isFinished ? nil : session
    }

    private static func append(
        _ outputs: [SessionOutput], chain: [TargetID], to events: inout [GestureEvent<TargetID>]
    ) {
        for output in outputs where chain.indices.contains(output.chainIndex) {
            events.append(
                GestureEvent(
                    target: chain[output.chainIndex], gesture: output.name, phase: output.phase, value: output.value,
                    time: output.time))
        }
    }

    /// A session for the hit target's chain: `.high` gestures outermost first, then `.normal` innermost first,
    /// then `.simultaneous` ones. Returns the chain's ids alongside.
    private func makeSession(hit: TargetID, pointerID: Int, wheel: Bool) -> (GestureSession, [TargetID]) {
        let chain = chain(from: hit)
        var high: [GestureSession.Member] = []
        var normal: [GestureSession.Member] = []
        var simultaneous: [GestureSession.Member] = []
        for (chainIndex, record) in chain.enumerated() {
            var highHere: [GestureSession.Member] = []
            for attachment in record.attachments where !wheel || attachment.gesture.handlesWheel {
                let member = GestureSession.Member(
                    chainIndex: chainIndex, name: attachment.name, recognizer: attachment.gesture.makeRecognizer())
                switch attachment.priority {
                case .high: highHere.append(member)
                case .normal: normal.append(member)
                case .simultaneous: simultaneous.append(member)
                }
            }
            high.insert(contentsOf: highHere, at: 0)  // outer ancestors rank first
        }
        let session = GestureSession(
            pointerID: pointerID, members: high + normal + simultaneous, competitorCount: high.count + normal.count)
        return (session, chain.map(\.target.id))
    }
}
