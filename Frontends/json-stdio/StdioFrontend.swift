import CardEngine
import CardFrontend
import CardPersistence

#if canImport(Glibc)
    import Glibc
#endif

/// `cardistry stdio`: serves the engine over JSON-RPC 2.0, one JSON message per line on stdin/stdout.
public struct StdioFrontend: Frontend {
    /// The scenes the server offers.
    public let catalog: SceneCatalog
    /// Loads the scene descriptions hosts send with `scene.define` (nil: refused).
    public let definer: SceneDefiner?
    /// The version the server reports in `initialize`.
    public let version: String

    /// The stdio front end serving `catalog`'s scenes and reporting `version`.
    public init(catalog: SceneCatalog, version: String = CardistryInfo.version, definer: SceneDefiner? = nil) {
        self.catalog = catalog
        self.definer = definer
        self.version = version
    }

    public var name: String { "stdio" }
    public var summary: String { "drive the engine over JSON-RPC 2.0 on stdin/stdout (newline-delimited JSON)" }
    public var usage: String {
        """
        Usage: cardistry stdio [--store DIR] [--log-level LEVEL] [--max-line-bytes N] [--exit-timeout SECONDS]
                               [--record FILE]

        Serves JSON-RPC 2.0 on standard input and output: one compact JSON message per line. Standard output
        carries protocol messages only; logs go to standard error. The protocol is described in docs/protocol.md
        and docs/protocol.schema.json.

        Options:
          --store DIR             where deck.save and deck.load keep decks (default: $CARDISTRY_HOME,
                                  $XDG_DATA_HOME/cardistry or ~/.local/share/cardistry)
          --log-level LEVEL       error, warning (default), info or debug
          --max-line-bytes N      the longest accepted line in bytes (default 8388608; at least 4194304)
          --exit-timeout SECONDS  how long a host may read nothing while output waits (a full output queue, or
                                  at the end) before the server gives up with status 74 (default 60)
          --record FILE           record every scene's session to FILE as it happens (a header per scene, a line
                                  per input and frame, each written at once); `cardistry replay FILE` replays it

        """
    }

    public func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        withUsage(io: io) {
            let parsed = try ParsedArguments(
                arguments, options: ["store", "log-level", "max-line-bytes", "exit-timeout", "record"], flags: [])
            guard parsed.positionals.isEmpty else { throw UsageError("unexpected argument '\(parsed.positionals[0])'") }
            var level = StdioTransport.LogLevel.warning
            if let text = parsed.value("log-level") {
                guard let chosen = StdioTransport.LogLevel(name: text) else {
                    throw UsageError("option '--log-level' must be error, warning, info or debug, got '\(text)'")
                }
                level = chosen
            }
            let maxLine = try parsed.int("max-line-bytes") ?? Server.defaultMaxLineBytes
            guard maxLine >= 4 << 20, maxLine <= 1 << 30 else {
                throw UsageError("option '--max-line-bytes' must be between 4194304 and 1073741824")
            }
            // The store's directory is only resolved here; it is created when something is first saved, and a
            // store that cannot be created reports why on that save.
            var exitTimeout = StdioTransport.defaultExitTimeout
            if let text = parsed.value("exit-timeout") {
                guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                    throw UsageError("option '--exit-timeout' must be a number of seconds in 0 < s ≤ 86400")
                }
                exitTimeout = seconds
            }
            var store: (any DeckStore)?
            do {
                store = LazyFileStore(
                    root: try StoreLocation.resolve(explicit: parsed.value("store"), environment: environment))
            } catch {
                io.err("cardistry stdio: no deck store (\(error)); deck.save and deck.load will fail\n")
            }
            // After a snapshot the saver asks for the heap's free pages to go back; the serving loop releases them
            // once the host is idle (a trim on the saver's thread stalled requests: `HeapReleaseRequest`).
            let heapRelease = HeapReleaseRequest()
            let saver = store.map { StateSaver(store: $0, afterSnapshot: heapRelease.request) }
            var configuration = Server.Configuration(
                provider: CatalogSceneProvider(catalog: catalog, store: store, saver: saver), store: store,
                serverVersion: version, maxLineBytes: maxLine, saver: saver)
            configuration.definer = definer
            var recordFile: Int32 = -1
            if let path = parsed.value("record") {
                recordFile = RecordFile.open(path)
                guard recordFile >= 0 else {
                    io.err("cardistry stdio: cannot open \(path) to record: \(String(cString: strerror(errno)))\n")
                    return 1
                }
                configuration.records = true
            }
            defer { RecordFile.close(recordFile) }
            let file = recordFile
            var recorder: (@Sendable ([UInt8]) -> Void)?
            if file >= 0 { recorder = { (bytes: [UInt8]) in RecordFile.write(bytes, to: file) } }
            let transport = StdioTransport(
                server: Server(configuration: configuration), logLevel: level, exitTimeout: exitTimeout, log: io.err,
                record: recorder, heapRelease: heapRelease)
            return transport.run()
        }
    }
}

/// Writes a session record straight to its file descriptor (no user-space buffer, so a killed server leaves every
/// line written before).
enum RecordFile {
    /// Opens (creating or truncating) `path` for writing; −1 on failure (`errno` says why).
    static func open(_ path: String) -> Int32 {
        Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    }

    static func close(_ file: Int32) {
        if file >= 0 { _ = Glibc.close(file) }
    }

    static func write(_ bytes: [UInt8], to file: Int32) {
        POSIXIO.writeAll(file, bytes)
    }
}
