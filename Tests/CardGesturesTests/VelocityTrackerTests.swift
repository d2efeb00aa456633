import CardGeometry
import CardGestures
import Testing

@Suite struct VelocityTrackerTests {
    @Test func steadyOnePointPerMillisecondIsOneThousandPointsPerSecond() {
        var tracker = VelocityTracker()
        for step in 0...10 {
            let ms = Double(step) * 8
            tracker.add(time: ms / 1000, location: Point(x: ms, y: -2 * ms))
        }
        let velocity = tracker.velocity(at: 0.080)
        #expect(isClose(velocity.dx, 1000, tolerance: 1e-9))
        #expect(isClose(velocity.dy, -2000, tolerance: 1e-9))
    }

    @Test func quadraticSamplesGiveTheSlopeAtTheLatestSample() {
        // The vector: (0 ms, 0), (10, 10), (20, 30), (30, 60) lie on x = 0.05 t² + 0.5 t → 3.5 pt/ms.
        var tracker = VelocityTracker()
        for (ms, x) in [(0.0, 0.0), (10, 10), (20, 30), (30, 60)] {
            tracker.add(time: ms / 1000, location: Point(x: x, y: 0))
        }
        #expect(isClose(tracker.velocity(at: 0.030).dx, 3500, tolerance: 1e-9))
        #expect(tracker.velocity(at: 0.030).dy == 0)
    }

    @Test func restingLongerThanFortyMillisecondsGivesZero() {
        var tracker = VelocityTracker()
        for ms in stride(from: 0.0, through: 50, by: 10) { tracker.add(time: ms / 1000, location: Point(x: ms, y: 0)) }
        #expect(isClose(tracker.velocity(at: 0.090).dx, 1000))  // 40 ms after the last sample: still moving
        #expect(tracker.velocity(at: 0.0901) == .zero)
    }

    @Test func aGapOfMoreThanFortyMillisecondsCutsTheHistory() {
        var tracker = VelocityTracker()
        // Fast motion, a 50 ms pause, then two slow samples: fewer than three usable samples → zero.
        for ms in stride(from: 0.0, through: 30, by: 10) {
            tracker.add(time: ms / 1000, location: Point(x: ms * 9, y: 0))
        }
        tracker.add(time: 0.080, location: Point(x: 300, y: 0))
        tracker.add(time: 0.090, location: Point(x: 301, y: 0))
        #expect(tracker.velocity(at: 0.090) == .zero)
        tracker.add(time: 0.100, location: Point(x: 302, y: 0))
        #expect(isClose(tracker.velocity(at: 0.100).dx, 100, tolerance: 1e-6))
    }

    @Test func onlyTheLastHundredMillisecondsCount() {
        var tracker = VelocityTracker()
        // 200 ms at 5 pt/ms, then 100 ms at 1 pt/ms sampled every 10 ms: only the slow part is inside the horizon.
        var x = 0.0
        for ms in stride(from: 0.0, through: 200, by: 10) {
            x = ms * 5
            tracker.add(time: ms / 1000, location: Point(x: x, y: 0))
        }
        for step in 1...10 {
            tracker.add(time: (200 + Double(step) * 10) / 1000, location: Point(x: x + Double(step) * 10, y: 0))
        }
        #expect(isClose(tracker.velocity(at: 0.300).dx, 1000, tolerance: 1e-6))
    }

    @Test func keepsAtMostTwentySamples() {
        var tracker = VelocityTracker()
        for step in 0..<50 { tracker.add(time: Double(step) / 1000, location: Point(x: Double(step), y: 0)) }
        #expect(tracker.count == 20)
        #expect(isClose(tracker.velocity().dx, 1000, tolerance: 1e-6))
        tracker.reset()
        #expect(tracker.count == 0)
        #expect(tracker.velocity() == .zero)
    }

    @Test func fewerThanThreeSamplesOrOneInstantGiveZero() {
        var tracker = VelocityTracker()
        tracker.add(time: 0, location: .zero)
        tracker.add(time: 0.01, location: Point(x: 10, y: 0))
        #expect(tracker.velocity() == .zero)
        var sameTime = VelocityTracker()
        for x in 0..<5 { sameTime.add(time: 1, location: Point(x: Double(x), y: 0)) }
        #expect(sameTime.velocity() == .zero)
    }

    /// The second stroke of Flutter's recorded velocity data (`packages/flutter/test/gestures/
    /// velocity_tracker_data.dart`, pointer 2), whose published estimate at the up event is (355.690, 967.170) px/s.
    @Test func flutterRecordedStrokeMatchesThePublishedEstimate() {
        let samples: [(Double, Double, Double)] = [
            (216_691_573, 266.0, 327.4285583496094), (216_691_588, 266.0, 327.4285583496094),
            (216_691_626, 261.1428527832031, 337.1428527832031), (216_691_634, 258.28570556640625, 343.1428527832031),
            (216_691_642, 254.57142639160156, 354.0), (216_691_650, 250.2857208251953, 368.28570556640625),
            (216_691_657, 247.42857360839844, 382.8571472167969), (216_691_665, 245.14285278320312, 397.4285583496094),
            (216_691_673, 243.14285278320312, 411.71429443359375), (216_691_680, 242.2857208251953, 426.28570556640625),
            (216_691_688, 241.7142791748047, 440.5714416503906), (216_691_696, 241.7142791748047, 454.5714416503906),
            (216_691_703, 242.57142639160156, 467.71429443359375), (216_691_712, 243.42857360839844, 477.4285583496094),
            (216_691_720, 244.85714721679688, 485.71429443359375), (216_691_727, 246.2857208251953, 493.1428527832031),
            (216_691_735, 248.0, 499.71429443359375),
        ]
        var tracker = VelocityTracker()
        for (ms, x, y) in samples { tracker.add(time: (ms - 216_691_000) / 1000, location: Point(x: x, y: y)) }
        let velocity = tracker.velocity(at: 0.750)
        #expect(abs(velocity.dx - 355.6900939941406) / 355.69 < 0.001)
        #expect(abs(velocity.dy - 967.1700439453125) / 967.17 < 0.001)
    }
}
