/// The running animations of many values, keyed by (node, property) or any `Hashable` key, sampled at any time.
///
/// Storage is flat: one array of entries plus a dictionary from key to slot, so a key's lookup is O(1),
/// sampling everything is O(n) and nothing allocates per sample. Sampling is a pure function of (state, t):
/// a retarget at t₀ captures the value and velocity at t₀ analytically, so samples never depend on how often or
/// when the timeline was sampled before.
///
/// Retargeting rules:
/// - Springs (`.spring`) replace the running motion, starting from its current value **and velocity**; with a
///   blend duration the response blends from the old spring to the new one (see `Animation.transition`).
/// - Timing curves replace the running motion from its current value; the velocity is not kept (a curve has no
///   initial-velocity parameter). This is a documented simplification of SwiftUI, which adds curves.
/// - Interpolating springs are additive: earlier motions keep running as offsets that decay on their own, and
///   the new spring animates the change of target from 0 with its own initial velocity — so neither position nor
///   velocity jumps. Contributions that have become negligible (below 10⁻⁶ of the tolerance) are dropped at the
///   next retarget; at most `maximumContributions` are kept (the oldest go first).
/// - Delays: during a retarget's delay the motion in effect continues; a delayed retarget that has not started
///   when another arrives never starts.
/// - An entry counts as settled once it stays within `max(relativeTolerance·distance, absoluteTolerance)` of its
///   target; from then on it samples exactly as its target at rest (the remaining error, at most that
///   tolerance, is dropped as SwiftUI ends its animations).
public struct AnimationTimeline<Key: Hashable & Sendable, Value: Animatable>: Sendable {
    /// One motion: an offset from `target` and a velocity at `start`, evolving under `animation`.
    @usableFromInline
    struct Segment: Sendable {
        @usableFromInline var target: Value
        @usableFromInline var offset: Value
        @usableFromInline var velocity: Value
        /// Absolute start time (delay included); `.infinity` for a value held still.
        @usableFromInline var start: Double
        @usableFromInline var animation: Animation
        @usableFromInline var blendFrom: Spring?

        /// A value held still for good.
        @usableFromInline
        static func hold(_ value: Value) -> Segment {
            Segment(
                target: value, offset: .zero, velocity: .zero, start: .infinity, animation: .default, blendFrom: nil)
        }

        @inlinable
        init(target: Value, offset: Value, velocity: Value, start: Double, animation: Animation, blendFrom: Spring?) {
            self.target = target
            self.offset = offset
            self.velocity = velocity
            self.start = start
            self.animation = animation
            self.blendFrom = blendFrom
        }
    }

    /// Everything animating one key.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var key: Key
        @usableFromInline var current: Segment
        /// The motion shown before `current.start` (during a delay); nil: `current` holds its start state.
        @usableFromInline var previous: Segment?
        /// Additive offsets (interpolating springs), applied while t < `contributionsEnd`.
        @usableFromInline var contributions: [Segment]
        @usableFromInline var contributionsEnd: Double
        /// The absolute time from which the entry samples as its target at rest.
        @usableFromInline var settleTime: Double

        @inlinable
        init(
            key: Key, current: Segment, previous: Segment?, contributions: [Segment], contributionsEnd: Double,
            settleTime: Double
        ) {
            self.key = key
            self.current = current
            self.previous = previous
            self.contributions = contributions
            self.contributionsEnd = contributionsEnd
            self.settleTime = settleTime
        }
    }

    /// What a frame reads per entry: when the entry is a single spring in flight (the common case), this
    /// alone evaluates it, so sampling streams through one compact array (hot/cold split).
    @usableFromInline
    struct Hot: Sendable {
        @usableFromInline var settleTime: Double
        /// From this time until `settleTime` the entry is exactly one unblended spring segment.
        @usableFromInline var fastFrom: Double
        @usableFromInline var start: Double
        @usableFromInline var speed: Double
        @usableFromInline var target: Value
        @usableFromInline var offset: Value
        @usableFromInline var velocity: Value
        @usableFromInline var spring: Spring

        @inlinable
        init(
            settleTime: Double, fastFrom: Double, start: Double, speed: Double, target: Value, offset: Value,
            velocity: Value, spring: Spring
        ) {
            self.settleTime = settleTime
            self.fastFrom = fastFrom
            self.start = start
            self.speed = speed
            self.target = target
            self.offset = offset
            self.velocity = velocity
            self.spring = spring
        }
    }

    @usableFromInline var entries: [Entry] = []
    @usableFromInline var hot: [Hot] = []
    @usableFromInline var keyList: [Key] = []
    /// Whether the animator is the closed form, whose springs `Hot` may evaluate inline.
    @usableFromInline let isClosedForm: Bool
    @usableFromInline var slots: [Key: Int] = [:]
    /// How motion is evaluated: `ClosedFormAnimator` unless injected.
    @usableFromInline let animator: any Animator
    /// Settled within this fraction of the distance moved (default 0.001, SwiftUI's ε).
    public let relativeTolerance: Double
    /// …or within this absolute distance, whichever is larger (default 0.001 in the value's units).
    public let absoluteTolerance: Double
    /// The most additive contributions kept per key.
    public static var maximumContributions: Int { 32 }
    /// The latest entry settle time (maintained by the mutating functions).
    @usableFromInline var latestSettleTime = -Double.infinity

    /// An empty timeline.
    public init(
        animator: any Animator = ClosedFormAnimator(), relativeTolerance: Double = 0.001,
        absoluteTolerance: Double = 0.001
    ) {
        self.animator = animator
        isClosedForm = animator is ClosedFormAnimator
        self.relativeTolerance = relativeTolerance.isFinite ? max(0, relativeTolerance) : 0.001
        self.absoluteTolerance = absoluteTolerance.isFinite ? max(1e-12, absoluteTolerance) : 0.001
    }

    /// The number of keys.
    public var count: Int { entries.count }
    /// Whether there are no keys.
    public var isEmpty: Bool { entries.isEmpty }
    /// The keys, in storage order (the order `sampleAll` fills).
    public var keys: [Key] { keyList }
    /// Whether `key` has an entry.
    public func contains(_ key: Key) -> Bool { slots[key] != nil }
    /// The value `key` is heading to.
    public func target(for key: Key) -> Value? { slots[key].map { entries[$0].current.target } }

    // MARK: Sampling

    /// The value and velocity (per second) of `key` at `time`, or nil for an unknown key. O(1 + additive
    /// contributions of that key); allocation-free.
    @inlinable
    public func sample(_ key: Key, at time: Double) -> (value: Value, velocity: Value)? {
        guard let slot = slots[key] else { return nil }
        return sample(slot: slot, at: time)
    }

    /// The value of `key` at `time`.
    @inlinable
    public func value(for key: Key, at time: Double) -> Value? { sample(key, at: time)?.value }

    /// The velocity of `key` at `time`, per second.
    @inlinable
    public func velocity(for key: Key, at time: Double) -> Value? { sample(key, at: time)?.velocity }

    /// Calls `body` with every key's value and velocity at `time`, in storage order. O(n).
    @inlinable
    public func forEachSample(at time: Double, _ body: (Key, Value, Value) throws -> Void) rethrows {
        for slot in hot.indices {
            let (value, velocity) = sample(slot: slot, at: time)
            try body(keyList[slot], value, velocity)
        }
    }

    /// Writes every key's value at `time` into `values`, in storage order (`keys`), reusing its storage. O(n).
    @inlinable
    public func sampleAll(at time: Double, into values: inout [Value]) {
        values.removeAll(keepingCapacity: true)
        values.reserveCapacity(entries.count)
        for slot in hot.indices {
            values.append(sample(slot: slot, at: time).value)
        }
    }

    /// Samples the entry in `slot`: from `hot` alone when settled or a plain spring in flight, else from `entries`.
    @inlinable
    func sample(slot: Int, at time: Double) -> (value: Value, velocity: Value) {
        let fast = hot[slot]
        if time >= fast.settleTime { return (fast.target, .zero) }
        if time >= fast.fastFrom {
            let map = Animation.toRealTime(
                fast.spring.transition(at: (time - fast.start) * fast.speed), speed: fast.speed)
            let value = fast.target.adding(fast.offset.scaled(by: map.positionFromOffset))
                .adding(fast.velocity.scaled(by: map.positionFromVelocity))
            let velocity = fast.offset.scaled(by: map.velocityFromOffset)
                .adding(fast.velocity.scaled(by: map.velocityFromVelocity))
            return (value, velocity)
        }
        return sample(entries[slot], at: time)
    }

    @inlinable
    func sample(_ entry: Entry, at time: Double) -> (value: Value, velocity: Value) {
        if time >= entry.settleTime { return (entry.current.target, .zero) }
        let segment = time < entry.current.start ? (entry.previous ?? entry.current) : entry.current
        var (offset, velocity) = evaluate(segment, at: time)
        if time < entry.contributionsEnd {
            for contribution in entry.contributions {
                let (extraOffset, extraVelocity) = evaluate(contribution, at: time)
                offset = offset.adding(extraOffset)
                velocity = velocity.adding(extraVelocity)
            }
        }
        return (segment.target.adding(offset), velocity)
    }

    /// A segment's offset from its target and its velocity at `time` (held still before its start).
    @inlinable
    func evaluate(_ segment: Segment, at time: Double) -> (offset: Value, velocity: Value) {
        if time < segment.start { return (segment.offset, .zero) }
        let map = animator.transition(
            of: segment.animation, blendingFrom: segment.blendFrom, elapsed: time - segment.start)
        let offset = segment.offset.scaled(by: map.positionFromOffset)
            .adding(segment.velocity.scaled(by: map.positionFromVelocity))
        let velocity = segment.offset.scaled(by: map.velocityFromOffset)
            .adding(segment.velocity.scaled(by: map.velocityFromVelocity))
        return (offset, velocity)
    }

    // MARK: Settling

    /// Whether `key` (unknown keys count as settled) is at rest on its target at `time`.
    public func isSettled(_ key: Key, at time: Double) -> Bool {
        guard let slot = slots[key] else { return true }
        return time >= entries[slot].settleTime
    }

    /// Whether every key is at rest at `time`. O(1).
    public func isSettled(at time: Double) -> Bool { time >= settleTime }

    /// The time from which every key is at rest (−∞ when empty, +∞ if an undamped spring runs). O(1).
    public var settleTime: Double { latestSettleTime }

    /// The time from which `key` is at rest.
    public func settleTime(for key: Key) -> Double? { slots[key].map { entries[$0].settleTime } }
}
