/// Encodes what the server returns into lines, on the serving thread, and queues them: the queue then holds
/// exactly the bytes that will be written, and its bound is a bound on memory.
///
/// Merging frames under back-pressure: when a `frame` notification arrives while the previous one still waits in
/// the queue, the previous one is taken back and the new one (whole if either had to be) is queued after
/// everything else. In delta mode the new one is diffed against what the host will actually have received: the
/// encoder's state from before the taken-back frame, unless a frame in a response was queued after it (which the
/// host does receive, and which becomes the base).
struct OutboundEncoder {
    /// The frame encoding's memory of what the host has (or will have, once the queue drains).
    var encoder = FrameEncoder()
    /// The `frame` notification last queued: its queue id, whether it had to be whole, and the encoder before it
    /// (nil once a frame in a response followed it).
    private var pending: (id: Int, forceFull: Bool, before: FrameEncoder?)?
    private var nextID = 0
    /// How many frame notifications were merged away (for logs and tests).
    private(set) var mergedFrames = 0

    /// Encodes and queues `messages` in order; false when the queue gave up waiting for room (the writer made no
    /// progress for `stallTimeout` seconds).
    mutating func push(_ messages: [Outbound], to queue: OutboundQueue, stallTimeout: Double? = nil) -> Bool {
        for message in messages {
            let item: OutboundQueue.Item
            switch message {
            case .message(let bytes):
                item = OutboundQueue.Item(bytes: bytes, frame: nil)
            case .streamed(let head, let tail):
                // The head goes to the writer first; the tail is computed while it is written, then ends the line.
                guard
                    queue.push(OutboundQueue.Item(bytes: head, frame: nil, endsLine: false), stallTimeout: stallTimeout)
                else { return false }
                item = OutboundQueue.Item(bytes: tail(), frame: nil)
            case .composite(let parts):
                var hasFrame = false
                var hasDelta = false
                for part in parts {
                    guard case .frame(let frame) = part else { continue }
                    hasFrame = true
                    if frame.deltaMode && !frame.forceFull { hasDelta = true }
                }
                if hasFrame {
                    // A delta in a response depends on the pending frame, which can then no longer be taken back;
                    // a whole frame replaces the base, so the pending one can go without restoring the encoder.
                    if hasDelta { pending = nil } else { pending?.before = nil }
                }
                item = OutboundQueue.Item(bytes: encoder.encode(message), frame: nil)
            case .frameNotification(var frame):
                if let previous = pending, queue.remove(frame: previous.id) {
                    mergedFrames += 1
                    frame.forceFull = frame.forceFull || previous.forceFull
                    if let before = previous.before { encoder = before }
                }
                let before = encoder
                let bytes = encoder.encode(.frameNotification(frame))
                // A cells frame that changes nothing the host shows is not written (nor waits to be merged).
                if bytes.isEmpty {
                    pending = nil
                    continue
                }
                let id = nextID
                nextID += 1
                pending = (id, frame.forceFull, before)
                item = OutboundQueue.Item(bytes: bytes, frame: id)
            }
            guard queue.push(item, stallTimeout: stallTimeout) else { return false }
        }
        return true
    }
}
