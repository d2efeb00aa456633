import Foundation

/// What the serving loop waits for: input lines from the reader thread, the end of input, SIGTERM, or the time
/// of the next realtime frame. Bounded: the reader blocks while `capacity` lines wait. Thread-safe.
final class Inbox: @unchecked Sendable {
    enum Event: Sendable {
        case input(LineEvent)
        case endOfInput
        case terminate
        case outputClosed
        case timeout
    }

    private let condition = NSCondition()
    private var events: [Event] = []
    private var head = 0
    private var terminated = false
    private var closedOutput = false
    private let capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// Adds input (blocking while the inbox is full, unless terminated).
    func post(_ event: Event) {
        condition.lock()
        while events.count - head >= capacity && !terminated && !closedOutput { condition.wait() }
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    /// SIGTERM: jumps the queue, so the loop stops after the message in hand.
    func terminate() {
        condition.lock()
        terminated = true
        condition.broadcast()
        condition.unlock()
    }

    /// The host closed stdout: jumps the queue like SIGTERM.
    func outputClosed() {
        condition.lock()
        closedOutput = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next event, waiting at most until `deadline` (absolute, on `Date`'s time line) when one is given.
    func next(deadline: Date?) -> Event {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if terminated { return .terminate }
            if closedOutput { return .outputClosed }
            if head < events.count {
                let event = events[head]
                head += 1
                if head > 1024 && head * 2 > events.count {
                    events.removeFirst(head)
                    head = 0
                }
                condition.broadcast()
                return event
            }
            if let deadline {
                if !condition.wait(until: deadline) { return .timeout }
            } else {
                condition.wait()
            }
        }
    }
}
