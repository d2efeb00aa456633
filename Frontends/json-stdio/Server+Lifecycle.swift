import CardCells
import CardEngine
import CardGeometry
import CardJSON

extension Server {
    /// `initialize`: validates the options, then answers with the server's version, scenes and capabilities.
    mutating func initialize(_ p: Params, now: Double) throws(RPCError) -> [OutboundPart] {
        try p.only([
            "protocolVersion", "clientInfo", "viewport", "clock", "frames", "fps", "deckOrder", "cells",
            "accessibility", "reduceMotion",
        ])
        try Self.negotiate(try p.requiredString("protocolVersion"))
        if let client = try p.object("clientInfo") {
            try client.only(["name", "version"])
            _ = try client.requiredString("name")
            _ = try client.string("version")
        }
        if try p.string("frames") == "cells" && !p.has("cells") {
            throw .invalidParams("cells", "is required with frames \"cells\" (an object {cols, rows, colors?, ascii?})")
        }
        // Without a `cells` member only frames of nodes can be had, and the error names those (as before cells).
        let frames = try p.choice("frames", p.has("cells") ? ["full", "delta", "cells"] : ["full", "delta"]) ?? "full"
        let cells = try Self.cellsOptions(p, frames: frames)
        let width: Double
        let height: Double
        if let cells {
            guard !p.has("viewport") else {
                throw .invalidParams(
                    "viewport", "must be absent with frames \"cells\" (cells.cols and cells.rows set it)")
            }
            width = cells.viewport.width
            height = cells.viewport.height
        } else {
            let viewport = try p.requiredObject("viewport")
            try viewport.only(["width", "height"])
            width = try viewport.requiredNumber("width")
            height = try viewport.requiredNumber("height")
            guard width > 0, width <= 100_000 else {
                throw .invalidParams("viewport.width", "must be in 0 < width ≤ 100000")
            }
            guard height > 0, height <= 100_000 else {
                throw .invalidParams("viewport.height", "must be in 0 < height ≤ 100000")
            }
        }
        let clock = try p.choice("clock", ["host", "realtime"]).flatMap(Session.Clock.init(rawValue:)) ?? .host
        let fps = try p.number("fps") ?? 60
        guard fps >= 1, fps <= 240 else { throw .invalidParams("fps", "must be in 1…240") }
        let deckOrder = try p.choice("deckOrder", ["diff", "full"]) ?? "diff"
        let accessibility = try p.bool("accessibility") ?? false
        let reducesMotion = try p.bool("reduceMotion") ?? false
        session = Session(
            clock: clock, deltas: frames != "full", fps: fps, viewport: Size(width: width, height: height),
            origin: now)
        session?.wholeOrders = deckOrder == "full"
        session?.cells = cells
        session?.accessibility = accessibility
        session?.reducesMotion = reducesMotion
        phase = .running
        var out = JSONOutput(capacity: 1024)
        out.raw("{\"protocolVersion\":")
        out.string(Self.protocolVersion)
        out.raw(",\"serverInfo\":{\"name\":")
        out.string(configuration.serverName)
        out.raw(",\"version\":")
        out.string(configuration.serverVersion)
        out.raw("},\"scenes\":")
        out.strings(configuration.provider.names)
        out.raw(",\"capabilities\":{\"clock\":")
        out.string(clock.rawValue)
        out.raw(",\"frames\":")
        out.string(frames)
        if let cells {
            out.raw(",\"cells\":{\"cols\":")
            out.integer(cells.columns)
            out.raw(",\"rows\":")
            out.integer(cells.rows)
            out.raw(",\"colors\":")
            out.string(Self.colorNames.first { $0.depth == cells.depth }?.name ?? "truecolor")
            out.raw(",\"ascii\":")
            out.bool(cells.ascii)
            out.byte(UInt8(ascii: "}"))
        }
        out.raw(",\"fps\":")
        out.number(fps)
        out.raw(",\"deckOrder\":")
        out.string(deckOrder)
        out.raw(",\"batches\":true,\"maxLineBytes\":")
        out.integer(configuration.maxLineBytes)
        out.raw(",\"store\":")
        out.bool(configuration.store != nil)
        if accessibility { out.raw(",\"accessibility\":true") }
        if reducesMotion { out.raw(",\"reduceMotion\":true") }
        out.raw(",\"methods\":")
        out.strings(accessibility ? Self.methods + [Self.accessibilityMethod] : Self.methods)
        out.raw(",\"notifications\":")
        out.strings(accessibility ? Self.notifications + [Self.accessibilityNotification] : Self.notifications)
        out.raw(",\"icons\":{")
        for (index, icon) in Symbols.all.enumerated() {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            out.string(icon.name)
            out.byte(UInt8(ascii: ":"))
            out.string(icon.fallback)
        }
        out.raw("}}}")
        return [.bytes(out.bytes)]
    }

    /// The names of `cells.colors`, with the depth each stands for.
    static let colorNames: [(name: String, depth: ColorDepth)] = [
        ("truecolor", .trueColor), ("256", .palette256), ("16", .basic16), ("none", .none),
    ]

    /// `initialize`'s `cells {cols, rows, colors?, ascii?}`: required with `frames: "cells"`, refused without it.
    static func cellsOptions(_ p: Params, frames: String) throws(RPCError) -> CellsSession? {
        guard frames == "cells" else {
            if p.has("cells") { throw .invalidParams("cells", "is taken only with frames \"cells\"") }
            return nil
        }
        guard let cells = try p.object("cells") else {
            throw .invalidParams("cells", "is required with frames \"cells\" (an object {cols, rows, colors?, ascii?})")
        }
        try cells.only(["cols", "rows", "colors", "ascii"])
        let columns = try Self.gridSide(cells, "cols")
        let rows = try Self.gridSide(cells, "rows")
        let colors = try cells.choice("colors", colorNames.map(\.name)) ?? "truecolor"
        let depth = colorNames.first { $0.name == colors }?.depth ?? .trueColor
        return CellsSession(columns: columns, rows: rows, depth: depth, ascii: try cells.bool("ascii") ?? false)
    }

    /// A grid size (`cols`, `rows`): a whole number in 1…`CellsSession.maximumSide`.
    static func gridSide(_ p: Params, _ key: String) throws(RPCError) -> Int {
        let value = try p.requiredInt(key)
        guard value >= 1, value <= CellsSession.maximumSide else {
            throw .invalidParams(p.name(key), "must be a whole number in 1…\(CellsSession.maximumSide)")
        }
        return value
    }

    /// The negotiation rule: a host asking for any `1.x` (or `1`) gets this server's `1.0` (minor versions only
    /// add); another major version, or a version that is neither `MAJOR` nor `MAJOR.MINOR`, is −32602 naming the
    /// version this server speaks.
    static func negotiate(_ requested: String) throws(RPCError) {
        let parts = requested.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else {
            throw .invalidParams(
                "protocolVersion", "must be \"MAJOR\" or \"MAJOR.MINOR\"; this server speaks \(protocolVersion)")
        }
        guard parts[0] == protocolVersion.split(separator: ".")[0] else {
            throw .invalidParams(
                "protocolVersion",
                "'\(requested)' is not supported; this server speaks \(protocolVersion) (any 1.x is accepted)")
        }
    }

    /// The latest time a host may send, in seconds (about 31.7 years of session time): a time beyond it is almost
    /// always milliseconds or an epoch time sent by mistake, and would leave the clock where no later input fits.
    static let maximumTime = 1e9

    /// A time member (`t`, `to`): a finite number in 0…`maximumTime`, else −32602 naming it.
    func time(_ p: Params, _ key: String) throws(RPCError) -> Double? {
        guard let value = try p.number(key) else { return nil }
        guard value >= 0, value <= Self.maximumTime else {
            throw .invalidParams(
                p.name(key),
                "must be in 0…1000000000 (seconds since the session started; milliseconds sent by mistake?)")
        }
        return value
    }

    /// The running session (`initialize` guarantees one while running).
    func requireSession() throws(RPCError) -> Session {
        guard let session else {
            throw RPCError(code: RPCError.internalErrorCode, message: "internal error: no session")
        }
        return session
    }

    /// The open scene, or −32012 when none is open.
    func requireDriver() throws(RPCError) -> any SceneDriver {
        _ = try requireSession()
        guard let driver else { throw Self.noScene }
        return driver
    }

    static let noScene = RPCError.invalidState("no scene is open: send 'scene.open' first")

    /// Takes the open scene out of the server for a change; the caller puts it back in `driver`.
    mutating func takeDriver() throws(RPCError) -> any SceneDriver {
        _ = try requireSession()
        guard let current = driver else { throw Self.noScene }
        driver = nil
        return current
    }

    /// The session time of an input: host clock: `t` (an earlier time than the clock is taken as the clock's
    /// time; without `t`, the clock's time, as the schema and `scene.action` have it); realtime: the monotonic
    /// clock (`t` is optional and ignored).
    mutating func inputTime(_ p: Params, now: Double) throws(RPCError) -> Double {
        let session = try requireSession()
        switch session.clock {
        case .host:
            let time = max(try time(p, "t") ?? session.clockTime, session.clockTime)
            self.session?.clockTime = time
            return time
        case .realtime:
            _ = try time(p, "t")
            let time = session.sessionTime(now: now)
            self.session?.clockTime = time
            return time
        }
    }

    /// The session's current time without input: the host clock, or the monotonic clock in realtime.
    mutating func currentTime(now: Double) throws(RPCError) -> Double {
        let session = try requireSession()
        let time = session.clock == .host ? session.clockTime : session.sessionTime(now: now)
        self.session?.clockTime = time
        return time
    }

    /// Runs `change` on the open scene, then reports what it caused: the engine events as notifications, and in
    /// realtime mode a `frame` notification and the streaming schedule.
    mutating func changeScene(
        at time: Double, into output: inout [Outbound],
        _ change: (inout any SceneDriver) throws(SceneError) -> Void
    ) throws(RPCError) {
        var taken = try takeDriver()
        do {
            try change(&taken)
        } catch {
            driver = taken
            throw Self.rpcError(error)
        }
        let available = taken.availableActions
        if session?.clock == .realtime {
            let frame = taken.frame(at: time)
            driver = taken
            emit(frame, into: &output, notify: true)
        } else {
            // The host clock sends frames only on request: take the input's events without sampling the nodes.
            let events = taken.takeEvents(at: time)
            driver = taken
            for event in events { output.append(eventMessage(event)) }
            session?.cells?.note(events)
        }
        announce(available, at: time, into: &output)
        announceAccessibility(at: time, into: &output)
    }

    /// `actions.changed {seq, t, available}` when the set of available actions differs from the last one the host
    /// was told (in `scene.open` or an earlier notification).
    mutating func announce(_ available: [String], at time: Double, into output: inout [Outbound]) {
        guard let session, session.availableActions != available else { return }
        self.session?.availableActions = available
        let seq = nextSeq()
        output.append(
            .message(
                Messages.notification("actions.changed") { out in
                    out.key("seq")
                    out.integer(seq)
                    out.nextKey("t")
                    out.number(time)
                    out.nextKey("available")
                    out.strings(available)
                }))
    }

    /// Writes the frame's events as notifications, and (realtime) the frame itself; schedules the next tick.
    mutating func emit(_ frame: Frame, into output: inout [Outbound], notify: Bool) {
        for event in frame.events {
            output.append(eventMessage(event))
        }
        session?.cells?.note(frame.events)
        guard notify, let session else { return }
        output.append(.frameNotification(update(frame, forceFull: false)))
        self.session?.lastFrameTime = frame.time
        scheduleTick(after: frame, session: session)
    }

    private mutating func scheduleTick(after frame: Frame, session: Session) {
        let interval = 1 / session.fps
        if frame.isAnimating {
            self.session?.nextTick = frame.time + interval
        } else if let wake = driver?.nextWakeTime() {
            self.session?.nextTick = max(wake, frame.time + interval)
        } else {
            self.session?.nextTick = nil
        }
    }

    /// The frame as the host gets it: its nodes, or in a cells session the grid drawn from them (`CellsSession`).
    mutating func update(_ frame: Frame, forceFull: Bool) -> FrameUpdate {
        guard var cells = session?.cells else {
            return FrameUpdate(seq: nextSeq(), frame: frame, forceFull: forceFull, deltaMode: session?.deltas ?? false)
        }
        session?.cells = nil  // drawn outside the session, so that its lastFrame is not copied
        var update = FrameUpdate(
            seq: nextSeq(),
            frame: Frame(
                time: frame.time, viewport: frame.viewport, nodes: [], events: [],
                isAnimating: frame.isAnimating), forceFull: forceFull, deltaMode: true)
        update.cells = cells.draw(frame)
        update.cellScale = cells.scale
        session?.cells = cells
        return update
    }

    /// Realtime: when the next frame is due, in the transport's `now` units; nil when idle (or host clock).
    public var nextTickTime: Double? {
        guard phase == .running, let session, session.clock == .realtime, driver != nil,
            let tick = session.nextTick
        else { return nil }
        return tick + session.origin
    }

    /// Realtime: streams the frame due at `now` (and its events); nothing when none is due.
    public mutating func tick(now: Double) -> [Outbound] {
        guard let due = nextTickTime, now >= due, let time = try? currentTime(now: now),
            var taken = try? takeDriver()
        else { return [] }
        let frame = taken.frame(at: time)
        let available = taken.availableActions
        driver = taken
        var output: [Outbound] = []
        emit(frame, into: &output, notify: true)
        announce(available, at: time, into: &output)
        announceAccessibility(at: time, into: &output)
        takeRecording()
        saveState()
        return output
    }

    /// Maps a scene's refusal to the protocol's codes.
    static func rpcError(_ error: SceneError) -> RPCError {
        switch error {
        case .unknownAction(let name): .invalidParams("name", "names no action of this scene: '\(name)'")
        case .invalidArgument(let action, let argument, let reason):
            .invalidParams(argument, "\(reason) (action '\(action)')")
        case .unknownCard(let id):
            RPCError(code: RPCError.unknownCardCode, message: "unknown card: no card with id \(id)")
        case .invalidState(let reason): .invalidState(reason)
        }
    }
}
