import CardEngine
import CardPersistence
import CardScenes
import CardTUI
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A million-card deck end to end (100,000 cards in quick mode), against the goals of issue 16.
///
/// Through the real `cardistry stdio --store DIR` (the executable built beside this one) over pipes, the deck
/// scene opened with `options: {cardCount, persistState: true}` in a fresh store. Each request is timed from
/// writing its line to reading the last byte of its response, every line in between read and counted (the
/// `deck.changed`, `haptic` and `gesture` notifications it causes come first). Workloads (key `deck`, impl
/// `stdio`):
/// - `open`: the first `scene.open` (nothing saved yet); goal 1 s;
/// - `deck-sort`: `deck.sort` by title, colour and sortOrder in turn, ascending and descending; goal p99 ≤ 50 ms;
/// - `deck-move`: `deck.move` of a card to a random place; goal p99 ≤ 50 ms;
/// - `drop`: a long-press drop — `input.pointer` down on a card, `clock.advance` past the long press, two
///   moves, and the up that drops it, timed; goal p99 ≤ 16 ms (one frame);
/// - `action-sort`: `scene.action sort`; goal p99 ≤ 50 ms;
/// - `reopen`: `scene.close` and the same `scene.open` again, restoring the saved state; goal p99 ≤ 1 s;
/// - `reorder-memory` (impl `rss`, reported, not gated): a fresh server's RSS after its first, 1,000th and
///   2,000th host reorder; goal growth ≤ 1.1 over the first 1,000.
///
/// In the terminal UI (`tui-move`, impl `tui`): the TUI app in process (its headless core, as the run loop drives
/// it, with a `JSONFileStore` in a fresh directory), the deck scene with the same generated deck; 5,000
/// consecutive shift+down moves, each timed from the key to the frame's ANSI bytes; goal p99 ≤ 16 ms.
///
/// Every row: `median_ms` the p50, `p99_ms`, `goal_ms`, `meets_goal` (1 or 0), and `ratio_to_floor` = p99 / goal
/// (the "floor" here is the goal: ≤ 1 meets it, and the baseline gate catches it rising). Rows that change the
/// order also give `bytes_per_op` (median bytes written for one request), `moves_per_op` (moves in the diff the
/// server reported, counted in its `"moves":[…]` array; the change's size) and `bytes_goal_ratio` = bytes /
/// (4 KiB + 64 B per move): at most 1 when the output is proportional to the change rather than to the deck.
/// The server's result and notification shapes are only counted, never parsed further, so the suite works with
/// a server that ships whole orders and with one that ships diffs.
///
/// Loops stop early past a time budget (a server that needs seconds per request would otherwise run for hours);
/// the row's `runs` and note say how many were measured.
struct MillionSuite: BenchSuite {
    let name = "million"

    func run(_ context: BenchContext) {
        let n = context.quick ? 100_000 : 1_000_000
        let stdioWorkloads = ["open", "deck-sort", "deck-move", "drop", "action-sort", "reopen"]
        if stdioWorkloads.contains(where: { context.selects("million/\($0)/\(n)/deck", impls: ["stdio"]) }) {
            stdio(context, n: n)
        }
        if context.selects("million/tui-move/\(n)/deck", impls: ["tui"]) { tui(context, n: n) }
        if context.selects("million/reorder-memory/\(n)/deck", impls: ["rss"]) {
            let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("cardistry")
            if FileManager.default.isExecutableFile(atPath: executable.path) {
                reorderMemory(context, n: n, executable: executable)
            }
        }
    }

    // MARK: Goals and rows

    private struct Samples {
        var milliseconds: [Double] = []
        var bytes: [Int] = []
        var moves: [Int] = []
        var errors = 0

        mutating func add(_ reply: StdioSession.Reply) {
            milliseconds.append(reply.milliseconds)
            bytes.append(reply.bytes)
            if let moves = reply.moves { self.moves.append(moves) }
            if reply.isError { errors += 1 }
        }
    }

    private static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    private static func median(_ values: [Int]) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return Double(sorted[sorted.count / 2])
    }

    private func emit(
        _ context: BenchContext, workload: String, n: Int, impl: String, samples: Samples, goalMs: Double,
        changes: Bool, note: String? = nil
    ) {
        guard !samples.milliseconds.isEmpty else { return }
        let p50 = Self.percentile(samples.milliseconds, 0.5)
        let p99 = Self.percentile(samples.milliseconds, 0.99)
        var metrics: [(String, Double)] = [
            ("p99_ms", p99), ("goal_ms", goalMs), ("meets_goal", p99 <= goalMs ? 1 : 0),
        ]
        if changes {
            let bytes = Self.median(samples.bytes)
            let moves = Self.median(samples.moves)
            metrics.append(("bytes_per_op", bytes))
            if moves.isFinite {
                metrics.append(("moves_per_op", moves))
                metrics.append(("bytes_goal_ratio", bytes / (4096 + 64 * moves)))
            }
        }
        if samples.errors > 0 { metrics.append(("errors", Double(samples.errors))) }
        context.emit(
            BenchRow(
                suite: name, workload: workload, n: n, key: "deck", impl: impl,
                timing: Timing(
                    medianMs: p50, minMs: samples.milliseconds.min() ?? .nan, runs: samples.milliseconds.count),
                ratioToFloor: p99 / goalMs, metrics: metrics,
                note: (note.map { $0 + "; " } ?? "") + "\(samples.milliseconds.count) runs; floor: the goal"))
    }

    // MARK: Through the stdio server

    private func stdio(_ context: BenchContext, n: Int) {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("cardistry")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            context.progress("million: \(executable.path) not built, stdio rows skipped")
            return
        }
        guard let store = Self.temporaryDirectory("stdio") else { return }
        defer { try? FileManager.default.removeItem(atPath: store) }
        guard let session = StdioSession(executable: executable, arguments: ["stdio", "--store", store]) else {
            context.progress("million: cannot start \(executable.path)")
            return
        }
        defer { session.finish() }
        let runs = context.quick ? 5 : 20
        let reopenRuns = context.quick ? 2 : 5
        let budget = context.quick ? 20.0 : 120.0  // seconds per workload
        let open =
            "\"scene.open\",\"params\":{\"scene\":\"deck\",\"options\":{\"cardCount\":\(n),\"persistState\":true}}"
        guard
            session.request(
                "\"initialize\",\"params\":{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}")
                != nil
        else { return }
        context.progress("million: opening a \(n)-card deck through cardistry stdio")
        var opened = Samples()
        guard let first = session.request(open), !first.isError else {
            context.progress("million: scene.open failed")
            return
        }
        opened.add(first)
        // Card ids to move: the first page of the deck.
        guard let page = session.request("\"deck.get\",\"params\":{\"offset\":0,\"limit\":200}", keepLine: true)
        else { return }
        let ids = Self.cardIDs(in: page.line)
        guard !ids.isEmpty else {
            context.progress("million: deck.get returned no ids")
            return
        }
        var generator = SplitMix64(seed: 16)
        var sorts = Samples()
        var moves = Samples()
        var drops = Samples()
        var actionSorts = Samples()
        var dropsChanged = 0
        var clock = 1.0
        let keys = ["title", "color", "sortOrder"]
        let start = monotonicNanoseconds()
        func withinBudget(_ since: UInt64) -> Bool { Double(monotonicNanoseconds() - since) / 1e9 < budget }
        for run in 0..<runs {
            context.progress("million: round \(run + 1) of \(runs)")
            let order = run % 2 == 0 ? "ascending" : "descending"
            if let reply = session.request(
                "\"deck.sort\",\"params\":{\"by\":\"\(keys[run % 3])\",\"order\":\"\(order)\"}")
            {
                sorts.add(reply)
            }
            let card = ids[Int(generator.next() % UInt64(ids.count))]
            let destination = Int(generator.next() % UInt64(n))
            if let reply = session.request("\"deck.move\",\"params\":{\"card\":\"\(card)\",\"to\":\(destination)}") {
                moves.add(reply)
            }
            // A long-press drop: down on the stack, past the long press, drag three cards down, up.
            func pointer(_ phase: String, _ y: Double, _ time: Double) -> StdioSession.Reply? {
                session.request(
                    "\"input.pointer\",\"params\":{\"phase\":\"\(phase)\",\"x\":195,\"y\":\(y),\"t\":\(time)}")
            }
            _ = pointer("down", 300, clock)
            _ = session.request("\"clock.advance\",\"params\":{\"to\":\(clock + 0.6)}")
            _ = pointer("move", 360, clock + 0.65)
            _ = pointer("move", 480, clock + 0.7)
            if let reply = pointer("up", 480, clock + 0.75) {
                drops.add(reply)
                if reply.deckChanged > 0 { dropsChanged += 1 }
            }
            _ = session.request("\"clock.advance\",\"params\":{\"to\":\(clock + 1.5)}")
            clock += 2
            if let reply = session.request(
                "\"scene.action\",\"params\":{\"name\":\"sort\",\"by\":\"\(keys[(run + 1) % 3])\",\"order\":\"\(order)\"}"
            ) {
                actionSorts.add(reply)
            }
            if !withinBudget(start) { break }
        }
        var reopens = Samples()
        let reopenStart = monotonicNanoseconds()
        for run in 0..<reopenRuns {
            context.progress("million: reopen \(run + 1) of \(reopenRuns)")
            _ = session.request("\"scene.close\"")
            if let reply = session.request(open) { reopens.add(reply) }
            if !withinBudget(reopenStart) { break }
        }
        emit(context, workload: "open", n: n, impl: "stdio", samples: opened, goalMs: 1000, changes: false)
        emit(context, workload: "deck-sort", n: n, impl: "stdio", samples: sorts, goalMs: 50, changes: true)
        emit(context, workload: "deck-move", n: n, impl: "stdio", samples: moves, goalMs: 50, changes: true)
        emit(
            context, workload: "drop", n: n, impl: "stdio", samples: drops, goalMs: 16, changes: true,
            note: "\(dropsChanged) drops changed the order")
        emit(context, workload: "action-sort", n: n, impl: "stdio", samples: actionSorts, goalMs: 50, changes: true)
        emit(context, workload: "reopen", n: n, impl: "stdio", samples: reopens, goalMs: 1000, changes: false)
    }

    /// The resident set size of a fresh server (its own store, the deck just opened) after its first host
    /// reorder, after 1,000 and after 2,000 (200 and 400 in quick mode): `deck.move`s of random cards to random
    /// places, every 50th a `deck.sort` by the next key. Each mark after the first is read twice: at once (the heap
    /// still holds the peak of the last sort, kept for the next one) and after the host has been quiet for 1.5 s
    /// (the server gives free pages back after 1 s of quiet). `rss_growth`: after 1,000, quiet, over after the
    /// first — the goal, ≤ 1.1; `rss_growth_busy`: the same read at once; `rss_plateau`: after 2,000 over
    /// after 1,000, both quiet (memory that grows per reorder shows here). Reported as `impl` `rss`, not gated: RSS
    /// depends on the allocator and the machine.
    private func reorderMemory(_ context: BenchContext, n: Int, executable: URL) {
        guard context.selects("million/reorder-memory/\(n)/deck", impls: ["rss"]) else { return }
        guard let store = Self.temporaryDirectory("memory") else { return }
        defer { try? FileManager.default.removeItem(atPath: store) }
        guard let session = StdioSession(executable: executable, arguments: ["stdio", "--store", store]) else { return }
        defer { session.finish() }
        _ = session.request(
            "\"initialize\",\"params\":{\"protocolVersion\":\"1.0\",\"viewport\":{\"width\":390,\"height\":844}}")
        _ = session.request(
            "\"scene.open\",\"params\":{\"scene\":\"deck\",\"options\":{\"cardCount\":\(n),\"persistState\":true}}")
        guard let page = session.request("\"deck.get\",\"params\":{\"offset\":0,\"limit\":200}", keepLine: true)
        else { return }
        let ids = Self.cardIDs(in: page.line)
        guard !ids.isEmpty else { return }
        var generator = SplitMix64(seed: 1_000)
        let reorders = context.quick ? 200 : 1_000
        let keys = ["title", "color", "sortOrder", "id"]
        var marks: [Int] = []
        let start = monotonicNanoseconds()
        for index in 0..<(2 * reorders) {
            if index % 50 == 49 {
                _ = session.request("\"deck.sort\",\"params\":{\"by\":\"\(keys[(index / 50) % 4])\"}")
            } else {
                let card = ids[Int(generator.next() % UInt64(ids.count))]
                let destination = Int(generator.next() % UInt64(n))
                _ = session.request("\"deck.move\",\"params\":{\"card\":\"\(card)\",\"to\":\(destination)}")
            }
            if index == 0 || index == reorders - 1 || index == 2 * reorders - 1 {
                marks.append(StdioSuite.residentBytes(of: session.processIdentifier) ?? 0)
            }
            if index == reorders - 1 || index == 2 * reorders - 1 {
                usleep(1_500_000)
                marks.append(StdioSuite.residentBytes(of: session.processIdentifier) ?? 0)
            }
            if index % 500 == 499 { context.progress("million: \(index + 1) host reorders") }
        }
        let elapsed = Double(monotonicNanoseconds() - start) / 1e6
        guard marks.count == 5, !marks.contains(0) else {
            context.progress("million: RSS unavailable, reorder-memory row skipped")
            return
        }
        // marks: first, after `reorders` at once and quiet, after twice as many at once and quiet.
        let growth = Double(marks[2]) / Double(marks[0])
        context.emit(
            BenchRow(
                suite: name, workload: "reorder-memory", n: n, key: "deck", impl: "rss",
                timing: Timing(medianMs: elapsed, minMs: elapsed, runs: 1),
                metrics: [
                    ("rss_first_mb", Double(marks[0]) / 1_048_576),
                    ("rss_\(reorders)_busy_mb", Double(marks[1]) / 1_048_576),
                    ("rss_\(reorders)_mb", Double(marks[2]) / 1_048_576),
                    ("rss_\(2 * reorders)_mb", Double(marks[4]) / 1_048_576), ("rss_growth", growth),
                    ("rss_growth_busy", Double(marks[1]) / Double(marks[0])),
                    ("rss_plateau", Double(marks[4]) / Double(marks[2])), ("meets_goal", growth <= 1.1 ? 1 : 0),
                ],
                note:
                    "a fresh server's RSS after its first, \(reorders)th and \(2 * reorders)th host reorder (moves, a sort "
                    + "every 50th), the later ones after 1.5 s of quiet; goal growth ≤ 1.1"))
    }

    /// The card ids (`"id":"123"`) in a `deck.get` result.
    private static func cardIDs(in line: [UInt8]) -> [String] {
        let pattern = Array("\"id\":\"".utf8)
        var ids: [String] = []
        var index = 0
        while index + pattern.count < line.count {
            if line[index..<(index + pattern.count)].elementsEqual(pattern) {
                var end = index + pattern.count
                while end < line.count, line[end] >= 0x30, line[end] <= 0x39 { end += 1 }
                if end > index + pattern.count {
                    ids.append(String(decoding: line[(index + pattern.count)..<end], as: UTF8.self))
                }
                index = end
            } else {
                index += 1
            }
        }
        return ids
    }

    static func temporaryDirectory(_ label: String) -> String? {
        var template = Array("/tmp/cardistry-bench-million-\(label)-XXXXXX".utf8CString)
        guard let pointer = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        return String(cString: pointer)
    }

    // MARK: In the terminal UI

    private func tui(_ context: BenchContext, n: Int) {
        guard let root = Self.temporaryDirectory("tui") else { return }
        defer { try? FileManager.default.removeItem(atPath: root) }
        guard let store = try? JSONFileStore(root: root) else { return }
        let columns = 120
        let rows = 40
        var app = TUIApp(
            columns: columns, rows: rows,
            configuration: TUIApp.Configuration(
                catalog: .standard, sceneOptions: SceneOptions(cardCount: n), store: store))
        context.progress("million: the terminal UI with a \(n)-card deck")
        guard app.open("deck", at: 0) else {
            context.progress("million: the TUI could not open the deck scene")
            return
        }
        var buffer = CellBuffer(width: columns, height: rows)
        var writer = ANSIWriter(depth: .trueColor)
        var output: [UInt8] = []
        output.reserveCapacity(1 << 16)
        _ = app.draw(at: 0, into: &buffer)
        writer.render(buffer, into: &output)
        let moves = 5_000
        let budget = context.quick ? 20.0 : 120.0
        var samples = Samples()
        var time = 1.0
        let start = monotonicNanoseconds()
        for move in 0..<moves {
            let sample = milliseconds { () -> Int in
                _ = app.handle(.key(KeyInput("down", shift: true)), at: time)
                _ = app.draw(at: time, into: &buffer)
                output.removeAll(keepingCapacity: true)
                writer.render(buffer, into: &output)
                return output.count
            }
            samples.milliseconds.append(sample)
            time += 0.05
            if move % 1_000 == 999 { context.progress("million: \(move + 1) TUI moves") }
            if Double(monotonicNanoseconds() - start) / 1e9 > budget { break }
        }
        let stopped = samples.milliseconds.count < moves ? "stopped after \(Int(budget)) s" : nil
        emit(
            context, workload: "tui-move", n: n, impl: "tui", samples: samples, goalMs: 16, changes: false,
            note: [stopped, "\(columns)x\(rows) cells, shift+down, key to ANSI bytes"].compactMap { $0 }.joined(
                separator: "; "))
    }
}

/// A `cardistry stdio` process driven one request at a time: each request waits for its response, and a reader
/// thread counts every byte and line the server writes.
final class StdioSession: @unchecked Sendable {
    /// What one request cost: time to its response, bytes written meanwhile (its notifications and its response),
    /// the moves of the diff it reported (nil if none was seen), its `deck.changed` notifications, and whether
    /// the response was an error.
    struct Reply {
        var milliseconds: Double
        var bytes: Int
        var moves: Int?
        var deckChanged: Int
        var isError: Bool
        /// The response line, when asked for (and at most 1 MiB).
        var line: [UInt8]
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let condition = NSCondition()
    private var nextID = 1
    private let scanner = Scanner()
    private var reader: Thread?

    init?(executable: URL, arguments: [String]) {
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let fd = output.fileHandleForReading.fileDescriptor
        let scanner = scanner
        let condition = condition
        let thread = Thread {
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                condition.lock()
                chunk.withUnsafeBufferPointer { scanner.scan(UnsafeBufferPointer(rebasing: $0[0..<count])) }
                condition.broadcast()
                condition.unlock()
            }
            condition.lock()
            scanner.closed = true
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 1 << 20
        reader = thread
        thread.start()
    }

    /// Sends `{"jsonrpc":"2.0","id":N,"method":<methodAndParams>}` and waits for the response with id N.
    func request(_ methodAndParams: String, keepLine: Bool = false) -> Reply? {
        let id = nextID
        nextID += 1
        let line = Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\(methodAndParams)}\n".utf8)
        condition.lock()
        scanner.expect(id: id, keepLine: keepLine)
        condition.unlock()
        let start = monotonicNanoseconds()
        guard Self.writeAll(input.fileHandleForWriting.fileDescriptor, line) else { return nil }
        condition.lock()
        defer { condition.unlock() }
        while scanner.reply == nil && !scanner.closed { condition.wait() }
        guard var reply = scanner.reply else { return nil }
        reply.milliseconds = Double(scanner.replyTime &- start) / 1e6
        return reply
    }

    /// The server's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Ends the session: `shutdown`, `exit`, end of input, and waits for the process.
    func finish() {
        _ = request("\"shutdown\"")
        let exit = Array("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}\n".utf8)
        _ = Self.writeAll(input.fileHandleForWriting.fileDescriptor, exit)
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        reader = nil
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Splits the output into lines as it streams (lines may be tens of megabytes: only their first bytes are
    /// kept), counting bytes, recognising responses by `{"jsonrpc":"2.0","id":N` and `deck.changed`
    /// notifications, and counting the entries of each line's `"moves":[…]` array. Used under the session's lock.
    final class Scanner: @unchecked Sendable {
        var closed = false
        private(set) var reply: Reply?
        private(set) var replyTime: UInt64 = 0
        private var expected = -1
        private var keepLine = false
        private var head: [UInt8] = []
        private var kept: [UInt8] = []
        private var bytesSinceRequest = 0
        private var deckChanged = 0
        private var changeMoves: Int?
        // The `"moves":[` matcher and the bracket depth inside the array.
        private static let pattern = Array("\"moves\":[".utf8)
        private var matched = 0
        private var depth = 0
        private var lineMoves: Int?
        // A large reorder's diff is `{"sources":"<base64>","moved":M}`: the base64 is skipped with memchr (a host
        // decodes it, it does not scan it byte by byte) and M read as the change's moves.
        private static let sourcesPattern = Array("\"sources\":\"".utf8)
        private static let movedPattern = Array("\"moved\":".utf8)
        private var sourcesMatched = 0
        private var movedMatched = 0
        private var inSources = false
        private var movedValue: Int?
        private static let responsePrefix = Array("{\"jsonrpc\":\"2.0\",\"id\":".utf8)
        private static let deckChangedPrefix = Array("{\"jsonrpc\":\"2.0\",\"method\":\"deck.changed\"".utf8)

        func expect(id: Int, keepLine: Bool) {
            expected = id
            self.keepLine = keepLine
            reply = nil
            bytesSinceRequest = 0
            deckChanged = 0
            changeMoves = nil
        }

        func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
            var index = 0
            let count = bytes.count
            while index < count {
                if inSources {
                    // Up to the closing quote in one step.
                    let rest = count - index
                    if let quote = memchr(bytes.baseAddress! + index, 0x22, rest) {
                        let skipped = bytes.baseAddress!.distance(to: quote.assumingMemoryBound(to: UInt8.self))
                        bytesSinceRequest += skipped - index
                        index = skipped
                        inSources = false
                    } else {
                        bytesSinceRequest += rest
                        return
                    }
                }
                let byte = bytes[index]
                index += 1
                bytesSinceRequest += 1
                if byte == 0x0A {
                    endLine()
                    continue
                }
                if head.count < 64 { head.append(byte) }
                if keepLine, kept.count < 1 << 20 { kept.append(byte) }
                if let value = movedValue {
                    if byte >= 0x30 && byte <= 0x39 {
                        movedValue = value * 10 + Int(byte - 0x30)
                        continue
                    }
                    lineMoves = (lineMoves ?? 0) + value
                    movedValue = nil
                }
                if depth > 0 {
                    if byte == 0x5B {  // [
                        depth += 1
                        if depth == 2 { lineMoves = (lineMoves ?? 0) + 1 }
                    } else if byte == 0x5D {  // ]
                        depth -= 1
                    }
                    continue
                }
                if Self.advance(&matched, Self.pattern, byte) {
                    depth = 1
                    lineMoves = lineMoves ?? 0
                }
                if Self.advance(&sourcesMatched, Self.sourcesPattern, byte) { inSources = true }
                if Self.advance(&movedMatched, Self.movedPattern, byte) { movedValue = 0 }
            }
        }

        /// Feeds `byte` to a matcher of `pattern`; true when the pattern just completed.
        private static func advance(_ matched: inout Int, _ pattern: [UInt8], _ byte: UInt8) -> Bool {
            if byte == pattern[matched] {
                matched += 1
                if matched == pattern.count {
                    matched = 0
                    return true
                }
            } else {
                matched = byte == pattern[0] ? 1 : 0
            }
            return false
        }

        private func endLine() {
            defer {
                head.removeAll(keepingCapacity: true)
                kept.removeAll(keepingCapacity: true)
                matched = 0
                depth = 0
                lineMoves = nil
                sourcesMatched = 0
                movedMatched = 0
                inSources = false
                movedValue = nil
            }
            if head.starts(with: Self.deckChangedPrefix) {
                deckChanged += 1
                if let lineMoves { changeMoves = (changeMoves ?? 0) + lineMoves }
                return
            }
            guard head.starts(with: Self.responsePrefix) else { return }
            var id = 0
            var index = Self.responsePrefix.count
            while index < head.count, head[index] >= 0x30, head[index] <= 0x39 {
                id = id * 10 + Int(head[index] - 0x30)
                index += 1
            }
            guard id == expected else { return }
            let isError = head[index...].starts(with: Array(",\"error\"".utf8))
            reply = Reply(
                milliseconds: 0, bytes: bytesSinceRequest, moves: changeMoves ?? lineMoves, deckChanged: deckChanged,
                isError: isError, line: keepLine ? kept : [])
            replyTime = monotonicNanoseconds()
        }
    }
}
