import Synchronization

/// A request that the heap's free pages go back to the system (`ProcessMemory.releaseFreed()`), made by a thread
/// that must not do it itself and carried out by the front end's serving thread once the user or the host has been
/// idle. Thread-safe.
///
/// glibc's `malloc_trim` holds the heap's lock while it hands every free page back, milliseconds for the heap of a
/// million-card deck, and with one arena (`ProcessMemory.configureForLargeDecks()`) every `malloc` of every thread
/// waits for it. Done by the state saver right after a snapshot, it stalled the serving thread in the middle of a
/// request: a `deck.move` that takes 0.5 ms waited 6 ms on the saver's trim (seen with `perf sched`; moves after
/// sorts at a million cards, p99 3–6 ms with the saver trimming, 1.1–1.6 ms with the trim left to the serving
/// thread). So the saver asks (`request()`), and the serving thread, which knows when nobody is waiting on it,
/// releases.
public final class HeapReleaseRequest: Sendable {
    private let pending = Atomic<Bool>(false)
    private let wake: Mutex<(@Sendable () -> Void)?> = Mutex(nil)

    /// No release asked for yet, and nothing to wake.
    public init() {}

    /// Asks for a release and wakes the serving thread (`onRequest`), which may be waiting for input. From any
    /// thread; cheap (an atomic store, and the wake-up when one is set).
    @Sendable public func request() {
        pending.store(true, ordering: .releasing)
        wake.withLock { $0 }?()
    }

    /// What wakes the serving thread when a release is requested (a byte into the pipe its `poll` watches). The
    /// serving thread sets it before it starts waiting.
    public func onRequest(_ body: @escaping @Sendable () -> Void) {
        wake.withLock { $0 = body }
    }

    /// Whether a release was requested since the last call; clears the request.
    public func take() -> Bool {
        pending.exchange(false, ordering: .acquiringAndReleasing)
    }
}

/// When a front end's serving thread gives the heap's free pages back (`ProcessMemory.releaseFreed()`): once
/// something asked for it (a large message went out, a long request left the heap half free, the saver encoded a
/// snapshot) and the user or the host has then been idle for `idleSeconds`. Activity after the request moves the
/// release later, so it never runs while someone keeps the front end busy. A state machine: the caller owns the clock
/// and does the release when `releaseIfDue(at:)` says so.
public struct IdleHeapRelease: Sendable, Equatable {
    /// How long nothing must happen before a wanted release runs.
    public let idleSeconds: Double
    /// Whether a release waits to run.
    public private(set) var isWanted = false
    /// When the user or the host last did something.
    public private(set) var lastActivity: Double

    /// Nothing wanted yet; `startedAt` counts as the last activity.
    public init(idleSeconds: Double, startedAt: Double) {
        self.idleSeconds = idleSeconds
        self.lastActivity = startedAt
    }

    /// The user or the host did something at `time` (a key, a request): a wanted release waits `idleSeconds` more.
    public mutating func activity(at time: Double) {
        lastActivity = max(lastActivity, time)
    }

    /// Asks for a release, which runs once the front end has been idle long enough.
    public mutating func want() {
        isWanted = true
    }

    /// When the wanted release becomes due (nil: none is wanted): what the serving thread's wait is bounded by.
    public var due: Double? { isWanted ? lastActivity + idleSeconds : nil }

    /// Whether the release is due at `time`; when it is, it counts as done (the caller releases now).
    public mutating func releaseIfDue(at time: Double) -> Bool {
        guard let due, time >= due else { return false }
        isWanted = false
        return true
    }
}
