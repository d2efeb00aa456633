import CardEngine
import CardJSON
import CardPersistence

#if canImport(Glibc)
    import Glibc
#endif

/// The JSON-RPC 2.0 server of `cardistry stdio`, as a pure state machine: each event (a line, the end of the
/// input, a realtime tick) is a `mutating` function that returns the messages to write, in order.
///
/// It reads no clock and does no I/O of its own: the transport passes `now` (monotonic seconds) and writes what it
/// returns. Storage goes through its injected dependencies: decks are read and written through the `DeckStore`
/// (`Configuration.store`; `deck.list`, `deck.load`, `deck.save`) and saved states read through the provider and
/// `StateSaver.load` (`scene.open` with `persistState`), synchronously on the serving thread, so with a
/// `JSONFileStore` those requests touch the disk while the server handles them; scene state changes go to the
/// injected `StateSaver`, whose own thread writes them.
/// Lifecycle: `uninitialized` → (`initialize`) → `running` → (`shutdown`) → `shuttingDown` → (`exit`) → `exited`.
public struct Server: Sendable {
    /// The lifecycle states.
    public enum Phase: Sendable, Hashable {
        case uninitialized
        case running
        case shuttingDown
        case exited
    }

    /// What the server is built with.
    public struct Configuration: Sendable {
        public var provider: any SceneProvider
        /// Where `deck.save` and `deck.load` go; nil disables them (store error).
        public var store: (any DeckStore)?
        public var serverName: String
        public var serverVersion: String
        /// The longest line accepted, in bytes (without the newline).
        public var maxLineBytes: Int
        /// Record every scene's session into `Server.recorded` (`cardistry stdio --record FILE`).
        public var records = false
        /// Writes the open scene's state (`persistState`) behind the interaction; the provider reads states
        /// through it too. nil: states are not saved.
        public var saver: StateSaver?
        /// Loads the descriptions `scene.define` sends (injected by the command line); nil: the server refuses them.
        public var definer: SceneDefiner?

        public init(
            provider: any SceneProvider, store: (any DeckStore)?, serverName: String = "cardistry",
            serverVersion: String, maxLineBytes: Int = Server.defaultMaxLineBytes, saver: StateSaver? = nil
        ) {
            self.provider = provider
            self.store = store
            self.saver = saver
            self.serverName = serverName
            self.serverVersion = serverVersion
            self.maxLineBytes = maxLineBytes
        }
    }

    /// The protocol version this server speaks.
    public static let protocolVersion = "1.0"
    /// 8 MiB: lines longer than this are discarded and answered with −32700.
    public static let defaultMaxLineBytes = 8 << 20

    /// The configuration; its provider grows when a host defines a scene (`scene.define`).
    var configuration: Configuration
    /// The names of the scenes hosts defined in this session (`scene.define` replaces only these).
    var definedScenes: Set<String> = []
    public internal(set) var phase: Phase = .uninitialized
    var session: Session?
    /// The open scene. Kept apart from `session` and taken out while it changes (`takeDriver`), so no second
    /// reference makes a mutation copy the engine's storage (its input log grows with every event).
    var driver: (any SceneDriver)?
    /// The last notification sequence number used.
    var seq = 0
    /// Log lines for standard error, drained by the transport.
    public var logs: [String] = []
    /// With `Configuration.records`: the session record's lines not yet written (a header per scene opened, then
    /// its inputs and frames; `Engine.startRecording`), drained by the transport after every event.
    public var recorded: [UInt8] = []
    /// How many states this session kept under another name after another session wrote them.
    var conflictCopies = 0

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// The exit status once `exit` arrived: 0 after `shutdown`, 1 without it (the Language Server Protocol's rule).
    public var exitStatus: Int32? {
        guard phase == .exited else { return nil }
        return exitedAfterShutdown ? 0 : 1
    }
    var exitedAfterShutdown = false

    // MARK: Events

    /// One line of input (without its line ending). Blank lines produce nothing.
    public mutating func receive(line: [UInt8], now: Double) -> [Outbound] {
        guard phase != .exited else { return [] }
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return [] }
        var output: [Outbound] = []
        let message: JSONValue
        do {
            message = try JSONValue(parsing: line, maxDepth: 64)
        } catch {
            output.append(.message(Messages.error(id: Self.salvageID(line), .parse(error.description))))
            return output
        }
        if case .array(let elements) = message {
            guard !elements.isEmpty else {
                output.append(.message(Messages.error(id: nil, .invalidRequest("an empty batch"))))
                return output
            }
            var replies: [[OutboundPart]] = []
            for element in elements {
                if let reply = handle(element, now: now, into: &output) { replies.append(reply) }
            }
            guard !replies.isEmpty else { return output }
            var parts: [OutboundPart] = [.bytes([UInt8(ascii: "[")])]
            for (index, reply) in replies.enumerated() {
                if index > 0 { parts.append(.bytes([UInt8(ascii: ",")])) }
                parts.append(contentsOf: reply)
            }
            parts.append(.bytes([UInt8(ascii: "]")]))
            output.append(Outbound(parts: parts))
        } else if let reply = handle(message, now: now, into: &output) {
            output.append(Outbound(parts: reply))
        }
        takeRecording()
        saveState()
        return output
    }

    /// A line longer than the cap was discarded: −32700 with a null id (the id could not be read).
    public mutating func receiveOversizedLine(length: Int) -> [Outbound] {
        guard phase != .exited else { return [] }
        let error = RPCError.parse("line of \(length) bytes exceeds the limit of \(configuration.maxLineBytes) bytes")
        return [.message(Messages.error(id: nil, error))]
    }

    /// The id of a line that is not valid JSON, when it is certainly the request's own: the line starts an object
    /// (not a batch) whose top-level members, read in order up to `"id"`, are well formed, and the id is a plain
    /// number or string; nil otherwise (an `"id"` nested in `params`, a broken batch, a damaged member before it).
    /// O(bytes read).
    static func salvageID(_ line: [UInt8]) -> JSONValue? {
        var reader = TopLevelReader(bytes: line)
        reader.skipSpace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        while true {
            reader.skipSpace()
            guard let key = reader.string() else { return nil }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ":")) else { return nil }
            reader.skipSpace()
            let start = reader.index
            guard reader.skipValue() else { return nil }
            // Every member before `"id"` must be well formed JSON (`"a":NaN` is not): a line damaged before its id
            // may not be the request it seems to be.
            guard let value = try? JSONValue(parsing: line[start..<reader.index], maxDepth: 64) else { return nil }
            if key == Array("id".utf8) {
                switch value {
                case .string: return value
                // A number a host would read as infinity (`1e999`, 400 digits) is never echoed: every line the
                // server writes is strict JSON.
                case .number(let text): return Double(text)?.isFinite == true ? value : nil
                default: return nil
                }
            }
            reader.skipSpace()
            guard reader.take(UInt8(ascii: ",")) else { return nil }
        }
    }

    /// Reads the top level of a possibly broken JSON object: strings, and values skipped by their brackets.
    private struct TopLevelReader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string's raw bytes between its quotes (escapes kept), or nil when it does not close.
        mutating func string() -> [UInt8]? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return Array(bytes[start..<(index - 1)])
                default: index += 1
                }
            }
            return nil
        }

        /// Skips one value (a string, a bracketed value with the strings in it, or a bare word); false when it
        /// does not end within the line.
        mutating func skipValue() -> Bool {
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return true
                        }
                    default: break
                    }
                    index += 1
                }
                return false
            default:
                let start = index
                while index < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index])
                {
                    index += 1
                }
                return index > start && index < bytes.count
            }
        }
    }

    /// One request or notification (a batch element or a whole line); returns the response, or nil for a
    /// notification. Notifications the request causes go to `output` first.
    mutating func handle(_ message: JSONValue, now: Double, into output: inout [Outbound]) -> [OutboundPart]? {
        guard case .object(let members) = message else {
            return [.bytes(Messages.error(id: nil, .invalidRequest("a request must be an object")))]
        }
        var id: JSONValue?
        var method: JSONValue?
        var params: JSONValue?
        var version: JSONValue?
        var unknown: String?
        for member in members {
            switch member.key {
            case "id": id = member.value
            case "method": method = member.value
            case "params": params = member.value
            case "jsonrpc": version = member.value
            default: unknown = unknown ?? member.key
            }
        }
        if let readable = id {
            switch readable {
            case .string, .null: break
            case .number(let text):
                // A number a host would decode as infinity (`1e999`) is not echoed back.
                guard let number = Double(text), number.isFinite else {
                    return [.bytes(Messages.error(id: nil, .invalidRequest("'id' must be a finite number")))]
                }
            default:
                return [.bytes(Messages.error(id: nil, .invalidRequest("'id' must be a string, a number or null")))]
            }
        }
        let isNotification = id == nil
        func fail(_ error: RPCError) -> [OutboundPart]? {
            if isNotification {
                logs.append("notification dropped: \(error.message)")
                return nil
            }
            return [.bytes(Messages.error(id: id, error))]
        }
        // A response-shaped object (`result` or `error`, no `method`) is not a request: this server sends no
        // requests, so nothing can be answered by one. It is answered, with its id or `null`, whatever its
        // `jsonrpc`, so that a confused host hears of it.
        if method == nil && (members.contains { $0.key == "result" || $0.key == "error" }) {
            return [
                .bytes(Messages.error(id: id, .invalidRequest("a response object, but this server sends no requests")))
            ]
        }
        guard version == .string("2.0") else {
            return fail(.invalidRequest("'jsonrpc' must be \"2.0\""))
        }
        guard case .string(let name)? = method else {
            return fail(.invalidRequest(method == nil ? "'method' is required" : "'method' must be a string"))
        }
        if let unknown { return fail(.invalidRequest("unknown member '\(unknown)'")) }
        if let params {
            switch params {
            case .object, .array: break
            default: return fail(.invalidRequest("'params' must be an object or an array"))
            }
        }
        do {
            let result = try dispatch(name, params: params, isNotification: isNotification, now: now, into: &output)
            guard let id else { return nil }
            var prefix = Messages.responsePrefix(id: id)
            var parts: [OutboundPart] = []
            for part in result {
                switch part {
                case .bytes(let bytes):
                    prefix.rawBytes(bytes)
                case .frame:
                    parts.append(.bytes(prefix.bytes))
                    parts.append(part)
                    prefix = JSONOutput()
                }
            }
            prefix.byte(UInt8(ascii: "}"))
            parts.append(.bytes(prefix.bytes))
            return parts
        } catch {
            return fail(error)
        }
    }

    /// Routes a method by name and lifecycle state; returns the result's parts.
    mutating func dispatch(
        _ method: String, params: JSONValue?, isNotification: Bool, now: Double, into output: inout [Outbound]
    ) throws(RPCError) -> [OutboundPart] {
        switch phase {
        case .uninitialized:
            if method == "initialize" { return try initialize(try Params(params), now: now) }
            if method == "exit" { return try exit(params) }
            guard Self.methods.contains(method) else { throw .methodNotFound(method) }
            throw RPCError(
                code: RPCError.notInitializedCode, message: "the server is not initialised: send 'initialize' first")
        case .shuttingDown:
            // After `shutdown` every request but `exit` is refused alike, known method or not.
            if method == "exit" { return try exit(params) }
            throw .invalidState("the server is shutting down: only 'exit' is accepted")
        case .exited:
            throw .invalidState("the server has exited")
        case .running:
            break
        }
        // JSON-RPC's order: an unknown method is −32601 whatever its params (docs/protocol.md, "Which error wins").
        // `a11y.action` is a method only of a session that asked for accessibility: for any other it does not exist.
        guard Self.methods.contains(method) || (method == Self.accessibilityMethod && session?.accessibility == true)
        else { throw .methodNotFound(method) }
        let p = try Params(params)
        switch method {
        case "initialize": throw .invalidState("'initialize' was already received")
        case "shutdown":
            try p.only([])
            phase = .shuttingDown
            session?.nextTick = nil
            takeRecording()
            saveState()
            driver = nil
            // An empty object, not null: MCP and LSP client libraries accept it, and some reject a null result.
            return [.bytes(Array("{}".utf8))]
        case "exit": return try exit(params)
        case "scene.list": return try sceneList(p)
        case "scene.open": return try sceneOpen(p, now: now, into: &output)
        case "scene.define": return try sceneDefine(p)
        case "scene.close": return try sceneClose(p, into: &output)
        case "scene.frame": return try sceneFrame(p, now: now, into: &output)
        case "scene.action": return try sceneAction(p, now: now, into: &output)
        case "input.pointer": return try inputPointer(p, now: now, into: &output)
        case "input.wheel": return try inputWheel(p, now: now, into: &output)
        case "input.key": return try inputKey(p, now: now, into: &output)
        case "viewport.resize": return try viewportResize(p, now: now, into: &output)
        case "clock.advance": return try clockAdvance(p, now: now, into: &output)
        case "deck.list": return try deckList(p)
        case "deck.get": return try deckGet(p)
        case "deck.move": return try deckMove(p, now: now, into: &output)
        case "deck.sort": return try deckSort(p, now: now, into: &output)
        case "deck.diff": return try deckDiff(p)
        case "deck.save": return try deckSave(p)
        case "deck.load": return try deckLoad(p, now: now, into: &output)
        case Self.accessibilityMethod: return try accessibilityAction(p, now: now, into: &output)
        default: throw .methodNotFound(method)
        }
    }

    /// Every method the server knows (for −32601 versus −32002 before `initialize`, and for `capabilities`).
    static let methods: [String] = [
        "initialize", "shutdown", "exit", "scene.list", "scene.open", "scene.close", "scene.frame", "scene.action",
        "input.pointer", "input.wheel", "input.key", "viewport.resize", "clock.advance", "deck.list", "deck.get",
        "deck.move", "deck.sort", "deck.diff", "deck.save", "deck.load", "scene.define",
    ]

    /// The notifications the server sends.
    static let notifications: [String] = [
        "frame", "gesture", "haptic", "deck.changed", "actions.changed", "state.error", "state.conflict", "state.saved",
    ]

    /// `exit {}`: ends the session (its params are checked like any method's: only an empty object or none).
    private mutating func exit(_ params: JSONValue?) throws(RPCError) -> [OutboundPart] {
        try Params(params).only([])
        exitedAfterShutdown = phase == .shuttingDown
        phase = .exited
        takeRecording()
        saveState()
        session = nil
        driver = nil
        return [.bytes(Array("null".utf8))]
    }

    /// Moves what the open scene recorded into `recorded`.
    mutating func takeRecording() {
        guard configuration.records, driver != nil else { return }
        if let lines = driver?.takeRecording() { recorded += lines }
    }

    /// Hands the open scene's persistent-state changes to the saver (for a scene opened with `persistState`); it
    /// writes them on its own thread.
    mutating func saveState() {
        guard let key = session?.stateKey, driver != nil, let change = driver?.takeStateChange() else { return }
        configuration.saver?.submit(change, to: key)
    }

    /// Before the open scene is closed or replaced: hands its last changes to the saver and waits until they are
    /// written, so a conflict with another session is found while the scene can still be kept under another name
    /// (`keepConflicts`), and the next state read sees them.
    mutating func settleState(into output: inout [Outbound]) {
        saveState()
        guard let saver = configuration.saver, session?.stateKey != nil else { return }
        saver.flush()
        output += keepConflicts()
        saver.flush()
    }

    /// The states another session wrote since this one saw them (the saver stopped writing them): the open
    /// scene's state is kept whole under a new name (`StateKey.conflictCopy`), where it is saved from now on, and
    /// the host is told with a `state.conflict` notification (`{seq, state, keptAs, message}`). O(conflicts).
    public mutating func keepConflicts() -> [Outbound] {
        guard let saver = configuration.saver else { return [] }
        var output: [Outbound] = []
        for name in saver.takeConflicts() {
            var keptAs: String?
            if name == session?.stateKey, driver != nil {
                conflictCopies += 1
                let copy = StateKey.conflictCopy(of: name, session: "\(getpid())-\(conflictCopies)")
                saver.forget(name)
                session?.stateKey = copy
                driver?.requestStateSnapshot()
                saveState()
                keptAs = copy
            }
            let message =
                keptAs.map {
                    "another session saved '\(name)' after this one read it; this session's state was not written "
                        + "over it and is kept as '\($0)', where it is saved from now on"
                }
                ?? "another session saved '\(name)' after this one read it; this session's last changes to it were "
                + "not written over it"
            logs.append(message)
            let seq = nextSeq()
            output.append(
                .message(
                    Messages.notification("state.conflict") { out in
                        out.key("seq")
                        out.integer(seq)
                        out.nextKey("state")
                        out.string(name)
                        out.nextKey("keptAs")
                        if let keptAs { out.string(keptAs) } else { out.raw("null") }
                        out.nextKey("message")
                        out.string(message)
                    }))
        }
        return output
    }

    /// At the end of the session (whatever ended it): the open scene's last changes handed to the saver and
    /// written, conflicts kept under another name. Returns the notifications to send, if the host still reads.
    public mutating func finishState() -> [Outbound] {
        var output: [Outbound] = []
        settleState(into: &output)
        return output
    }

    /// A saver's error, told to the host as a `state.error` notification (`{seq, message}`); the session goes on.
    public mutating func stateSaveFailed(_ message: String) -> [Outbound] {
        stateNotice("state.error", message)
    }

    /// Saving resumed after a fault, told to the host as a `state.saved` notification (`{seq, message}`):
    /// everything the session did is on disk again.
    public mutating func stateSaved() -> [Outbound] {
        stateNotice("state.saved", "saving resumed: every change is on disk")
    }

    /// A `{seq, message}` notification of the saved state's health.
    private mutating func stateNotice(_ method: StaticString, _ message: String) -> [Outbound] {
        let seq = nextSeq()
        return [
            .message(
                Messages.notification(method) { out in
                    out.key("seq")
                    out.integer(seq)
                    out.nextKey("message")
                    out.string(message)
                })
        ]
    }

    /// The next notification sequence number.
    mutating func nextSeq() -> Int {
        seq += 1
        return seq
    }
}

/// A piece of a message: literal bytes, or a frame the writer encodes (as a delta when it can).
public enum OutboundPart: Sendable {
    case bytes([UInt8])
    case frame(FrameUpdate)
}

extension Outbound {
    /// One message from its parts: a plain message when no part is a frame.
    init(parts: [OutboundPart]) {
        if parts.count == 1, case .bytes(let whole) = parts[0] {
            self = .message(whole)
            return
        }
        var bytes: [UInt8] = []
        for part in parts {
            guard case .bytes(let piece) = part else {
                self = .composite(parts)
                return
            }
            bytes.append(contentsOf: piece)
        }
        self = .message(bytes)
    }
}
