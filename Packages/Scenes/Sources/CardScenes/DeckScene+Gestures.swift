import CardEngine
import CardGeometry
import CardGestures
import CardPhysics
import Foundation

extension DeckScene {
    public mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        sortPlan = nil
        let metrics = DeckMetrics(viewport: context.viewport, grid: context.grid)
        stopCoast(at: context.time, metrics: metrics)
        switch gesture.gesture {
        case "tap":
            guard gesture.phase == .ended, case .browsing = mode, case .tap(let tap)? = gesture.value,
                let position = cardPosition(at: tap.location, metrics: metrics)
            else { return }
            expand(card(at: position), context: &context)
        case "collapse":
            if gesture.phase == .ended { collapse(context: &context, metrics: metrics) }
        case "dismiss":
            handleDismiss(gesture, context: &context, metrics: metrics)
        case "reorder":
            handleReorder(gesture, context: &context, metrics: metrics)
        case "scroll":
            handleScroll(gesture, context: &context, metrics: metrics)
        default:
            break
        }
    }

    // MARK: Expand and dismiss

    mutating func expand(_ card: Int, context: inout SceneContext) {
        guard case .browsing = mode else { return }
        mode = .expanded(card: card, dismissOffset: 0)
        focus = slot(of: card)
        context.animation = Self.expandAnimation
        context.haptic(.light, target: Self.node(base[card].id), card: base[card].id)
    }

    /// Closes the detail; the card flies back to its place in the stack, which scrolls into view first if needed.
    mutating func collapse(context: inout SceneContext, metrics: DeckMetrics, haptic: HapticEvent.Style = .soft) {
        guard case .expanded(let card, _) = mode else { return }
        mode = .browsing
        reveal(position: slot(of: card), metrics: metrics)
        context.animation = Self.expandAnimation
        context.haptic(haptic, target: Self.node(base[card].id), card: base[card].id)
    }

    /// Scrolls (without animation) so that the card at `position` lies within the viewport.
    mutating func reveal(position: Int, metrics: DeckMetrics) {
        let top = metrics.contentTop + Double(position) * metrics.step
        let maxOffset = metrics.maxOffset(count: count)
        if top - scrollOffset < metrics.contentTop {
            scrollOffset = min(maxOffset, max(0, top - metrics.contentTop))
        } else if top + metrics.cardHeight - scrollOffset > metrics.viewport.height {
            scrollOffset = min(maxOffset, max(0, top + metrics.cardHeight - metrics.viewport.height))
        }
    }

    /// The detail's drag-down: offset = vertical·0.6 (downward only); on release dismiss past 120, or past 60 when
    /// moving down faster than 1.5 pt/ms; otherwise spring back.
    mutating func handleDismiss(_ gesture: GestureEvent<NodeID>, context: inout SceneContext, metrics: DeckMetrics) {
        guard case .expanded(let card, let offset) = mode else { return }
        let id = base[card].id
        switch gesture.phase {
        case .began, .changed:
            let vertical = gesture.value?.drag?.translation.dy ?? 0
            mode = .expanded(card: card, dismissOffset: max(0, vertical) * Self.dismissResistance)
        case .ended:
            let drag = gesture.value?.drag
            let final = max(0, drag?.translation.dy ?? 0) * Self.dismissResistance
            let speed = (drag?.velocity.dy ?? 0) / 1000  // points per millisecond
            if final > Self.dismissDistance || (speed > Self.fastVelocity && final > Self.fastDismissDistance) {
                mode = .expanded(card: card, dismissOffset: final)
                collapse(context: &context, metrics: metrics)
            } else {
                mode = .expanded(card: card, dismissOffset: 0)
                context.animation = Self.expandAnimation
                context.haptic(.rigid, target: Self.detailNode(id), card: id)
            }
        case .cancelled, .failed:
            guard offset != 0 else { return }
            mode = .expanded(card: card, dismissOffset: 0)
            context.animation = Self.expandAnimation
        }
    }

    // MARK: Reorder

    /// Long press then drag: began lifts the card under the pointer, changed moves it and springs the others out
    /// of the way as its drop slot changes, ended drops it, cancelled/failed puts it back.
    mutating func handleReorder(_ gesture: GestureEvent<NodeID>, context: inout SceneContext, metrics: DeckMetrics) {
        guard case .sequenced(.second(let first, let second))? = gesture.value else {
            if gesture.phase == .cancelled || gesture.phase == .failed { cancelReorder(context: &context) }
            return
        }
        switch gesture.phase {
        case .began, .changed:
            if gesture.phase == .began, case .browsing = mode {
                guard case .longPress(let press) = first, pull == 0,
                    let from = cardPosition(at: press.location, metrics: metrics)
                else { return }
                let card = card(at: from)
                mode = .reordering(ReorderDrag(card: card, from: from, translation: 0, drop: from))
                focus = from
                context.animation = .snappy
                context.haptic(.medium, target: Self.node(base[card].id), card: base[card].id)
            }
            guard case .reordering(var drag) = mode else { return }
            drag.translation = second?.drag?.translation.dy ?? drag.translation
            let drop = dropSlot(for: drag, metrics: metrics)
            if drop != drag.drop {
                // The others spring out of the way; the lifted card follows the pointer at once.
                let visible = metrics.visibleSlots(count: count, scroll: scrollOffset, pull: pull)
                for slot in visible {
                    guard let other = card(inSlot: slot), other != drag.card else { continue }
                    context.nodeAnimations[Self.node(base[other].id)] = .spring
                }
                // The card that was at the new drop position is the one just crossed.
                let crossed = card(at: drop)
                drag.drop = drop
                mode = .reordering(drag)
                for slot in visible {
                    guard let other = card(inSlot: slot), other != drag.card else { continue }
                    context.nodeAnimations[Self.node(base[other].id)] = .spring
                }
                context.haptic(.selection, target: Self.node(base[crossed].id), card: base[crossed].id)
            } else {
                mode = .reordering(drag)
            }
        case .ended:
            guard case .reordering(var drag) = mode else { return }
            drag.translation = second?.drag?.translation.dy ?? drag.translation
            drag.drop = dropSlot(for: drag, metrics: metrics)
            mode = .browsing
            context.animation = .spring
            let id = base[drag.card].id
            if drag.drop != drag.from {
                move(from: drag.from, to: drag.drop, context: &context, haptic: .success)
            } else {
                context.haptic(.rigid, target: Self.node(id), card: id)
            }
        case .cancelled, .failed:
            cancelReorder(context: &context)
        }
    }

    mutating func cancelReorder(context: inout SceneContext) {
        guard case .reordering(let drag) = mode else { return }
        mode = .browsing
        context.animation = .spring
        context.haptic(.warning, target: Self.node(base[drag.card].id), card: base[drag.card].id)
    }

    /// The slot nearest to the dragged card's top, clamped to the deck. O(1).
    func dropSlot(for drag: ReorderDrag, metrics: DeckMetrics) -> Int {
        let pitch = metrics.pitch(pull: pull)
        let slot = (Double(drag.from) * pitch + drag.translation) / pitch
        guard slot.isFinite else { return drag.from }
        return Int(max(0, min(Double(count - 1), slot.rounded())))
    }

    // MARK: Scroll and pull

    /// Drag or wheel, through the column's `ScrollView`: the offset follows (rubber-banded past either end); past
    /// the top the fan opens by the banded overscroll; reaching the top faster than 1.5 pt/ms bounces; on release
    /// the fan springs closed, or the column coasts. O(visible) (O(cards carried) on a coast).
    mutating func handleScroll(_ gesture: GestureEvent<NodeID>, context: inout SceneContext, metrics: DeckMetrics) {
        guard case .browsing = mode else { return }
        let maxOffset = metrics.maxOffset(count: count)
        column.resize(contentLength: maxOffset + metrics.viewport.height, viewportLength: metrics.viewport.height)
        if gesture.phase == .began { column.jump(to: scrollOffset - pull) }
        let oldOffset = scrollOffset
        let oldPull = pull
        let animation = column.handle(gesture.phase, gesture.value, at: context.time)
        scrollOffset = max(column.offset, 0)
        pull = max(0, -column.offset)
        switch gesture.phase {
        case .began, .changed:
            guard case .scroll(let value)? = gesture.value else { return }
            // Points per millisecond towards the top: the finger's fitted velocity, or the content's own speed
            // since the last event when that is faster (or the tracker has too few samples to say).
            var speed = -value.velocity / 1000
            if gesture.phase == .changed, let last = lastScroll, context.time > last.time {
                speed = max(speed, (last.offset - column.offset) / ((context.time - last.time) * 1000))
            }
            lastScroll = ScrollSample(time: context.time, offset: column.offset)
            if oldOffset > 0, column.offset <= 0, speed > Self.fastVelocity {
                bounce(context: &context, metrics: metrics)
            }
            if oldPull < Self.fanHapticPull, pull >= Self.fanHapticPull { context.haptic(.light, target: "column") }
        case .ended, .cancelled, .failed:
            lastScroll = nil
            if oldPull >= Self.fanHapticPull { context.haptic(.soft, target: "column") }
            context.animation = animation
            if case .decay? = animation?.motion {
                planCoast(from: oldOffset, metrics: metrics)
                if scrollOffset == 0, case .scroll(let value)? = gesture.value,
                    let arrival = Self.fastArrivalAtTop(from: oldOffset, velocity: value.velocity)
                {
                    bounce(context: &context, metrics: metrics, after: arrival)
                }
            } else if animation != nil {
                planSpringBack(fromScroll: oldOffset, pull: oldPull, metrics: metrics)
            }
        }
    }

    /// The column's offset at a scroll event, and its time (seconds).
    struct ScrollSample: Sendable, Hashable {
        var time: Double
        var offset: Double
    }

    /// A release that springs the column back (the fan closing, or the column returning from past its end): the
    /// cards that come into view start where the released layout had them — below the screen, pushed down by the
    /// fan — so the whole column closes as one, as a scroll view's content does, rather than those cards appearing
    /// at their rest over the cards still closing above them. O(visible).
    mutating func planSpringBack(fromScroll oldOffset: Double, pull oldPull: Double, metrics: DeckMetrics) {
        let before = metrics.visibleSlots(count: count, scroll: oldOffset, pull: oldPull)
        let after = metrics.visibleSlots(count: count, scroll: scrollOffset, pull: pull)
        let entering = enteringOffsets(after, notIn: before, fromScroll: oldOffset, pull: oldPull, metrics: metrics)
        if !entering.isEmpty { sortPlan = SortPlan(entering: entering) }
    }

    /// The coast's cards: every slot between the window at `oldOffset` and the window at the coast's rest is laid
    /// out (at most `DeckMetrics.maximumVisibleCards` of them), those not in view before starting where the old
    /// offset had them, so the whole column decelerates as one. O(cards carried).
    mutating func planCoast(from oldOffset: Double, metrics: DeckMetrics) {
        let before = metrics.visibleSlots(count: count, scroll: oldOffset, pull: 0)
        let after = metrics.visibleSlots(count: count, scroll: scrollOffset, pull: 0)
        var span = min(before.lowerBound, after.lowerBound)..<max(before.upperBound, after.upperBound)
        if span.count > DeckMetrics.maximumVisibleCards {
            // A fling across thousands of cards: the ones nearest the rest, where the coast slows down.
            span =
                scrollOffset > oldOffset
                ? max(span.upperBound - DeckMetrics.maximumVisibleCards, 0)..<span.upperBound
                : span.lowerBound..<min(span.lowerBound + DeckMetrics.maximumVisibleCards, count)
        }
        coastSlots = span
        sortPlan = SortPlan(
            entering: enteringOffsets(span, notIn: before, fromScroll: oldOffset, pull: 0, metrics: metrics))
    }

    /// Where the cards of `slots` that were not in view (`before`) come in from: each one's top in the layout at
    /// `oldOffset` and `oldPull`, relative to its top now (the layout's entering offset). O(slots).
    func enteringOffsets(
        _ slots: Range<Int>, notIn before: Range<Int>, fromScroll oldOffset: Double, pull oldPull: Double,
        metrics: DeckMetrics
    ) -> [Int: Double] {
        var entering: [Int: Double] = [:]
        for slot in slots where !before.contains(slot) {
            guard let card = card(inSlot: slot) else { continue }
            entering[card] =
                metrics.cardTop(slot: slot, scroll: oldOffset, pull: oldPull)
                - metrics.cardTop(slot: slot, scroll: scrollOffset, pull: pull)
        }
        return entering
    }

    /// Stops a coast where it shows the column at `time` (any input takes the column over, as a touch stops a
    /// scroll view), and drops the cards it carried. O(1).
    mutating func stopCoast(at time: Double, metrics: DeckMetrics) {
        coastSlots = nil
        guard column.isCoasting(at: time) else { return }
        column.stop(at: time)
        scrollOffset = min(max(column.offset, 0), metrics.maxOffset(count: count))
    }

    /// When a coast released at `offset` with `velocity` (offset change per second) reaches the top fast, in
    /// seconds from the release; nil when it does not. A scroll view's coast loses speed in proportion to the
    /// distance it covers (UIScrollView's `.normal` deceleration: v = v₀ − k·x, k = −1000·ln 0.998 per second), so
    /// released `offset` points below the top at `v₀` towards it, it would reach the top at `v₀ − k·offset` after
    /// `−ln(1 − k·offset/v₀)/k` seconds. The column itself comes to rest at the top rather than overshooting
    /// (`ScrollView`), so a fling that a scroll view would carry into the top faster than 1.5 pt/ms — the seed's
    /// "fast scroll-to-top" — bounces the cards at that moment instead. O(1).
    static func fastArrivalAtTop(from offset: Double, velocity: Double) -> Double? {
        let speed = -velocity  // points per second, towards the top
        let k = Deceleration.normal.decayConstant
        guard offset > 0, speed.isFinite, speed - k * offset > fastVelocity * 1000 else { return nil }
        let arrival = -log(1 - k * offset / speed) / k
        return arrival.isFinite ? arrival : nil
    }

    /// Kicks every card in view downwards, card k of the window `bounceStagger`·k seconds after the first, the
    /// first `after` seconds from now (a coast that reaches the top later); the haptic is asked for now.
    mutating func bounce(context: inout SceneContext, metrics: DeckMetrics, after delay: Double = 0) {
        let visible = metrics.visibleSlots(count: count, scroll: scrollOffset, pull: pull)
        for (rank, slot) in visible.enumerated() {
            guard let card = card(inSlot: slot) else { continue }
            context.nodeImpulses[Self.node(base[card].id)] = NodeImpulse(
                velocity: Vector(dx: 0, dy: Self.bounceKick),
                animation: Self.bounceAnimation.delay(delay + Double(rank) * Self.bounceStagger))
        }
        context.haptic(.light, target: "column")
    }
}
