import CardEngine
import CardGeometry
import CardGestures
import CardModels
import CardPhysics
import Foundation
import Testing

/// `ScrollView`: the scroll element every scene can keep (issue 27). Properties over seeded random gestures, and
/// the published constants (UIScrollView's rubber band and deceleration).
@Suite struct ScrollViewTests {
    func drag(_ translation: Double, velocity: Double = 0) -> GestureValue {
        .scroll(ScrollValue(source: .drag, translation: translation, offset: 0, overscroll: 0, velocity: velocity))
    }

    @Test func dragsFollowTheFingerAndAreRubberBandedPastEitherEnd() {
        var view = ScrollView(axis: .horizontal, contentLength: 1000, viewportLength: 400)
        #expect(view.range == 0...600)
        _ = view.handle(.began, drag(100), at: 0)
        #expect(view.offset == 100)
        _ = view.handle(.changed, drag(700), at: 0.1)
        // 100 past the end: (1 − 1/(100·0.55/400 + 1))·400.
        #expect(abs(view.offset - (600 + (1 - 1 / (100 * 0.55 / 400 + 1)) * 400)) < 1e-9)
        let back = view.handle(.ended, drag(700), at: 0.2)
        #expect(back == .spring)
        #expect(view.offset == 600)
    }

    @Test func aReleaseCoastsToTheProjectedRestOrStopsAtTheEdge() {
        var view = ScrollView(axis: .vertical, contentLength: 5000, viewportLength: 500)
        _ = view.handle(.began, drag(100), at: 0)
        let animation = view.handle(.ended, drag(100, velocity: 1000), at: 0.1)
        #expect(animation == .decelerate(.normal))
        // x₀ + v/k with k = −1000·ln 0.998.
        #expect(abs(view.offset - (100 + 1000 / (-1000 * log(0.998)))) < 1e-9)
        // Halfway along, the coast shows UIScrollView's curve.
        let shown = view.displayedOffset(at: 0.6)
        #expect(abs(shown - Deceleration.normal.position(from: 100, initialVelocity: 1000, at: 0.5)) < 1e-9)
        // A fling that would go past the end comes to rest exactly at it, leaving at the same speed.
        var near = ScrollView(axis: .vertical, contentLength: 1000, viewportLength: 500)
        _ = near.handle(.began, drag(400), at: 0)
        let stop = near.handle(.ended, drag(400, velocity: 2000), at: 0.1)
        #expect(near.offset == 500)
        guard case .decay(let rate)? = stop?.motion else {
            Issue.record("a stop at the edge decays: \(String(describing: stop))")
            return
        }
        #expect(abs(100 * rate.decayConstant - 2000) < 1e-6)
    }

    @Test func randomGesturesAlwaysSettleInsideTheRange() {
        var random = SplitMix64(seed: 27)
        for _ in 0..<5_000 {
            let content = Double.random(in: 0...3000, using: &random)
            let port = Double.random(in: 1...800, using: &random)
            var view = ScrollView(axis: .horizontal, contentLength: content, viewportLength: port)
            var time = 0.0
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                time += Double.random(in: 0...2, using: &random)
                let source: ScrollSource = Bool.random(using: &random) ? .drag : .wheel
                var translation = 0.0
                for phase in [GesturePhase.began, .changed, .changed] {
                    translation += Double.random(in: -2000...2000, using: &random)
                    let value = GestureValue.scroll(
                        ScrollValue(source: source, translation: translation, offset: 0, overscroll: 0, velocity: 0))
                    _ = view.handle(phase, value, at: time)
                    view._checkInvariants()
                    // While a finger holds it, the content never goes a view's length past an end.
                    #expect(view.offset > view.range.lowerBound - port && view.offset < view.range.upperBound + port)
                }
                let velocity = Double.random(in: -8000...8000, using: &random)
                let end = Bool.random(using: &random) ? GesturePhase.ended : .cancelled
                _ = view.handle(
                    end,
                    .scroll(
                        ScrollValue(
                            source: source, translation: translation, offset: 0, overscroll: 0, velocity: velocity)),
                    at: time)
                #expect(view.range.contains(view.offset), "rests inside \(view.range): \(view.offset)")
            }
            _ = view.scroll(by: Double.random(in: -5000...5000, using: &random))
            #expect(view.range.contains(view.offset))
            view.resize(contentLength: Double.random(in: 0...3000, using: &random), viewportLength: port)
            #expect(view.range.contains(view.offset))
        }
    }
}
