import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A tmux server of our own (`tmux -L <socket>`), so tests never touch the user's sessions and can be torn
/// down whole. Every wait polls `capture-pane` with a bounded timeout instead of sleeping a fixed time.
///
/// Made only by `withTmux`, which tears the server, the program it runs and the store directory down when the
/// test's body returns or throws (a `deinit` is not relied on: it did not run, and servers piled up).
final class TmuxHarness {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/tmux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    let socket: String
    let session = "e2e"
    let storeDirectory: String

    /// Starts a detached `columns × rows` session running a plain shell.
    fileprivate init(columns: Int, rows: Int) throws {
        socket = "cardistry-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        storeDirectory = NSTemporaryDirectory() + socket
        try FileManager.default.createDirectory(atPath: storeDirectory, withIntermediateDirectories: true)
        do {
            _ = try run([
                // The shell's environment is this process's, but for NO_COLOR (a test runner may set it when its
                // output is not a terminal): tests that want it set it on the command line.
                "new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)", "-e",
                "COLORTERM=truecolor", "env -u NO_COLOR /bin/sh",
            ])
            // A watchdog window ends the server within a second of this test process dying (a crash, a kill -9: no
            // defer runs then); tmux ends a server whose sessions are gone.
            try run([
                "new-window", "-d", "-t", session,
                "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; tmux -L \(socket) -f /dev/null kill-server",
            ])
            // The shell's prompt ("$ ", or "# " for root).
            #expect(try waitFor { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty })
        } catch {
            close()
            throw error
        }
    }

    /// Ends the program in the pane, the tmux server and its shell, and removes the store directory. Kills the
    /// server by pid if `kill-server` did not end it.
    fileprivate func close() {
        let server = (try? format("#{pid}")).flatMap { pid_t($0) }
        for pid in (try? programPIDs()) ?? [] { kill(pid, SIGKILL) }
        // Every pane's process, the watchdog's among them (it outlives the server while this process lives).
        let panes = (try? run(["list-panes", "-s", "-t", session, "-F", "#{pane_pid}"])) ?? ""
        for pid in panes.split(separator: "\n").compactMap({ pid_t($0) }) where pid > 0 { kill(pid, SIGKILL) }
        _ = try? run(["kill-server"])
        if let server, server > 0, kill(server, 0) == 0 { kill(server, SIGKILL) }
        try? FileManager.default.removeItem(atPath: storeDirectory)
    }

    /// Runs a tmux command on our server and returns its standard output.
    ///
    /// Spawned with `posix_spawn` and reaped with `waitpid`, output through a file: the tmux server that
    /// `new-session` forks inherits the client's descriptors, so anything waiting for a pipe to close (as
    /// Foundation's `Process` does) would wait for the server to exit.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw HarnessError("tmux is not installed") }
        let outputPath = storeDirectory + "/tmux-output-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of this process may reach tmux: its server outlives the call, and a pipe end it inherited
        // (another test's child stdin, say) would never close, so that child would never see end of input.
        _ = spawnActionsCloseFrom(&actions, 3)
        let argv = [executable, "-L", socket, "-f", "/dev/null"] + arguments
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, &cArguments, environ)
        guard status == 0 else { throw HarnessError("cannot start tmux: \(status)") }
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    /// Types a command line into the shell and presses Enter.
    func type(_ line: String) throws {
        try run(["send-keys", "-t", session, "-l", line])
        try run(["send-keys", "-t", session, "Enter"])
    }

    /// Sends bytes to the program as if typed (escape sequences included).
    func send(_ bytes: String) throws {
        try run(["send-keys", "-t", session, "-l", bytes])
    }

    /// A left click (press and release) at a 0-based cell, as SGR mouse reports.
    func click(column: Int, row: Int) throws {
        try send("\u{1B}[<0;\(column + 1);\(row + 1)M\u{1B}[<0;\(column + 1);\(row + 1)m")
    }

    /// A left-button drag from one cell to another in `steps` moves, as SGR mouse reports. With `holdUntilChanged`
    /// the press is held until the screen shows its effect, colours included (a long press: its haptic pulse
    /// brightens the card; the engine's timer runs on real time), for at most 5 seconds, before moving.
    func drag(from start: (Int, Int), to end: (Int, Int), steps: Int = 6, holdUntilChanged: Bool = false) throws {
        let before = try styledScreen()
        try send("\u{1B}[<0;\(start.0 + 1);\(start.1 + 1)M")
        if holdUntilChanged {
            let deadline = Date().addingTimeInterval(5)
            var changed = false
            while !changed && Date() < deadline {
                changed = try styledScreen() != before
                if !changed { usleep(10_000) }
            }
            #expect(changed, "the long press showed nothing")
        }
        for step in 1...steps {
            let column = start.0 + (end.0 - start.0) * step / steps
            let row = start.1 + (end.1 - start.1) * step / steps
            try send("\u{1B}[<32;\(column + 1);\(row + 1)M")
        }
        try send("\u{1B}[<0;\(end.0 + 1);\(end.1 + 1)m")
    }

    func screen() throws -> String { try run(["capture-pane", "-p", "-t", session]) }

    /// The screen with its colours and attributes (SGR escapes), to see changes that move no character.
    func styledScreen() throws -> String { try run(["capture-pane", "-p", "-e", "-t", session]) }

    func lines() throws -> [String] {
        try screen().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func format(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", session, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen every 20 ms until `predicate` holds or `timeout` seconds pass.
    func waitFor(timeout: Double = 10, _ predicate: (String) -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if predicate(try screen()) { return true }
            usleep(20_000)
        }
        return predicate(try screen())
    }

    /// Polls every 20 ms until the screen has not changed for `quiet` seconds (an animation came to rest), for at
    /// most `timeout` seconds.
    func waitForStillScreen(quiet: Double = 0.3, timeout: Double = 10) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try screen()
        var since = Date()
        while Date() < deadline {
            usleep(20_000)
            let now = try screen()
            if now != last {
                last = now
                since = Date()
            } else if Date().timeIntervalSince(since) >= quiet {
                return true
            }
        }
        return false
    }

    /// The terminal state the restore path must bring back.
    func terminalFlags() throws -> String {
        try format(
            "alt=#{alternate_on} mouse=#{mouse_any_flag}#{mouse_button_flag}#{mouse_all_flag}#{mouse_sgr_flag}"
                + " cursor=#{cursor_flag} wrap=#{wrap_flag}")
    }

    /// The process ids of the shell's children (the program it is running).
    func programPIDs() throws -> [pid_t] {
        let shell = try format("#{pane_pid}")
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { pid_t($0) }
    }

    /// Polls every 20 ms until the shell has no child process left, for at most `timeout` seconds.
    func waitForExit(timeout: Double = 10) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while try !programPIDs().isEmpty && Date() < deadline { usleep(20_000) }
        return try programPIDs().isEmpty
    }

    /// The command line that starts cardistry in this harness's store.
    func command(_ arguments: String) throws -> String {
        "'\(try cardistryExecutable().path)' \(arguments) --store '\(storeDirectory)'; echo EXIT=$?"
    }
}

/// Runs `body` with a fresh tmux server of `columns × rows` and tears it down afterwards, whether `body` returns
/// or throws.
func withTmux<Result>(columns: Int = 80, rows: Int = 24, _ body: (TmuxHarness) throws -> Result) throws -> Result {
    let tmux = try TmuxHarness(columns: columns, rows: rows)
    defer { tmux.close() }
    return try body(tmux)
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The TUI driven through tmux: keys, raw SGR mouse bytes, and the screen read back with capture-pane.
@Suite(.serialized) struct TUIEndToEndTests {
    static let students = ["Alice", "Bob", "Charlie", "Diana", "Eve"]

    /// The names in the order they appear on the screen, top to bottom.
    static func order(_ lines: [String], of names: [String]) -> [String] {
        names.compactMap { name in lines.firstIndex { $0.contains(name) }.map { ($0, name) } }.sorted { $0.0 < $1.0 }
            .map(\.1)
    }

    @Test func noArgumentsOnATerminalOpensTheHomeScreenAndQQuits() throws {
        try withTmux { tmux in
            let before = try tmux.terminalFlags()
            try tmux.type("CARDISTRY_HOME='\(tmux.storeDirectory)' '\(try cardistryExecutable().path)'; echo EXIT=$?")
            #expect(try tmux.waitFor { $0.contains("choose a scene") && $0.contains("scores") })
            #expect(try tmux.format("#{alternate_on}") == "1")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
            #expect(try tmux.terminalFlags() == before)
        }
    }

    /// A new user types the scene's name alone, as `cardistry tui deck`: it opens the scene, as `--scene deck` does
    /// (it was "unexpected argument 'deck'").
    @Test func aSceneNamedAloneOpensIt() throws {
        try withTmux { tmux in
            try tmux.type(try tmux.command("tui flashcards"))
            #expect(try tmux.waitFor { $0.contains("Flashcards") && !$0.contains("choose a scene") })
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("choose a scene") })
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
    }

    @Test func theScoresSliderReRanksTheCards() throws {
        try withTmux { tmux in
            try tmux.type(try tmux.command("tui --scene scores"))
            #expect(try tmux.waitFor { $0.contains("Test 1") && $0.contains("●") })
            let lines = try tmux.lines()
            let before = Self.order(lines, of: Self.students)
            #expect(before.count == 5)
            let knobRow = try #require(lines.firstIndex { $0.contains("●") })
            let knobColumn = try #require(lines[knobRow].unicodeScalars.firstIndex(of: "●")).utf16Offset(
                in: lines[knobRow])
            let fiveColumn = try #require(lines[knobRow + 1].firstIndex(of: "5")).utf16Offset(in: lines[knobRow + 1])
            try tmux.drag(from: (knobColumn, knobRow), to: (fiveColumn, knobRow))
            #expect(try tmux.waitFor { $0.contains("Test 5") })
            // Wait for the re-sort to settle, then compare the order.
            #expect(
                try tmux.waitFor { screen in
                    let order = Self.order(screen.split(separator: "\n").map(String.init), of: Self.students)
                    return order.count == 5 && order != before
                })
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
    }

    @Test func aFlashcardSwipedAwayDisappears() throws {
        try withTmux { tmux in
            try tmux.type(try tmux.command("tui --scene flashcards"))
            #expect(try tmux.waitFor { $0.contains("╭") })
            let lines = try tmux.lines()
            // The top card is the last box drawn: its prompt is the boldest text; take the text in the middle row of
            // the lowest box.
            let bottomEdge = try #require(lines.lastIndex { $0.contains("╰") })
            let topEdge = try #require(lines[..<bottomEdge].lastIndex { $0.contains("╭") })
            let middle = (topEdge + bottomEdge) / 2
            let prompt = try #require(
                lines[topEdge...bottomEdge].map {
                    $0.replacingOccurrences(of: "│", with: " ").trimmingCharacters(in: .whitespaces)
                }
                .first { !$0.isEmpty && !$0.hasPrefix("╭") && !$0.hasPrefix("╰") && !$0.contains("─") })
            let column = 40
            try tmux.drag(from: (column, middle), to: (2, middle), steps: 8)
            #expect(try tmux.waitFor { !$0.contains(prompt) })
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
    }

    @Test func aLongPressDragInWalletReordersTheCards() throws {
        let brands = ["DISCOVER", "UnionPay", "AMEX", "Mastercard", "VISA"]
        try withTmux { tmux in
            try tmux.type(try tmux.command("tui --scene wallet"))
            // Wait for the launch animation to settle: every brand on screen.
            #expect(try tmux.waitFor { screen in brands.allSatisfy { screen.contains($0) } })
            // The staggered launch springs take about half a second to come to rest: wait for a still screen.
            #expect(try tmux.waitForStillScreen())
            let lines = try tmux.lines()
            let before = Self.order(lines, of: brands)
            #expect(before.count == 5)
            // The front card is the last one listed (drawn lowest); press its middle, hold past the 0.05 s long
            // press, and drag it up about five rows (over 100 points: two places back in the stack).
            let front = try #require(before.last)
            let frontRow = try #require(lines.firstIndex { $0.contains(front) })
            // Its bottom edge: light, or heavy when it has the focus (focus starts on the first card).
            let bottomEdge = try #require(lines[frontRow...].firstIndex { $0.contains("╰") || $0.contains("┗") })
            let row = (frontRow + bottomEdge) / 2
            try tmux.drag(from: (40, row), to: (40, row - 5), steps: 10, holdUntilChanged: true)
            #expect(
                try tmux.waitFor { screen in
                    let order = Self.order(screen.split(separator: "\n").map(String.init), of: brands)
                    return order.count == 5 && order != before && order.last != front
                })
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
    }

    /// SIGTSTP restores the terminal before stopping; `fg` (SIGCONT) re-enters and repaints; SIGWINCH (a resize)
    /// re-lays the scene out for the new size with a full repaint.
    @Test func suspendResumeAndResize() throws {
        try withTmux { tmux in
            let before = try tmux.terminalFlags()
            try tmux.type(try tmux.command("tui --scene scores"))
            #expect(try tmux.waitFor { $0.contains("Test 1") })
            let pids = try tmux.programPIDs()
            #expect(pids.count == 1)
            for pid in pids { kill(pid, SIGTSTP) }
            #expect(try tmux.waitFor { $0.contains("Stopped") })
            #expect(try tmux.terminalFlags() == before)
            try tmux.type("fg")
            #expect(try tmux.waitFor { $0.contains("Test 1") && $0.contains("q back") })
            #expect(try tmux.format("#{alternate_on} #{mouse_any_flag}#{mouse_sgr_flag}") == "1 11")
            try tmux.run(["resize-window", "-t", tmux.session, "-x", "120", "-y", "40"])
            #expect(
                try tmux.waitFor { screen in
                    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
                    return lines.count >= 40 && lines[39].hasSuffix("q back") && lines[39].count >= 110
                })
            try tmux.send("q")
            try tmux.send("q")
            // The stopped job's command list was abandoned by the shell, so wait for the process rather than EXIT=.
            #expect(try tmux.waitForExit())
            #expect(try tmux.terminalFlags() == before)
        }
    }

    /// SIGINT, SIGTERM and SIGHUP each restore the terminal: the main screen, every mouse mode off, the cursor
    /// and autowrap back, and the termios settings (`stty -g`) exactly as before. (After SIGINT an interactive
    /// shell abandons the rest of the command line, so only the other two print the exit status.)
    @Test(arguments: [(SIGINT, nil), (SIGTERM, "143"), (SIGHUP, "129")] as [(Int32, String?)])
    func aSignalRestoresTheTerminal(signal: Int32, status: String?) throws {
        try withTmux { tmux in
            let before = try tmux.terminalFlags()
            let directory = tmux.storeDirectory
            try tmux.type("stty -g > '\(directory)/before'; echo SAVED=\"\"OK")
            #expect(try tmux.waitFor { $0.contains("SAVED=OK") })
            try tmux.type(try tmux.command("tui --scene scores"))
            #expect(try tmux.waitFor { $0.contains("Test 1") })
            #expect(try tmux.format("#{alternate_on} #{mouse_any_flag}#{mouse_sgr_flag}") == "1 11")
            let pids = try tmux.programPIDs()
            #expect(pids.count == 1)
            for pid in pids { kill(pid, signal) }
            #expect(try tmux.waitForExit())
            if let status { #expect(try tmux.waitFor { $0.contains("EXIT=\(status)") }) }
            #expect(try tmux.terminalFlags() == before)
            try tmux.type("stty -g > '\(directory)/after'; echo DONE=\"\"OK")
            #expect(try tmux.waitFor { $0.contains("DONE=OK") })
            let saved = try String(contentsOfFile: directory + "/before", encoding: .utf8)
            let restored = try String(contentsOfFile: directory + "/after", encoding: .utf8)
            #expect(!saved.isEmpty)
            #expect(saved == restored)
        }
    }

    /// SIGTERM, SIGINT or SIGHUP right after a keyboard move leaves the move saved: the saver is flushed on the
    /// way out, before the signal's default action ends the process.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalRightAfterAMoveLeavesTheMoveSaved(_ signal: Int32) throws {
        try withTmux { tmux in
            try tmux.type(try tmux.command("tui --scene deck"))
            #expect(try tmux.waitFor { $0.contains("Card Deck") })
            #expect(try tmux.waitForStillScreen())
            let before = try tmux.screen()
            // shift+down moves the focused (first) card one place down; the signal follows as soon as it shows.
            try tmux.send("\u{1B}[1;2B")
            #expect(try tmux.waitFor { $0 != before })
            let pids = try tmux.programPIDs()
            #expect(pids.count == 1)
            for pid in pids { kill(pid, signal) }
            #expect(try tmux.waitForExit())
            let state = try String(contentsOfFile: tmux.storeDirectory + "/states/deck.json", encoding: .utf8)
            #expect(state.contains("\"order\":[\"402\",\"401\""), "\(state.prefix(300))")
        }
    }

    @Test(arguments: [
        (["tui", "--scene", "nope"], "unknown scene 'nope'"), (["tui", "--fps", "0"], "--fps"),
        (["tui", "--cards", "0"], "--cards"), (["tui", "--deck", "a", "--cards", "3"], "one of --deck and --cards"),
        (["tui", "extra"], "unknown scene 'extra'"), (["tui", "deck", "extra"], "unexpected argument 'extra'"),
        (["tui", "--scene", "deck", "wallet"], "unexpected argument 'wallet'"),
        (["tui", "wallet", "--cards", "10"], "scene 'wallet' takes no card count"),
        (["tui", "--scene", "wallet", "--cards", "10"], "scene 'wallet' takes no card count"),
        (["tui", "--slow-motion", "0.5"], "option '--slow-motion' must be 1…100, got 0.5"),
        (["tui", "--slow-motion", "fast"], "option '--slow-motion' needs a finite number, got 'fast'"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let (status, out, err) = try runCardistry(arguments)
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err.contains(message))
        #expect(err.contains("Usage: cardistry tui"))
    }

    @Test func withoutATerminalTheTUISaysSoAndExitsWithStatus2() throws {
        let (status, out, err) = try runCardistry(["tui"])
        #expect(status == 2)
        #expect(out.isEmpty)
        #expect(err.contains("must be a terminal"))
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+): close every descriptor from `lowest` on in the child.
/// The Glibc module does not export it (it is a GNU extension of <spawn.h>).
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32
