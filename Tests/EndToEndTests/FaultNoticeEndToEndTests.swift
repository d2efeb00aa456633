import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Faults heard the moment they happen, through the real `cardistry stdio` and terminal UI (issue 45): a host that
/// sends nothing more hears a failed save (`state.error`) and its end (`state.saved`); the terminal's status line
/// shows the fault while it lasts and not after; a terminating signal answers every request already written.
@Suite(.serialized) struct FaultNoticeEndToEndTests {
    /// The store faults a user meets: a store made read-only, a full disk, and the store's directory removed with
    /// a file put in its place (so it cannot be created again until the file goes).
    enum Fault: String, CaseIterable, Sendable {
        case readOnly, full, replacedByFile

        /// Breaks `store` (inside the tmpfs `mount`); returns what the fault's message says.
        func begin(store: String, mount: String) throws -> String {
            switch self {
            case .readOnly:
                try #require(StateTrustEndToEndTests.run("/bin/mount", ["-o", "remount,ro", mount]) == 0)
                return "Read-only"
            case .full:
                let filler = mount + "/filler"
                let block = [UInt8](repeating: 0x2E, count: 4096)
                #expect(FileManager.default.createFile(atPath: filler, contents: nil))
                let handle = try #require(FileHandle(forWritingAtPath: filler))
                while (try? handle.write(contentsOf: block)) != nil {}
                try? handle.close()
                return "No space left"
            case .replacedByFile:
                try FileManager.default.removeItem(atPath: store)
                #expect(FileManager.default.createFile(atPath: store, contents: Data("not a store".utf8)))
                return store
            }
        }

        /// Clears the fault.
        func end(store: String, mount: String) throws {
            switch self {
            case .readOnly:
                try #require(StateTrustEndToEndTests.run("/bin/mount", ["-o", "remount,rw", mount]) == 0)
            case .full:
                try FileManager.default.removeItem(atPath: mount + "/filler")
            case .replacedByFile:
                try FileManager.default.removeItem(atPath: store)
            }
        }
    }

    /// The next line within `seconds` that is a notification of `method`, skipping frames and other notices.
    static func awaitNotification(_ method: String, from server: StdioProcess, within seconds: Double) throws -> JSON? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        while Date() < deadline {
            guard let line = server.nextLine(timeout: deadline.timeIntervalSinceNow) else { return nil }
            let message = try JSON.parse(line)
            if message["method"]?.string == method { return message }
        }
        return nil
    }

    /// A host that sends nothing after its change hears the failed save within a second, and the recovery (the
    /// saver retries every second) once the fault clears; the next process finds every change. On the code before,
    /// the fault came only with the answer to a later request (0 of 5 idle hosts heard it in 3 s).
    @Test(.enabled(if: StateTrustEndToEndTests.canMount), arguments: Fault.allCases)
    func anIdleHostHearsAFaultWhenItHappensAndWhenItEnds(_ fault: Fault) throws {
        let mount = try StateTrustEndToEndTests.mountedStore("idle-\(fault.rawValue)", size: "1m")
        defer { StateTrustEndToEndTests.unmount(mount) }
        let store = mount + "/store"
        let (server, start) = try StateTrustEndToEndTests.sessionWithASavedSwipe(store: store)
        let says = try fault.begin(store: store, mount: mount)
        _ = try StateTrustEndToEndTests.swipe(server, id: 6)
        // Nothing more is sent: the notice must come by itself.
        let error = try #require(
            try Self.awaitNotification("state.error", from: server, within: 1), "no state.error within 1 s (\(fault))")
        let message = error["params"]?["message"]?.string ?? ""
        #expect(message.contains(says), "\(message)")
        try fault.end(store: store, mount: mount)
        let saved = try Self.awaitNotification("state.saved", from: server, within: 3)
        #expect(saved != nil, "no state.saved within 3 s of the fault's end (\(fault))")
        // The fault is told once, not at every retry.
        #expect(try server.request(7, "scene.list").notes.allSatisfy { $0["method"]?.string != "state.error" })
        #expect(try StateTrustEndToEndTests.finish(server) == 0)
        #expect(server.schemaProblems.isEmpty, "\(server.schemaProblems)")
        try StateTrustEndToEndTests.expectNextProcessFinds(start - 2, store: store)
    }

    /// 300 requests written, then a terminating signal: every one is answered, the state saved, status 0. On the
    /// code before, 0–75 of 300 were answered.
    @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
    func aSignalAnswersEveryRequestAlreadyWritten(_ signal: Int32) throws {
        let store = freshStorePath("signal-\(signal)")
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try StdioProcess(["--store", store])
        _ = try server.initialize()
        _ = try server.request(1, "scene.open", "{\"scene\":\"deck\",\"options\":{\"persistState\":true}}")
        let page = try server.request(2, "deck.get", "{\"offset\":0,\"limit\":1}").response
        let card = try #require(page["result"]?["cards"]?[0]?["id"]?.string, "\(page)")
        var batch = ""
        for id in 100..<400 {
            batch += "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"deck.move\",\"params\":{\"card\":\"\(card)\","
            batch += "\"to\":\(id % 7)}}\n"
        }
        server.write(bytes: Array(batch.utf8))
        kill(server.process.processIdentifier, signal)
        var answered = Set<Int>()
        for line in server.remainingLines() {
            let message = try JSON.parse(line)
            if let id = message["id"]?.number, message["result"] != nil { answered.insert(Int(id)) }
        }
        #expect(answered.count == 300 && answered == Set(100..<400), "answered \(answered.count) of 300 (\(signal))")
        #expect(server.waitForExit() == 0)
        // The last move (to slot 399 % 7 = 0) is saved.
        let next = try StdioProcess(["--store", store])
        _ = try next.initialize()
        _ = try next.request(1, "scene.open", "{\"scene\":\"deck\",\"options\":{\"persistState\":true}}")
        let first = try next.request(2, "deck.get", "{\"offset\":0,\"limit\":1}").response
        #expect(first["result"]?["cards"]?[0]?["id"]?.string == card, "\(first)")
        #expect(try StateTrustEndToEndTests.finish(next) == 0)
    }

    /// The terminal UI's status line shows a store fault while it lasts, with no key pressed after the change that
    /// met it, and clears when saving resumes. On the code before, nothing showed until the next key, and the
    /// message stayed after saving had resumed.
    @Test(.enabled(if: StateTrustEndToEndTests.canMount && TmuxHarness.executable != nil))
    func theStatusLineShowsAFaultWhileItLasts() throws {
        let mount = try StateTrustEndToEndTests.mountedStore("tui-fault", size: "1m")
        defer { StateTrustEndToEndTests.unmount(mount) }
        let store = mount + "/store"
        try withTmux { tmux in
            try tmux.type("'\(try cardistryExecutable().path)' tui --scene deck --store '\(store)'; echo EXIT=$?")
            #expect(try tmux.waitFor { $0.contains("Card Deck") })
            #expect(try tmux.waitForStillScreen())
            // A first move, saved.
            try tmux.send("\u{1B}[1;2B")
            #expect(try tmux.waitFor { _ in FileManager.default.fileExists(atPath: store + "/states/deck.json") })
            try #require(StateTrustEndToEndTests.run("/bin/mount", ["-o", "remount,ro", mount]) == 0)
            try tmux.send("\u{1B}[1;2B")
            let shown = try tmux.waitFor(timeout: 2) { $0.contains("state not saved") }
            #expect(shown, "\((try? tmux.screen()) ?? "")")
            // It stays while the fault lasts, with no key pressed.
            #expect(try tmux.waitForStillScreen(quiet: 1.5))
            #expect(try tmux.screen().contains("state not saved"))
            try #require(StateTrustEndToEndTests.run("/bin/mount", ["-o", "remount,rw", mount]) == 0)
            let cleared = try tmux.waitFor(timeout: 4) { !$0.contains("state not saved") }
            #expect(cleared, "\((try? tmux.screen()) ?? "")")
            try tmux.send("q")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("EXIT=0") })
        }
    }
}
