#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The source of "now" for gesture timers (long press, multi-tap intervals, swipe limits, wheel pauses).
///
/// Named `GestureClock` so it does not clash with the standard library's `Clock`. Recognisers never read a clock
/// themselves: the host reads one and calls ``GestureArena/advance(to:)`` with its `now`, so tests stay
/// deterministic with a ``TestClock``.
public protocol GestureClock: Sendable {
    /// The current time in seconds on a monotonic time line shared with the pointer events' timestamps.
    var now: Double { get }
}

/// A clock that only moves when told to: the clock for tests and for replaying recorded input.
public struct TestClock: GestureClock, Hashable {
    public private(set) var now: Double

    public init(now: Double = 0) {
        self.now = now
    }

    /// Moves the clock forward by `seconds` (negative or non-finite amounts are ignored: time never runs back).
    public mutating func advance(by seconds: Double) {
        guard seconds.isFinite, seconds > 0 else { return }
        now += seconds
    }

    /// Moves the clock to `time` if that is later than now.
    public mutating func advance(to time: Double) {
        guard time.isFinite, time > now else { return }
        now = time
    }
}

/// The real clock: CLOCK_MONOTONIC in seconds (unaffected by wall-clock changes). Never used in unit tests.
public struct MonotonicClock: GestureClock {
    public init() {}

    public var now: Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
