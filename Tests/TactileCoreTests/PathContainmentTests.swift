import Foundation
import TactileCore
import Testing

@Suite("Path containment")
struct PathContainmentTests {
    /// A closed polygon through the given points, in order.
    private func polygon(_ points: [(Double, Double)]) -> Path {
        var path = Path()
        path.move(to: Point(x: points[0].0, y: points[0].1))
        for (x, y) in points.dropFirst() { path.addLine(to: Point(x: x, y: y)) }
        path.closeSubpath()
        return path
    }

    /// A 30-point square with a 10-point square in the middle, both running clockwise.
    private var squareWithSameDirectionHole: Path {
        var path = polygon([(0, 0), (30, 0), (30, 30), (0, 30)])
        path.addPath(polygon([(10, 10), (20, 10), (20, 20), (10, 20)]))
        return path
    }

    @Test func nonZeroFillsASameDirectionHoleAndEvenOddDoesNot() {
        let path = squareWithSameDirectionHole
        let inHole = Point(x: 15, y: 15)
        let inRing = Point(x: 5, y: 15)
        #expect(path.contains(inHole, rule: .nonZero))
        #expect(!path.contains(inHole, rule: .evenOdd))
        #expect(path.contains(inRing, rule: .nonZero))
        #expect(path.contains(inRing, rule: .evenOdd))
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func anOppositeDirectionHoleIsEmptyUnderBothRules(rule: FillRule) {
        var path = polygon([(0, 0), (30, 0), (30, 30), (0, 30)])
        path.addPath(polygon([(10, 10), (10, 20), (20, 20), (20, 10)]))
        #expect(!path.contains(Point(x: 15, y: 15), rule: rule))
        #expect(path.contains(Point(x: 25, y: 15), rule: rule))
        #expect(!path.contains(Point(x: 35, y: 15), rule: rule))
    }

    @Test func aPentagramsCentreIsFilledOnlyUnderNonZero() {
        let star = polygon(
            (0..<5).map { k in
                let angle = -Double.pi / 2 + Double(k) * 4 * .pi / 5
                return (100 * cos(angle), 100 * sin(angle))
            })
        #expect(star.contains(.zero, rule: .nonZero))
        #expect(!star.contains(.zero, rule: .evenOdd))
        let inTopTip = Point(x: 0, y: -80)
        #expect(star.contains(inTopTip, rule: .nonZero))
        #expect(star.contains(inTopTip, rule: .evenOdd))
        #expect(!star.contains(Point(x: 0, y: -101)))
    }

    /// On a grid of points off the edges, a rectangle path agrees with `Rect.contains`.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func rectanglePathAgreesWithRect(rule: FillRule) {
        let rect = Rect(x: 2.5, y: -3.5, width: 7, height: 11)
        let path = Path(rect: rect)
        let grid = (-5...15).flatMap { i in
            (-10...12).map { j in Point(x: Double(i) + 0.25, y: Double(j) + 0.25) }
        }
        let disagreements = grid.filter { path.contains($0, rule: rule) != rect.contains($0) }
        #expect(disagreements.isEmpty)
        #expect(grid.contains { rect.contains($0) } && grid.contains { !rect.contains($0) })
    }

    /// Rays through vertices must count the two edges meeting there once between them.
    @Test func raysThroughVerticesCountOnce() {
        let diamond = polygon([(0, 5), (5, 0), (10, 5), (5, 10)])
        #expect(diamond.contains(Point(x: 2, y: 5)))
        #expect(diamond.contains(Point(x: 8, y: 5)))
        #expect(!diamond.contains(Point(x: -1, y: 5)))
        #expect(!diamond.contains(Point(x: 11, y: 5)))
        // A notch whose tip just touches the ray's line.
        let zigzag = polygon([(0, 0), (10, 0), (12, 5), (14, 0), (20, 0), (20, 10), (0, 10)])
        #expect(zigzag.contains(Point(x: 1, y: 5)))
        #expect(!zigzag.contains(Point(x: 12, y: 2)))
    }

    /// Inside and outside a circle, by distance from the centre, all around.
    @Test(arguments: (0..<14).map { Double($0) * .pi / 7 })
    func circleContainsPointsJustInsideItsRadius(angle: Double) {
        let (center, radius) = (Point(x: 40, y: -10), 50.0)
        let circle = Path(
            ellipseIn: Rect(center: center, size: Size(width: 2 * radius, height: 2 * radius)))
        // The cubic arcs stray at most 0.03 % of the radius from the circle.
        let inside = center + Vector(angle: angle, length: radius * 0.999)
        let outside = center + Vector(angle: angle, length: radius * 1.001)
        #expect(circle.contains(inside))
        #expect(!circle.contains(outside))
    }

    /// The curve peaks at y = −75 above x = 50 (see `PathBoundsTests`); points a hair either
    /// side of it are decided exactly, not to a flattening tolerance.
    @Test func curvedEdgesAreFollowedClosely() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addCurve(
            to: Point(x: 100, y: 0), control1: Point(x: 0, y: -100),
            control2: Point(x: 100, y: -100))
        path.closeSubpath()
        #expect(path.contains(Point(x: 50, y: -74.999)))
        #expect(!path.contains(Point(x: 50, y: -75.001)))
        #expect(!path.contains(Point(x: 50, y: -90)))
    }

    @Test func openSubpathsAreFilledAsIfClosed() {
        var triangle = Path()
        triangle.move(to: Point(x: 0, y: 0))
        triangle.addLine(to: Point(x: 10, y: 0))
        triangle.addLine(to: Point(x: 10, y: 10))
        #expect(triangle.contains(Point(x: 8, y: 2)))
        #expect(!triangle.contains(Point(x: 2, y: 8)))
    }

    @Test func emptyAndDegeneratePathsContainNothing() {
        #expect(!Path().contains(.zero))
        var line = Path()
        line.move(to: Point(x: -10, y: -10))
        line.addLine(to: Point(x: 10, y: 10))
        #expect(!line.contains(Point(x: 0, y: 1)))
        #expect(!line.contains(Point(x: 1, y: 0)))
    }
}
