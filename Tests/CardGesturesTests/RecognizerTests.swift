import CardGeometry
import CardGestures
import Foundation
import Testing

@Suite struct TapTests {
    @Test func aQuickStillTapEnds() {
        var driver = Driver(TapGesture())
        driver.send(down(10, 10, at: 0), move(15, 18, at: 0.05), up(15, 18, at: 0.1))
        #expect(driver.phases == [.ended])
        #expect(driver.last == .tap(TapValue(count: 1, location: Point(x: 15, y: 18))))
    }

    @Test func movingMoreThanTenPointsFails() {
        var driver = Driver(TapGesture())
        driver.send(down(0, 0, at: 0), move(6, 8, at: 0.02))  // exactly 10: still a tap
        #expect(driver.state == .possible)
        driver.send(move(6, 8.1, at: 0.03))
        #expect(driver.phases == [.failed])
        driver.send(up(0, 0, at: 0.04))
        #expect(driver.phases == [.failed])
    }

    @Test func holdingForTheMaximumPressDurationFailsWithoutFurtherEvents() {
        var driver = Driver(TapGesture())
        driver.send(down(0, 0, at: 1))
        #expect(driver.recognizer.nextDeadline == 1.5)
        driver.advance(to: 1.4999)
        #expect(driver.state == .possible)
        driver.advance(to: 1.5)
        #expect(driver.phases == [.failed])
    }

    @Test func doubleTapWithinIntervalAndSlopEnds() {
        var driver = Driver(TapGesture(count: 2))
        driver.send(down(50, 50, at: 0), up(50, 50, at: 0.08))
        #expect(driver.state == .possible)
        #expect(driver.recognizer.nextDeadline == 0.08 + 0.3)
        driver.send(down(60, 55, at: 0.25), up(60, 55, at: 0.3))
        #expect(driver.phases == [.ended])
        #expect(driver.last == .tap(TapValue(count: 2, location: Point(x: 60, y: 55))))
    }

    @Test func doubleTapTimesOutOrStraysTooFar() {
        var late = Driver(TapGesture(count: 2))
        late.send(down(0, 0, at: 0), up(0, 0, at: 0.1))
        late.advance(to: 0.4)
        #expect(late.phases == [.failed])
        var far = Driver(TapGesture(count: 2))
        far.send(down(0, 0, at: 0), up(0, 0, at: 0.1), down(101, 0, at: 0.2))
        #expect(far.phases == [.failed])
    }

    @Test func cancelFails() {
        var driver = Driver(TapGesture())
        driver.send(down(0, 0, at: 0), cancel(0, 0, at: 0.1))
        #expect(driver.phases == [.failed])
    }
}

@Suite struct LongPressTests {
    @Test func recognisedAtTheDeadlineEvenWithoutEvents() {
        var driver = Driver(LongPressGesture())
        driver.send(down(10, 10, at: 2), move(14, 13, at: 2.2))
        #expect(driver.state == .possible)
        #expect(driver.recognizer.nextDeadline == 2.5)
        driver.advance(to: 2.5)
        #expect(driver.phases == [.ended])
        let expected = LongPressValue(startLocation: Point(x: 10, y: 10), location: Point(x: 14, y: 13), duration: 0.5)
        #expect(driver.last == .longPress(expected))
        driver.send(move(200, 200, at: 2.6), up(200, 200, at: 2.7))  // moving after recognition is allowed
        #expect(driver.phases == [.ended])
    }

    @Test func movingTooFarBeforeRecognitionFails() {
        var driver = Driver(LongPressGesture())
        driver.send(down(0, 0, at: 0), move(0, 10.5, at: 0.3))
        #expect(driver.phases == [.failed])
        driver.advance(to: 1)
        #expect(driver.phases == [.failed])
    }

    @Test func liftingEarlyFails() {
        var driver = Driver(LongPressGesture(minimumDuration: 0.05))
        driver.send(down(0, 0, at: 0), up(0, 0, at: 0.04))
        #expect(driver.phases == [.failed])
    }

    @Test func anEventPastTheDeadlineRecognisesFirst() {
        var driver = Driver(LongPressGesture(minimumDuration: 0.05))
        driver.send(down(0, 0, at: 0), up(0, 0, at: 0.06))
        #expect(driver.phases == [.ended])
    }
}

@Suite struct DragTests {
    @Test func beginsAtTheMinimumDistanceAndReportsTranslationFromTheStart() throws {
        var driver = Driver(DragGesture())
        driver.send(down(100, 100, at: 0), move(105, 100, at: 0.01))
        #expect(driver.phases.isEmpty)
        driver.send(move(106, 108, at: 0.02))  // distance exactly 10
        #expect(driver.phases == [.began])
        let began = try #require(driver.last?.drag)
        #expect(began.startLocation == Point(x: 100, y: 100))
        #expect(began.translation == Vector(dx: 6, dy: 8))
        driver.send(move(120, 130, at: 0.03), up(120, 130, at: 0.04))
        #expect(driver.phases == [.began, .changed, .ended])
        let ended = try #require(driver.last?.drag)
        #expect(ended.translation == Vector(dx: 20, dy: 30))
        #expect(ended.location == Point(x: 120, y: 130))
    }

    @Test func liftingBeforeTheMinimumDistanceFails() {
        var driver = Driver(DragGesture(minimumDistance: 20))
        driver.send(down(0, 0, at: 0), move(0, 19, at: 0.1), up(0, 19, at: 0.2))
        #expect(driver.phases == [.failed])
    }

    @Test func zeroMinimumDistanceBeginsOnDown() {
        var driver = Driver(DragGesture(minimumDistance: 0))
        driver.send(down(3, 4, at: 0))
        #expect(driver.phases == [.began])
        #expect(driver.last?.drag?.translation == .zero)
    }

    @Test func velocityAndPredictedEndFollowTheDecelerationModel() throws {
        var driver = Driver(DragGesture())
        for step in 0...10 {
            let ms = Double(step) * 10
            driver.send(step == 0 ? down(0, 0, at: 0) : move(ms, 0, at: ms / 1000))  // 1 pt/ms
        }
        let value = try #require(driver.last?.drag)
        #expect(isClose(value.velocity.dx, 1000, tolerance: 1e-9))
        // CardPhysics' UIScrollView deceleration (rate 0.998 per ms, continuous form): a fling at v comes to rest
        // −v / (1000 · ln 0.998) = 499.4998… pt beyond the current translation of 100.
        let beyond = -1000 / (1000 * log(0.998))
        #expect(isClose(beyond, 499.4998, tolerance: 1e-4))
        #expect(isClose(value.predictedEndTranslation.dx, 100 + beyond, tolerance: 1e-9))
        #expect(isClose(value.predictedEndLocation.x, 100 + beyond, tolerance: 1e-9))
    }

    @Test func changedIsOnlyReportedWhenTheValueChanges() {
        var driver = Driver(DragGesture(minimumDistance: 0))
        driver.send(down(0, 0, at: 0), move(5, 0, at: 0.01), move(5, 0, at: 0.01))
        #expect(driver.phases == [.began, .changed])
    }

    @Test func axisLockCountsAndReportsOnlyTheAxis() throws {
        var driver = Driver(DragGesture(minimumDistance: 10, axis: .horizontal))
        driver.send(down(0, 0, at: 0), move(5, 40, at: 0.01))
        #expect(driver.phases.isEmpty)
        driver.send(move(12, 50, at: 0.02))
        let value = try #require(driver.last?.drag)
        #expect(value.translation == Vector(dx: 12, dy: 0))
        #expect(value.location == Point(x: 12, y: 0))
        #expect(value.velocity.dy == 0)
    }

    @Test func cancelAfterBeganIsCancelled() {
        var driver = Driver(DragGesture())
        driver.send(down(0, 0, at: 0), move(30, 0, at: 0.1), cancel(30, 0, at: 0.2))
        #expect(driver.phases == [.began, .cancelled])
    }
}

@Suite struct SwipeTests {
    @Test func aFastFlickLeftIsASwipeLeft() throws {
        var driver = Driver(SwipeGesture())
        driver.send(down(300, 100, at: 0))
        for step in 1...10 { driver.send(move(300 - Double(step) * 10, 102, at: Double(step) * 0.01)) }
        driver.send(up(200, 102, at: 0.1))
        #expect(driver.phases == [.ended])
        guard case .swipe(let value) = try #require(driver.last) else {
            Issue.record("not a swipe")
            return
        }
        #expect(value.direction == .left)
        #expect(isClose(value.velocity.dx, -1000, tolerance: 1e-6))
        #expect(value.translation == Vector(dx: -100, dy: 2))
    }

    @Test func tooShortTooSlowTooLongOrDisallowedFails() {
        func swipe(_ gesture: SwipeGesture, distance: Double, duration: Double) -> [GesturePhase] {
            var driver = Driver(gesture)
            driver.send(down(0, 0, at: 0))
            for step in 1...10 {
                let fraction = Double(step) / 10
                driver.send(move(distance * fraction, 0, at: duration * fraction))
            }
            driver.send(up(distance, 0, at: duration))
            return driver.phases
        }
        #expect(swipe(SwipeGesture(), distance: 100, duration: 0.1) == [.ended])
        #expect(swipe(SwipeGesture(), distance: 40, duration: 0.02) == [.failed])  // too short
        #expect(swipe(SwipeGesture(), distance: 100, duration: 0.5) == [.failed])  // 200 pt/s: too slow
        #expect(swipe(SwipeGesture(minimumVelocity: 100), distance: 600, duration: 0.8) == [.failed])  // too long
        #expect(swipe(SwipeGesture(directions: .vertical), distance: 100, duration: 0.1) == [.failed])
    }
}

@Suite struct ScrollTests {
    @Test func pullingDownPastTheTopReportsNegativeOverscroll() throws {
        var driver = Driver(ScrollGesture(contentOffset: 0, offsetRange: 0...500))
        driver.send(down(100, 100, at: 0), move(100, 105, at: 0.01), move(100, 160, at: 0.05))
        #expect(driver.phases == [.began])
        guard case .scroll(let value) = try #require(driver.last) else {
            Issue.record("not a scroll")
            return
        }
        #expect(value.source == .drag)
        #expect(value.translation == -60)
        #expect(value.offset == -60)
        #expect(value.overscroll == -60)
        driver.send(up(100, 160, at: 0.06))
        #expect(driver.phases == [.began, .ended])
    }

    @Test func wheelScrollsPastTheBottomAndEndsAfterAPause() throws {
        var driver = Driver(ScrollGesture(contentOffset: 480, offsetRange: 0...500))
        driver.send(wheel(0, 10, at: 0), wheel(0, 30, at: 0.05))
        #expect(driver.phases == [.began, .changed])
        guard case .scroll(let value) = try #require(driver.last) else {
            Issue.record("not a scroll")
            return
        }
        #expect(value.source == .wheel)
        #expect(value.offset == 520)
        #expect(value.overscroll == 20)
        #expect(driver.recognizer.nextDeadline == 0.2)
        driver.advance(to: 0.19)
        #expect(driver.state == .changed)
        driver.advance(to: 0.2)
        #expect(driver.phases == [.began, .changed, .ended])
    }

    @Test func horizontalScrollIgnoresVerticalMotion() {
        var driver = Driver(ScrollGesture(axis: .horizontal, offsetRange: 0...100))
        driver.send(down(0, 0, at: 0), move(2, 80, at: 0.1), up(2, 80, at: 0.2))
        #expect(driver.phases == [.failed])
    }
}
