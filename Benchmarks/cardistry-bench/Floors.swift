import CardFrontend
import CardModels
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

    /// Faults in `bytes` of fresh memory: an anonymous mapping of that size, one byte written on each page, unmapped
    /// again. What any process that comes to hold `bytes` more of resident memory pays the kernel at least; it moves
    /// with the host (the same 32 MB took 13 ms and 18 ms seconds apart on this machine, while arithmetic held
    /// steady), as a fresh process's work on new memory does. Returns the pages touched.
    static func faultIn(bytes: Int) -> Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard bytes >= page, let mapping = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            mapping != MAP_FAILED
        else { return 0 }
        defer { munmap(mapping, bytes) }
        let base = mapping.assumingMemoryBound(to: UInt8.self)
        var pages = 0
        for offset in stride(from: 0, to: bytes, by: page) {
            base[offset] = 1
            pages += 1
        }
        return pages
    }

    /// The load's divisor: `read` the whole file and parse it with Foundation's `JSONSerialization` into its
    /// generic objects (every string, number, array and dictionary allocated, nothing validated or typed). Work of
    /// the same shape as a store's load, from code outside this repository, so the ratio moves little with the
    /// machine: against a bare read and UTF-8 validation (0.1 ms for 1 MB, memory-bound), the load (3.8 ms, parsing
    /// and allocating) read 31–44× in fresh processes and 27× in another, where a 2× slowdown hid under the gate's
    /// minimum effect.
    static func foundationParse(_ path: String) -> Int {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return -1 }
        return object.count
    }

    /// The standard base64 alphabet (RFC 4648, table 1).
    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The length of `count` bytes in base64 with padding.
    static func base64Count(_ count: Int) -> Int { (count + 2) / 3 * 4 }

    /// `bytes` in base64 with padding (RFC 4648, section 4) into `output` (at least `base64Count(bytes.count)`
    /// long), by a plain loop over 3-byte groups, allocating nothing: the text any encoder of those bytes writes, at
    /// the cost of table lookups on the same core. Returns the characters written.
    static func base64(_ bytes: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let count = bytes.count
        precondition(output.count >= base64Count(count))
        return base64Alphabet.withUnsafeBufferPointer { table in
            var out = 0
            var index = 0
            while index + 3 <= count {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                output[out] = table[Int(group >> 18)]
                output[out + 1] = table[Int(group >> 12 & 63)]
                output[out + 2] = table[Int(group >> 6 & 63)]
                output[out + 3] = table[Int(group & 63)]
                index += 3
                out += 4
            }
            if index < count {
                let second = index + 1 < count ? UInt32(bytes[index + 1]) : 0
                let group = UInt32(bytes[index]) << 16 | second << 8
                output[out] = table[Int(group >> 18)]
                output[out + 1] = table[Int(group >> 12 & 63)]
                output[out + 2] = index + 1 < count ? table[Int(group >> 6 & 63)] : UInt8(ascii: "=")
                output[out + 3] = UInt8(ascii: "=")
                out += 4
            }
            return out
        }
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
/// each way: what any server on the other end of the pipes costs, whatever it computes. The pipes hold what the
/// server asks its own to hold (1 MiB, `POSIXIO.enlargePipe`), and the thread writes up to that much at a time, as
/// the server's writer does, so the floor is no slower for a large reply than the best pipe the server can have.
final class PipeEcho: @unchecked Sendable {
    private var toEcho: [Int32] = [-1, -1]
    private var fromEcho: [Int32] = [-1, -1]
    private var thread: Thread?

    init?() {
        guard pipe(&toEcho) == 0, pipe(&fromEcho) == 0 else { return nil }
        POSIXIO.enlargePipe(toEcho[1], to: 1 << 20)
        POSIXIO.enlargePipe(fromEcho[1], to: 1 << 20)
        let input = toEcho[0]
        let output = fromEcho[1]
        let thread = Thread {
            var header = [UInt64](repeating: 0, count: 2)
            var buffer = [UInt8](repeating: 0x61, count: 1 << 20)
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

/// The compute floor of a sort of `count` cards over cached key ranks: a stable counting sort (Seward 1954; Knuth
/// TAOCP vol. 3, §5.2) of a random order by random ranks with `distinct` values (with all distinct, the placement of
/// each card at its rank), writing the new order and, for
/// each new slot, its old slot — the least a sort whose diff is a permutation does once the ranks exist, whatever
/// else it computes (the diff's longest increasing subsequence, the checksum, the encoding). Measured in the same
/// run as the request it floors, so their ratio scales with the machine.
final class SortFloor: @unchecked Sendable {
    private let order: [Int32]
    /// The inverse of `order`: card → slot.
    private let positions: [Int32]
    private let ranks: [Int32]
    private let distinct: Int

    /// A random order of `count` cards and random ranks with `distinct` values (seeded).
    init(count: Int, distinct: Int, seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var order = (0..<count).map { Int32(truncatingIfNeeded: $0) }
        order.shuffle(using: &generator)
        self.order = order
        var positions = [Int32](repeating: 0, count: count)
        for (slot, card) in order.enumerated() { positions[Int(card)] = Int32(truncatingIfNeeded: slot) }
        self.positions = positions
        if distinct >= count {
            var ranks = (0..<count).map { Int32(truncatingIfNeeded: $0) }
            ranks.shuffle(using: &generator)
            self.ranks = ranks
        } else {
            ranks = (0..<count).map { _ in Int32(truncatingIfNeeded: generator.next() % UInt64(max(distinct, 1))) }
        }
        self.distinct = max(min(distinct, count), 1)
    }

    /// Milliseconds for one counting sort. O(n + distinct). With every rank distinct the ranks are the new slots, so
    /// the floor is one placing pass by card index (what the deck scene does then), not a count over n buckets.
    func milliseconds() -> Double {
        let count = order.count
        if distinct == count { return placementMilliseconds() }
        let start = monotonicNanoseconds()
        var starts = [Int](repeating: 0, count: distinct + 1)
        var sorted = [Int32](repeating: 0, count: count)
        var sources = [Int32](repeating: 0, count: count)
        ranks.withUnsafeBufferPointer { ranks in
            order.withUnsafeBufferPointer { order in
                starts.withUnsafeMutableBufferPointer { starts in
                    sorted.withUnsafeMutableBufferPointer { sorted in
                        sources.withUnsafeMutableBufferPointer { sources in
                            for card in 0..<count { starts[Int(ranks[card]) + 1] += 1 }
                            for bucket in 0..<distinct { starts[bucket + 1] += starts[bucket] }
                            for slot in 0..<count {
                                let card = Int(order[slot])
                                let bucket = Int(ranks[card])
                                let target = starts[bucket]
                                starts[bucket] = target + 1
                                sorted[target] = Int32(truncatingIfNeeded: card)
                                sources[target] = Int32(truncatingIfNeeded: slot)
                            }
                        }
                    }
                }
            }
        }
        let elapsed = Double(monotonicNanoseconds() - start) / 1e6
        withExtendedLifetime((sorted, sources)) {}
        return elapsed
    }

    /// Milliseconds for placing each card at its rank, with its old slot as the source. O(n).
    private func placementMilliseconds() -> Double {
        let count = order.count
        let start = monotonicNanoseconds()
        var sorted = [Int32](repeating: 0, count: count)
        var sources = [Int32](repeating: 0, count: count)
        ranks.withUnsafeBufferPointer { ranks in
            positions.withUnsafeBufferPointer { positions in
                sorted.withUnsafeMutableBufferPointer { sorted in
                    sources.withUnsafeMutableBufferPointer { sources in
                        for card in 0..<count {
                            let target = Int(ranks[card])
                            sorted[target] = Int32(truncatingIfNeeded: card)
                            sources[target] = positions[card]
                        }
                    }
                }
            }
        }
        let elapsed = Double(monotonicNanoseconds() - start) / 1e6
        withExtendedLifetime((sorted, sources)) {}
        return elapsed
    }
}
