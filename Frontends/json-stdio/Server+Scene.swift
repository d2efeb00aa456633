import CardEngine
import CardJSON
import CardModels
import CardPersistence
import Foundation

extension Server {
    /// `scene.list` → `{scenes, details, open}`; `details` says what each scene is and whether it takes a deck
    /// (`scene.open`'s `deck`) or a card count (`options.cardCount`).
    func sceneList(_ p: Params) throws(RPCError) -> [OutboundPart] {
        try p.only([])
        var out = JSONOutput()
        out.raw("{\"scenes\":")
        out.strings(configuration.provider.names)
        out.raw(",\"details\":[")
        for (index, descriptor) in configuration.provider.descriptors.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.raw("{\"name\":")
            out.string(descriptor.name)
            out.raw(",\"title\":")
            out.string(descriptor.title)
            out.raw(",\"summary\":")
            out.string(descriptor.summary)
            out.raw(",\"takesDeck\":")
            out.bool(descriptor.takesDeck)
            out.raw(",\"takesCardCount\":")
            out.bool(descriptor.takesCardCount)
            out.byte(UInt8(ascii: "}"))
        }
        out.raw("],\"open\":")
        if let name = driver?.sceneName { out.string(name) } else { out.raw("null") }
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }

    /// `scene.open {scene, deck?, options?: {cardCount?, persistState?}}` → `{scene, title, actions, frame}` (a
    /// full frame). An open scene is closed first. `deck` names a deck in the store.
    ///
    /// In steps: the request is checked whole before anything changes (`SceneOpenRequest`), its deck read
    /// (`openDeck`), a cells session told of the scene (`prepareCells`), the scene opened after the one before has
    /// written its state (`openScene`), started as a host sees it (`beginScene`) and answered (`sceneOpenResult`).
    mutating func sceneOpen(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        let request = try SceneOpenRequest(
            p, names: configuration.provider.names, descriptors: configuration.provider.descriptors)
        let (deck, identity) = try openDeck(request)
        _ = try requireSession()
        let start = try currentTime(now: now)
        let measurer = prepareCells(for: request.scene)
        // The scene open now is written (or kept under another name) before any state is read: reopening the same
        // deck sees its latest state.
        takeRecording()
        settleState(into: &output)
        var opened = try openScene(request, deck: deck, identity: identity, start: start, measurer: measurer)
        reportStateProblem(of: opened, scene: request.scene, into: &output)
        let frame = beginScene(
            &opened.driver, options: SceneOptions(deck: deck, cardCount: request.cardCount), at: start)
        emit(frame, into: &output, notify: false)
        let update = update(frame, forceFull: true)
        if session?.clock == .realtime { scheduleAfterOpen(frame) }
        var out = sceneOpenResult()
        out.raw(",\"frame\":")
        return [.bytes(out.bytes), .frame(update), .bytes([UInt8(ascii: "}")])]
    }

    /// The deck `request` names, from the store or a deck file, and the identity its state is kept under (nil, nil:
    /// the scene's own deck).
    private func openDeck(_ request: SceneOpenRequest) throws(RPCError) -> (Deck?, String?) {
        if let deckName = request.deckName {
            return (try loadDeck(named: deckName).deck, StateKey.stored(name: deckName))
        }
        guard let deckFile = request.deckFile else { return (nil, nil) }
        // A deck file, as `cardistry tui --deck FILE` reads it: its state is keyed by its content, so the same file
        // has the same progress in the terminal UI and in any host.
        switch DeckFile.open(path: deckFile) {
        case .success(let opened):
            return (opened.deck, opened.identity)
        case .failure(let problem):
            let text = problem.description(file: deckFile)
            throw .invalidParams("deckFile", text.hasSuffix("\n") ? String(text.dropLast()) : text)
        }
    }

    /// A cells session gets the terminal UI's scale, viewport and text measurer for scene `name`'s grid; returns
    /// the measurer (nil: a session of node frames, measured by the engine's own).
    private mutating func prepareCells(for name: String) -> (any TextMeasurer)? {
        guard var cells = session?.cells else { return nil }
        cells.open(configuration.provider.descriptors.first { $0.name == name })
        session?.viewport = cells.viewport
        session?.cells = cells
        return cells.measurer
    }

    /// Opens the scene `request` names on `deck` at `start`, in the session's viewport; the scene before it is
    /// closed (its driver dropped) and the session keeps the new scene's state key.
    private mutating func openScene(
        _ request: SceneOpenRequest, deck: Deck?, identity: String?, start: Double,
        measurer: (any TextMeasurer)?
    ) throws(RPCError) -> OpenedScene {
        let viewport = try requireSession().viewport
        let opened: OpenedScene
        var options = SceneOptions(deck: deck, cardCount: request.cardCount, deckIdentity: identity)
        options.reducesMotion = session?.reducesMotion ?? false
        do {
            opened = try configuration.provider.open(
                request.scene, options: options,
                persistState: request.persistState, viewport: viewport,
                startTime: start, textMeasurer: measurer)
        } catch {
            throw Self.rpcError(error)
        }
        driver = nil
        session?.stateKey = opened.stateKey
        return opened
    }

    /// Tells the host (`state.error`) and the log when the opened scene's saved state was not restored, or was
    /// restored only up to a damaged journal record.
    private mutating func reportStateProblem(of opened: OpenedScene, scene: String, into output: inout [Outbound]) {
        let message: String
        if let problem = opened.stateError {
            message = "the saved state of '\(scene)' was not restored (the scene starts fresh): \(problem)"
        } else if let aside = opened.setAside {
            message =
                "the saved state of '\(scene)' had a damaged journal, kept as it was in \(aside); the scene goes on "
                + "from the records before the damage"
        } else {
            return
        }
        logs.append(message)
        output += stateSaveFailed(message)
    }

    /// Starts `driver` as the session's open scene: recording (when configured), the first card focused in a cells
    /// session (as the terminal UI starts), the order at revision 0; returns its first frame.
    private mutating func beginScene(_ driver: inout any SceneDriver, options: SceneOptions, at start: Double) -> Frame
    {
        if configuration.records { driver.startRecording(options: options) }
        if let viewport = session?.viewport, session?.cells != nil, driver.wantsFirstCardFocus(in: viewport) {
            _ = driver.key(KeyInput("tab"), at: start)
        }
        let frame = driver.frame(at: start)
        session?.availableActions = driver.availableActions
        session?.nextTick = nil
        session?.deckRevision = 0
        session?.lastDeckChange = nil
        session?.orderChecksum = driver.deckChecksum
        self.driver = driver
        return frame
    }

    /// The members of `scene.open`'s result before its frame: the scene, its title, its actions with their
    /// arguments, availability and schema, its keys and the deck's order (`orderMember`).
    private mutating func sceneOpenResult() -> JSONOutput {
        var out = JSONOutput(capacity: 512)
        guard let opened = driver else { return out }
        let available = session?.availableActions ?? []
        out.raw("{\"scene\":")
        out.string(opened.sceneName)
        out.raw(",\"title\":")
        out.string(opened.title)
        out.raw(",\"actions\":[")
        for (index, action) in opened.actions.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.raw("{\"name\":")
            out.string(action.name)
            out.raw(",\"summary\":")
            out.string(action.summary)
            out.raw(",\"arguments\":{")
            for (position, argument) in action.arguments.enumerated() {
                if position > 0 { out.byte(UInt8(ascii: ",")) }
                out.string(argument.name)
                out.byte(UInt8(ascii: ":"))
                out.string(argument.summary + (argument.isRequired ? "" : " (optional)"))
            }
            out.raw("},\"available\":")
            out.bool(available.contains(action.name))
            out.raw(",\"schema\":")
            out.value(action.parametersSchema(cardCount: opened.deckCount))
            out.byte(UInt8(ascii: "}"))
        }
        out.raw("],\"keys\":[")
        for (index, key) in opened.keyMap.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.raw("{\"keys\":")
            out.strings(key.names)
            out.raw(",\"label\":")
            out.string(key.keys)
            out.raw(",\"summary\":")
            out.string(key.summary)
            out.byte(UInt8(ascii: "}"))
        }
        out.raw("],")
        orderMember(since: 0, into: &out)
        if session?.accessibility == true {
            let tree = opened.accessibilityTree()
            session?.accessibilityTree = tree
            out.raw(",\"accessibility\":")
            AccessibilityJSON.tree(tree, into: &out)
        }
        return out
    }

    private mutating func scheduleAfterOpen(_ frame: Frame) {
        guard let session else { return }
        self.session?.lastFrameTime = frame.time
        if frame.isAnimating {
            self.session?.nextTick = frame.time + 1 / session.fps
        } else if let wake = driver?.nextWakeTime() {
            self.session?.nextTick = wake
        }
    }

    /// `scene.close` → `{closed}`.
    mutating func sceneClose(_ p: Params, into output: inout [Outbound]) throws(RPCError) -> [OutboundPart] {
        try p.only([])
        takeRecording()
        settleState(into: &output)
        let closed = try takeDriver()
        session?.nextTick = nil
        session?.stateKey = nil
        session?.accessibilityTree = nil
        var out = JSONOutput()
        out.raw("{\"closed\":")
        out.string(closed.sceneName)
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }

    /// `scene.frame` → `{frame}`: the whole frame at the current time (events go out first as notifications).
    mutating func sceneFrame(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only([])
        let time = try currentTime(now: now)
        var taken = try takeDriver()
        let frame = taken.frame(at: time)
        driver = taken
        emit(frame, into: &output, notify: false)
        return framed(update(frame, forceFull: true))
    }

    /// `{"frame": <frame>}`.
    func framed(_ frame: FrameUpdate) -> [OutboundPart] {
        [.bytes(Array("{\"frame\":".utf8)), .frame(frame), .bytes([UInt8(ascii: "}")])]
    }

    /// `scene.action {name, t?, ...arguments}` → `{t, order?}`: `order` (revision, checksum, diff) when the action
    /// changed the deck's order. Arguments are numbers, strings or booleans.
    mutating func sceneAction(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        let name = try p.requiredString("name")
        var arguments: [String: ActionValue] = [:]
        for member in p.allMembers where member.key != "name" && member.key != "t" {
            switch member.value {
            case .string(let text): arguments[member.key] = .string(text)
            case .bool(let flag): arguments[member.key] = .bool(flag)
            case .number(let text):
                guard let number = Double(text), number.isFinite else {
                    throw .invalidParams(member.key, "must be a finite number")
                }
                arguments[member.key] = .number(number)
            default: throw .invalidParams(member.key, "must be a number, a string or a boolean")
            }
        }
        let time = try actionTime(p, now: now)
        let action = SceneAction(name, arguments)
        let before = deckRevision
        try changeScene(at: time, into: &output) { (driver) throws(SceneError) in
            try driver.perform(action, at: time)
        }
        return actionResult(since: before, at: time)
    }

    /// When an action request (`scene.action`, `a11y.action`) happens: its `t` (always in realtime), else the
    /// session's current time. −32012 without an open scene.
    mutating func actionTime(_ p: Params, now: Double) throws(RPCError) -> Double {
        _ = try requireDriver()
        if p.has("t") || session?.clock == .realtime { return try inputTime(p, now: now) }
        return try currentTime(now: now)
    }

    /// `{t, order?}`: the result of an action, with `order` when it changed the deck since revision `before`.
    mutating func actionResult(since before: Int, at time: Double) -> [OutboundPart] {
        guard deckRevision != before else { return timeResult(time) }
        var out = JSONOutput()
        out.raw("{\"t\":")
        out.number(time)
        out.byte(UInt8(ascii: ","))
        orderMember(since: before, into: &out)
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }

    /// `{"t": time}`.
    func timeResult(_ time: Double) -> [OutboundPart] {
        var out = JSONOutput()
        out.raw("{\"t\":")
        out.number(time)
        out.byte(UInt8(ascii: "}"))
        return [.bytes(out.bytes)]
    }
}
