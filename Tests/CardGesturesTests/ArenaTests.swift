import CardGeometry
import CardGestures
import Testing

/// Five overlapping 100×60 cards, each 10 pt lower and higher in z than the last, corner radius 12.
private func stackArena() -> GestureArena<String> {
    var arena = GestureArena<String>()
    for index in 0..<5 {
        let card = GestureTarget(
            id: "card\(index)", frame: Rect(x: 0, y: Double(index) * 10, width: 100, height: 60), z: Double(index),
            cornerRadius: 12)
        arena.setTarget(card)
    }
    return arena
}

private func phases(_ events: [GestureEvent<String>]) -> [String] {
    events.map { "\($0.target).\($0.gesture).\($0.phase)" }
}

@Suite struct HitTestTests {
    @Test func aStackOfOverlappingCardsPicksTheTopOne() {
        let arena = stackArena()
        #expect(arena.hitTest(Point(x: 50, y: 45)) == "card4")  // inside all five
        #expect(arena.hitTest(Point(x: 50, y: 5)) == "card0")  // only the first reaches up there
        #expect(arena.hitTest(Point(x: 50, y: 200)) == nil)
    }

    @Test func roundedCornersLetTouchesFallThroughToTheCardBelow() {
        let arena = stackArena()
        // (1, 41) is in card4's rectangle (y 40…100) but outside its radius-12 top-left corner (11² + 11² > 12²);
        // card3 starts at y 30, so there the point is inside its rounded shape (11² + 1² < 12²).
        #expect(arena.hitTest(Point(x: 1, y: 41)) == "card3")
        #expect(arena.hitTest(Point(x: 12, y: 41)) == "card4")
    }

    @Test func equalZPicksTheLaterTargetAndHiddenTargetsAreSkipped() {
        var arena = GestureArena<Int>()
        arena.setTarget(GestureTarget(id: 1, frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        arena.setTarget(GestureTarget(id: 2, frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        #expect(arena.hitTest(Point(x: 5, y: 5)) == 2)
        arena.setTarget(GestureTarget(id: 2, frame: Rect(x: 0, y: 0, width: 10, height: 10), isHitTestable: false))
        #expect(arena.hitTest(Point(x: 5, y: 5)) == 1)
        arena.removeTarget(1)
        #expect(arena.hitTest(Point(x: 5, y: 5)) == nil)
        #expect(arena.targetCount == 1)
    }

    @Test func attachingToAnUnknownTargetThrows() {
        var arena = GestureArena<String>()
        #expect(throws: GestureArenaError.unknownTarget("nope")) {
            try arena.attach(TapGesture(), named: "tap", to: "nope")
        }
    }
}

@Suite struct ArenaTests {
    @Test func aTapOnTheStackGoesToTheTopCard() throws {
        var arena = stackArena()
        for index in 0..<5 { try arena.attach(TapGesture(), named: "tap", to: "card\(index)") }
        let events = arena.send(down(50, 45, at: 0), up(50, 45, at: 0.1))
        #expect(phases(events) == ["card4.tap.ended"])
        #expect(arena.isIdle)
    }

    @Test func theChildWinsOverTheParent() throws {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "list", frame: Rect(x: 0, y: 0, width: 400, height: 800)))
        arena.setTarget(
            GestureTarget(id: "card", frame: Rect(x: 0, y: 0, width: 100, height: 100), z: 1, parent: "list"))
        try arena.attach(TapGesture(), named: "tap", to: "list")
        try arena.attach(TapGesture(), named: "tap", to: "card")
        #expect(phases(arena.send(down(50, 50, at: 0), up(50, 50, at: 0.1))) == ["card.tap.ended"])
        #expect(phases(arena.send(down(300, 300, at: 1), up(300, 300, at: 1.1))) == ["list.tap.ended"])
    }

    @Test func aHighPriorityParentGestureWins() throws {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "list", frame: Rect(x: 0, y: 0, width: 400, height: 800)))
        arena.setTarget(
            GestureTarget(id: "card", frame: Rect(x: 0, y: 0, width: 100, height: 100), z: 1, parent: "list"))
        try arena.attach(TapGesture(), named: "tap", to: "list", priority: .high)
        try arena.attach(TapGesture(), named: "tap", to: "card")
        #expect(phases(arena.send(down(50, 50, at: 0), up(50, 50, at: 0.1))) == ["list.tap.ended"])
    }

    @Test func aLowerRankedGestureIsHeldUntilTheHigherFails() throws {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "list", frame: Rect(x: 0, y: 0, width: 400, height: 800)))
        arena.setTarget(
            GestureTarget(id: "card", frame: Rect(x: 0, y: 0, width: 100, height: 100), z: 1, parent: "list"))
        try arena.attach(DragGesture(minimumDistance: 5), named: "pan", to: "list")
        try arena.attach(TapGesture(), named: "tap", to: "card")
        #expect(arena.send(down(50, 50, at: 0), move(50, 57, at: 0.05)).isEmpty)  // pan accepted, held
        let events = arena.send(move(50, 62, at: 0.1))  // the tap fails: the pan wins with its current value
        #expect(phases(events) == ["card.tap.failed", "list.pan.began"])
        #expect(events.last?.value?.drag?.translation == Vector(dx: 0, dy: 12))
        #expect(phases(arena.send(up(50, 70, at: 0.2))) == ["list.pan.ended"])
        #expect(arena.isIdle)
    }

    @Test func simultaneousGesturesRunAlongsideTheWinner() throws {
        // The deck's expanded card: a scroll view with a simultaneous drag-down-to-dismiss (minimum distance 20).
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "expanded", frame: Rect(x: 0, y: 0, width: 400, height: 800)))
        try arena.attach(ScrollGesture(offsetRange: 0...1000), named: "scroll", to: "expanded")
        try arena.attach(DragGesture(minimumDistance: 20), named: "dismiss", to: "expanded", priority: .simultaneous)
        var events = arena.send(down(200, 100, at: 0), move(200, 115, at: 0.05))
        #expect(phases(events) == ["expanded.scroll.began"])
        events = arena.send(move(200, 119, at: 0.1))
        #expect(phases(events) == ["expanded.scroll.changed"])
        events = arena.send(move(200, 120, at: 0.15))
        #expect(phases(events) == ["expanded.scroll.changed", "expanded.dismiss.began"])
        events = arena.send(up(200, 300, at: 0.3))
        #expect(phases(events) == ["expanded.scroll.ended", "expanded.dismiss.ended"])
        #expect(events.last?.value?.drag?.translation == Vector(dx: 0, dy: 200))
    }

    @Test func theDecksDragNeedsTwentyPoints() throws {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "deck", frame: Rect(x: 0, y: 0, width: 300, height: 300)))
        try arena.attach(DragGesture(minimumDistance: 20), named: "drag", to: "deck")
        #expect(arena.send(down(100, 100, at: 0), move(100, 119.9, at: 0.1)).isEmpty)
        #expect(phases(arena.send(move(100, 120, at: 0.2))) == ["deck.drag.began"])
    }

    @Test func reattachingReplacesAndDetachingRemoves() throws {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "deck", frame: Rect(x: 0, y: 0, width: 400, height: 800)))
        try arena.attach(ScrollGesture(contentOffset: 0, offsetRange: 0...1000), named: "scroll", to: "deck")
        try arena.attach(ScrollGesture(contentOffset: 300, offsetRange: 0...1000), named: "scroll", to: "deck")
        let events = arena.send(wheel(0, 10, at: 0, x: 5, y: 5))
        guard case .scroll(let value)? = events.first?.value else {
            Issue.record("expected one scroll event, got \(events)")
            return
        }
        #expect(events.count == 1)
        #expect(value.offset == 310)  // the replacement's content offset
        _ = arena.advance(to: 1)
        arena.detach(named: "scroll", from: "deck")
        #expect(arena.send(wheel(0, 10, at: 2, x: 5, y: 5)).isEmpty)
        #expect(arena.isIdle)
    }

    @Test func timersFireAtTheirDeadlineWhenTheHostAdvancesTime() throws {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "card", frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        try arena.attach(LongPressGesture(), named: "press", to: "card")
        #expect(arena.send(down(50, 50, at: 10)).isEmpty)
        #expect(arena.nextDeadline == 10.5)
        #expect(arena.advance(to: 10.4).isEmpty)
        #expect(phases(arena.advance(to: 10.5)) == ["card.press.ended"])
        #expect(arena.isIdle)
        #expect(arena.nextDeadline == nil)
    }

    @Test func aDoubleTapHoldsTheArenaBetweenTouches() throws {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "card", frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        try arena.attach(TapGesture(count: 2), named: "double", to: "card")
        try arena.attach(TapGesture(), named: "single", to: "card")
        #expect(arena.send(down(50, 50, at: 0), up(50, 50, at: 0.05)).isEmpty)
        #expect(!arena.isIdle)
        #expect(phases(arena.advance(to: 0.35)) == ["card.double.failed", "card.single.ended"])
        #expect(arena.isIdle)
        let events = arena.send(down(50, 50, at: 1), up(50, 50, at: 1.05), down(52, 50, at: 1.2), up(52, 50, at: 1.25))
        #expect(phases(events) == ["card.double.ended"])
        #expect(arena.isIdle)
    }

    @Test func aTouchElsewhereEndsAWaitingDoubleTap() throws {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "a", frame: Rect(x: 0, y: 0, width: 100, height: 100)))
        arena.setTarget(GestureTarget(id: "b", frame: Rect(x: 200, y: 0, width: 100, height: 100)))
        try arena.attach(TapGesture(count: 2), named: "double", to: "a")
        try arena.attach(TapGesture(), named: "single", to: "a")
        try arena.attach(TapGesture(), named: "tap", to: "b")
        let events = arena.send(
            down(50, 50, at: 0), up(50, 50, at: 0.05), down(250, 50, at: 0.1), up(250, 50, at: 0.15))
        #expect(phases(events) == ["a.double.failed", "a.single.ended", "b.tap.ended"])
    }

    @Test func wheelEventsScrollTheTargetUnderThePointerAndEndAfterAPause() throws {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "deck", frame: Rect(x: 0, y: 0, width: 400, height: 800)))
        arena.setTarget(
            GestureTarget(id: "card", frame: Rect(x: 0, y: 0, width: 100, height: 100), z: 1, parent: "deck"))
        try arena.attach(ScrollGesture(offsetRange: 0...1000), named: "scroll", to: "deck")
        try arena.attach(TapGesture(), named: "tap", to: "card")
        var events = arena.send(wheel(0, -30, at: 0, x: 50, y: 50), wheel(0, -20, at: 0.05, x: 50, y: 50))
        #expect(phases(events) == ["deck.scroll.began", "deck.scroll.changed"])
        guard case .scroll(let value)? = events.last?.value else {
            Issue.record("expected a scroll value")
            return
        }
        #expect(value.overscroll == -50)  // pulled 50 pt past the top
        #expect(arena.nextDeadline == 0.2)
        events = arena.advance(to: 0.2)
        #expect(phases(events) == ["deck.scroll.ended"])
        #expect(arena.isIdle)
    }
}

@Suite struct MultiPointerTests {
    private func dragArena() throws -> GestureArena<String> {
        var arena = GestureArena<String>()
        arena.setTarget(GestureTarget(id: "card", frame: Rect(x: 0, y: 0, width: 300, height: 300)))
        try arena.attach(DragGesture(), named: "drag", to: "card")
        return arena
    }

    @Test func aSecondPointerIsIgnored() throws {
        var arena = try dragArena()
        #expect(phases(arena.send(down(10, 10, at: 0), move(40, 10, at: 0.1))) == ["card.drag.began"])
        let second = arena.send(
            down(100, 100, at: 0.15, id: 1), move(150, 150, at: 0.2, id: 1), up(150, 150, at: 0.25, id: 1),
            cancel(0, 0, at: 0.26, id: 1))
        #expect(second.isEmpty)
        let events = arena.send(move(60, 10, at: 0.3), up(60, 10, at: 0.35))
        #expect(phases(events) == ["card.drag.changed", "card.drag.ended"])
        #expect(events.last?.value?.drag?.translation == Vector(dx: 50, dy: 0))
        #expect(arena.isIdle)
    }

    @Test func aLostUpIsRecoveredByTheNextDownOfTheSamePointer() throws {
        var arena = try dragArena()
        _ = arena.send(down(10, 10, at: 0), move(40, 10, at: 0.1))
        let events = arena.send(down(200, 200, at: 1), move(200, 230, at: 1.1))
        #expect(phases(events) == ["card.drag.cancelled", "card.drag.began"])
        #expect(events.last?.value?.drag?.startLocation == Point(x: 200, y: 200))
    }

    @Test func cancelCancelsTheActiveGestureAndFailsTheUndecided() throws {
        var arena = try dragArena()
        try arena.attach(LongPressGesture(), named: "press", to: "card", priority: .simultaneous)
        _ = arena.send(down(10, 10, at: 0), move(40, 10, at: 0.1))
        let events = arena.send(cancel(40, 10, at: 0.2))
        #expect(phases(events) == ["card.drag.cancelled"])
        #expect(arena.isIdle)
        _ = arena.send(down(10, 10, at: 1))
        #expect(phases(arena.cancelAll()) == ["card.drag.failed", "card.press.failed"])
        #expect(arena.isIdle)
    }

    @Test func touchesAndTheWheelNeverOverlap() throws {
        var arena = try dragArena()
        try arena.attach(ScrollGesture(offsetRange: 0...100), named: "scroll", to: "card")
        #expect(phases(arena.send(wheel(0, 10, at: 0, x: 50, y: 50))) == ["card.scroll.began"])
        // A touch-down cancels the wheel scroll; wheel events during the touch are ignored.
        #expect(phases(arena.send(down(50, 50, at: 0.05))) == ["card.scroll.cancelled"])
        #expect(arena.send(wheel(0, 10, at: 0.06, x: 50, y: 50)).isEmpty)
        #expect(phases(arena.send(move(50, 80, at: 0.1))) == ["card.drag.began"])
        #expect(phases(arena.send(up(50, 80, at: 0.15))) == ["card.drag.ended"])
        #expect(arena.isIdle)
    }

    @Test func badInputIsIgnoredAndTimeNeverRunsBack() throws {
        var arena = try dragArena()
        #expect(arena.send(down(.nan, 10, at: 0), down(10, 10, at: .infinity), wheel(.nan, 0, at: 0)).isEmpty)
        #expect(arena.isIdle)
        _ = arena.send(down(10, 10, at: 5), move(40, 10, at: 4))  // the move's time is clamped to 5
        let events = arena.send(up(40, 10, at: 3))
        #expect(events.last?.time == 5)
        #expect(events.last?.value?.drag?.time == 5)
        #expect(arena.now == 5)
    }
}
