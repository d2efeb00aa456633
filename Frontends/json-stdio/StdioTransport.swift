import CardEngine
import CardFrontend
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a `Server` on file descriptors: the calling thread reads stdin, splits lines and serves them in order;
/// one writer thread owns stdout and writes whole lines.
///
/// SIGPIPE is ignored and a closed stdout ends the process cleanly; end of input finishes the message in hand,
/// flushes everything queued and exits 0; SIGTERM, SIGINT and SIGHUP do the same after answering every request
/// already written to the input pipe; the `exit` notification ends with the server's
/// exit status after the same flush. The one exit without a flush: a host that reads nothing for `exitTimeout`
/// seconds while output waits (the queue full, or after the end of input, `exit` or SIGTERM) ends the process
/// with status `stalledStatus` and a message on stderr.
public final class StdioTransport: @unchecked Sendable {
    /// How much is logged on stderr.
    public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
        case error, warning, info, debug

        public init?(name: String) {
            switch name {
            case "error": self = .error
            case "warning", "warn": self = .warning
            case "info": self = .info
            case "debug": self = .debug
            default: return nil
            }
        }

        public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private var server: Server
    /// Where the session record goes (`--record`), written as it happens.
    private let record: (@Sendable ([UInt8]) -> Void)?
    private let input: Int32
    private let output: Int32
    private let logLevel: LogLevel
    private let log: @Sendable (String) -> Void
    private let flags = StopFlags()
    private let queue = OutboundQueue()
    private var outbound = OutboundEncoder()
    private let writerDone = DispatchSemaphore(value: 0)
    /// Asks the serving loop to give the heap's free pages back once the host is idle (the state saver, after a
    /// snapshot: it must not trim the heap itself, see `HeapReleaseRequest`).
    private let heapRelease: HeapReleaseRequest?
    /// How long the host may read nothing while output waits before the server gives up and exits.
    private let exitTimeout: Double

    /// The default `exitTimeout`: 60 seconds.
    public static let defaultExitTimeout = 60.0
    /// The exit status when the host stopped reading and output could not be flushed (EX_IOERR).
    public static let stalledStatus: Int32 = 74

    public init(
        server: Server, input: Int32 = 0, output: Int32 = 1, logLevel: LogLevel = .warning,
        exitTimeout: Double = StdioTransport.defaultExitTimeout, log: @escaping @Sendable (String) -> Void,
        record: (@Sendable ([UInt8]) -> Void)? = nil, heapRelease: HeapReleaseRequest? = nil
    ) {
        self.heapRelease = heapRelease
        self.record = record
        self.server = server
        self.input = input
        self.output = output
        self.logLevel = logLevel
        self.exitTimeout = exitTimeout
        self.log = log
    }

    /// Serves until the end of input, SIGTERM, `exit` or a closed stdout; returns the exit status.
    ///
    /// The calling thread reads stdin itself (`poll` with the next realtime frame as its timeout), so a request
    /// crosses one thread hand-off, to the writer, on its way to a response.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        // Pipes of 1 MiB instead of 64 KiB (`POSIXIO.enlargePipe`): a million-card sort's 5.3 MB change crosses
        // in six turns of the writer and the host's reader instead of 82. Nothing changes for files or terminals.
        POSIXIO.enlargePipe(output, to: Self.pipeCapacity)
        POSIXIO.enlargePipe(input, to: Self.pipeCapacity)
        // SIGTERM, SIGINT and SIGHUP end the session alike: the state saved, the output flushed.
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [flags, queue] in
                flags.terminate()
                queue.interrupt()
            }
            source.resume()
            sources.append(source)
        }
        startWriter()
        let status = serve(start: Self.monotonicSeconds())
        for source in sources { source.cancel() }
        // Everything submitted reaches the disk before the process ends, whichever way the session ended; a state
        // another session wrote meanwhile is kept under another name, and the host told if it still reads.
        let last = server.finishState()
        if status != nil, !last.isEmpty { _ = outbound.push(last, to: queue, stallTimeout: exitTimeout) }
        server.configuration.saver?.close()
        queue.finish()
        guard let status else { return stalled() }
        // Flush everything queued, however long the host takes, as long as it reads: only `exitTimeout` seconds
        // without a byte written end the process unflushed.
        var written = queue.writtenBytes
        while writerDone.wait(timeout: .now() + exitTimeout) == .timedOut {
            let now = queue.writtenBytes
            if now == written { return stalled() }
            written = now
        }
        return status
    }

    /// The host read nothing for `exitTimeout` seconds with output waiting: says so on stderr (whatever the log
    /// level) and returns `stalledStatus`.
    private func stalled() -> Int32 {
        log(
            "cardistry stdio: the host did not read for \(exitTimeout) s; exiting with \(queue.waitingBytes) bytes of "
                + "output unwritten\n")
        return Self.stalledStatus
    }

    /// Serves until the end; returns the exit status, or nil when the host stopped reading (output stalled).
    private func serve(start: Double) -> Int32? {
        var splitter = LineSplitter(maxBytes: server.configuration.maxLineBytes)
        var pending: [LineEvent] = []
        var next = 0
        var endOfInput = false
        // When a large message went out (a million-card change), a long request (`heavyWork`) left much of the
        // heap free (`leavesHeapFree`: reopening a large deck frees its state's parsing and replay in the middle of
        // the heap, which glibc keeps), or the saver encoded a snapshot (`heapRelease`), the heap keeps its peak for
        // the next one; once the host has been quiet for `idleRelease` seconds the free pages go back to the
        // system, here, where no request waits on the heap's lock meanwhile.
        var release = IdleHeapRelease(idleSeconds: Self.idleRelease, startedAt: 0)
        let flags = flags
        heapRelease?.onRequest { flags.wake() }
        server.configuration.saver?.onNews { flags.wake() }
        let chunkSize = 1 << 16
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            if !endOfInput, flags.terminated.load(ordering: .acquiring) {
                // A terminating signal answers every request already written to the pipe (read or not), then
                // ends as the end of input does; a line without its newline is not a request yet.
                let drained = drain(into: chunk, splitter: &splitter)
                pending += drained
                endOfInput = true
                write(.info, "SIGTERM, SIGINT or SIGHUP: answering \(pending.count - next) requests read, then exiting")
                continue
            }
            if flags.outputClosed.load(ordering: .acquiring) || queue.isClosed {
                write(.info, "stdout closed: exiting")
                return 0
            }
            let now = Self.monotonicSeconds() - start
            var messages: [Outbound]
            if let due = server.nextTickTime, now >= due {
                messages = server.tick(now: now)
            } else if next < pending.count {
                switch pending[next] {
                case .line(let line):
                    if logLevel >= .debug { log("cardistry stdio: ← \(line.count) bytes\n") }
                    messages = server.receive(line: line, now: now)
                case .oversized(let length):
                    write(.warning, "discarded a line of \(length) bytes (longer than the cap)")
                    messages = server.receiveOversizedLine(length: length)
                }
                next += 1
                if next == pending.count {
                    pending.removeAll(keepingCapacity: true)
                    next = 0
                }
            } else if endOfInput {
                write(.info, "end of input: exiting")
                return 0
            } else if let news = saverNews(), !news.isEmpty {
                // A fault, or its end, while the host is idle: told now, not with the next answer.
                messages = news
            } else {
                if heapRelease?.take() == true { release.want() }
                if release.releaseIfDue(at: now) { ProcessMemory.releaseFreed() }
                let wake = [server.nextTickTime, release.due].compactMap { $0 }.min()
                if let events = read(into: chunk, splitter: &splitter, until: wake, start: start) {
                    pending += events
                } else {
                    pending += splitter.finish()
                    endOfInput = true
                }
                continue
            }
            for line in server.logs { write(.info, line) }
            server.logs.removeAll()
            if let record, !server.recorded.isEmpty {
                record(server.recorded)
                server.recorded.removeAll()
            }
            if let saver = server.configuration.saver {
                messages += saverNews() ?? []
                // No change is acknowledged while one acknowledged more than `durabilityWindow` ago is only in
                // memory (docs/protocol.md, "Durability").
                saver.awaitDurability(window: Self.durabilityWindow)
            }
            // A full queue waits for the host to read; a host that reads nothing for `exitTimeout` seconds (it may
            // be blocked writing to us, which would deadlock both) ends the server instead of holding it forever.
            let served = Self.monotonicSeconds() - start
            release.activity(at: served)
            if messages.contains(where: \.isLarge) || (served - now >= Self.heavyWork && Self.leavesHeapFree()) {
                release.want()
            }
            guard outbound.push(messages, to: queue, stallTimeout: exitTimeout) else { return nil }
            if let exitStatus = server.exitStatus { return exitStatus }
        }
    }

    /// The saver's news as notifications: conflicts kept under another name (`state.conflict`), a fault
    /// (`state.error`) and its end (`state.saved`), each logged. Nil without a saver.
    private func saverNews() -> [Outbound]? {
        guard let saver = server.configuration.saver else { return nil }
        var messages = server.keepConflicts()
        for news in saver.takeNews() {
            switch news {
            case .failed(let error):
                write(.warning, "saving the scene state failed: \(error.description)")
                messages += server.stateSaveFailed(error.description)
            case .resumed:
                write(.warning, "saving the scene state resumed")
                messages += server.stateSaved()
            case .conflict:
                break  // `keepConflicts` above took them
            }
        }
        return messages
    }

    /// Reads what is already in the input pipe without waiting (at most `drainLimit` bytes: a host that keeps
    /// writing cannot hold the exit) and splits it; at the end of input the last line counts even without its
    /// newline, as at any end of input.
    private func drain(into chunk: UnsafeMutableRawBufferPointer, splitter: inout LineSplitter) -> [LineEvent] {
        var events: [LineEvent] = []
        var total = 0
        while total < Self.drainLimit {
            var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 1, 0) > 0, fds[0].revents != 0 else { break }
            let count = Glibc.read(input, chunk.baseAddress, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                events += splitter.finish()
                break
            }
            total += count
            events += splitter.feed(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        }
        return events
    }

    /// The most a terminating signal reads from the input pipe before it stops reading: the pipe's capacity and
    /// as much again.
    static let drainLimit = 2 * pipeCapacity

    /// What the server asks its stdin and stdout pipes to hold: 1 MiB, the most Linux gives an unprivileged process
    /// by default.
    static let pipeCapacity = 1 << 20

    /// The longest an acknowledged change stays in memory only, while the saver keeps up (see `awaitDurability`).
    public static let durabilityWindow = 0.25

    /// How long the host must stay quiet after a large message before the heap's free pages are released.
    static let idleRelease = 1.0

    /// A request that took this long (seconds) may have freed a large peak: the heap's free bytes are read after it
    /// (reading them walks the heap's free lists, so not after every short request).
    static let heavyWork = 0.005

    /// Whether the heap holds an eighth or more of itself free (and 4 MB or more), which is then released after
    /// `idleRelease` of quiet: a reopened deck leaves about a sixth (70 MB of a million cards' 270, 9 MB of 100,000
    /// cards' 52); a sort, under a tenth, which the next sort reuses.
    static func leavesHeapFree() -> Bool {
        let heap = ProcessMemory.heapUsage()
        return heap.free >= 4 << 20 && heap.free >= heap.total / 8
    }

    /// Waits for input (until `deadline`, on the serving clock, when one is given) and splits what arrives;
    /// returns nil at the end of input (or a read error), an empty list on a timeout or a wake-up.
    private func read(
        into chunk: UnsafeMutableRawBufferPointer, splitter: inout LineSplitter, until deadline: Double?,
        start: Double
    ) -> [LineEvent]? {
        var timeout: Int32 = -1
        if let deadline {
            let milliseconds = ((deadline - (Self.monotonicSeconds() - start)) * 1000).rounded(.up)
            timeout = Int32(min(max(milliseconds, 0), 60_000))
        }
        var fds = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: flags.wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&fds, 2, timeout)
        if ready < 0 { return errno == EINTR ? [] : nil }
        if fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            _ = Glibc.read(flags.wakeRead, &drain, drain.count)
        }
        guard fds[0].revents != 0 else { return [] }
        let count = Glibc.read(input, chunk.baseAddress, chunk.count)
        if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        if count == 0 { return nil }
        return splitter.feed(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
    }

    private func write(_ level: LogLevel, _ message: String) {
        guard level <= logLevel else { return }
        log("cardistry stdio: \(message)\n")
    }

    private func startWriter() {
        let fd = output
        let queue = queue
        let done = writerDone
        let flags = flags
        let thread = Thread {
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 17)
            // About 64 KiB at a time: the writer's own memory stays small however much is queued. A line of 64 KiB
            // or more is written from its own bytes, not copied first (a million-card sort's 5.3 MB change: half a
            // millisecond before its first byte left).
            func flush() -> Bool {
                defer { buffer.removeAll(keepingCapacity: true) }
                return POSIXIO.writeAll(fd, buffer, progress: queue.noteWritten)
            }
            writing: while let items = queue.take(maxBytes: 1 << 16) {
                for item in items {
                    if item.bytes.count >= 1 << 16 {
                        guard flush(), POSIXIO.writeAll(fd, item.bytes, progress: queue.noteWritten) else {
                            queue.close()
                            flags.closeOutput()
                            break writing
                        }
                    } else {
                        buffer.append(contentsOf: item.bytes)
                    }
                    if item.endsLine { buffer.append(0x0A) }
                }
                guard flush() else {
                    queue.close()
                    flags.closeOutput()
                    break
                }
            }
            done.signal()
        }
        thread.start()
    }

    /// The monotonic clock in seconds (`POSIXIO.monotonicSeconds`): the realtime clock of the protocol (front ends
    /// may read real time).
    static func monotonicSeconds() -> Double { POSIXIO.monotonicSeconds() }
}
