import CardEngine
import CardGeometry
import CardGestures
import CardPhysics

extension WalletScene {
    /// The seed's `DragState`: what the card gesture is doing, reset when the gesture ends, is cancelled or fails
    /// (SwiftUI's `@GestureState`). Indices are the pressed card's index in the deck at the latest gesture event.
    public enum DragState: Sendable, Hashable {
        /// No card is pressed.
        case inactive
        /// The long press on the card at `index` has been recognised; the drag has not started.
        case pressing(index: Int)
        /// The card at `index` is being dragged by `translation` points from where the drag started.
        case dragging(index: Int, translation: Vector)

        /// The pressed card's index, if a card is pressed.
        public var index: Int? {
            switch self {
            case .pressing(let index), .dragging(let index, _): index
            case .inactive: nil
            }
        }

        /// The drag's translation (zero while only pressing).
        public var translation: Vector {
            switch self {
            case .inactive, .pressing: .zero
            case .dragging(_, let translation): translation
            }
        }

        /// Whether a card is pressed or dragged (it lifts by 20 points).
        public var isPressing: Bool {
            switch self {
            case .pressing, .dragging: true
            case .inactive: false
            }
        }

        /// Whether a card is being dragged.
        public var isDragging: Bool {
            if case .dragging = self { true } else { false }
        }
    }

    /// The name the card gesture is attached under.
    static let cardGestureName = "card"

    /// The seed's card gesture: a tap, or else a 0.05 s long press followed by a drag.
    static let cardGesture = TapGesture().exclusively(
        before: LongPressGesture(minimumDuration: 0.05).sequenced(before: DragGesture()))

    /// The name of the press that lifts the card 0.05 s after touch-down.
    static let holdGestureName = "hold"

    /// Shared by every card (the engine compares gesture lists; shared storage makes that a pointer check). Beside
    /// the seed's gesture, its 0.05 s long press alone, simultaneous, so that the press shows (the card lifts) at
    /// 0.05 s while the tap keeps priority: released before the tap fails, it is still a tap.
    static let cardGestures = [
        GestureAttachment(cardGestureName, cardGesture),
        GestureAttachment(holdGestureName, LongPressGesture(minimumDuration: 0.05), priority: .simultaneous),
    ]

    /// The seed's `updating` closure: the drag state for a value of the long-press-then-drag side. A sequence
    /// whose drag has not started yet is still a press (the seed's `.second(true, nil)` gives a zero translation,
    /// which draws the same).
    static func dragState(for value: GestureValue, index: Int) -> DragState? {
        guard case .exclusive(.second(.sequenced(let sequenced))) = value else { return nil }
        switch sequenced {
        case .first: return .pressing(index: index)
        case .second(_, let drag):
            guard let translation = drag?.drag?.translation else { return .pressing(index: index) }
            return .dragging(index: index, translation: translation)
        }
    }

    /// The seed's `rearrangeCards`: newIndex = index + Int(−height/step), clamped to the deck, where `step` is the
    /// stack's step as laid out: the seed's 50 points, or on a terminal's grid the whole rows it rounds to (the
    /// cards are that far apart on screen; dividing by 50 put a card dragged exactly two cards one place short).
    /// The quotient is clamped before the conversion so that no translation can overflow `Int`.
    static func destination(from index: Int, height: Double, count: Int, step: Double = cardOffset) -> Int {
        guard count > 0 else { return 0 }
        let step = step > 0 ? step : cardOffset
        let places = height.isFinite ? min(max(-height / step, -Double(count)), Double(count)) : 0
        return min(max(index + Int(places), 0), count - 1)
    }

    public mutating func handle(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        if gesture.gesture == Self.holdGestureName {
            handleHold(gesture, context: &context)
            return
        }
        if gesture.gesture == "history" {
            guard selected != nil else { return }
            sizeHistory(viewport: context.viewport, text: context.text)
            context.animation = history.handle(gesture.phase, gesture.value, at: context.time)
            return
        }
        guard gesture.gesture == Self.cardGestureName,
            let id = deck.first(where: { Self.node($0.id) == gesture.target })?.id,
            let index = deck.index(of: id)
        else { return }
        let wasPressing = dragState.isPressing
        let wasHeld = held != nil
        // The seed's `updating`; a selected card's press-and-drag does nothing (see the type's deviations).
        let isSelected = selected != nil
        dragGestureState.update(gesture.phase, gesture.value) { value, state in
            guard !isSelected, let pressed = Self.dragState(for: value, index: index) else { return }
            state = pressed
        }
        switch gesture.phase {
        case .began, .changed:
            if !wasPressing && !wasHeld && dragState.isPressing {
                context.haptic(.medium, target: gesture.target, card: id)
            }
        case .ended:
            held = nil
            if wasHeld { context.animation = .spring }
            guard let value = gesture.value else { return }
            if case .exclusive(.first(.tap)) = value {
                toggleSelection(id, context: &context)
                return
            }
            // The seed's `onEnded`: rearrange with `.spring()` (the drag state's reset animates with it).
            context.animation = .spring
            guard !isSelected, wasPressing, case .exclusive(.second(.sequenced(.second(_, let drag?)))) = value,
                let height = drag.drag?.translation.dy
            else { return }
            let moved = move(
                id,
                to: Self.destination(
                    from: index, height: height, count: deck.count,
                    step: context.text.layoutGrid.height(Self.cardOffset)),
                context: &context)
            context.haptic(moved ? .light : .soft, target: gesture.target, card: id)
        case .cancelled, .failed:
            if wasPressing || wasHeld { context.animation = .spring }
            held = nil
        }
    }

    /// The 0.05 s press (discrete: one event when it is recognised): the card lifts with `.spring()` and a
    /// `medium` haptic. It settles back when the seed's gesture ends, is cancelled or fails (every touch ends the
    /// seed's gesture one of those ways), which drops `held` with the drag state.
    mutating func handleHold(_ gesture: GestureEvent<NodeID>, context: inout SceneContext) {
        guard gesture.phase == .ended, selected == nil, held == nil, !dragState.isPressing,
            let index = deck.firstIndex(where: { Self.node($0.id) == gesture.target })
        else { return }
        held = index
        context.animation = .spring
        context.haptic(.medium, target: gesture.target, card: deck[index].id)
    }
}
