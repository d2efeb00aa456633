import Foundation

/// The queue between the server and the one thread that writes stdout.
///
/// Back-pressure: when the host reads slowly, a new `frame` notification replaces the pending one (the latest
/// state wins; it moves to the end so it follows every message that was queued before it); responses and other
/// notifications are never dropped. When more than `maxPendingBytes` of those are waiting, `push` blocks — the
/// server stops reading stdin — so memory stays bounded. Thread-safe.
final class OutboundQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Outbound] = []
    private var pendingBytes = 0
    private var finished = false
    private var closed = false
    private var interrupted = false
    private let maxPendingBytes: Int
    /// How many frame notifications were merged away (for logs and tests).
    private(set) var mergedFrames = 0

    init(maxPendingBytes: Int = 32 << 20) {
        self.maxPendingBytes = maxPendingBytes
    }

    /// Queues messages in order; blocks while too much is waiting, unless the output is closed.
    func push(_ new: [Outbound]) {
        guard !new.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        while pendingBytes > maxPendingBytes && !closed && !interrupted { condition.wait() }
        guard !closed else { return }
        for item in new {
            if case .frameNotification(var frame) = item {
                if let index = items.lastIndex(where: \.isMergeableFrame),
                    case .frameNotification(let older) = items[index]
                {
                    var merged = older
                    merged.merge(newer: frame)
                    frame = merged
                    items.remove(at: index)
                    mergedFrames += 1
                }
                items.append(.frameNotification(frame))
            } else {
                pendingBytes += Self.size(item)
                items.append(item)
            }
        }
        condition.broadcast()
    }

    /// Everything queued, oldest first; waits while nothing is queued; nil once finished and drained.
    func take() -> [Outbound]? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !finished { condition.wait() }
        guard !items.isEmpty else { return nil }
        let taken = items
        items.removeAll(keepingCapacity: true)
        pendingBytes = 0
        condition.broadcast()
        return taken
    }

    /// No more messages will be pushed; `take` returns nil after the rest.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops waiting for room (SIGTERM): a blocked `push` queues its messages and returns, so the serving loop
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

    private static func size(_ item: Outbound) -> Int {
        switch item {
        case .message(let bytes): bytes.count
        case .frameNotification(let frame): frame.nodes.count * 200
        case .composite(let parts):
            parts.reduce(0) { total, part in
                switch part {
                case .bytes(let bytes): total + bytes.count
                case .frame(let frame): total + frame.nodes.count * 200
                }
            }
        }
    }
}
