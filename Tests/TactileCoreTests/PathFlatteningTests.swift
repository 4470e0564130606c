import Foundation
import TactileCore
import TestSupport
import Testing

@Suite("Path flattening and length")
struct PathFlatteningTests {
    /// The shoelace area of a closed polygon.
    private func area(of polygon: [Point]) -> Double {
        var sum = 0.0
        for (p, q) in zip(polygon, polygon.dropFirst() + [polygon[0]]) {
            sum += p.x * q.y - q.x * p.y
        }
        return abs(sum) / 2
    }

    /// The distance from a point to the nearest point of a polyline.
    private func distance(from p: Point, to polyline: [Point]) -> Double {
        zip(polyline, polyline.dropFirst()).map { a, b in
            let ab = b - a
            let t =
                ab.lengthSquared == 0 ? 0 : ((p - a).dot(ab) / ab.lengthSquared).clamped(to: 0...1)
            return p.distance(to: a + ab * t)
        }.min()!
    }

    @Test(arguments: [1.0, 0.1, 0.01], [10.0, 100.0])
    func flattenedCircleEnclosesPiRSquared(tolerance: Double, radius: Double) throws {
        let circle = Path(ellipseIn: Rect(x: 3, y: 4, width: 2 * radius, height: 2 * radius))
        let polylines = circle.flattened(tolerance: tolerance)
        let polygon = try #require(polylines.first)
        #expect(polylines.count == 1)
        // Each point of the outline is within `tolerance` of the polygon, and the cubic arcs
        // within 0.03 % of the radius of the circle, so the area is off by at most a band of
        // that width around the circumference.
        let band = tolerance + 3e-4 * radius
        #expect(abs(area(of: polygon) - .pi * radius * radius) <= 2 * .pi * radius * band)
    }

    /// Every point of each curve lies within the tolerance of the polyline, checked by dense
    /// sampling of the Bernstein form.
    @Test(
        arguments: [
            [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: -50, y: 100), Point(x: 50, y: 100)],
            [
                Point(x: 10, y: 80), Point(x: 90, y: -40), Point(x: -30, y: -40),
                Point(x: 60, y: 70),
            ],
            [Point(x: 0, y: 0), Point(x: 300, y: 0), Point(x: 0, y: 300)],
            [
                Point(x: 0, y: 0), Point(x: 1000, y: 1000), Point(x: -1000, y: 1000),
                Point(x: 0, y: 0),
            ],
        ], [0.5, 0.05])
    func curvesStayWithinTolerance(controls: [Point], tolerance: Double) throws {
        var path = Path()
        path.move(to: controls[0])
        if controls.count == 3 {
            path.addQuadCurve(to: controls[2], control: controls[1])
        } else {
            path.addCurve(to: controls[3], control1: controls[1], control2: controls[2])
        }
        let polyline = try #require(path.flattened(tolerance: tolerance).first)
        #expect(polyline.first == controls.first && polyline.last == controls.last)
        let worst = (0...2_000).map {
            distance(from: bernstein(controls, at: Double($0) / 2_000), to: polyline)
        }.max()!
        #expect(worst <= tolerance)
        // Not absurdly many pieces either: a quarter of the tolerance is not met everywhere.
        let coarser = try #require(path.flattened(tolerance: 4 * tolerance).first)
        #expect(coarser.count < polyline.count)
    }

    @Test func straightSegmentsAreKeptAsTheyAre() {
        let polylines = Path(rect: Rect(x: 1, y: 2, width: 3, height: 4)).flattened()
        #expect(
            polylines == [
                [
                    Point(x: 1, y: 2), Point(x: 4, y: 2), Point(x: 4, y: 6), Point(x: 1, y: 6),
                    Point(x: 1, y: 2),
                ]
            ])
    }

    @Test func closedSubpathsRepeatTheirFirstPointAndOpenOnesDoNot() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addLine(to: Point(x: 10, y: 0))
        path.addLine(to: Point(x: 10, y: 10))
        path.move(to: Point(x: 20, y: 0))
        path.addLine(to: Point(x: 30, y: 0))
        path.addLine(to: Point(x: 30, y: 10))
        path.closeSubpath()
        #expect(
            path.flattened() == [
                [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10)],
                [Point(x: 20, y: 0), Point(x: 30, y: 0), Point(x: 30, y: 10), Point(x: 20, y: 0)],
            ])
    }

    @Test func subpathsThatDrawNothingGiveNoPolyline() {
        var path = Path()
        path.move(to: Point(x: 5, y: 5))
        path.move(to: Point(x: 6, y: 6))
        path.closeSubpath()
        path.move(to: Point(x: 0, y: 0))
        path.addLine(to: Point(x: 1, y: 0))
        path.move(to: Point(x: 9, y: 9))
        #expect(path.flattened() == [[Point(x: 0, y: 0), Point(x: 1, y: 0)]])
        #expect(Path().flattened().isEmpty)
    }

    @Test func aSegmentAfterACloseStartsAtTheClosedSubpathsStart() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addLine(to: Point(x: 10, y: 0))
        path.closeSubpath()
        path.addLine(to: Point(x: 0, y: 10))
        #expect(
            path.flattened() == [
                [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 0, y: 0)],
                [Point(x: 0, y: 0), Point(x: 0, y: 10)],
            ])
    }

    @Test func rectangleLengthIsItsPerimeter() {
        #expect(Path(rect: Rect(x: 1, y: 1, width: 3, height: 4)).length == 14)
        #expect(Path().length == 0)
    }

    @Test(arguments: [1.0, 25.0, 400.0])
    func circleLengthIsTwoPiR(radius: Double) {
        let circle = Path(ellipseIn: Rect(x: 0, y: 0, width: 2 * radius, height: 2 * radius))
        // The cubic arcs stray at most 0.03 % from the circle, and their length less.
        #expect(abs(circle.length - 2 * .pi * radius) <= 3e-4 * 2 * .pi * radius)
    }

    /// A quadratic Bézier's length has a closed form; so does the cubic that raises its degree.
    @Test(arguments: [
        (Point(x: 0, y: 0), Point(x: 50, y: 100), Point(x: 100, y: 0)),
        (Point(x: -3, y: 7), Point(x: 40, y: -12), Point(x: 11, y: 30)),
        (Point(x: 0, y: 0), Point(x: 200, y: 1), Point(x: 1, y: 0)),
    ])
    func curveLengthsMatchTheQuadraticClosedForm(p0: Point, p1: Point, p2: Point) {
        let expected = quadraticLength(p0, p1, p2)
        var quadratic = Path()
        quadratic.move(to: p0)
        quadratic.addQuadCurve(to: p2, control: p1)
        var cubic = Path()
        cubic.move(to: p0)
        cubic.addCurve(
            to: p2, control1: p0 + (p1 - p0) * (2.0 / 3), control2: p2 + (p1 - p2) * (2.0 / 3))
        expectClose(quadratic.length, expected, within: 1e-9 * expected)
        expectClose(cubic.length, expected, within: 1e-9 * expected)
    }

    /// ∫₀¹ |2(a t + b)| dt for B′(t) = 2(a t + b), a = p0 − 2p1 + p2, b = p1 − p0.
    private func quadraticLength(_ p0: Point, _ p1: Point, _ p2: Point) -> Double {
        let a = Vector(dx: p0.x - 2 * p1.x + p2.x, dy: p0.y - 2 * p1.y + p2.y)
        let b = p1 - p0
        // |a t + b|² = A t² + B t + C.
        let (A, B, C) = (a.lengthSquared, 2 * a.dot(b), b.lengthSquared)
        // Antiderivative of √(A t² + B t + C).
        func antiderivative(_ t: Double) -> Double {
            let q = (A * t * t + B * t + C).squareRoot()
            let u = 2 * A * t + B
            return u * q / (4 * A) + (4 * A * C - B * B) / (8 * pow(A, 1.5))
                * log(2 * A.squareRoot() * q + u)
        }
        return 2 * (antiderivative(1) - antiderivative(0))
    }
}
