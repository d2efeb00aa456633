import Foundation

/// The queue between the serving thread and the one thread that writes stdout. It holds encoded lines only, so
/// its bound is in real bytes: what waits is exactly what will be written.
///
/// Back-pressure: when more than `maxPendingBytes` wait, `push` blocks — the server stops reading stdin — until the
/// writer catches up, so memory stays bounded (about `maxPendingBytes` plus the writer's one chunk). A `frame`
/// notification still waiting can be taken back (`remove(frame:)`) so a newer one replaces it (see
/// `OutboundEncoder`); nothing else is ever dropped. Thread-safe.
final class OutboundQueue: @unchecked Sendable {
    /// One encoded line (without its newline); `frame` identifies a `frame` notification that may be replaced.
    /// An item that does not end its line (`endsLine` false: the head of a `streamed` message) is followed by the
    /// rest of the line, pushed next by the same thread.
    struct Item: Sendable {
        var bytes: [UInt8]
        var frame: Int?
        var endsLine = true

        /// The bytes written for the item: its own and its newline.
        var writtenCount: Int { bytes.count + (endsLine ? 1 : 0) }
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    /// Items before `head` were taken (dropped lazily, so taking is O(taken), not O(queued)).
    private var head = 0
    private var pendingBytes = 0
    private var written = 0
    private var finished = false
    private var closed = false
    private var interrupted = false
    /// The most bytes waiting before `push` blocks: 32 MiB by default.
    let maxPendingBytes: Int

    init(maxPendingBytes: Int = 32 << 20) {
        self.maxPendingBytes = maxPendingBytes
    }

    /// The bytes waiting to be taken by the writer (the encoded lines, exactly).
    var waitingBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return pendingBytes
    }

    /// The bytes the writer has written so far (its progress, for the exit timeout).
    var writtenBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return written
    }

    /// Queues `item` after everything queued; while more than `maxPendingBytes` wait it blocks (unless the output
    /// is closed or the queue interrupted). With a `stallTimeout`, it gives up and returns false once the writer
    /// has written nothing for that many seconds; otherwise it returns true.
    @discardableResult
    func push(_ item: Item, stallTimeout: Double? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        var progress = written
        var deadline = stallTimeout.map { Date(timeIntervalSinceNow: $0) }
        while pendingBytes > maxPendingBytes && !closed && !interrupted {
            guard let limit = deadline else {
                condition.wait()
                continue
            }
            if !condition.wait(until: limit) && written == progress { return false }
            if written != progress {
                progress = written
                deadline = stallTimeout.map { Date(timeIntervalSinceNow: $0) }
            }
        }
        guard !closed else { return true }
        pendingBytes += item.writtenCount
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Takes back the frame notification `frame` if the writer has not taken it yet; whether it did.
    func remove(frame: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let index = items[head...].lastIndex(where: { $0.frame == frame }) else { return false }
        pendingBytes -= items[index].writtenCount
        items.remove(at: index)
        condition.broadcast()
        return true
    }

    /// The oldest items, at least one and about `maxBytes` in all; waits while nothing is queued; nil once
    /// finished and drained.
    func take(maxBytes: Int = 1 << 16) -> [Item]? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count && !finished { condition.wait() }
        guard head < items.count else { return nil }
        var end = head
        var bytes = 0
        while end < items.count && (end == head || bytes + items[end].bytes.count < maxBytes) {
            bytes += items[end].writtenCount
            end += 1
        }
        let taken = Array(items[head..<end])
        head = end
        if head == items.count {
            items.removeAll(keepingCapacity: items.capacity <= 4096)
            head = 0
        } else if head > 1024 && head * 2 > items.count {
            items.removeSubrange(0..<head)
            head = 0
        }
        pendingBytes -= bytes
        condition.broadcast()
        return taken
    }

    /// The writer wrote `count` more bytes.
    func noteWritten(_ count: Int) {
        condition.lock()
        written += count
        condition.broadcast()
        condition.unlock()
    }

    /// No more messages will be pushed; `take` returns nil after the rest.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops waiting for room (SIGTERM): a blocked `push` queues its message and returns, so the serving loop
    /// can see the signal and flush what it can.
    func interrupt() {
        condition.lock()
        interrupted = true
        condition.broadcast()
        condition.unlock()
    }

    /// The output is gone (the host closed stdout): pending and future messages are dropped.
    func close() {
        condition.lock()
        closed = true
        finished = true
        items.removeAll()
        head = 0
        pendingBytes = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Whether the output was closed.
    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
