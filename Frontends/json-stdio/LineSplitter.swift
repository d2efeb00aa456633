#if canImport(Glibc)
    import Glibc
#endif

/// What the line splitter found in the input.
enum LineEvent: Sendable, Hashable {
    /// One line, without its `\n` (and without a `\r` before it).
    case line([UInt8])
    /// A line longer than the cap was discarded; `length` counts its bytes (without the line ending).
    case oversized(length: Int)
}

/// Splits a byte stream into lines, as a state machine fed chunk by chunk.
///
/// `\n` ends a line and a `\r` right before it is dropped (so `\r\n` is accepted). A line longer than `maxBytes`
/// is never held in memory: its bytes are counted and dropped, and it is reported as `oversized` when its line
/// ending arrives. Memory stays below `maxBytes` plus one chunk; each byte is examined once (`memchr`).
struct LineSplitter: Sendable {
    let maxBytes: Int
    private var pending: [UInt8] = []
    /// Bytes dropped from the current over-long line, or nil while the line fits.
    private var discarded: Int?

    init(maxBytes: Int) {
        self.maxBytes = max(1, maxBytes)
    }

    /// Feeds the next chunk of input; returns the lines it completed.
    mutating func feed(_ chunk: UnsafeRawBufferPointer) -> [LineEvent] {
        var events: [LineEvent] = []
        guard let base = chunk.baseAddress else { return events }
        var start = 0
        let count = chunk.count
        while start < count {
            let remaining = count - start
            let found = memchr(base + start, 0x0A, remaining)
            let end = found.map { base.distance(to: UnsafeRawPointer($0)) } ?? count
            let piece = UnsafeRawBufferPointer(start: base + start, count: end - start)
            append(piece)
            if found != nil {
                events.append(takeLine())
                start = end + 1
            } else {
                start = count
            }
        }
        return events
    }

    /// The end of the input: a last line without a line ending is still a line.
    mutating func finish() -> [LineEvent] {
        guard !pending.isEmpty || discarded != nil else { return [] }
        return [takeLine()]
    }

    private mutating func append(_ piece: UnsafeRawBufferPointer) {
        if let dropped = discarded {
            discarded = dropped + piece.count
            return
        }
        // Allow one extra byte for a `\r` that the line ending will drop.
        if pending.count + piece.count > maxBytes + 1 {
            discarded = pending.count + piece.count
            pending = []
            return
        }
        pending.append(contentsOf: piece)
    }

    private mutating func takeLine() -> LineEvent {
        if let dropped = discarded {
            discarded = nil
            return .oversized(length: dropped)
        }
        if pending.last == 0x0D { pending.removeLast() }
        if pending.count > maxBytes {
            let length = pending.count
            pending = []
            return .oversized(length: length)
        }
        let line = pending
        pending.removeAll(keepingCapacity: true)
        return .line(line)
    }
}
