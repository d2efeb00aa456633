import CardGeometry
import CardGestures
import Testing

/// The wallet seed's gesture: `TapGesture().exclusively(before: LongPressGesture(minimumDuration: 0.05)
/// .sequenced(before: DragGesture()))` with an `updating` into a drag state.
private let wallet = TapGesture().exclusively(
    before: LongPressGesture(minimumDuration: 0.05).sequenced(before: DragGesture()))

/// The wallet's `DragState`, derived from the gesture value as its `updating` closure does.
private enum WalletDragState: Sendable, Equatable {
    case inactive
    case pressing
    case dragging(Vector)
}

private func walletUpdate(_ value: GestureValue, _ state: inout WalletDragState) {
    guard case .exclusive(.second(.sequenced(let sequenced))) = value else { return }
    switch sequenced {
    case .first: state = .pressing
    case .second(_, let drag): state = drag?.drag.map { .dragging($0.translation) } ?? .pressing
    }
}

@Suite struct WalletCompositionTests {
    @Test func aQuickTapIsATapAndNeverPresses() {
        var driver = Driver(wallet)
        driver.send(down(10, 10, at: 0))
        driver.advance(to: 0.06)  // the long press is recognised but held back behind the possible tap
        #expect(driver.phases.isEmpty)
        driver.send(up(10, 10, at: 0.1))
        #expect(driver.phases == [.ended])
        #expect(driver.last == .exclusive(.first(.tap(TapValue(count: 1, location: Point(x: 10, y: 10))))))
    }

    @Test func pressThenDragReportsTheDragFromWhereThePressWasRecognised() throws {
        var driver = Driver(wallet)
        var state = GestureStateValue(initialValue: WalletDragState.inactive)
        func send(_ event: PointerEvent) {
            let before = driver.transitions.count
            driver.send(event)
            for transition in driver.transitions[before...] {
                state.update(transition.phase, transition.value, body: walletUpdate)
            }
        }
        send(down(0, 0, at: 0))
        send(move(0, 4, at: 0.1))  // the long press ended at 0.05 at (0, 0); the drag starts there
        #expect(driver.phases.isEmpty)
        send(move(0, 12, at: 0.15))  // the tap fails (moved > 10) and the drag has gone 12 ≥ 10
        #expect(driver.phases == [.began])
        #expect(state.wrappedValue == .dragging(Vector(dx: 0, dy: 12)))
        send(move(5, 40, at: 0.2))
        #expect(driver.phases == [.began, .changed])
        #expect(state.wrappedValue == .dragging(Vector(dx: 5, dy: 40)))
        send(up(5, 40, at: 0.25))
        #expect(driver.phases == [.began, .changed, .ended])
        #expect(state.wrappedValue == .inactive)  // gesture state resets on end
        guard case .exclusive(.second(.sequenced(.second(.longPress, let drag?)))) = try #require(driver.last)
        else {
            Issue.record("unexpected final value \(String(describing: driver.last))")
            return
        }
        #expect(drag.drag?.translation == Vector(dx: 5, dy: 40))
    }

    @Test func holdingStillShowsPressingOnceTheTapTimesOut() {
        var driver = Driver(wallet)
        var state = GestureStateValue(initialValue: WalletDragState.inactive)
        driver.send(down(0, 0, at: 0))
        driver.advance(to: 0.5)
        #expect(driver.phases == [.began])
        if let transition = driver.transitions.last {
            state.update(transition.phase, transition.value, body: walletUpdate)
        }
        #expect(state.wrappedValue == .pressing)
        // Releasing without a drag: the drag fails, so the sequence is cancelled and onEnded never runs.
        driver.send(up(0, 0, at: 0.7))
        #expect(driver.phases == [.began, .cancelled])
        if let transition = driver.transitions.last {
            state.update(transition.phase, transition.value, body: walletUpdate)
        }
        #expect(state.wrappedValue == .inactive)  // gesture state resets on cancel
    }
}

@Suite struct CompositionTests {
    @Test func sequencedSecondStartsMidTouchWithFirstValue() throws {
        var driver = Driver(LongPressGesture().sequenced(before: DragGesture()))
        driver.send(down(50, 50, at: 0), move(55, 50, at: 0.3))
        driver.advance(to: 0.5)
        #expect(driver.phases == [.began])
        guard case .sequenced(.second(.longPress, nil)) = try #require(driver.last) else {
            Issue.record("expected .second(longPress, nil)")
            return
        }
        driver.send(move(70, 50, at: 0.6))  // 15 from where the press was recognised (55, 50)
        guard case .sequenced(.second(_, let drag?)) = try #require(driver.last) else {
            Issue.record("expected a drag value")
            return
        }
        #expect(drag.drag?.startLocation == Point(x: 55, y: 50))
        #expect(drag.drag?.translation == Vector(dx: 15, dy: 0))
        driver.send(up(70, 50, at: 0.7))
        #expect(driver.phases == [.began, .changed, .ended])
    }

    @Test func sequencedFailsWhenTheFirstFails() {
        var driver = Driver(LongPressGesture().sequenced(before: DragGesture()))
        driver.send(down(0, 0, at: 0), move(30, 0, at: 0.1), up(30, 0, at: 0.2))
        #expect(driver.phases == [.failed])
    }

    @Test func sequencedFirstValueWhileAContinuousFirstRuns() {
        var driver = Driver(DragGesture().sequenced(before: TapGesture()))
        driver.send(down(0, 0, at: 0), move(20, 0, at: 0.1))
        guard case .sequenced(.first(.drag)) = driver.last else {
            Issue.record("expected .first(drag)")
            return
        }
        #expect(driver.phases == [.began])
    }

    @Test func exclusiveSecondWinsOnlyAfterTheFirstFails() {
        // A double tap takes precedence over a single tap: the single tap is held until the double tap gives up.
        var single = Driver(TapGesture(count: 2).exclusively(before: TapGesture()))
        single.send(down(0, 0, at: 0), up(0, 0, at: 0.05))
        #expect(single.phases.isEmpty)
        single.advance(to: 0.35)
        #expect(single.phases == [.ended])
        #expect(single.last == .exclusive(.second(.tap(TapValue(count: 1, location: .zero)))))

        var double = Driver(TapGesture(count: 2).exclusively(before: TapGesture()))
        double.send(down(0, 0, at: 0), up(0, 0, at: 0.05), down(0, 0, at: 0.2), up(0, 0, at: 0.25))
        #expect(double.phases == [.ended])
        #expect(double.last == .exclusive(.first(.tap(TapValue(count: 2, location: .zero)))))
    }

    @Test func exclusiveFailsWhenBothFail() {
        var driver = Driver(TapGesture().exclusively(before: LongPressGesture()))
        driver.send(down(0, 0, at: 0), move(50, 0, at: 0.1))
        #expect(driver.phases == [.failed])
    }

    @Test func simultaneousReportsBothValues() throws {
        var driver = Driver(DragGesture().simultaneously(with: LongPressGesture(minimumDuration: 0.2)))
        driver.send(down(0, 0, at: 0), move(3, 0, at: 0.1))
        #expect(driver.phases.isEmpty)
        driver.advance(to: 0.2)
        #expect(driver.phases == [.began])
        guard case .simultaneous(nil, .longPress?) = try #require(driver.last) else {
            Issue.record("expected only the long press")
            return
        }
        driver.send(move(30, 0, at: 0.3))
        guard case .simultaneous(.drag?, .longPress?) = try #require(driver.last) else {
            Issue.record("expected both values")
            return
        }
        driver.send(up(30, 0, at: 0.4))
        #expect(driver.phases == [.began, .changed, .ended])
    }

    @Test func simultaneousFailsWhenBothFail() {
        var driver = Driver(TapGesture().simultaneously(with: LongPressGesture()))
        driver.send(down(0, 0, at: 0), move(40, 0, at: 0.1))
        #expect(driver.phases == [.failed])
    }

    @Test func composedCancelIsCancelledAfterBeganAndFailedBefore() {
        var active = Driver(DragGesture().simultaneously(with: TapGesture()))
        active.send(down(0, 0, at: 0), move(20, 0, at: 0.1), cancel(20, 0, at: 0.2))
        #expect(active.phases == [.began, .cancelled])
        var idle = Driver(LongPressGesture().sequenced(before: DragGesture()))
        idle.send(down(0, 0, at: 0), cancel(0, 0, at: 0.1))
        #expect(idle.phases == [.failed])
    }

    @Test func callbacksRunOnChangeAndOnlyEndOnSuccess() {
        final class Log {
            var entries: [String] = []
        }
        let log = Log()
        let callbacks = GestureCallbacks(
            onChanged: { _ in log.entries.append("changed") }, onEnded: { _ in log.entries.append("ended") },
            onCancelled: { log.entries.append("cancelled") })
        var driver = Driver(DragGesture())
        driver.send(down(0, 0, at: 0), move(20, 0, at: 0.1), move(20, 0, at: 0.1), move(25, 0, at: 0.2))
        driver.send(cancel(25, 0, at: 0.3))
        for transition in driver.transitions { callbacks.dispatch(transition.phase, transition.value) }
        #expect(log.entries == ["changed", "changed", "cancelled"])
    }
}
