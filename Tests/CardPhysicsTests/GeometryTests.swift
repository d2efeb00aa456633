import CardGeometry
import Testing

@Suite struct GeometryTests {
    @Test func rectContainmentIsHalfOpen() {
        let rect = Rect(x: 10, y: 20, width: 100, height: 50)
        #expect(rect.contains(Point(x: 10, y: 20)))
        #expect(rect.contains(Point(x: 109.999, y: 69.999)))
        #expect(!rect.contains(Point(x: 110, y: 40)))
        #expect(!rect.contains(Point(x: 50, y: 70)))
    }

    @Test func roundedCornersExcludeTheCornerButNotTheEdges() {
        let rect = Rect(x: 0, y: 0, width: 100, height: 60)
        // The very corner lies outside a radius-12 rounding; a point on the arc's inside lies in.
        #expect(!rect.contains(Point(x: 0.5, y: 0.5), cornerRadius: 12))
        #expect(rect.contains(Point(x: 12, y: 0.5), cornerRadius: 12))
        #expect(rect.contains(Point(x: 4, y: 4), cornerRadius: 12))  // distance to (12,12) ≈ 11.3 < 12
        #expect(!rect.contains(Point(x: 3, y: 3), cornerRadius: 12))  // ≈ 12.7 > 12
        #expect(!rect.contains(Point(x: 99.5, y: 59.5), cornerRadius: 12))
        // A radius larger than half the short side is clamped, as RoundedRectangle does.
        #expect(rect.contains(Point(x: 50, y: 1), cornerRadius: 500))
    }

    @Test func negativeSizesAreStandardised() {
        let rect = Rect(x: 100, y: 100, width: -40, height: -20)
        #expect(rect.standardized == Rect(x: 60, y: 80, width: 40, height: 20))
        #expect(rect.contains(Point(x: 70, y: 90)))
    }

    @Test func angleConversions() {
        #expect(Angle.degrees(180).radians == Double.pi)
        #expect(abs(Angle.radians(.pi / 2).degrees - 90) < 1e-12)
    }

    @Test func vectorArithmetic() {
        let start = Point(x: 1, y: 2)
        let end = Point(x: 4, y: 6)
        #expect(end - start == Vector(dx: 3, dy: 4))
        #expect(start.distance(to: end) == 5)
        #expect(start + Vector(dx: 3, dy: 4) == end)
    }
}
