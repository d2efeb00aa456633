import CardGeometry
import CardPhysics
import Testing

@Suite struct AnimatableTests {
    func expectVectorSpace<V: Animatable>(_ a: V, _ b: V, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.adding(b).subtracting(b) == a, sourceLocation: sourceLocation)
        #expect(a.adding(.zero) == a, sourceLocation: sourceLocation)
        #expect(a.scaled(by: 2) == a.adding(a), sourceLocation: sourceLocation)
        #expect(a.scaled(by: 0) == .zero, sourceLocation: sourceLocation)
        #expect(abs(a.scaled(by: 3).magnitudeSquared - 9 * a.magnitudeSquared) < 1e-9, sourceLocation: sourceLocation)
    }

    @Test func everyConformanceIsAVectorSpace() {
        expectVectorSpace(1.5, -4.25)
        expectVectorSpace(Point(x: 1, y: -2), Point(x: 0.5, y: 8))
        expectVectorSpace(Vector(dx: 3, dy: 4), Vector(dx: -1, dy: 0.25))
        expectVectorSpace(Size(width: 10, height: 20), Size(width: -2, height: 1))
        expectVectorSpace(Rect(x: 1, y: 2, width: 3, height: 4), Rect(x: -1, y: 0.5, width: 8, height: 2))
        expectVectorSpace(Angle(radians: 1.25), Angle(radians: -0.5))
        expectVectorSpace(RGBA(red: 0.5, green: 0.25, blue: 1, alpha: 0.75), RGBA(red: 0, green: 0.5, blue: 0.25))
        expectVectorSpace(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4), EdgeInsets(all: 0.5))
        expectVectorSpace(AnimatablePair(2.0, Point(x: 1, y: 1)), AnimatablePair(-0.5, Point(x: 4, y: -2)))
        #expect(Point(x: 3, y: 4).magnitude == 5)
    }

    @Test func rgbaClampsForDisplay() {
        let color = RGBA(red: 1.2, green: -0.1, blue: 0.5, alpha: 2)
        #expect(color.clamped == RGBA(red: 1, green: 0, blue: 0.5, alpha: 1))
    }
}

@Suite struct AnimatableVectorTests {
    enum Property: Hashable, Sendable {
        case frame
        case opacity
        case fill
        case rotation
    }

    func expectRoundTrip<V: AnimatableVectorConvertible>(_ value: V, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #expect(V(animatableVector: value.animatableVector) == value, sourceLocation: sourceLocation)
        #expect(
            abs(value.animatableVector.magnitudeSquared - value.magnitudeSquared) < 1e-12,
            sourceLocation: sourceLocation)
    }

    @Test func everyGeometryTypeRoundTrips() {
        expectRoundTrip(0.25)
        expectRoundTrip(Point(x: 3, y: -4))
        expectRoundTrip(Vector(dx: 1, dy: 2))
        expectRoundTrip(Size(width: 5, height: 6))
        expectRoundTrip(Angle(degrees: 30))
        expectRoundTrip(Rect(x: 1, y: 2, width: 3, height: 4))
        expectRoundTrip(RGBA(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4))
        expectRoundTrip(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))
    }

    @Test func oneTimelineHoldsMixedProperties() throws {
        var timeline = AnimationTimeline<Property, AnimatableVector>()
        timeline.animate(.frame, to: Rect(x: 100, y: 0, width: 200, height: 300), with: .smooth, at: 0, from: .zero)
        timeline.animate(.opacity, to: 1.0, with: .easeIn, at: 0, from: 0.0)
        timeline.animate(.fill, to: RGBA.white, with: .linear, at: 0, from: RGBA.black)
        timeline.set(.rotation, to: Angle(degrees: 45))
        let frame = try #require(timeline.value(for: .frame, as: Rect.self, at: 0.1))
        let expectedX = Spring.smooth.value(from: 0, to: 100, at: 0.1)
        #expect(abs(frame.origin.x - expectedX) < 1e-9)
        #expect(abs(frame.size.height - 3 * expectedX) < 1e-9)
        let fill = try #require(timeline.value(for: .fill, as: RGBA.self, at: 0.175))
        #expect(abs(fill.red - 0.5) < 1e-12 && abs(fill.alpha - 1) < 1e-12)
        #expect(timeline.value(for: .rotation, as: Angle.self, at: 3) == Angle(degrees: 45))
        #expect(timeline.velocity(for: .opacity, as: Double.self, at: 10) == 0)
    }
}
