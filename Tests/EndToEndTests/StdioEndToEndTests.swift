import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// End-to-end tests of `cardistry stdio`: they spawn the built executable, talk JSON-RPC over real pipes, and
// validate every line the server writes against docs/protocol.schema.json (with the small JSON Schema 2020-12
// validator below, so nothing needs installing). Timeouts only guard against hangs; no assertion depends on time.

/// A JSON value decoded with Foundation (a second, independent parser of the server's output).
indirect enum JSON: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSON].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    static func parse(_ text: String) throws -> JSON {
        try JSONDecoder().decode(JSON.self, from: Data(text.utf8))
    }

    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    subscript(index: Int) -> JSON? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// Whether every number in the value is finite (strict JSON: a number a reader would take as infinity, such as
    /// `1e999`, is not).
    var isStrict: Bool {
        switch self {
        case .number(let value): value.isFinite
        case .array(let elements): elements.allSatisfy(\.isStrict)
        case .object(let members): members.values.allSatisfy(\.isStrict)
        default: true
        }
    }

    var array: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    var errorCode: Int? { self["error"]?["code"]?.number.map { Int($0) } }
}

/// The subset of JSON Schema 2020-12 the protocol schema uses: `$ref` (local), `type`, `enum`, `const`,
/// `properties`, `required`, `additionalProperties`, `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`,
/// `maximum`, `exclusiveMinimum`, `minLength`, `maxLength`, `pattern`, `oneOf`, `anyOf`, `allOf`. Annotations are ignored; an
/// unknown assertion keyword is reported, so the schema cannot silently use something this does not check.
struct SchemaValidator {
    let root: JSON
    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]

    static func load() throws -> SchemaValidator {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/protocol.schema.json")
        return SchemaValidator(root: try JSON.parse(try String(contentsOf: path, encoding: .utf8)))
    }

    func definition(_ name: String) -> JSON { .object(["$ref": .string("#/$defs/" + name)]) }

    /// The problems of `value` against `schema`; empty when valid.
    func errors(_ value: JSON, _ schema: JSON, at path: String = "$") -> [String] {
        guard case .object(let keywords) = schema else {
            return schema == .bool(false) ? ["\(path): schema false"] : []
        }
        var problems: [String] = []
        for (keyword, argument) in keywords where !Self.annotations.contains(keyword) {
            problems += check(keyword, argument, value, schema: keywords, at: path)
        }
        return problems
    }

    private func check(_ keyword: String, _ argument: JSON, _ value: JSON, schema: [String: JSON], at path: String)
        -> [String]
    {
        switch keyword {
        case "$ref":
            guard let reference = argument.string, reference.hasPrefix("#") else { return ["\(path): bad $ref"] }
            var target = root
            for part in reference.dropFirst().split(separator: "/") {
                guard let next = target[String(part)] else { return ["\(path): unresolved \(reference)"] }
                target = next
            }
            return errors(value, target, at: path)
        case "type":
            let types = argument.array?.compactMap(\.string) ?? [argument.string ?? ""]
            return types.contains { Self.has(type: $0, value) } ? [] : ["\(path): not of type \(types)"]
        case "enum":
            return (argument.array ?? []).contains(value) ? [] : ["\(path): \(value) not in enum"]
        case "const":
            return argument == value ? [] : ["\(path): \(value) is not \(argument)"]
        case "properties":
            guard case .object(let members) = value, case .object(let properties) = argument else { return [] }
            return properties.flatMap { key, subschema in
                members[key].map { errors($0, subschema, at: path + "." + key) } ?? []
            }
        case "required":
            guard case .object(let members) = value else { return [] }
            return (argument.array ?? []).compactMap(\.string).filter { members[$0] == nil }.map {
                "\(path): missing \($0)"
            }
        case "additionalProperties":
            guard case .object(let members) = value else { return [] }
            let known = Set(
                (schema["properties"].flatMap { if case .object(let p) = $0 { p } else { nil } } ?? [:]).keys)
            return members.filter { !known.contains($0.key) }.flatMap { key, member in
                errors(member, argument, at: path + "." + key)
            }
        case "items":
            guard case .array(let elements) = value else { return [] }
            let skip = schema["prefixItems"]?.array?.count ?? 0
            return elements.enumerated().dropFirst(skip).flatMap { errors($1, argument, at: "\(path)[\($0)]") }
        case "prefixItems":
            guard case .array(let elements) = value else { return [] }
            return zip(elements, argument.array ?? []).enumerated().flatMap { errors($1.0, $1.1, at: "\(path)[\($0)]") }
        case "minItems":
            guard case .array(let elements) = value else { return [] }
            return Double(elements.count) >= (argument.number ?? 0) ? [] : ["\(path): too few items"]
        case "maxItems":
            guard case .array(let elements) = value else { return [] }
            return Double(elements.count) <= (argument.number ?? 0) ? [] : ["\(path): too many items"]
        case "minimum":
            guard case .number(let number) = value else { return [] }
            return number >= (argument.number ?? 0) ? [] : ["\(path): \(number) below minimum"]
        case "maximum":
            guard case .number(let number) = value else { return [] }
            return number <= (argument.number ?? 0) ? [] : ["\(path): \(number) above maximum"]
        case "exclusiveMinimum":
            guard case .number(let number) = value else { return [] }
            return number > (argument.number ?? 0) ? [] : ["\(path): \(number) not above exclusiveMinimum"]
        case "minLength":
            guard case .string(let text) = value else { return [] }
            return Double(text.unicodeScalars.count) >= (argument.number ?? 0) ? [] : ["\(path): too short"]
        case "maxLength":
            // Code points, as JSON Schema counts them (RFC 8259 characters).
            guard case .string(let text) = value else { return [] }
            return Double(text.unicodeScalars.count) <= (argument.number ?? 0) ? [] : ["\(path): too long"]
        case "pattern":
            guard case .string(let text) = value, let pattern = argument.string, let regex = Self.regex(pattern) else {
                return []
            }
            let range = NSRange(text.startIndex..., in: text)
            return regex.firstMatch(in: text, range: range) == nil
                ? ["\(path): '\(text)' does not match \(pattern)"] : []
        case "oneOf":
            let passing = (argument.array ?? []).filter { errors(value, $0, at: path).isEmpty }.count
            return passing == 1 ? [] : ["\(path): matches \(passing) of oneOf"]
        case "anyOf":
            let branches = argument.array ?? []
            return branches.contains { errors(value, $0, at: path).isEmpty }
                ? []
                : [
                    "\(path): matches none of anyOf: "
                        + (branches.first.map { errors(value, $0, at: path) } ?? []).joined(separator: "; ")
                ]
        case "allOf":
            return (argument.array ?? []).flatMap { errors(value, $0, at: path) }
        default:
            return ["\(path): the validator does not know keyword \(keyword)"]
        }
    }

    nonisolated(unsafe) private static var regexes: [String: NSRegularExpression] = [:]
    private static let regexLock = NSLock()

    /// Compiled patterns are cached: the protocol uses two, checked on every node of every frame.
    static func regex(_ pattern: String) -> NSRegularExpression? {
        regexLock.withLock {
            if let cached = regexes[pattern] { return cached }
            let compiled = try? NSRegularExpression(pattern: pattern)
            regexes[pattern] = compiled
            return compiled
        }
    }

    static func has(type: String, _ value: JSON) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array),
            ("object", .object):
            true
        case ("integer", .number(let number)): number == number.rounded()
        default: false
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014), local
/// because this target does not import CardModels.
struct LocalSplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A running `cardistry stdio` with pipes; every line it writes is checked against the schema as it is read.
final class StdioProcess: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    private let condition = NSCondition()
    private var buffer: [UInt8] = []
    private var lines: [String] = []
    private var outputClosed = false
    private let exited = DispatchSemaphore(value: 0)
    let validator: SchemaValidator
    /// Methods of the requests sent, by id, so each result is checked against its own definition.
    private var methods: [String: String] = [:]
    private(set) var schemaProblems: [String] = []

    private var readerThread: Thread?

    /// Spawns the server; with `reading: false` nothing reads its stdout until `startReading()` (a slow host).
    init(_ arguments: [String] = [], environment: [String: String] = [:], reading: Bool = true) throws {
        signal(SIGPIPE, SIG_IGN)
        validator = try SchemaValidator.load()
        process.executableURL = try cardistryExecutable()
        process.arguments = ["stdio"] + arguments
        var merged = ProcessInfo.processInfo.environment
        merged["CARDISTRY_HOME"] =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("cardistry-stdio-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        let fd = output.fileHandleForReading.fileDescriptor
        readerThread = Thread { [weak self] in
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                // read(2) directly: FileHandle.availableData traps on EINTR.
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                let data = count > 0 ? Array(chunk[0..<count]) : []
                guard let self else { return }
                self.condition.lock()
                if data.isEmpty {
                    self.outputClosed = true
                } else {
                    self.buffer.append(contentsOf: data)
                    while let newline = self.buffer.firstIndex(of: 0x0A) {
                        self.lines.append(String(decoding: self.buffer[..<newline], as: UTF8.self))
                        self.buffer.removeSubrange(...newline)
                    }
                }
                self.condition.broadcast()
                self.condition.unlock()
                if data.isEmpty { return }
            }
        }
        if reading { startReading() }
    }

    func startReading() {
        readerThread?.start()
    }

    func write(_ text: String) {
        write(bytes: Array(text.utf8) + [0x0A])
    }

    /// Writes with `write(2)` (a write after the server exited fails with EPIPE instead of trapping).
    func write(bytes: [UInt8]) {
        let fd = input.fileHandleForWriting.fileDescriptor
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// Sends a request and returns (the lines before its response, the response).
    @discardableResult
    /// `valid` says whether the request should satisfy the schema (it is checked either way).
    func request(_ id: Int, _ method: String, _ params: String = "{}", valid: Bool = true) throws
        -> (notes: [JSON], response: JSON)
    {
        let text = "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":\(params)}"
        let sent = try JSON.parse(text)
        let problems = validator.errors(sent, validator.definition("clientMessage"))
        if problems.isEmpty != valid { schemaProblems.append("request \(text) (valid: \(valid)): \(problems)") }
        methods["\(id)"] = method
        write(text)
        var notes: [JSON] = []
        while true {
            let line = try #require(nextLine(), "no response to \(method)")
            let message = try JSON.parse(line)
            if message["id"]?.number == Double(id) { return (notes, message) }
            notes.append(message)
        }
    }

    /// The next line (validated), or nil when stdout closed or nothing came within `timeout` seconds (by default
    /// 120: a generous bound, the debug build runs beside every other test on two cores).
    func nextLine(timeout: Double = 120) -> String? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while lines.isEmpty && !outputClosed {
            if !condition.wait(until: deadline) { return nil }
        }
        guard !lines.isEmpty else { return nil }
        let line = lines.removeFirst()
        check(line)
        return line
    }

    /// Every remaining line until stdout closes.
    func remainingLines() -> [String] {
        var result: [String] = []
        while let line = nextLine() { result.append(line) }
        return result
    }

    private func check(_ line: String) {
        guard let message = try? JSON.parse(line) else {
            schemaProblems.append("not JSON: \(line.prefix(200))")
            return
        }
        var problems = validator.errors(message, validator.definition("serverMessage"))
        if !message.isStrict { problems.append("a non-finite number") }
        if let id = message["id"], let key = id.number.flatMap({ Int(exactly: $0) }).map({ "\($0)" }),
            let method = methods[key],
            let result = message["result"]
        {
            problems += validator.errors(result, validator.definition("result." + method))
        }
        if line.contains("\u{2028}") || line.contains("\u{2029}") { problems.append("unescaped U+2028/U+2029") }
        if !problems.isEmpty { schemaProblems.append("\(line.prefix(300)): \(problems.prefix(5))") }
    }

    func closeInput() throws { try input.fileHandleForWriting.close() }

    /// Waits (at most 120 s) for the process to end and returns its status, or nil if it did not end.
    func waitForExit() -> Int32? {
        guard exited.wait(timeout: .now() + 120) == .success else {
            process.terminate()
            return nil
        }
        return process.terminationStatus
    }

    func stderrText() -> String {
        String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func initialize(clock: String = "host", frames: String = "full") throws -> JSON {
        try request(
            0, "initialize",
            "{\"protocolVersion\":\"1.0\",\"clientInfo\":{\"name\":\"e2e\"},\"viewport\":{\"width\":390,\"height\":844},"
                + "\"clock\":\"\(clock)\",\"frames\":\"\(frames)\"}"
        ).response
    }
}

@Suite(.serialized) struct StdioEndToEndTests {
    @Test func lifecycleAndEveryMethod() throws {
        let server = try StdioProcess()
        #expect(try server.request(1, "scene.list").response.errorCode == -32002)
        let hello = try server.initialize(frames: "delta")
        #expect(hello["result"]?["protocolVersion"] == .string("1.0"))
        let scenes = try #require(hello["result"]?["scenes"]?.array)
        #expect(scenes.contains(.string("scores")))
        #expect(try server.request(2, "scene.list").response["result"]?["open"] == .null)
        let open = try server.request(3, "scene.open", "{\"scene\":\"scores\"}").response
        #expect(open["result"]?["frame"]?["full"] == .bool(true))
        let (notes, action) = try server.request(4, "scene.action", "{\"name\":\"select\",\"test\":5}")
        #expect(action["result"]?["t"] == .number(0))
        #expect(notes.contains { $0["method"] == .string("deck.changed") })
        let delta = try server.request(5, "clock.advance", "{\"by\":0.1}").response
        #expect(delta["result"]?["frame"]?["full"] == .bool(false))
        #expect(try server.request(6, "scene.frame").response["result"]?["frame"]?["full"] == .bool(true))
        for (index, phase) in ["down", "move", "up"].enumerated() {
            let response = try server.request(
                7 + index, "input.pointer",
                "{\"phase\":\"\(phase)\",\"x\":195,\"y\":\(700 + index * 5),\"t\":\(1 + Double(index) * 0.05)}"
            ).response
            #expect(response["result"]?["t"] != nil)
        }
        _ = try server.request(10, "input.pointer", "{\"phase\":\"cancel\",\"x\":1,\"y\":1,\"t\":1.2,\"pointer\":2}")
        #expect(
            try server.request(11, "input.wheel", "{\"dx\":0,\"dy\":-30,\"x\":100,\"y\":400,\"t\":1.3}")
                .response["result"] != nil)
        #expect(try server.request(12, "input.key", "{\"key\":\"right\",\"t\":1.4}").response["result"] != nil)
        #expect(
            try server.request(13, "viewport.resize", "{\"width\":400,\"height\":800,\"t\":1.5}")
                .response["result"] != nil)
        #expect(try server.request(14, "clock.advance", "{\"to\":3}").response["result"]?["frame"] != nil)
        #expect(try server.request(15, "deck.get").response["result"]?["cards"]?.array?.count == 5)
        #expect(
            try server.request(16, "deck.diff", "{\"old\":[1,2,3],\"new\":[3,1,2]}").response["result"]?["moves"]
                == .array([.array([.number(2), .number(0)])]))
        #expect(
            try server.request(17, "deck.save", "{\"name\":\"scores-copy\"}").response["result"]?["revision"]
                == .number(1))
        _ = try server.request(18, "scene.open", "{\"scene\":\"flashcards\"}")
        let cards = try #require(try server.request(19, "deck.get").response["result"]?["cards"]?.array)
        let last = try #require(cards.last?["id"]?.string)
        let (moveNotes, moved) = try server.request(20, "deck.move", "{\"card\":\"\(last)\",\"to\":0}")
        // The diff travels once, in deck.changed; the result gives the revision and checksum it made.
        let change = moveNotes.first { $0["method"] == .string("deck.changed") }
        #expect(
            change?["params"]?["diff"]?["moves"] == .array([.array([.number(Double(cards.count - 1)), .number(0)])]))
        #expect(moved["result"]?["order"]?["diff"] == nil)
        #expect(moved["result"]?["order"]?["checksum"] == change?["params"]?["checksum"])
        #expect(
            try server.request(21, "deck.sort", "{\"by\":\"id\",\"order\":\"ascending\"}").response["result"] != nil)
        #expect(try server.request(22, "deck.save").response["result"]?["name"] == .string("flashcards"))
        #expect(try server.request(23, "deck.load").response["result"]?["order"]?["checksum"] != nil)
        #expect(try server.request(24, "scene.close").response["result"]?["closed"] == .string("flashcards"))
        #expect(try server.request(25, "shutdown").response["result"] == .object([:]))
        server.write("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}")
        #expect(server.remainingLines().isEmpty)
        #expect(server.waitForExit() == 0)
        #expect(server.schemaProblems == [])
    }

    /// A host sorting by title gets the order people count in (issue 46: "Card 1, Card 10, Card 100 …"): a
    /// generated deck of 12 sorts Card 1 … Card 12, and descending Card 12 … Card 1, by the host's `deck.sort` and by
    /// the scene's own sort action alike.
    @Test func titlesSortAsPeopleCountThem() throws {
        let server = try StdioProcess()
        _ = try server.initialize()
        _ = try server.request(2, "scene.open", "{\"scene\":\"deck\",\"options\":{\"cardCount\":12}}")
        func titles(_ id: Int) throws -> [String] {
            let cards = try #require(server.request(id, "deck.get").response["result"]?["cards"]?.array)
            return cards.compactMap { card -> String? in
                if case .string(let title)? = card["title"] { return title }
                return nil
            }
        }
        let counted = (1...12).map { "Card \($0)" }
        _ = try server.request(3, "deck.sort", "{\"by\":\"title\"}")
        #expect(try titles(4) == counted)
        _ = try server.request(5, "deck.sort", "{\"by\":\"title\",\"order\":\"descending\"}")
        #expect(try titles(6) == counted.reversed())
        _ = try server.request(7, "scene.action", "{\"name\":\"sort\",\"by\":\"title\"}")
        #expect(try titles(8) == counted)
    }

    @Test func everyErrorCode() throws {
        let server = try StdioProcess()
        _ = try server.initialize()
        server.write("this is not json")
        #expect(try JSON.parse(try #require(server.nextLine())).errorCode == -32700)
        #expect(try server.request(1, "x-nothing", valid: false).response.errorCode == -32601)
        server.write("{\"jsonrpc\":\"2.0\",\"id\":2}")
        #expect(try JSON.parse(try #require(server.nextLine())).errorCode == -32600)
        let bad = try server.request(3, "scene.open", "{\"scene\":7}", valid: false).response
        #expect(bad.errorCode == -32602)
        #expect(bad["error"]?["message"]?.string?.contains("'scene'") == true)
        #expect(try server.request(4, "scene.open", "{\"scene\":\"atlantis\"}").response.errorCode == -32010)
        #expect(try server.request(5, "deck.get").response.errorCode == -32012)
        _ = try server.request(6, "scene.open", "{\"scene\":\"flashcards\"}")
        #expect(try server.request(7, "deck.move", "{\"card\":\"999999\",\"to\":0}").response.errorCode == -32011)
        #expect(try server.request(8, "deck.load", "{\"name\":\"never-saved\"}").response.errorCode == -32013)
        #expect(
            try server.request(9, "initialize", "{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":1,\"height\":1}}")
                .response.errorCode == -32012)
        try server.closeInput()
        #expect(server.remainingLines().isEmpty)
        #expect(server.waitForExit() == 0)
        #expect(server.schemaProblems == [])
    }

    @Test func malformedInputIsAnsweredAndTheServerKeepsServing() throws {
        let server = try StdioProcess()
        _ = try server.initialize()
        _ = try server.request(1, "scene.open", "{\"scene\":\"scores\"}")
        // Wrong types and missing fields.
        #expect(
            try server.request(2, "input.pointer", "{\"phase\":\"down\",\"x\":true,\"y\":1,\"t\":0}", valid: false)
                .response.errorCode == -32602)
        #expect(
            try server.request(3, "input.pointer", "{\"phase\":\"down\",\"y\":1,\"t\":0}", valid: false).response
                .errorCode == -32602)
        // Invalid UTF-8, an empty batch, a batch, a bare CR LF line and blank lines.
        server.write(
            bytes: Array("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"scene.list\",\"x\":\"".utf8) + [0xC3, 0x28]
                + Array("\"}\n".utf8))
        let invalid = try JSON.parse(try #require(server.nextLine()))
        #expect(invalid.errorCode == -32700)
        server.write("[]")
        #expect(try JSON.parse(try #require(server.nextLine())).errorCode == -32600)
        server.write(bytes: Array("\n   \n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"scene.list\"}\r\n".utf8))
        #expect(try JSON.parse(try #require(server.nextLine()))["id"] == .number(5))
        server.write(
            "[{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"scene.list\"},{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"nope\"}]"
        )
        let batch = try JSON.parse(try #require(server.nextLine()))
        #expect(batch.array?.count == 2)
        #expect(batch[1]?.errorCode == -32601)
        // U+2028 inside a string comes back escaped.
        server.write("{\"jsonrpc\":\"2.0\",\"id\":\"a\u{2028}b\u{2029}\",\"method\":\"scene.list\"}")
        let separators = try #require(server.nextLine())
        #expect(separators.contains("\"a\\u2028b\\u2029\""))
        // A line over the cap (8 MiB by default) is discarded with −32700; the next request is served.
        var huge = Array("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"scene.list\",\"params\":{\"pad\":\"".utf8)
        huge += [UInt8](repeating: 0x61, count: 9 << 20)
        huge += Array("\"}}\n".utf8)
        server.write(bytes: huge)
        let oversized = try JSON.parse(try #require(server.nextLine()))
        #expect(oversized.errorCode == -32700)
        #expect(oversized["id"] == .null)
        #expect(try server.request(9, "scene.list").response["result"] != nil)
        try server.closeInput()
        _ = server.remainingLines()
        #expect(server.waitForExit() == 0)
        #expect(server.schemaProblems == [])
    }

    /// The server asks both its pipes to hold 1 MiB (a million-card sort's 5.3 MB change then crosses in six turns
    /// of its writer and the host's reader, not 82), read from this end once it has answered: fcntl(2)'s
    /// F_GETPIPE_SZ, F_LINUX_SPECIFIC_BASE (1024) + 8 (a pipe holds 64 KiB unless asked otherwise).
    @Test func theServerEnlargesBothOfItsPipes() throws {
        let server = try StdioProcess()
        let stdin = server.input.fileHandleForWriting.fileDescriptor
        let stdout = server.output.fileHandleForReading.fileDescriptor
        let getPipeSize: Int32 = 1024 + 8
        _ = try server.initialize()
        #expect(fcntl(stdin, getPipeSize) == 1 << 20)
        #expect(fcntl(stdout, getPipeSize) == 1 << 20)
    }

    @Test func endOfInputFinishesInFlightWorkAndExitsZero() throws {
        let server = try StdioProcess()
        var text =
            "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}}\n"
        text += "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"scene.open\",\"params\":{\"scene\":\"scores\"}}\n"
        for index in 0..<50 {
            text += "{\"jsonrpc\":\"2.0\",\"id\":\(index + 2),\"method\":\"clock.advance\",\"params\":{\"by\":0.01}}\n"
        }
        server.write(bytes: Array(text.utf8))
        try server.closeInput()
        let lines = server.remainingLines()
        #expect(lines.count == 52)
        #expect((try? JSON.parse(lines.last ?? ""))?["id"] == .number(51))
        #expect(server.waitForExit() == 0)
        #expect(server.schemaProblems == [])
    }

    /// Seeded random and mutated lines through the real pipe (random bytes, CR, invalid UTF-8, truncations):
    /// the process answers every line that needs an answer with schema-valid JSON, then serves a valid request.
    /// 10,000 mutated lines (200,000 in a manual run, which passes in 6 minutes: the schema check of each line is
    /// slow), among them the wire's corners (a non-finite id, a damaged member before the id, response-shaped
    /// objects; the 400-digit id is in conformance/transcripts/wire-corners.txt, since Foundation's parser here
    /// refuses a finite number of 300 digits that the server may rightly echo): every line the server writes is
    /// strict JSON and valid by the schema (`StdioProcess.check`), and the server keeps serving.
    @Test func fuzzedLinesThroughThePipe() throws {
        let server = try StdioProcess()
        _ = try server.initialize()
        _ = try server.request(1, "scene.open", "{\"scene\":\"flashcards\"}")
        var random = LocalSplitMix64(seed: 0x5EED)
        let seeds = [
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"input.pointer\",\"params\":{\"phase\":\"down\",\"x\":195,\"y\":420,\"t\":1}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"input.pointer\",\"params\":{\"phase\":\"move\",\"x\":230,\"y\":420,\"t\":1.1}}",
            "{\"jsonrpc\":\"2.0\",\"id\":\"k\",\"method\":\"input.key\",\"params\":{\"key\":\"space\",\"t\":2}}",
            "[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"clock.advance\",\"params\":{\"by\":0.01}}]",
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"deck.diff\",\"params\":{\"old\":[1,2],\"new\":[2,1]}}",
            "{\"jsonrpc\":\"2.0\",\"id\":1e999,\"method\":\"scene.list\"}",
            "{\"jsonrpc\":\"2.0\",\"a\":NaN,\"id\":5,\"method\":\"scene.list\"}",
            "{\"result\":1}",
            "{\"jsonrpc\":\"1.0\",\"error\":null,\"id\":3}",
        ]
        var bytes: [UInt8] = []
        for _ in 0..<10_000 {
            var line = Array(seeds[Int(random.next() % UInt64(seeds.count))].utf8)
            for _ in 0..<Int(random.next() % 4) where !line.isEmpty {
                let position = Int(random.next() % UInt64(line.count))
                switch random.next() % 3 {
                case 0: line[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: line.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
                default: line = Array(line.prefix(position))
                }
            }
            bytes += line.filter { $0 != 0x0A } + [0x0A]
        }
        server.write(bytes: bytes)
        let final = try server.request(424_242, "scene.list").response
        #expect(final["result"]?["open"] == .string("flashcards"))
        try server.closeInput()
        _ = server.remainingLines()
        #expect(server.waitForExit() == 0)
        #expect(server.schemaProblems == [])
    }

    @Test func badOptionsAreUsageErrors() throws {
        let (status, out, err) = try runCardistry(["stdio", "--log-level", "loud"])
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err.contains("--log-level"))
        let (small, _, smallErr) = try runCardistry(["stdio", "--max-line-bytes", "1024"])
        #expect(small == 2)
        #expect(smallErr.contains("--max-line-bytes"))
        let (help, helpOut, _) = try runCardistry(["help", "stdio"])
        #expect(help == 0)
        #expect(helpOut.contains("JSON-RPC 2.0"))
    }

    /// The Python host example (standard library only) reorders a card over the protocol and exits 0.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func pythonHostExample() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/python-host/host.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, try cardistryExecutable().path]
        var environment = ProcessInfo.processInfo.environment
        environment["CARDISTRY_HOME"] =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("cardistry-python-host-\(getpid())").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("order after:"))
        #expect(text.contains("server exited with status 0"))
    }

    /// A 200,000-card deck through the executable: each `deck.move` writes O(change) bytes (its diff, never the
    /// order), a sort of every card its source slots (about 5.3 bytes a card), the Python host's order kept by
    /// applying the diffs equals `deck.get`'s, and the server's checksum is the Python host's own (the documented
    /// definition, written independently).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func aLargeDeckTravelsAsDiffsWithTheDocumentedChecksum() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("examples/python-host/host.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script.path, "--cards", "200000", "--moves", "20", try cardistryExecutable().path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let largest = text.split(separator: "\n").first { $0.contains("largest bytes out per move") }
            .flatMap { Int($0.split(separator: " ").last ?? "") }
        #expect((largest ?? .max) < 2048, "\(text)")
        let sort = text.split(separator: "\n").first { $0.contains("bytes out for a sort of every card") }
            .flatMap { Int($0.split(separator: " ").last ?? "") }
        #expect((sort ?? .max) < 6 * 200_000, "\(text)")
        #expect(text.contains("checksum: ok"))
        #expect(text.contains("mirror matches deck.get: yes"))
    }

    /// A host that does not read while it sends: pending frames merge, and every response, haptic and deck change
    /// still arrives, in order.
    @Test func slowHostGetsMergedFramesAndEveryOtherMessage() throws {
        let server = try StdioProcess(reading: false)
        var text = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"1.0\","
        text += "\"viewport\":{\"width\":390,\"height\":844},\"clock\":\"realtime\",\"frames\":\"delta\"}}\n"
        text += "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"scene.open\",\"params\":{\"scene\":\"scores\"}}\n"
        let count = 300
        for index in 0..<count {
            text += "{\"jsonrpc\":\"2.0\",\"id\":\(index + 2),\"method\":\"scene.action\","
            text += "\"params\":{\"name\":\"select\",\"test\":\(index % 2 == 0 ? 3 : 8)}}\n"
        }
        server.write(bytes: Array(text.utf8))
        try server.closeInput()
        server.startReading()
        var responses: [Int] = []
        var frames = 0
        var deckChanges = 0
        var lastSeq = 0
        for line in server.remainingLines() {
            let message = try JSON.parse(line)
            if let id = message["id"]?.number { responses.append(Int(id)) }
            if let seq = message["params"]?["seq"]?.number ?? message["result"]?["frame"]?["seq"]?.number {
                #expect(Int(seq) > lastSeq)
                lastSeq = Int(seq)
            }
            switch message["method"]?.string {
            case "frame": frames += 1
            case "deck.changed": deckChanges += 1
            default: break
            }
        }
        #expect(responses == Array(0..<(count + 2)))
        #expect(deckChanges == count)
        #expect(frames < count)
        #expect(server.waitForExit() == 0)
        #expect(server.schemaProblems == [])
    }

    @Test func sigtermExitsZero() throws {
        let server = try StdioProcess()
        _ = try server.initialize()
        kill(server.process.processIdentifier, SIGTERM)
        _ = server.remainingLines()
        #expect(server.waitForExit() == 0)
    }

    @Test func aClosedStdoutEndsTheProcessCleanly() throws {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = try cardistryExecutable()
        process.arguments = ["stdio"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        try output.fileHandleForReading.close()  // nobody will ever read the server's stdout
        var text = ""
        for index in 0..<50 {
            text += "{\"jsonrpc\":\"2.0\",\"id\":\(index),\"method\":\"scene.list\"}\n"
        }
        let fd = input.fileHandleForWriting.fileDescriptor
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        #expect(exited.wait(timeout: .now() + 30) == .success)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        try? input.fileHandleForWriting.close()
    }

    @Test func realtimeFramesStreamAndStop() throws {
        let server = try StdioProcess()
        _ = try server.initialize(clock: "realtime", frames: "delta")
        _ = try server.request(1, "scene.open", "{\"scene\":\"scores\"}")
        _ = try server.request(2, "scene.action", "{\"name\":\"select\",\"test\":7}")
        var frames = 0
        var animating = true
        while animating, let line = server.nextLine() {
            let message = try JSON.parse(line)
            guard message["method"] == .string("frame") else { continue }
            frames += 1
            animating = message["params"]?["animating"] == .bool(true)
        }
        #expect(frames >= 2)
        #expect(!animating)
        #expect(try server.request(3, "scene.list").response["result"] != nil)
        try server.closeInput()
        _ = server.remainingLines()
        #expect(server.waitForExit() == 0)
        #expect(server.schemaProblems == [])
    }
}
