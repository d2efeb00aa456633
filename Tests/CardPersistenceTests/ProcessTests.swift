import CardModels
import CardPersistence
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Process-level tests with the `cardistry-store-stress` child: SIGKILL at random moments during saves, and two
/// processes saving one store at once.
@Suite(.serialized) struct ProcessTests {
    /// The two versions the child alternates between (the same as the child's `version(_:)`).
    static let versions = [DeckGenerator.deck(count: 150, seed: 1), DeckGenerator.deck(count: 150, seed: 2)]

    @Test func killingAWriterAtRandomMomentsNeverCorruptsTheDocument() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        try store.saveDeck(Self.versions[0], named: "crash", expectedRevision: 0)
        var random = SplitMix64(seed: 0xC0FFEE)
        var lastRevision = 1
        for kill in 0..<220 {
            let child = try ChildProcess(arguments: ["alternate", directory.path, "crash"])
            #expect(child.readLine() == "ready")
            // A seeded delay of 0–8 ms: the child is somewhere in its save loop when it dies.
            usleep(UInt32(random.next() % 8000))
            child.kill()
            #expect(child.wait() == .signalled(SIGKILL))
            // The next open sweeps the dead writer's temporary file; the document is one of the two versions.
            let reopened = try JSONFileStore(root: directory.path)
            #expect(entries(reopened.directory(.deck)).allSatisfy { !$0.contains(".tmp-") }, "kill \(kill)")
            let loaded = try reopened.loadDeck(named: "crash")
            #expect(Self.versions.contains(loaded.deck), "kill \(kill): the document is neither version")
            // Each child completed at least one save before "ready", so the revision only ever grows.
            #expect(loaded.revision > lastRevision, "kill \(kill)")
            lastRevision = loaded.revision
        }
    }

    @Test func twoProcessesSavingAtOnceLoseNoUpdate() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        try store.saveDeck(DeckGenerator.deck(count: 200, seed: 5), named: "shared", expectedRevision: 0)
        let count = 60
        let children = try ["A", "B"].map {
            try ChildProcess(arguments: ["hammer", directory.path, "shared", String(count), $0])
        }
        var revisions: [Int] = []
        var conflicts = 0
        for child in children {
            while let line = child.readLine() {
                if line.hasPrefix("ok ") {
                    revisions.append(Int(line.dropFirst(3)) ?? -1)
                } else if line == "conflict" {
                    conflicts += 1
                } else {
                    Issue.record("child said: \(line)")
                }
            }
            #expect(child.wait() == .exited(0))
        }
        #expect(revisions.count + conflicts == 2 * count)
        // Every successful save got its own revision, and they are exactly 2…1+successes: no update was lost.
        #expect(revisions.sorted() == Array(2...(1 + revisions.count)))
        let final = try store.loadDeck(named: "shared")
        #expect(final.revision == 1 + revisions.count)
        #expect(final.deck.count == 200)
    }

    @Test func aStaleProcessGetsTheConflict() throws {
        let directory = TemporaryDirectory()
        let store = try JSONFileStore(root: directory.path)
        let mine = DeckGenerator.deck(count: 10, seed: 1)
        try store.saveDeck(mine, named: "d", expectedRevision: 0)
        let child = try ChildProcess(arguments: ["stale", directory.path, "d"])
        #expect(child.readLine() == "loaded 1")
        try store.saveDeck(DeckGenerator.deck(count: 10, seed: 2), named: "d", expectedRevision: 1)
        child.send("go\n")
        #expect(child.readLine() == "conflict 1 2")
        #expect(child.wait() == .exited(3))
        #expect(try store.loadDeck(named: "d").deck == DeckGenerator.deck(count: 10, seed: 2))
    }
}

/// A child process with pipes on stdin and stdout, started with `posix_spawn`.
final class ChildProcess {
    enum Termination: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []

    init(arguments: [String]) throws {
        let executable = try Self.stressExecutable()
        var stdinPipe: [Int32] = [0, 0]
        var stdoutPipe: [Int32] = [0, 0]
        guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0 else { throw SpawnError(message: "pipe failed") }
        // Only the dup2'ed ends reach the child (dup2 clears close-on-exec on the copies).
        for descriptor in stdinPipe + stdoutPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        // No other descriptor of the test process (other tests' pipes) reaches the child.
        _ = spawnActionsCloseFrom(&actions, 3)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(stdinPipe[0])
        close(stdoutPipe[1])
        guard status == 0 else {
            close(stdinPipe[1])
            close(stdoutPipe[0])
            throw SpawnError(message: "posix_spawn failed: \(status)")
        }
        pid = child
        input = stdinPipe[1]
        output = stdoutPipe[0]
    }

    deinit {
        close(input)
        close(output)
    }

    /// The next line of the child's output, or nil at the end.
    func readLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(output, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                defer { buffer = [] }
                return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self)
            }
            buffer += chunk[0..<count]
        }
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the child to end (blocking in `waitpid`, not sleeping).
    func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// The stress executable, next to the test bundle (SwiftPM builds both into the same directory).
    static func stressExecutable() throws -> String {
        var directory = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("cardistry-store-stress")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            directory = directory.deletingLastPathComponent()
        }
        throw SpawnError(message: "cardistry-store-stress is not built next to the tests")
    }
}

struct SpawnError: Error {
    var message: String
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which the Glibc module does not export.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
func spawnActionsCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32
