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
