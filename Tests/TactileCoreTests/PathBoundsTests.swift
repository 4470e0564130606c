import Foundation
import TactileCore
import TestSupport
import Testing

@Suite("Path bounds")
struct PathBoundsTests {
    @Test func emptyPathHasZeroBounds() {
        #expect(Path().bounds == .zero)
    }

    @Test(
        arguments: [
            (Point(x: 0, y: 0), 1.0), (Point(x: 50, y: -20), 7.5), (Point(x: -300, y: 1e4), 250),
        ] as [(Point, Double)])
    func circleBoundsAreCentrePlusOrMinusRadius(center: Point, radius: Double) {
        let circle = Path(
            ellipseIn: Rect(center: center, size: Size(width: 2 * radius, height: 2 * radius)))
        let expected = Rect(
            x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
        expectClose(
            circle.bounds, expected, within: 1e-12 * max(radius, abs(center.x), abs(center.y)))
    }

    /// An ellipse with semi-axes a, b turned by θ spans ±√(a²cos²θ + b²sin²θ) across and
    /// ±√(a²sin²θ + b²cos²θ) down; its extremes fall inside the curves, not at their ends.
    @Test(arguments: [0.3, 1.0, 2.2, -0.7])
    func rotatedEllipseBoundsMatchClosedForm(angle: Double) {
        let (a, b) = (40.0, 15.0)
        let ellipse = Path(ellipseIn: Rect(x: -a, y: -b, width: 2 * a, height: 2 * b))
            .applying(Transform2D(rotation: angle))
        let halfWidth = (a * a * cos(angle) * cos(angle) + b * b * sin(angle) * sin(angle))
            .squareRoot()
        let halfHeight = (a * a * sin(angle) * sin(angle) + b * b * cos(angle) * cos(angle))
            .squareRoot()
        // The cubic approximation of an ellipse strays up to 0.03 % of the radius.
        expectClose(
            ellipse.bounds,
            Rect(x: -halfWidth, y: -halfHeight, width: 2 * halfWidth, height: 2 * halfHeight),
            within: 3e-4 * a)
    }

    @Test func cubicBoundsUseTheCurveNotItsControlPoints() throws {
        // y(t) = −300 t (1 − t) peaks at t = ½ with −75; the controls reach −100.
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addCurve(
            to: Point(x: 100, y: 0), control1: Point(x: 0, y: -100),
            control2: Point(x: 100, y: -100))
        expectClose(path.bounds, Rect(x: 0, y: -75, width: 100, height: 75), within: 1e-12)
    }

    @Test func quadraticBoundsUseTheCurveNotItsControlPoint() {
        // y(t) = 100 t (1 − t) peaks at t = ½ with 25 · 2 = 50.
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addQuadCurve(to: Point(x: 100, y: 0), control: Point(x: 50, y: 100))
        expectClose(path.bounds, Rect(x: 0, y: 0, width: 100, height: 50), within: 1e-12)
    }

    /// Whatever the curve, its bounds hold every point on it and are touched by it on all
    /// four sides; checked against dense sampling of the Bernstein form.
    @Test(arguments: [
        [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: -50, y: 100), Point(x: 50, y: 100)],
        [Point(x: 10, y: 80), Point(x: 90, y: -40), Point(x: -30, y: -40), Point(x: 60, y: 70)],
        [Point(x: 0, y: 0), Point(x: 30, y: 30), Point(x: 60, y: 60), Point(x: 90, y: 90)],
        [Point(x: 5, y: 5), Point(x: 5, y: 5), Point(x: 20, y: -8), Point(x: 20, y: -8)],
        [Point(x: 0, y: 0), Point(x: 200, y: 120), Point(x: -100, y: 120), Point(x: 100, y: 0)],
    ])
    func cubicBoundsAgreeWithSampling(controls: [Point]) {
        var path = Path()
        path.move(to: controls[0])
        path.addCurve(to: controls[3], control1: controls[1], control2: controls[2])
        let samples = (0...20_000).map { bernstein(controls, at: Double($0) / 20_000) }
        let sampled = Rect(
            corner: Point(x: samples.map(\.x).min()!, y: samples.map(\.y).min()!),
            corner: Point(x: samples.map(\.x).max()!, y: samples.map(\.y).max()!))
        let bounds = path.bounds
        // Sampling misses an extreme by at most ~½·|B″|·Δt², far below 1e-5 here.
        expectClose(bounds, sampled, within: 1e-5)
        #expect(bounds.minX <= sampled.minX && bounds.maxX >= sampled.maxX)
        #expect(bounds.minY <= sampled.minY && bounds.maxY >= sampled.maxY)
    }

    /// Control points near 1e160 once overflowed the extremum maths (b² − 4ac), so the bounds
    /// stopped at the end points. The true extent is checked against dense sampling of the
    /// curve: y(t) = 3(1−t)²t·c1 + 3(1−t)t²·c2 peaks inside.
    @Test(arguments: [1.0, 1e100, 1e160, 1e300])
    func hugeCurvesKeepTheirTrueExtent(scale: Double) {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addCurve(
            to: Point(x: 10, y: 0), control1: Point(x: 0, y: scale),
            control2: Point(x: 10, y: 2 * scale))
        var peak = 0.0
        for i in 0...100_000 {
            let t = Double(i) / 100_000
            let u = 1 - t
            peak = max(peak, 3 * u * u * t * scale + 3 * u * t * t * 2 * scale)
        }
        let bounds = path.bounds
        #expect(bounds.maxY.isFinite)
        #expect(abs(bounds.maxY - peak) <= 1e-9 * peak, "\(bounds.maxY) vs \(peak)")
        #expect(bounds.maxY >= peak * (1 - 1e-12), "the bounds hold every sampled point")
    }

    @Test func moveToPointsCountEvenWhenNothingIsDrawnFromThem() {
        var path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addLine(to: Point(x: 10, y: 15))
        path.move(to: Point(x: 50, y: -5))
        #expect(path.bounds == Rect(x: 0, y: -5, width: 50, height: 20))
    }

}

/// A point on the Bézier curve with the given control points, from the Bernstein form.
func bernstein(_ controls: [Point], at t: Double) -> Point {
    let n = controls.count - 1
    var point = Point.zero
    for (i, control) in controls.enumerated() {
        let binomial = Double((0..<i).reduce(1) { $0 * (n - $1) / ($1 + 1) })
        let weight = binomial * pow(t, Double(i)) * pow(1 - t, Double(n - i))
        point.x += weight * control.x
        point.y += weight * control.y
    }
    return point
}
