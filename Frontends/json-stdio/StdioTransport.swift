import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a `Server` on file descriptors: one thread reads and splits lines, the calling thread serves them in
/// order, and one thread owns stdout and writes whole lines.
///
/// SIGPIPE is ignored and a closed stdout ends the process cleanly; end of input finishes the message in hand,
/// flushes and exits 0; SIGTERM does the same; the `exit` notification ends with the server's exit status.
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
    private let input: Int32
    private let output: Int32
    private let logLevel: LogLevel
    private let log: @Sendable (String) -> Void
    private let inbox = Inbox()
    private let queue = OutboundQueue()
    private let writerDone = DispatchSemaphore(value: 0)

    public init(
        server: Server, input: Int32 = 0, output: Int32 = 1, logLevel: LogLevel = .warning,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.server = server
        self.input = input
        self.output = output
        self.logLevel = logLevel
        self.log = log
    }

    /// Serves until the end of input, SIGTERM, `exit` or a closed stdout; returns the exit status.
    public func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let termSource = DispatchSource.makeSignalSource(signal: SIGTERM, queue: .global())
        termSource.setEventHandler { [inbox, queue] in
            inbox.terminate()
            queue.interrupt()
        }
        termSource.resume()
        let start = Self.monotonicSeconds()
        startReader()
        startWriter()
        var status: Int32 = 0
        loop: while true {
            let deadline = server.nextTickTime.map {
                Date(timeIntervalSinceNow: $0 - (Self.monotonicSeconds() - start))
            }
            let event = inbox.next(deadline: deadline)
            let now = Self.monotonicSeconds() - start
            var messages: [Outbound] = []
            switch event {
            case .input(.line(let line)):
                if logLevel >= .debug { log("cardistry stdio: ← \(line.count) bytes\n") }
                messages = server.receive(line: line, now: now)
            case .input(.oversized(let length)):
                write(.warning, "discarded a line of \(length) bytes (the limit is a line of at most the cap)")
                messages = server.receiveOversizedLine(length: length)
            case .timeout:
                messages = server.tick(now: now)
            case .endOfInput:
                write(.info, "end of input: exiting")
                break loop
            case .terminate:
                write(.info, "SIGTERM: exiting")
                break loop
            case .outputClosed:
                write(.info, "stdout closed: exiting")
                break loop
            }
            for line in server.logs { write(.info, line) }
            server.logs.removeAll()
            queue.push(messages)
            if queue.isClosed {
                write(.info, "stdout closed: exiting")
                break
            }
            if let exitStatus = server.exitStatus {
                status = exitStatus
                break
            }
        }
        termSource.cancel()
        queue.finish()
        // Flush what is queued; a host that never reads again cannot hold the process forever.
        _ = writerDone.wait(timeout: .now() + 10)
        return status
    }

    private func write(_ level: LogLevel, _ message: String) {
        guard level <= logLevel else { return }
        log("cardistry stdio: \(message)\n")
    }

    private func startReader() {
        let fd = input
        let inbox = inbox
        let maxBytes = server.configuration.maxLineBytes
        let thread = Thread {
            var splitter = LineSplitter(maxBytes: maxBytes)
            let chunkSize = 1 << 16
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 1)
            defer { buffer.deallocate() }
            while true {
                let count = read(fd, buffer.baseAddress, chunkSize)
                if count < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if count == 0 { break }
                for event in splitter.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) {
                    inbox.post(.input(event))
                }
            }
            for event in splitter.finish() { inbox.post(.input(event)) }
            inbox.post(.endOfInput)
        }
        thread.start()
    }

    private func startWriter() {
        let fd = output
        let queue = queue
        let done = writerDone
        let inbox = inbox
        let thread = Thread {
            var encoder = FrameEncoder()
            var buffer: [UInt8] = []
            buffer.reserveCapacity(1 << 16)
            while let items = queue.take() {
                buffer.removeAll(keepingCapacity: true)
                for item in items {
                    buffer.append(contentsOf: encoder.encode(item))
                    buffer.append(0x0A)
                }
                if !Self.writeAll(fd, buffer) {
                    queue.close()
                    inbox.outputClosed()
                    break
                }
            }
            done.signal()
        }
        thread.start()
    }

    /// Writes every byte, retrying short writes and EINTR; false when the output is gone (EPIPE or another error).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard var pointer = raw.baseAddress else { return true }
            var remaining = raw.count
            while remaining > 0 {
                let written = Glibc.write(fd, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                pointer += written
                remaining -= written
            }
            return true
        }
    }

    /// CLOCK_MONOTONIC in seconds: the realtime clock of the protocol (front ends may read real time).
    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
