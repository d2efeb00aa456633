import CardEngine
import CardGeometry
import CardGestures
import CardJSON
import CardModels
import CardScenes
import CardStdio
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The stdio front end: throughput of pointer events, round-trip latency through real pipes, and frame encoding.
///
/// - `stdio/pointer/N/SCENE/server` (flashcards, wallet): N `input.pointer` lines (seeded drags across the scene: a
///   down, 20 moves 8 ms apart, an up) through `Server.receive` and the writer's encoder — parsing, validation,
///   the engine's gesture recognition, events and responses. Floor: parsing the same lines with the strict JSON
///   parser alone (the least any server must do). Goal: at least 50,000 events per second.
/// - `stdio/roundtrip/N/flashcards/pipe`: N pointer requests, each written to a real pipe and its response read
///   back from another, through the transport's serving and writer threads; p50/p99 latency. Floor: the
///   same round trips through a thread that echoes each line back (pipes and thread wake-ups only). Goal: p99
///   under 1 ms.
/// - `stdio/memory/1000000/flashcards/rss` (gated): the real `cardistry stdio` (the executable built beside this
///   one) fed 1,000,000 pointer events (100,000 in quick mode; the seeded drags, as notifications); its resident
///   set size after 10,000 events, then at nine checkpoints evenly to the end. Each checkpoint's RSS over the
///   first is one sample (the floor is the process's own early RSS, so the ratio is growth, whatever the
///   allocator and the machine); `ratio_to_floor` is their median, `rss_growth` the last. Goal: within 10%
///   (`rss_growth` ≤ 1.1). A leak shows as a rise of the median growth, judged by the gate's rule.
/// - `stdio/encode/N/frame/hand` and `.../jsonencoder`: encoding a frame of N nodes by hand versus Foundation's
///   JSONEncoder on a Codable mirror of the same wire form. Floor: appending the encoded bytes to an array one
///   by one (emitting each output byte once). Goal: the hand writer at least 5× faster (`speedup_vs_jsonencoder`).
struct StdioSuite: BenchSuite {
    let name = "stdio"

    func run(_ context: BenchContext) {
        pointerThroughput(context)
        roundTrip(context)
        memory(context)
        encoding(context)
    }

    // MARK: Memory of a long session

    private func memory(_ context: BenchContext) {
        let total = context.quick ? 100_000 : 1_000_000
        let early = 10_000
        let prefix = "stdio/memory/\(total)/flashcards"
        guard context.selects(prefix, impls: ["rss"]) else { return }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("cardistry")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            context.progress("stdio: \(executable.path) not built, memory row skipped")
            return
        }
        context.progress("stdio: RSS of cardistry stdio over \(total) pointer events")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["stdio", "--store", "/nonexistent-cardistry-bench-store"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return }
        let pid = process.processIdentifier
        // Drain stdout on a thread, counting responses so each batch can wait for its own `scene.list` answer.
        let responses = Responses()
        let outFD = output.fileHandleForReading.fileDescriptor
        let reader = Thread {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(outFD, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                responses.count(chunk[0..<count])
            }
            responses.close()
        }
        reader.start()
        let inFD = input.fileHandleForWriting.fileDescriptor
        _ = Self.writeLine(inFD, Self.initialize)
        _ = Self.writeLine(inFD, Self.open("flashcards"))
        let lines = Self.pointerLines(count: 22_000, seed: 10, withIDs: false)
        let start = monotonicNanoseconds()
        var sent = 0
        var syncs = 2
        var rssEarly = 0
        // Nine checkpoints after the early one, evenly to the end: each RSS over the early one is a sample.
        let checkpoints = Set((1...9).map { early + ($0 * (total - early)) / 9 })
        var growth: [Double] = []
        var rssLate = 0
        func sync() -> Int? {
            syncs += 1
            _ = Self.writeLine(inFD, Array("{\"jsonrpc\":\"2.0\",\"id\":\"sync\",\"method\":\"scene.list\"}".utf8))
            guard responses.wait(for: syncs) else { return nil }
            return Self.residentBytes(of: pid)
        }
        var batch: [UInt8] = []
        while sent < total {
            // Whole drags only (22 lines each), with times that keep increasing across repeats of the pattern.
            let line = lines[sent % lines.count]
            let round = sent / lines.count
            var text = String(decoding: line, as: UTF8.self)
            if round > 0, let range = text.range(of: "\"t\":") {
                let rest = text[range.upperBound...]
                let end = rest.firstIndex(where: { $0 == "," || $0 == "}" }) ?? rest.endIndex
                let time = (Double(rest[..<end]) ?? 0) + Double(round) * 1000
                text = String(text[..<range.upperBound]) + "\(time)" + String(rest[end...])
            }
            batch += Array(text.utf8)
            batch.append(0x0A)
            sent += 1
            if batch.count >= 1 << 16 || sent == early || checkpoints.contains(sent) {
                guard Self.writeAll(inFD, batch) else { break }
                batch.removeAll(keepingCapacity: true)
            }
            if sent == early { rssEarly = sync() ?? 0 }
            if checkpoints.contains(sent), rssEarly > 0, let rss = sync() {
                growth.append(Double(rss) / Double(rssEarly))
                rssLate = rss
            }
        }
        let elapsed = Double(monotonicNanoseconds() - start) / 1e6
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard rssEarly > 0, growth.count == checkpoints.count, let last = growth.last else {
            context.progress("stdio: RSS unavailable, memory row skipped")
            return
        }
        let samples = CellSamples(
            cell: Timing(medianMs: elapsed, minMs: elapsed, runs: 1), floor: .none, ratios: growth)
        context.emit(
            BenchRow(
                suite: name, workload: "memory", n: total, key: "flashcards", impl: "rss", samples: samples,
                metrics: [
                    ("rss_10k_mb", Double(rssEarly) / 1_048_576), ("rss_end_mb", Double(rssLate) / 1_048_576),
                    ("rss_growth", last), ("meets_goal", last <= 1.1 ? 1 : 0),
                ],
                note: "RSS at 9 checkpoints to \(total) pointer events through the real server over the RSS after "
                    + "\(early); goal growth ≤ 1.1"))
    }

    /// Counts response lines (`"id":` near the start) as they stream by. Thread-safe.
    final class Responses: @unchecked Sendable {
        private let condition = NSCondition()
        private var seen = 0
        private var closed = false
        private var partial: [UInt8] = []

        func count(_ bytes: ArraySlice<UInt8>) {
            condition.lock()
            for byte in bytes {
                if byte == 0x0A {
                    if partial.starts(with: Array("{\"jsonrpc\":\"2.0\",\"id\"".utf8)) { seen += 1 }
                    partial.removeAll(keepingCapacity: true)
                } else if partial.count < 32 {
                    partial.append(byte)
                }
            }
            condition.broadcast()
            condition.unlock()
        }

        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }

        /// Waits until `count` responses were seen; false if the output closed first.
        func wait(for count: Int) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while seen < count && !closed { condition.wait() }
            return seen >= count
        }
    }

    static func residentBytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { FileIO.writeAll(fd, $0.baseAddress!, $0.count) }
    }

    // MARK: Pointer throughput

    static func makeServer() -> Server {
        Server(
            configuration: Server.Configuration(
                provider: CatalogSceneProvider(catalog: .standard, store: nil), store: nil,
                serverVersion: CardistryInfo.version))
    }

    static let initialize = Array(
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}}"
            .utf8)
    static func open(_ scene: String) -> [UInt8] {
        Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"scene.open\",\"params\":{\"scene\":\"\(scene)\"}}".utf8)
    }

    /// Seeded drags across the middle of the screen: a down, 20 moves 8 ms apart, an up, then a pause.
    static func pointerLines(count: Int, seed: UInt64, withIDs: Bool) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        var lines: [[UInt8]] = []
        lines.reserveCapacity(count)
        var time = 1.0
        var id = 2
        while lines.count < count {
            var x = 150 + Double(random.next() % 90)
            var y = 350 + Double(random.next() % 140)
            for step in 0..<22 where lines.count < count {
                let phase = step == 0 ? "down" : step == 21 ? "up" : "move"
                if step > 0 {
                    x += Double(random.next() % 13) - 6
                    y += Double(random.next() % 13) - 6
                }
                let idPart = withIDs ? "\"id\":\(id)," : ""
                id += 1
                lines.append(
                    Array(
                        "{\"jsonrpc\":\"2.0\",\(idPart)\"method\":\"input.pointer\",\"params\":{\"phase\":\"\(phase)\",\"x\":\(x),\"y\":\(y),\"t\":\(time)}}"
                            .utf8))
                time += 0.008
            }
            time += 1
        }
        return lines
    }

    /// The pointer events the lines describe (parsed once, outside the measurement).
    static func pointerEvents(_ lines: [[UInt8]]) -> [PointerEvent] {
        lines.compactMap { line in
            guard let message = try? JSONValue(parsing: line), let params = message["params"],
                case .string(let phase)? = params["phase"], let x = params["x"]?.number, let y = params["y"]?.number,
                let t = params["t"]?.number
            else { return nil }
            let kind: PointerEvent.Kind = phase == "down" ? .down : phase == "up" ? .up : .move
            return PointerEvent(kind, at: Point(x: x, y: y), time: t)
        }
    }

    private func pointerThroughput(_ context: BenchContext) {
        for scene in ["flashcards", "wallet"] { pointerThroughput(context, scene: scene) }
    }

    private func pointerThroughput(_ context: BenchContext, scene sceneName: String) {
        let count = context.quick ? 4000 : 40_000
        let prefix = "stdio/pointer/\(count)/\(sceneName)"
        guard SceneCatalog.standard.names.contains(sceneName), context.selects(prefix, impls: ["server", "engine"])
        else {
            return
        }
        context.progress("stdio: \(count) pointer events through the server (\(sceneName))")
        let open = Self.open(sceneName)
        let lines = Self.pointerLines(count: count, seed: 8, withIDs: true)
        var written = 0
        let samples = measureCell(
            "\(prefix)/server", rounds: gateRounds(context),
            {
                var server = Self.makeServer()
                var encoder = FrameEncoder()
                _ = server.receive(line: Self.initialize, now: 0)
                for item in server.receive(line: open, now: 0) { blackHole(encoder.encode(item)) }
                var bytes = 0
                for line in lines {
                    for item in server.receive(line: line, now: 0) { bytes += encoder.encode(item).count }
                }
                written = bytes
                return bytes
            },
            floor: {
                var parsed = 0
                for line in lines { if (try? JSONValue(parsing: line)) != nil { parsed += 1 } }
                return parsed
            })
        let timing = samples.cell
        // The same events straight into the engine (handle, then a frame to collect the events): what the server
        // itself adds is the difference.
        let pointerEvents = Self.pointerEvents(lines)
        let direct = measure(runs: context.runs) {
            guard let scene = try? SceneCatalog.standard.make(sceneName) else { return 0 }
            var engine = Engine(scene: scene, viewport: Size(width: 390, height: 844))
            var events = 0
            for event in pointerEvents {
                engine.handle(.pointer(event))
                events += engine.frame(at: event.time).events.count
            }
            return events
        }
        let events = Double(count)
        context.emit(
            BenchRow(
                suite: name, workload: "pointer", n: count, key: sceneName, impl: "engine", timing: direct,
                metrics: [("events_per_s", events / (direct.medianMs / 1000))],
                note: "the engine alone, no JSON"))
        context.emit(
            BenchRow(
                suite: name, workload: "pointer", n: count, key: sceneName, impl: "server", samples: samples,
                metrics: [
                    ("events_per_s", events / (timing.medianMs / 1000)),
                    ("us_per_event", timing.medianMs * 1000 / events),
                    ("bytes_written", Double(written)), ("ratio_to_engine", timing.medianMs / direct.medianMs),
                ],
                note: "floor: strict JSON parse of each line"))
    }

    // MARK: Round trip through pipes

    private func roundTrip(_ context: BenchContext) {
        let count = context.quick ? 2000 : 20_000
        let prefix = "stdio/roundtrip/\(count)/flashcards"
        guard context.selects(prefix, impls: ["pipe"]) else { return }
        context.progress("stdio: \(count) round trips through pipes")
        let lines = Self.pointerLines(count: count, seed: 9, withIDs: true)
        guard let served = Self.roundTrips(lines: lines, serve: true),
            let echoed = Self.roundTrips(lines: lines, serve: false)
        else {
            context.progress("stdio: pipes unavailable, round trip skipped")
            return
        }
        let median = Self.percentile(served, 0.5)
        let timing = Timing(medianMs: median * 1000, minMs: (served.min() ?? 0) * 1000, runs: served.count)
        context.emit(
            BenchRow(
                suite: name, workload: "roundtrip", n: count, key: "flashcards", impl: "pipe", timing: timing,
                ratioToFloor: median / Self.percentile(echoed, 0.5),
                metrics: [
                    ("p50_us", median * 1e6), ("p99_us", Self.percentile(served, 0.99) * 1e6),
                    ("max_us", (served.max() ?? 0) * 1e6), ("floor_p50_us", Self.percentile(echoed, 0.5) * 1e6),
                    ("floor_p99_us", Self.percentile(echoed, 0.99) * 1e6),
                ],
                note: "floor: a thread echoing each line through the same pipes"))
    }

    static func percentile(_ samples: [Double], _ fraction: Double) -> Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }

    /// Seconds per round trip: each line written, then its response line read (the server, or an echo thread).
    static func roundTrips(lines: [[UInt8]], serve: Bool) -> [Double]? {
        var toServer: [Int32] = [0, 0]
        var fromServer: [Int32] = [0, 0]
        guard pipe(&toServer) == 0, pipe(&fromServer) == 0 else { return nil }
        let serverIn = toServer[0]
        let serverOut = fromServer[1]
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            if serve {
                let transport = StdioTransport(
                    server: makeServer(), input: serverIn, output: serverOut, logLevel: .error, log: { _ in })
                _ = transport.run()
            } else {
                echo(from: serverIn, to: serverOut)
            }
            close(serverOut)
            done.signal()
        }
        thread.start()
        var reader = LineReader(fd: fromServer[0])
        let write = toServer[1]
        if serve {
            _ = writeLine(write, initialize)
            _ = reader.next()
            _ = writeLine(write, open("flashcards"))
            _ = reader.next()
        }
        var samples: [Double] = []
        samples.reserveCapacity(lines.count)
        for line in lines {
            let start = monotonicNanoseconds()
            guard writeLine(write, line) else { break }
            // Gesture notifications come before the response: read up to the response line.
            while let reply = reader.next() {
                if reply.starts(with: Array("{\"jsonrpc\":\"2.0\",\"id\"".utf8)) || !serve { break }
            }
            samples.append(Double(monotonicNanoseconds() - start) / 1e9)
        }
        close(write)
        done.wait()
        close(fromServer[0])
        close(serverIn)
        return samples
    }

    private static func writeLine(_ fd: Int32, _ line: [UInt8]) -> Bool {
        var bytes = line
        bytes.append(0x0A)
        return bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    private static func echo(from input: Int32, to output: Int32) {
        var reader = LineReader(fd: input)
        while let line = reader.next() {
            if !writeLine(output, line) { return }
        }
    }

    /// Reads lines from a file descriptor (benchmark plumbing).
    struct LineReader {
        let fd: Int32
        var buffer: [UInt8] = []
        var start = 0

        init(fd: Int32) { self.fd = fd }

        mutating func next() -> [UInt8]? {
            while true {
                if let newline = buffer[start...].firstIndex(of: 0x0A) {
                    let line = Array(buffer[start..<newline])
                    start = newline + 1
                    if start > 1 << 16 {
                        buffer.removeFirst(start)
                        start = 0
                    }
                    return line
                }
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { return nil }
                buffer.append(contentsOf: chunk[0..<count])
            }
        }
    }

    // MARK: Frame encoding

    private func encoding(_ context: BenchContext) {
        let sizes = context.quick ? [64] : [64, 1024]
        for size in sizes {
            let prefix = "stdio/encode/\(size)/frame"
            guard context.selects(prefix, impls: ["hand", "jsonencoder"]) else { continue }
            context.progress("stdio: encoding a frame of \(size) nodes")
            let frame = Self.frame(nodes: size)
            let repeats = context.quick ? 20 : 100
            var encodedBytes: [UInt8] = []
            for seq in 1...2 {  // the floor copies these bytes: have them before it first runs
                var encoder = FrameEncoder()
                encodedBytes = encoder.encode(
                    .frameNotification(FrameUpdate(seq: seq, frame: frame, forceFull: true, deltaMode: false)))
            }
            let floor = {
                var total = 0
                for _ in 0..<repeats {
                    var copy: [UInt8] = []
                    copy.reserveCapacity(encodedBytes.count)
                    for byte in encodedBytes { copy.append(byte) }
                    total += copy.count
                }
                return total
            }
            let handSamples = measureCell(
                "\(prefix)/hand", rounds: gateRounds(context),
                {
                    var encoder = FrameEncoder()
                    var total = 0
                    for seq in 1...repeats {
                        encodedBytes = encoder.encode(
                            .frameNotification(FrameUpdate(seq: seq, frame: frame, forceFull: true, deltaMode: false)))
                        total += encodedBytes.count
                    }
                    return total
                }, floor: floor)
            let hand = handSamples.cell
            let mirror = ReferenceFrame(frame)
            let jsonEncoder = JSONEncoder()
            let reference = measure(runs: context.runs) {
                var total = 0
                for _ in 0..<repeats { total += (try? jsonEncoder.encode(mirror))?.count ?? 0 }
                return total
            }
            let speedup = reference.medianMs / hand.medianMs
            context.emit(
                BenchRow(
                    suite: name, workload: "encode", n: size, key: "frame", impl: "hand", samples: handSamples,
                    metrics: [
                        ("speedup_vs_jsonencoder", speedup), ("bytes", Double(encodedBytes.count)),
                        ("mb_per_s", Double(encodedBytes.count * repeats) / (hand.medianMs / 1000) / 1e6),
                    ],
                    note: "floor: appending the encoded bytes one by one"))
            context.emit(
                BenchRow(
                    suite: name, workload: "encode", n: size, key: "frame", impl: "jsonencoder", timing: reference,
                    ratioToFloor: reference.medianMs / handSamples.floor.medianMs))
        }
    }

    /// A frame of `count` card-like nodes mid-animation (fractional geometry, text, fills, shadows).
    static func frame(nodes count: Int) -> Frame {
        var random = SplitMix64(seed: 77)
        var nodes: [FrameNode] = []
        for index in 0..<count {
            let x: Double = 16 + Double(random.next() % 1000) / 7
            let y: Double = Double(index) * 92.25 + Double(random.next() % 100) / 3
            let opacity: Double = 0.5 + Double(random.next() % 50) / 100
            let rotation: Double = Double(random.next() % 200) / 13 - 7
            let scale: Double = 1 + Double(random.next() % 10) / 97
            let node = FrameNode(
                id: NodeID("card.\(index)"), role: .card, card: CardID(UInt64(100 + index)), parent: nil,
                rect: Rect(x: x, y: y, width: 358, height: 84), z: Double(index), opacity: opacity,
                rotation: rotation, scale: scale, cornerRadius: 12,
                fill: RGBA(red: 0.2, green: 0.4, blue: Double(index % 10) / 10),
                stroke: nil, shadow: Shadow(radius: 6, offset: Vector(dx: 0, dy: 3)),
                text: [
                    FrameText(run: TextRun("Card \(index)", style: .headline, color: .white, weight: .bold)),
                    FrameText(run: TextRun("\(60 + index % 40)", style: .title, color: .white, isNumeric: true)),
                ],
                matchedGeometryID: nil, isLeaving: false)
            nodes.append(node)
        }
        return Frame(time: 1.25, viewport: Size(width: 390, height: 844), nodes: nodes, events: [], isAnimating: true)
    }
}

extension JSONValue {
    fileprivate var number: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }
}

/// The frame notification as a Codable mirror of the wire form, for Foundation's JSONEncoder.
private struct ReferenceFrame: Encodable {
    struct Params: Encodable {
        var seq: Int
        var t: Double
        var full: Bool
        var animating: Bool
        var viewport: [String: Double]
        var nodes: [Node]
    }
    struct Node: Encodable {
        struct Shadow: Encodable {
            var color: String
            var radius, dx, dy: Double
        }
        struct Run: Encodable {
            var text, style, color, weight, alignment: String
            var numeric: Bool?
        }
        var id, role: String
        var card: String?
        var x, y, width, height, z, opacity, rotation, scale, cornerRadius: Double
        var fill: String?
        var shadow: Shadow?
        var text: String?
        var runs: [Run]?
    }
    var jsonrpc = "2.0"
    var method = "frame"
    var params: Params

    static func hex(_ color: RGBA) -> String {
        let channels = [color.red, color.green, color.blue, color.alpha].map {
            Int((min(max($0, 0), 1) * 255).rounded())
        }
        return "#" + channels.map { String(format: "%02x", $0) }.joined()
    }

    init(_ frame: Frame) {
        params = Params(
            seq: 1, t: frame.time, full: true, animating: frame.isAnimating,
            viewport: ["width": frame.viewport.width, "height": frame.viewport.height],
            nodes: frame.nodes.map { node in
                Node(
                    id: node.id.rawValue, role: node.role.rawValue, card: node.card?.description,
                    x: node.rect.origin.x, y: node.rect.origin.y, width: node.rect.size.width,
                    height: node.rect.size.height, z: node.z, opacity: node.opacity, rotation: node.rotation,
                    scale: node.scale, cornerRadius: node.cornerRadius, fill: node.fill.map(Self.hex),
                    shadow: node.shadow.map {
                        Node.Shadow(color: Self.hex($0.color), radius: $0.radius, dx: $0.offset.dx, dy: $0.offset.dy)
                    },
                    text: node.text.isEmpty ? nil : node.plainText,
                    runs: node.text.map { text in
                        Node.Run(
                            text: text.run.text, style: text.run.style.rawValue, color: Self.hex(text.run.color),
                            weight: text.run.weight.rawValue, alignment: text.run.alignment.rawValue,
                            numeric: text.run.isNumeric ? true : nil)
                    })
            })
    }
}
