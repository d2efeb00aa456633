import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Floors shared by suites: the least any implementation must do for the same bytes, measured on this machine in
/// the same round as the cell, so that their quotient scales with the machine.
enum Floors {
    /// The save floor: `write` every byte to a new file and `fsync` it.
    static func rawWrite(_ bytes: [UInt8], to path: String) -> Int {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        guard bytes.withUnsafeBytes({ FileIO.writeAll(descriptor, $0.baseAddress!, $0.count) }) else { return -1 }
        fsync(descriptor)
        return bytes.count
    }

    /// The load floor: `read` the whole file into one buffer and validate it as UTF-8.
    static func rawRead(_ path: String, size: Int) -> Int {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        defer { close(descriptor) }
        let buffer = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            var total = 0
            while total < buffer.count {
                let count = read(descriptor, buffer.baseAddress! + total, buffer.count - total)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                total += count
            }
            initialized = total
        }
        return String(validating: buffer, as: UTF8.self)?.utf8.count ?? -1
    }
}

/// The floor of a request through real pipes: the same request bytes written to a thread that reads them and
/// writes back as many bytes as the server's reply had, read to the end. Pipes, copies and one thread wake-up
/// each way: what any server on the other end of the pipes costs, whatever it computes.
final class PipeEcho: @unchecked Sendable {
    private var toEcho: [Int32] = [-1, -1]
    private var fromEcho: [Int32] = [-1, -1]
    private var thread: Thread?

    init?() {
        guard pipe(&toEcho) == 0, pipe(&fromEcho) == 0 else { return nil }
        let input = toEcho[0]
        let output = fromEcho[1]
        let thread = Thread {
            var header = [UInt64](repeating: 0, count: 2)
            var buffer = [UInt8](repeating: 0x61, count: 1 << 16)
            while true {
                let gotHeader = header.withUnsafeMutableBytes { FileIO.readAll(input, $0.baseAddress!, $0.count) }
                guard gotHeader, header[0] != UInt64.max else { return }
                var remaining = Int(header[0])
                while remaining > 0 {
                    let chunk = min(remaining, buffer.count)
                    guard buffer.withUnsafeMutableBytes({ FileIO.readAll(input, $0.baseAddress!, chunk) }) else {
                        return
                    }
                    remaining -= chunk
                }
                remaining = Int(header[1])
                while remaining > 0 {
                    let chunk = min(remaining, buffer.count)
                    guard buffer.withUnsafeBytes({ FileIO.writeAll(output, $0.baseAddress!, chunk) }) else { return }
                    remaining -= chunk
                }
            }
        }
        thread.stackSize = 1 << 20
        self.thread = thread
        thread.start()
    }

    /// Milliseconds for `requestBytes` out and `replyBytes` back.
    func roundTrip(requestBytes: Int, replyBytes: Int) -> Double {
        let request = [UInt8](repeating: 0x62, count: requestBytes)
        var reply = [UInt8](repeating: 0, count: min(max(replyBytes, 1), 1 << 16))
        let start = monotonicNanoseconds()
        var header: [UInt64] = [UInt64(requestBytes), UInt64(replyBytes)]
        _ = header.withUnsafeMutableBytes { FileIO.writeAll(toEcho[1], $0.baseAddress!, $0.count) }
        _ = request.withUnsafeBytes { FileIO.writeAll(toEcho[1], $0.baseAddress!, $0.count) }
        var remaining = replyBytes
        while remaining > 0 {
            let chunk = min(remaining, reply.count)
            guard reply.withUnsafeMutableBytes({ FileIO.readAll(fromEcho[0], $0.baseAddress!, chunk) }) else { break }
            remaining -= chunk
        }
        return Double(monotonicNanoseconds() - start) / 1e6
    }

    /// Stops the thread and closes the pipes.
    func finish() {
        var stop: [UInt64] = [UInt64.max, 0]
        _ = stop.withUnsafeMutableBytes { FileIO.writeAll(toEcho[1], $0.baseAddress!, $0.count) }
        for fd in toEcho + fromEcho { close(fd) }
        thread = nil
    }
}
