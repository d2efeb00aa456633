import CardEngine
import CardScenes
import CardStdio

/// Accessibility over stdio (issue 51): what `a11y.update` costs in bytes, and what accessibility costs in time, on
/// the stdio server in process (`Server.receive` and the writer's encoder, as `stdio/pointer`).
///
/// - `a11y/update/N/SCENE/bytes` (each scene at its seed's deck, and `deck` at 1,000,000 cards; reported, not gated:
///   byte counts, which do not vary between runs): a keyboard session of the scene's own keys (focus, move, expand,
///   scroll, fan, sort…), one `input.key` per step; `bytes_per_step` is the mean size of the `a11y.update` lines a
///   step writes, `max_step_bytes` the largest, `open_tree_bytes` what the tree adds to `scene.open`'s reply.
///   At 1,000,000 cards `move_bytes` is a shift+↓'s update and `sort_bytes` an `s`'s (issue 51's figures).
/// - `a11y/session/N/deck/on` (reported, not gated; see below): the same session of the deck at N cards (1,000,000;
///   100,000 in quick mode; the scene opened before the clock starts) with accessibility on, over the same session
///   with it off as the floor, timed side by side round by round: `ratio_to_floor` is what accessibility costs when
///   on; `off_ms` and `on_ms` are the two medians. `off_bytes_equal` is 1 when the session off writes exactly the
///   lines the session on writes less its `a11y.update` lines (notifications' `seq` aside, which those take): with accessibility off nothing of it is computed or
///   written (the conformance transcripts hold the same for every other method), so a host that does not opt in
///   pays only the server's test of the flag.
///
/// Not gated: the session cell's ratio is a cost we chose to pay when a host asks, not a floor to keep, and it moves
/// with the layout work every step does with or without accessibility; the gate's cells guard that work.
struct AccessibilitySuite: BenchSuite {
    let name = "a11y"

    func run(_ context: BenchContext) {
        let sessions: [(scene: String, cards: Int?, keys: [String])] = [
            ("deck", nil, ["down", "down", "shift+down", "enter", "escape", "pagedown", "home", "p", "p", "s"]),
            ("flashcards", nil, ["space", "right", "space", "left", "space"]),
            ("wallet", nil, ["down", "shift+up", "enter", "right", "left", "escape"]),
            ("hero", nil, ["down", "enter", "escape", "down"]),
            ("scores", nil, ["right", "down", "enter", "2", "escape"]),
            ("deck", 1_000_000, ["down", "shift+down", "shift+down", "pagedown", "end", "home", "s"]),
        ]
        for session in sessions { updateBytes(context, scene: session.scene, cards: session.cards, keys: session.keys) }
        offAndOn(context)
    }

    // MARK: Bytes of a11y.update

    private func updateBytes(_ context: BenchContext, scene: String, cards: Int?, keys: [String]) {
        let count = cards ?? (try? SceneCatalog.standard.make(scene).deck.count) ?? 0
        let prefix = "a11y/update/\(count)/\(scene)"
        guard context.selects(prefix, impls: ["bytes"]) else { return }
        context.progress("a11y: a11y.update bytes per step (\(scene), \(count) cards)")
        // The tree's bytes: scene.open's reply with accessibility on less the same reply with it off.
        var openBytes = 0
        var server = StdioSuite.makeServer()
        var encoder = FrameEncoder()
        for accessibility in [false, true] {
            server = StdioSuite.makeServer()
            encoder = FrameEncoder()
            _ = server.receive(line: Self.initialize(accessibility: accessibility), now: 0)
            for item in server.receive(line: Self.open(scene, cards: cards), now: 0) {
                let bytes = encoder.encode(item)
                if Self.isReply(bytes) { openBytes = bytes.count - openBytes }
            }
        }
        var perStep: [Int] = []
        for (index, key) in keys.enumerated() {
            var bytes = 0
            for item in server.receive(line: Self.key(key, id: 10 + index, t: Double(index + 1)), now: 0) {
                let line = encoder.encode(item)
                if Self.isUpdate(line) { bytes += line.count }
            }
            perStep.append(bytes)
        }
        var metrics: [(String, Double)] = [
            ("bytes_per_step", Double(perStep.reduce(0, +)) / Double(max(1, perStep.count))),
            ("max_step_bytes", Double(perStep.max() ?? 0)), ("open_tree_bytes", Double(openBytes)),
        ]
        if cards != nil {
            if let move = keys.firstIndex(of: "shift+down") { metrics.append(("move_bytes", Double(perStep[move]))) }
            if let sort = keys.firstIndex(of: "s") { metrics.append(("sort_bytes", Double(perStep[sort]))) }
        }
        context.emit(
            BenchRow(
                suite: name, workload: "update", n: count, key: scene, impl: "bytes",
                timing: Timing(medianMs: 0, minMs: 0, runs: 1), metrics: metrics,
                note: "keys: " + keys.joined(separator: " ")))
    }

    // MARK: The same session off and on

    private func offAndOn(_ context: BenchContext) {
        let count = context.quick ? 100_000 : 1_000_000
        let prefix = "a11y/session/\(count)/deck"
        guard context.selects(prefix, impls: ["on"]) else { return }
        context.progress("a11y: the same deck session with accessibility off and on (\(count) cards)")
        let keys = (0..<40).map { ["down", "shift+down", "pagedown", "up", "home"][$0 % 5] }
        let lines = keys.enumerated().map { Self.key($0.element, id: 10 + $0.offset, t: Double($0.offset + 1)) }
        func opened(_ accessibility: Bool) -> (Server, FrameEncoder) {
            var server = StdioSuite.makeServer()
            var encoder = FrameEncoder()
            _ = server.receive(line: Self.initialize(accessibility: accessibility), now: 0)
            for item in server.receive(line: Self.open("deck", cards: count), now: 0) {
                blackHole(encoder.encode(item))
            }
            return (server, encoder)
        }
        func play(_ state: inout (Server, FrameEncoder)) -> [[UInt8]] {
            var written: [[UInt8]] = []
            for line in lines {
                for item in state.0.receive(line: line, now: 0) { written.append(state.1.encode(item)) }
            }
            return written
        }
        let samples = measureCell(
            "\(prefix)/on", rounds: gateRounds(context), prepare: { opened(true) }, { play(&$0) },
            prepareFloor: { opened(false) }, floor: { play(&$0) })
        // What each writes, once more, untimed: off must be on without its accessibility lines.
        var on = opened(true)
        var off = opened(false)
        let onLines = play(&on).filter { !Self.isUpdate($0) }.map(Self.withoutSequence)
        let offLines = play(&off).map(Self.withoutSequence)
        var row = BenchRow(
            suite: name, workload: "session", n: count, key: "deck", impl: "on", samples: samples,
            metrics: [
                ("off_ms", samples.floor.medianMs), ("on_ms", samples.cell.medianMs),
                ("off_bytes_equal", onLines == offLines ? 1 : 0),
                ("off_bytes", Double(offLines.reduce(0) { $0 + $1.count })),
            ],
            note: "\(lines.count) keys; floor: the same session with accessibility off")
        row.reportOnly = "accessibility's cost when a host opts in, measured side by side; off is the floor"
        context.emit(row)
    }

    // MARK: Lines

    static func initialize(accessibility: Bool) -> [UInt8] {
        Array(
            ("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"1.0\","
                + "\"viewport\":{\"width\":390,\"height\":844}\(accessibility ? ",\"accessibility\":true" : "")}}")
                .utf8)
    }

    static func open(_ scene: String, cards: Int?) -> [UInt8] {
        let options = cards.map { ",\"options\":{\"cardCount\":\($0)}" } ?? ""
        return Array(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"scene.open\",\"params\":{\"scene\":\"\(scene)\"\(options)}}"
                .utf8)
    }

    /// An `input.key` line: `shift+KEY` presses KEY with Shift.
    static func key(_ key: String, id: Int, t: Double) -> [UInt8] {
        let shift = key.hasPrefix("shift+")
        let name = shift ? String(key.dropFirst(6)) : key
        return Array(
            ("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"input.key\",\"params\":{\"key\":\"\(name)\""
                + "\(shift ? ",\"modifiers\":[\"shift\"]" : ""),\"t\":\(t)}}").utf8)
    }

    /// Whether an encoded line is an `a11y.update` notification.
    static func isUpdate(_ line: [UInt8]) -> Bool {
        line.starts(with: Array("{\"jsonrpc\":\"2.0\",\"method\":\"a11y.update\"".utf8))
    }

    /// The line without its notification's `"seq":N` member (the on session's `a11y.update`s take numbers of the
    /// sequence, so the notifications after them are numbered further on).
    static func withoutSequence(_ line: [UInt8]) -> [UInt8] {
        let key = Array("\"seq\":".utf8)
        guard let start = line.indices.first(where: { line[$0...].starts(with: key) }) else { return line }
        var end = start + key.count
        while end < line.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(line[end]) { end += 1 }
        return Array(line[..<start] + line[end...])
    }

    /// Whether an encoded line is a reply (it has an id, in the position the encoder writes it).
    static func isReply(_ line: [UInt8]) -> Bool { line.starts(with: Array("{\"jsonrpc\":\"2.0\",\"id\":".utf8)) }
}
