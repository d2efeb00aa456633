import CardGestures
import CardPersistence

/// Every input an engine processed, with its time: the record of a session that `replay` turns back into the
/// same frames, bit for bit.
///
/// As text it is JSON lines: a header `{"cardistry":"input-log","version":1,"scene":…,"viewport":{…},"start":…}`
/// and one object per input, e.g. `{"t":0.5,"type":"pointer","phase":"down","x":120,"y":300,"pointer":0}`,
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

    /// The in-memory budget of an engine's log, in inputs.
    public static let defaultCapacity = 16_384

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
        guard inputs.count < capacity else {
            droppedCount += 1
            return
        }
        inputs.append(input)
    }

    /// The log as JSON lines (each ending in a newline).
    public var jsonLines: String {
        var lines = [
            JSONValue.object([
                .init("cardistry", .string("input-log")), .init("version", .integer(1)), .init("scene", .string(scene)),
                .init(
                    "viewport",
                    .object([
                        .init("width", Self.number(viewport.width)), .init("height", Self.number(viewport.height)),
                    ])),
                .init("start", Self.number(startTime)),
            ])
        ]
        lines += inputs.map(Self.encode)
        return lines.map { String(decoding: $0.jsonBytes, as: UTF8.self) + "\n" }.joined()
    }

    /// Parses JSON lines written by `jsonLines`; blank lines are skipped. Throws `InputLogError` naming the line.
    public init(jsonLines text: String) throws(InputLogError) {
        var header: JSONValue?
        var inputs: [InputEvent] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            guard !trimmed.allSatisfy(\.isWhitespace) else { continue }
            let value: JSONValue
            do {
                value = try JSONValue(parsing: Array(trimmed.utf8))
            } catch {
                throw InputLogError(line: offset + 1, reason: "not JSON: \(error)")
            }
            if header == nil {
                guard value["cardistry"]?.stringValue == "input-log" else {
                    throw InputLogError(line: offset + 1, reason: "the first line must be the input-log header")
                }
                header = value
                continue
            }
            inputs.append(try Self.decode(value, line: offset + 1))
        }
        guard let header else { throw InputLogError(line: 1, reason: "empty log") }
        scene = header["scene"]?.stringValue ?? ""
        viewport = Size(
            width: Self.double(header["viewport"]?["width"]) ?? 390,
            height: Self.double(header["viewport"]?["height"]) ?? 844)
        startTime = Self.double(header["start"]) ?? 0
        capacity = max(Self.defaultCapacity, inputs.count)
        self.inputs = inputs
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
