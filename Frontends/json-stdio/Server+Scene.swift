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
    mutating func sceneOpen(_ p: Params, now: Double, into output: inout [Outbound]) throws(RPCError)
        -> [OutboundPart]
    {
        try p.only(["scene", "deck", "deckFile", "options"])
        let name = try p.requiredString("scene")
        // Every field's type and range before anything the state decides (an unknown scene is −32010).
        let deckName = try p.string("deck")
        let deckFile = try p.string("deckFile")
        if deckName != nil && deckFile != nil {
            throw .invalidParams("deckFile", "cannot be given together with 'deck'")
        }
        var cardCount: Int?
        var persistState = false
        if let options = try p.object("options") {
            try options.only(["cardCount", "persistState"])
            persistState = try options.bool("persistState") ?? false
            cardCount = try options.int("cardCount")
            if let count = cardCount, count < 0 || count > 1_000_000 {
                throw .invalidParams("options.cardCount", "must be in 0…1000000")
            }
        }
        guard configuration.provider.names.contains(name) else {
            throw RPCError(
                code: RPCError.unknownSceneCode,
                message: "unknown scene '\(name)'; scenes: " + configuration.provider.names.joined(separator: ", "))
        }
        let descriptors = configuration.provider.descriptors
        if let descriptor = descriptors.first(where: { $0.name == name }) {
            let takers = { (taking: (SceneDescriptor) -> Bool) in
                descriptors.filter(taking).map(\.name).joined(separator: ", ")
            }
            if cardCount != nil && !descriptor.takesCardCount {
                throw .invalidParams(
                    "options.cardCount",
                    "is not taken by the scene '\(name)' (scenes that take one: \(takers(\.takesCardCount)))")
            }
            if p.has("deck") && !descriptor.takesDeck {
                throw .invalidParams(
                    "deck", "is not taken by the scene '\(name)' (scenes that take one: \(takers(\.takesDeck)))")
            }
            if deckFile != nil && !descriptor.takesDeck {
                throw .invalidParams(
                    "deckFile", "is not taken by the scene '\(name)' (scenes that take one: \(takers(\.takesDeck)))")
            }
        }
        var deck: Deck?
        var identity: String?
        if let deckName {
            deck = try loadDeck(named: deckName).deck
            identity = StateKey.stored(name: deckName)
        }
        if let deckFile {
            // A deck file, as `cardistry tui --deck FILE` reads it: its state is keyed by its content, so the same
            // file has the same progress in the terminal UI and in any host.
            switch DeckFile.open(path: deckFile) {
            case .success(let opened):
                deck = opened.deck
                identity = opened.identity
            case .failure(let problem):
                let text = problem.description(file: deckFile)
                throw .invalidParams("deckFile", text.hasSuffix("\n") ? String(text.dropLast()) : text)
            }
        }
        var session = try requireSession()
        let start = try currentTime(now: now)
        // A cells session: the scene gets the terminal UI's scale, viewport and text measurer for the grid.
        var measurer: (any TextMeasurer)?
        if var cells = session.cells {
            cells.open(descriptors.first { $0.name == name })
            measurer = cells.measurer
            session.viewport = cells.viewport
            self.session?.viewport = cells.viewport
            self.session?.cells = cells
        }
        // The scene open now is written (or kept under another name) before any state is read: reopening the same
        // deck sees its latest state.
        takeRecording()
        settleState(into: &output)
        var opened: any SceneDriver
        let openedScene: OpenedScene
        do {
            openedScene = try configuration.provider.open(
                name, options: SceneOptions(deck: deck, cardCount: cardCount, deckIdentity: identity),
                persistState: persistState, viewport: session.viewport, startTime: start, textMeasurer: measurer)
        } catch {
            throw Self.rpcError(error)
        }
        opened = openedScene.driver
        driver = nil
        self.session?.stateKey = openedScene.stateKey
        if let problem = openedScene.stateError {
            let message = "the saved state of '\(name)' was not restored (the scene starts fresh): \(problem)"
            logs.append(message)
            output += stateSaveFailed(message)
        } else if let aside = openedScene.setAside {
            let message =
                "the saved state of '\(name)' had a damaged journal, kept as it was in \(aside); the scene goes on "
                + "from the records before the damage"
            logs.append(message)
            output += stateSaveFailed(message)
        }
        if configuration.records { opened.startRecording(options: SceneOptions(deck: deck, cardCount: cardCount)) }
        // A cells session starts as the terminal UI does: keyboard focus on the first card.
        if session.cells != nil && opened.wantsFirstCardFocus(in: session.viewport) {
            _ = opened.key(KeyInput("tab"), at: start)
        }
        let frame = opened.frame(at: start)
        let sceneName = opened.sceneName
        let title = opened.title
        let actions = opened.actions
        let deckCount = opened.deckCount
        let available = opened.availableActions
        let keys = opened.keyMap
        // The order starts over at revision 0.
        let checksum = opened.deckChecksum
        driver = opened
        self.session?.availableActions = available
        self.session?.nextTick = nil
        self.session?.deckRevision = 0
        self.session?.lastDeckChange = nil
        self.session?.orderChecksum = checksum
        emit(frame, into: &output, notify: false)
        let update = update(frame, forceFull: true)
        if session.clock == .realtime { scheduleAfterOpen(frame) }
        var out = JSONOutput(capacity: 512)
        out.raw("{\"scene\":")
        out.string(sceneName)
        out.raw(",\"title\":")
        out.string(title)
        out.raw(",\"actions\":[")
        for (index, action) in actions.enumerated() {
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
            out.value(action.parametersSchema(cardCount: deckCount))
            out.byte(UInt8(ascii: "}"))
        }
        out.raw("],\"keys\":[")
        for (index, key) in keys.enumerated() {
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
        out.raw(",\"frame\":")
        return [.bytes(out.bytes), .frame(update), .bytes([UInt8(ascii: "}")])]
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
        _ = try requireDriver()
        let time: Double
        if p.has("t") || session?.clock == .realtime {
            time = try inputTime(p, now: now)
        } else {
            time = try currentTime(now: now)
        }
        let action = SceneAction(name, arguments)
        let before = deckRevision
        try changeScene(at: time, into: &output) { (driver) throws(SceneError) in
            try driver.perform(action, at: time)
        }
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
