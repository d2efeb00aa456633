// Starting, retargeting, stopping and removing animations, and the bookkeeping that keeps `hot` and the
// settle times in step with `entries`.

extension AnimationTimeline {
    // MARK: Changes

    /// Animates `key` to `target` with `animation`, the change made at `time`.
    ///
    /// When `from` is given (or the key is new) the motion starts there with `initialVelocity` (default zero);
    /// a new key without `from` is simply set to `target`. Otherwise the running motion is retargeted as the
    /// type's documentation describes. O(1) amortised (plus the key's additive contributions).
    @inlinable
    public mutating func animate(
        _ key: Key, to target: Value, with animation: Animation, at time: Double, from start: Value? = nil,
        initialVelocity: Value? = nil
    ) {
        let begin = time + animation.delay
        guard let slot = slots[key], start == nil else {
            let origin = start ?? target
            let segment = Segment(
                target: target, offset: origin.subtracting(target), velocity: initialVelocity ?? .zero,
                start: begin, animation: animation, blendFrom: nil)
            store(
                Entry(
                    key: key, current: segment, previous: nil, contributions: [], contributionsEnd: begin, settleTime: 0
                ))
            return
        }
        let old = entries[slot]
        // The motion in effect at `time`: a settled entry rests on its target; a delayed retarget that has
        // not started yet is dropped in favour of what was showing.
        let effect: Segment
        var effectContributions: [Segment]
        if time >= old.settleTime {
            effect = .hold(old.current.target)
            effectContributions = []
        } else if time < old.current.start {
            effect = old.previous ?? .hold(old.current.target.adding(old.current.offset))
            effectContributions = time < old.contributionsEnd ? old.contributions : []
        } else {
            effect = old.current
            effectContributions = time < old.contributionsEnd ? old.contributions : []
        }
        effectContributions = pruned(effectContributions, at: time)

        var entry: Entry
        if animation.isAdditive {
            // value = target + new offset + earlier offsets; the new offset starts as (old target − target).
            var contributions = effectContributions
            if effect.start.isFinite { contributions.append(effect) }
            if contributions.count > Self.maximumContributions {
                contributions.removeFirst(contributions.count - Self.maximumContributions)
            }
            let segment = Segment(
                target: target, offset: effect.target.subtracting(target), velocity: .zero, start: begin,
                animation: animation, blendFrom: nil)
            entry = Entry(
                key: key, current: segment, previous: nil, contributions: contributions,
                contributionsEnd: .infinity, settleTime: 0)
        } else {
            var (offset, velocity) = evaluate(effect, at: begin)
            for contribution in effectContributions {
                let (extraOffset, extraVelocity) = evaluate(contribution, at: begin)
                offset = offset.adding(extraOffset)
                velocity = velocity.adding(extraVelocity)
            }
            let value = effect.target.adding(offset)
            var blendFrom: Spring?
            if case .spring(let spring, _) = effect.animation.motion, effect.start.isFinite { blendFrom = spring }
            let segment = Segment(
                target: target, offset: value.subtracting(target), velocity: velocity, start: begin,
                animation: animation, blendFrom: blendFrom)
            let delayed = begin > time
            entry = Entry(
                key: key, current: segment, previous: delayed ? effect : nil,
                contributions: delayed ? effectContributions : [], contributionsEnd: begin, settleTime: 0)
        }
        store(entry)
    }

    /// Animates many keys with one animation, key i starting `stagger`·i seconds after `time` (SwiftUI's
    /// `.delay(Double(i) * stagger)`). O(n).
    @inlinable
    public mutating func animate(
        _ changes: some Sequence<(key: Key, target: Value)>, with animation: Animation, at time: Double,
        stagger: Double
    ) {
        let step = stagger.isFinite ? max(0, stagger) : 0
        for (index, change) in changes.enumerated() {
            animate(change.key, to: change.target, with: animation.delay(Double(index) * step), at: time)
        }
    }

    /// Sets `key` to `value` at once, ending any animation.
    @inlinable
    public mutating func set(_ key: Key, to value: Value) {
        store(
            Entry(key: key, current: .hold(value), previous: nil, contributions: [], contributionsEnd: 0, settleTime: 0)
        )
    }

    /// Stops `key` where it is at `time`: it holds that value from then on (its target becomes that value).
    @inlinable
    public mutating func stop(_ key: Key, at time: Double) {
        guard let value = value(for: key, at: time) else { return }
        set(key, to: value)
    }

    /// Removes `key`. O(1) (plus an O(n) rescan when it was the last to settle).
    @inlinable
    public mutating func remove(_ key: Key) {
        guard let slot = slots.removeValue(forKey: key) else { return }
        let removed = entries[slot]
        let last = entries.count - 1
        if slot != last {
            entries.swapAt(slot, last)
            hot.swapAt(slot, last)
            keyList.swapAt(slot, last)
            slots[entries[slot].key] = slot
        }
        entries.removeLast()
        hot.removeLast()
        keyList.removeLast()
        if removed.settleTime >= latestSettleTime { recomputeSettleTime() }
    }

    /// Removes every key.
    @inlinable
    public mutating func removeAll() {
        entries.removeAll()
        hot.removeAll()
        keyList.removeAll()
        slots.removeAll()
        latestSettleTime = -.infinity
    }

    // MARK: Internals

    @inlinable
    mutating func store(_ entry: Entry) {
        var entry = entry
        entry.settleTime = settleTime(of: entry)
        let fast = hotData(for: entry)
        if let slot = slots[entry.key] {
            let previousSettle = entries[slot].settleTime
            entries[slot] = entry
            hot[slot] = fast
            if previousSettle >= latestSettleTime && entry.settleTime < previousSettle {
                recomputeSettleTime()
                return
            }
        } else {
            slots[entry.key] = entries.count
            entries.append(entry)
            hot.append(fast)
            keyList.append(entry.key)
        }
        latestSettleTime = max(latestSettleTime, entry.settleTime)
    }

    /// The compact copy of `entry` that frames read, with the time from which it is a plain spring.
    @inlinable
    func hotData(for entry: Entry) -> Hot {
        let current = entry.current
        var fastFrom = Double.infinity
        var spring = Spring.default
        if isClosedForm, current.start.isFinite, case .spring(let motion, let blendDuration) = current.animation.motion
        {
            spring = motion
            fastFrom = current.start
            if let old = current.blendFrom, blendDuration > 0, old != motion {
                fastFrom += blendDuration / current.animation.speed
            }
            if !entry.contributions.isEmpty { fastFrom = max(fastFrom, entry.contributionsEnd) }
        }
        return Hot(
            settleTime: entry.settleTime, fastFrom: fastFrom, start: current.start, speed: current.animation.speed,
            target: current.target, offset: current.offset, velocity: current.velocity, spring: spring)
    }

    @inlinable
    mutating func recomputeSettleTime() {
        latestSettleTime = entries.reduce(-Double.infinity) { max($0, $1.settleTime) }
    }

    /// The tolerance for a motion that moves `offset` from its target.
    @inlinable
    func tolerance(for offset: Value) -> Double {
        max(relativeTolerance * offset.magnitude, absoluteTolerance)
    }

    /// The absolute time after which the segment stays within `tolerance` of its target.
    @inlinable
    func settleTime(of segment: Segment, tolerance: Double) -> Double {
        guard segment.start.isFinite else { return -.infinity }
        let offset = segment.offset.magnitude
        let velocity = segment.velocity.magnitude
        if offset == 0 && velocity == 0 { return segment.start }
        return segment.start
            + animator.settleTime(
                of: segment.animation, blendingFrom: segment.blendFrom, offset: offset, velocity: velocity,
                tolerance: tolerance)
    }

    @inlinable
    func settleTime(of entry: Entry) -> Double {
        let current = entry.current
        var time =
            current.start.isFinite ? settleTime(of: current, tolerance: tolerance(for: current.offset)) : -.infinity
        if entry.contributionsEnd == .infinity {
            for contribution in entry.contributions {
                time = max(time, settleTime(of: contribution, tolerance: tolerance(for: contribution.offset)))
            }
        }
        // Before the current motion starts, the previous one is showing: never settled before then.
        if current.start.isFinite, entry.previous != nil || current.offset != .zero { time = max(time, current.start) }
        return time
    }

    /// Drops contributions whose offset has fallen below 10⁻⁶ of their tolerance for good by `time`.
    @inlinable
    func pruned(_ contributions: [Segment], at time: Double) -> [Segment] {
        guard !contributions.isEmpty else { return contributions }
        return contributions.filter { contribution in
            settleTime(of: contribution, tolerance: tolerance(for: contribution.offset) * 1e-6) > time
        }
    }
}
