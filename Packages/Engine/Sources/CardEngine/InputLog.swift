import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardPersistence

/// Every input an engine processed, with its time: the record of a session that `replay` turns back into the
/// same frames, bit for bit.
///
/// As text it is JSON lines: a header `{"cardistry":"input-log","version":2,"scene":…,"viewport":{…},"start":…}`
/// (`version` is the format's, `formatVersion`) and one object per input, e.g. `{"t":0.5,"type":"pointer","phase":"down","x":120,"y":300,"pointer":0}`,
/// `{"t":1,"type":"wheel","dx":0,"dy":-40,"x":10,"y":10}`, `{"t":2,"type":"key","key":"left"}`,
/// `{"t":3,"type":"action","name":"select","args":{"test":3}}`, `{"t":4,"type":"resize","width":390,"height":844}`.
/// Numbers are written in Swift's shortest round-trip form, so they read back exactly.
///
/// Memory: a log in memory keeps at most `capacity` inputs (by default `defaultCapacity`, 16,384 inputs: about
/// 1.5 MiB), the first ones of the session; later inputs are only counted in `droppedCount`, so a long-running
/// engine (a stdio server fed a million pointer events) stays within a fixed budget. A log that dropped inputs
/// (`isComplete` false) replays only its beginning.
public struct InputLog: Sendable, Hashable {
    /// The catalogue name of the scene the inputs were fed to.
    public var scene: String
    /// The viewport the scene was opened in, in points (a `resize` input changes it later).
    public var viewport: Size
    /// The engine's time when the scene was opened, in seconds.
    public var startTime: Double
    /// The inputs, in the order the engine processed them.
    public private(set) var inputs: [InputEvent] = []
    /// The most inputs kept in memory.
    public let capacity: Int
    /// How many inputs arrived after the log was full and were not kept.
    public private(set) var droppedCount = 0
    /// What a recorded session's header says beyond the scene (see `Engine.startRecording`).
    public var setup = RecordingSetup()
    /// The scene's look revision when it was recorded (`SceneDescriptor.lookRevision`; 1 when the header has
    /// none): a replay checks frame digests only against the same look.
    public var look = 1
    /// Every line after the header of a parsed log, in order: inputs, and in a recording the frames the front end
    /// took (with their digests) and text measurer changes.
    public private(set) var entries: [Entry] = []
    /// The JSON lines recorded and not yet taken (nil when not recording). Unlike `inputs` it is unbounded until
    /// taken: the front end takes it after every input and writes it out.
    var recording: [UInt8]?

    /// A line of a recorded session.
    public enum Entry: Sendable, Hashable {
        /// An input.
        case input(InputEvent)
        /// A frame taken at `time` whose nodes had `digest` (`InputLog.digest(of:)`); `line` is its line number.
        case frame(time: Double, digest: UInt32, line: Int)
        /// The front end measured text with the measurer named `name` (`InputLog.measurerName`) from `time` on.
        case measurer(time: Double, name: String)
    }

    /// The in-memory budget of an engine's log, in inputs.
    public static let defaultCapacity = 16_384

    /// The version of the recording format this build writes, and the only one whose frame digests it can check.
    ///
    /// - 1: a frame's digest was CRC-32 of Swift's reflection of its nodes (`String(reflecting:)`), which a renamed
    ///   field or another toolchain changes; no build reproduces those digests any more.
    /// - 2: a frame's digest is CRC-32 of the protocol's bytes for the frame (`digest(of:)`).
    ///
    /// Inputs, measurer changes and the header read the same in both. A log of an older version replays with its
    /// digests unchecked (`checksDigests`); one of a newer version is refused when it is read.
    public static let formatVersion = 2

    /// The format version of the text the log was read from (its header's `version`); `formatVersion` for a log
    /// an engine keeps.
    public private(set) var version = InputLog.formatVersion

    /// Whether this build can check the log's frame digests: only a log of its own `formatVersion`.
    public var checksDigests: Bool { version == Self.formatVersion }

    /// A log of `inputs` (more may be appended, up to `capacity`) for `scene` opened in `viewport` at `startTime`.
    public init(
        scene: String, viewport: Size, startTime: Double = 0, inputs: [InputEvent] = [],
        capacity: Int = InputLog.defaultCapacity
    ) {
        self.scene = scene
        self.viewport = viewport
        self.startTime = startTime
        self.capacity = max(capacity, inputs.count)
        self.inputs = inputs
    }

    /// Whether every input of the session is in the log.
    public var isComplete: Bool { droppedCount == 0 }

    mutating func append(_ input: InputEvent) {
        if recording != nil { recordLine(Self.encode(input)) }
        guard inputs.count < capacity else {
            droppedCount += 1
            return
        }
        inputs.append(input)
    }

    /// Whether lines are being recorded.
    public var isRecording: Bool { recording != nil }

    mutating func recordLine(_ value: JSONValue) {
        recording?.append(contentsOf: value.jsonBytes)
        recording?.append(UInt8(ascii: "\n"))
    }

    /// Starts recording: the header line goes first.
    mutating func startRecording() {
        recording = []
        recordLine(header)
    }

    /// The recorded lines not yet taken, emptied.
    mutating func takeRecording() -> [UInt8] {
        guard let taken = recording else { return [] }
        recording = []
        return taken
    }

    mutating func record(frame: Frame) {
        recordLine(
            .object([
                .init("t", Self.number(frame.time)), .init("type", .string("frame")),
                .init("digest", .integer(Int(Self.digest(of: frame)))),
            ]))
    }

    mutating func record(measurer name: String, at time: Double) {
        guard recording != nil else { return }
        recordLine(
            .object([.init("t", Self.number(time)), .init("type", .string("measurer")), .init("name", .string(name))]))
    }

    /// The digest of a frame a recording checks replays against (format version 2): CRC-32 of
    /// `digestBytes(of:)`. O(nodes + text).
    public static func digest(of frame: Frame) -> UInt32 {
        var crc = CRC32()
        crc.update(digestBytes(of: frame))
        return crc.value
    }

    /// The bytes a frame's digest is taken over: the frame as a full `frame` notification of the protocol carries
    /// it (its `params`, with `seq` 0, written by `FrameJSON`, the stdio server's own encoding): time, `animating`,
    /// viewport and every node as a host receives it. So a digest checks what a host sees, and only that (a
    /// colour to 8 bits a channel, a gesture by its kinds); events are left out (a deck change holds the whole
    /// order).
    package static func digestBytes(of frame: Frame) -> [UInt8] {
        var out = JSONOutput(capacity: 256 + frame.nodes.count * 200)
        FrameJSON.fullFrame(
            seq: 0, time: frame.time, isAnimating: frame.isAnimating, viewport: frame.viewport, nodes: frame.nodes,
            into: &out)
        return out.bytes
    }

    /// The name a recording gives a text measurer: its `RecordableTextMeasurer.recordingName`, else `standard`.
    public static func measurerName(_ measurer: any TextMeasurer) -> String {
        (measurer as? any RecordableTextMeasurer)?.recordingName ?? "standard"
    }

    var header: JSONValue {
        var members: [JSONValue.Member] = [
            .init("cardistry", .string("input-log")), .init("version", .integer(Self.formatVersion)),
            .init("scene", .string(scene)),
            .init(
                "viewport",
                .object([
                    .init("width", Self.number(viewport.width)), .init("height", Self.number(viewport.height)),
                ])),
            .init("start", Self.number(startTime)),
        ]
        if let name = setup.measurer { members.append(.init("measurer", .string(name))) }
        if look > 1 { members.append(.init("look", .integer(look))) }
        if let count = setup.cardCount { members.append(.init("cardCount", .integer(count))) }
        if let deck = setup.deckJSON { members.append(.init("deckDocument", .string(deck))) }
        if let state = setup.stateJSON { members.append(.init("state", .string(state))) }
        if setup.reducesMotion { members.append(.init("reduceMotion", .bool(true))) }
        if let definition = setup.sceneDefinition { members.append(.init("definition", definition)) }
        return .object(members)
    }

    /// The log as JSON lines (each ending in a newline).
    public var jsonLines: String {
        var lines = [header]
        lines += inputs.map(Self.encode)
        return lines.map { String(decoding: $0.jsonBytes, as: UTF8.self) + "\n" }.joined()
    }

    /// Parses JSON lines written by `jsonLines` (or a recording of one session); blank lines are skipped. Throws
    /// `InputLogError` naming the line.
    public init(jsonLines text: String) throws(InputLogError) {
        let sessions = try Self.sessions(jsonLines: text)
        guard let first = sessions.first else { throw InputLogError(line: 1, reason: "empty log") }
        self = first
    }

    /// Parses a recording: one session per header line (a front end that opened several scenes), each with the
    /// lines after it. Throws `InputLogError` naming the line (a truncated last line included).
    public static func sessions(jsonLines text: String) throws(InputLogError) -> [InputLog] {
        var sessions: [InputLog] = []
        var current: (header: JSONValue, entries: [Entry])?
        func close() {
            guard let (header, entries) = current else { return }
            sessions.append(InputLog(header: header, entries: entries))
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            guard !trimmed.allSatisfy(\.isWhitespace) else { continue }
            let value: JSONValue
            do {
                value = try JSONValue(parsing: Array(trimmed.utf8))
            } catch {
                let cut = offset == lines.count - 1 && !text.hasSuffix("\n")
                throw InputLogError(
                    line: offset + 1, reason: cut ? "the last line is cut short (\(error))" : "not JSON: \(error)")
            }
            if value["cardistry"]?.stringValue == "input-log" {
                try checkVersion(of: value, line: offset + 1)
                close()
                current = (value, [])
                continue
            }
            guard current != nil else {
                throw InputLogError(line: offset + 1, reason: "the first line must be the input-log header")
            }
            switch value["type"]?.stringValue {
            case "frame":
                guard let time = double(value["t"]), let digest = value["digest"]?.integerValue,
                    let digest32 = UInt32(exactly: digest)
                else { throw InputLogError(line: offset + 1, reason: "a frame needs 't' and a 32-bit 'digest'") }
                current?.entries.append(.frame(time: time, digest: digest32, line: offset + 1))
            case "measurer":
                guard let time = double(value["t"]), let name = value["name"]?.stringValue else {
                    throw InputLogError(line: offset + 1, reason: "a measurer needs 't' and 'name'")
                }
                current?.entries.append(.measurer(time: time, name: name))
            default:
                current?.entries.append(.input(try decode(value, line: offset + 1)))
            }
        }
        close()
        guard !sessions.isEmpty else { throw InputLogError(line: 1, reason: "empty log") }
        return sessions
    }

    /// Refuses a header without a format version, or with one newer than this build reads (its inputs may be
    /// written differently).
    static func checkVersion(of header: JSONValue, line: Int) throws(InputLogError) {
        guard let version = header["version"]?.integerValue, version >= 1 else {
            throw InputLogError(line: line, reason: "the header needs a 'version' (1…\(formatVersion))")
        }
        guard version <= formatVersion else {
            throw InputLogError(
                line: line,
                reason: "recording format version \(version) is newer than this build reads (1…\(formatVersion)); "
                    + "replay it with the cardistry that wrote it")
        }
    }

    init(header: JSONValue, entries: [Entry]) {
        scene = header["scene"]?.stringValue ?? ""
        version = header["version"]?.integerValue ?? Self.formatVersion
        viewport = Size(
            width: Self.double(header["viewport"]?["width"]) ?? 390,
            height: Self.double(header["viewport"]?["height"]) ?? 844)
        startTime = Self.double(header["start"]) ?? 0
        look = max(1, header["look"]?.integerValue ?? 1)
        let inputs = entries.compactMap { entry -> InputEvent? in
            if case .input(let input) = entry { return input }
            return nil
        }
        capacity = max(Self.defaultCapacity, inputs.count)
        self.inputs = inputs
        self.entries = entries
        setup = RecordingSetup(
            measurer: header["measurer"]?.stringValue, cardCount: header["cardCount"]?.integerValue,
            deckJSON: header["deckDocument"]?.stringValue, stateJSON: header["state"]?.stringValue)
        setup.reducesMotion = header["reduceMotion"] == .bool(true)
        setup.sceneDefinition = header["definition"]
    }

    static func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .number("0") }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number(String(value))
    }

    static func double(_ value: JSONValue?) -> Double? {
        guard case .number(let text) = value else { return nil }
        return Double(text)
    }

    static func encode(_ input: InputEvent) -> JSONValue {
        var members: [JSONValue.Member] = [.init("t", number(input.time))]
        switch input {
        case .pointer(let event):
            switch event.kind {
            case .wheel(let dx, let dy):
                members += [.init("type", .string("wheel")), .init("dx", number(dx)), .init("dy", number(dy))]
            case .down, .move, .up, .cancel:
                members += [.init("type", .string("pointer")), .init("phase", .string(phaseName(event.kind)))]
            }
            members += [
                .init("x", number(event.location.x)), .init("y", number(event.location.y)),
                .init("pointer", .integer(event.pointerID)),
            ]
        case .key(let key, _):
            members += [.init("type", .string("key")), .init("key", .string(key.key))]
            if key.shift { members.append(.init("shift", .bool(true))) }
            if key.control { members.append(.init("control", .bool(true))) }
            if key.alt { members.append(.init("alt", .bool(true))) }
        case .action(let action, _):
            let arguments = action.arguments.keys.sorted().map { key -> JSONValue.Member in
                switch action.arguments[key] {
                case .number(let value): .init(key, number(value))
                case .string(let value): .init(key, .string(value))
                case .bool(let value): .init(key, .bool(value))
                case nil: .init(key, .null)
                }
            }
            members += [
                .init("type", .string("action")), .init("name", .string(action.name)),
                .init("args", .object(arguments)),
            ]
        case .resize(let size, _):
            members += [
                .init("type", .string("resize")), .init("width", number(size.width)),
                .init("height", number(size.height)),
            ]
        }
        return .object(members)
    }

    static func phaseName(_ kind: PointerEvent.Kind) -> String {
        switch kind {
        case .down: "down"
        case .move: "move"
        case .up: "up"
        case .cancel: "cancel"
        case .wheel: "wheel"
        }
    }

    static func decode(_ value: JSONValue, line: Int) throws(InputLogError) -> InputEvent {
        func required(_ key: String) throws(InputLogError) -> Double {
            guard let number = double(value[key]), number.isFinite else {
                throw InputLogError(line: line, reason: "'\(key)' must be a finite number")
            }
            return number
        }
        let time = try required("t")
        switch value["type"]?.stringValue {
        case "pointer":
            let kind: PointerEvent.Kind
            switch value["phase"]?.stringValue {
            case "down": kind = .down
            case "move": kind = .move
            case "up": kind = .up
            case "cancel": kind = .cancel
            default: throw InputLogError(line: line, reason: "'phase' must be down, move, up or cancel")
            }
            return .pointer(
                PointerEvent(
                    kind, at: Point(x: try required("x"), y: try required("y")), time: time,
                    pointerID: value["pointer"]?.integerValue ?? 0))
        case "wheel":
            return .pointer(
                PointerEvent(
                    .wheel(dx: try required("dx"), dy: try required("dy")),
                    at: Point(x: try required("x"), y: try required("y")), time: time,
                    pointerID: value["pointer"]?.integerValue ?? 0))
        case "key":
            guard let key = value["key"]?.stringValue, !key.isEmpty else {
                throw InputLogError(line: line, reason: "'key' must be a non-empty string")
            }
            func flag(_ name: String) -> Bool { value[name] == .bool(true) }
            return .key(KeyInput(key, shift: flag("shift"), control: flag("control"), alt: flag("alt")), time: time)
        case "action":
            guard let name = value["name"]?.stringValue else {
                throw InputLogError(line: line, reason: "'name' must be a string")
            }
            var arguments: [String: ActionValue] = [:]
            if case .object(let members) = value["args"] {
                for member in members {
                    switch member.value {
                    case .number(let text): arguments[member.key] = .number(Double(text) ?? 0)
                    case .string(let text): arguments[member.key] = .string(text)
                    case .bool(let flag): arguments[member.key] = .bool(flag)
                    default: throw InputLogError(line: line, reason: "argument '\(member.key)' has an unsupported type")
                    }
                }
            }
            return .action(SceneAction(name, arguments), time: time)
        case "resize":
            return .resize(Size(width: try required("width"), height: try required("height")), time: time)
        default:
            throw InputLogError(line: line, reason: "'type' must be pointer, wheel, key, action or resize")
        }
    }
}

/// A line of an input log that could not be read.
public struct InputLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based number of the line.
    public var line: Int
    /// What is wrong with it, in words.
    public var reason: String

    /// The error of line `line` (1-based), saying `reason`.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

/// A reorder diff as the arguments of a logged `engine.replaceDeck`: `removals` and `insertions` as comma-separated
/// indices, `moves` as comma-separated `from>to` pairs, and `count`, the new count. O(diff) text, never the order.
enum ReorderDiffText {
    static func arguments(of diff: ReorderDiff) -> [String: ActionValue] {
        [
            "removals": .string(diff.removals.map(String.init).joined(separator: ",")),
            "insertions": .string(diff.insertions.map(String.init).joined(separator: ",")),
            "moves": .string(diff.moves.map { "\($0.from)>\($0.to)" }.joined(separator: ",")),
            "count": .number(Double(diff.newCount)),
        ]
    }

    /// The diff a logged `engine.replaceDeck` holds, for a deck of `count` cards.
    static func diff(from action: SceneAction, count: Int) throws(SceneError) -> ReorderDiff {
        func indices(_ key: String) throws(SceneError) -> [Int] {
            let text = try action.string(key)
            guard !text.isEmpty else { return [] }
            var values: [Int] = []
            for part in text.split(separator: ",") {
                guard let value = Int(part) else {
                    throw .invalidArgument(
                        action: action.name, argument: key, reason: "must be comma-separated indices")
                }
                values.append(value)
            }
            return values
        }
        let movesText = try action.string("moves")
        var moves: [ReorderDiff.Move] = []
        for part in movesText.split(separator: ",") {
            let pair = part.split(separator: ">")
            guard pair.count == 2, let from = Int(pair[0]), let to = Int(pair[1]) else {
                throw .invalidArgument(
                    action: action.name, argument: "moves", reason: "must be comma-separated from>to")
            }
            moves.append(ReorderDiff.Move(from: from, to: to))
        }
        return ReorderDiff(
            oldCount: count, newCount: try action.int("count"), removals: try indices("removals"),
            insertions: try indices("insertions"), moves: moves)
    }
}

/// What a recording's header holds besides the scene, so a replay rebuilds the same scene: the text measurer the
/// front end used, the scene's options (a generated deck's size, or the deck itself) and the state it restored.
public struct RecordingSetup: Sendable, Hashable {
    /// The text measurer's name (`InputLog.measurerName`); nil: the standard one.
    public var measurer: String?
    /// `SceneOptions.cardCount`.
    public var cardCount: Int?
    /// `SceneOptions.deck` as a deck document (JSON text).
    public var deckJSON: String?
    /// The scene's state as it was restored (`Scene.encodeState()` right after opening), JSON text.
    public var stateJSON: String?
    /// The engine reduced motion (`Engine.reducesMotion`); written only when true, so other headers are as before.
    public var reducesMotion = false
    /// The description of a scene described as data (`SceneDescriptor.definition`), written as the header's
    /// `definition` object only for such a scene, so other headers are as before.
    public var sceneDefinition: JSONValue?

    /// A setup; every part is optional.
    public init(measurer: String? = nil, cardCount: Int? = nil, deckJSON: String? = nil, stateJSON: String? = nil) {
        self.measurer = measurer
        self.cardCount = cardCount
        self.deckJSON = deckJSON
        self.stateJSON = stateJSON
    }
}

/// A text measurer a recording can name, so a replay measures text the same way (the terminal's cells).
public protocol RecordableTextMeasurer: TextMeasurer {
    /// A name the replaying tool maps back to an equal measurer.
    var recordingName: String { get }
}
