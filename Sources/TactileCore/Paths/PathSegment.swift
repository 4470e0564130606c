/// One drawn piece of a subpath with its start point made explicit: a line, a quadratic or a
/// cubic Bézier curve.
///
/// ``Path`` stores elements that start wherever the previous one ended; the measuring code
/// (bounds, flattening, length, containment) works on these self-contained segments instead.
enum PathSegment: Hashable, Sendable {
    case line(Point, Point)
    case quadCurve(Point, Point, Point)
    case curve(Point, Point, Point, Point)

    /// Where the segment begins.
    var start: Point {
        switch self {
        case .line(let p0, _), .quadCurve(let p0, _, _), .curve(let p0, _, _, _): p0
        }
    }

    /// Where the segment ends.
    var end: Point {
        switch self {
        case .line(_, let p1), .quadCurve(_, _, let p1), .curve(_, _, _, let p1): p1
        }
    }

    /// Whether the segment is a straight line.
    var isLine: Bool {
        if case .line = self { true } else { false }
    }

    /// The point at parameter `t` in 0…1.
    func point(at t: Double) -> Point {
        let s = 1 - t
        switch self {
        case .line(let p0, let p1):
            return p0.interpolated(to: p1, fraction: t)
        case .quadCurve(let p0, let p1, let p2):
            let (w0, w1, w2) = (s * s, 2 * s * t, t * t)
            return Point(
                x: w0 * p0.x + w1 * p1.x + w2 * p2.x, y: w0 * p0.y + w1 * p1.y + w2 * p2.y)
        case .curve(let p0, let p1, let p2, let p3):
            let (w0, w1, w2, w3) = (s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t)
            return Point(
                x: w0 * p0.x + w1 * p1.x + w2 * p2.x + w3 * p3.x,
                y: w0 * p0.y + w1 * p1.y + w2 * p2.y + w3 * p3.y)
        }
    }

    /// The velocity dB/dt at parameter `t` in 0…1.
    func derivative(at t: Double) -> Vector {
        let s = 1 - t
        switch self {
        case .line(let p0, let p1):
            return p1 - p0
        case .quadCurve(let p0, let p1, let p2):
            return 2 * s * (p1 - p0) + 2 * t * (p2 - p1)
        case .curve(let p0, let p1, let p2, let p3):
            return 3 * s * s * (p1 - p0) + 6 * s * t * (p2 - p1) + 3 * t * t * (p3 - p2)
        }
    }

    /// The parameters strictly between 0 and 1 where the x or the y coordinate has a turning
    /// point; with the end points they are where the segment's extremes lie.
    var extremumParameters: [Double] {
        switch self {
        case .line:
            return []
        case .quadCurve(let p0, let p1, let p2):
            // B'(t)/2 = (p1 − p0) + t (p0 − 2p1 + p2).
            func root(_ v0: Double, _ v1: Double, _ v2: Double) -> [Double] {
                let a = v0 - 2 * v1 + v2
                return a == 0 ? [] : [(v0 - v1) / a]
            }
            return (root(p0.x, p1.x, p2.x) + root(p0.y, p1.y, p2.y)).filter { $0 > 0 && $0 < 1 }
        case .curve(let p0, let p1, let p2, let p3):
            // B'(t)/3 = a t² + 2 (b − a) t + a, with a, b, c the control polygon's legs.
            func roots(_ v0: Double, _ v1: Double, _ v2: Double, _ v3: Double) -> [Double] {
                let (a, b, c) = (v1 - v0, v2 - v1, v3 - v2)
                return quadraticRoots(a - 2 * b + c, 2 * (b - a), a)
            }
            return (roots(p0.x, p1.x, p2.x, p3.x) + roots(p0.y, p1.y, p2.y, p3.y))
                .filter { $0 > 0 && $0 < 1 }
        }
    }

    /// The smallest rectangle holding every control point, as (min x, min y, max x, max y).
    ///
    /// The segment lies inside it (the convex hull property of Bézier curves).
    var controlBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        switch self {
        case .line(let p0, let p1):
            return (min(p0.x, p1.x), min(p0.y, p1.y), max(p0.x, p1.x), max(p0.y, p1.y))
        case .quadCurve(let p0, let p1, let p2):
            return (
                min(p0.x, p1.x, p2.x), min(p0.y, p1.y, p2.y), max(p0.x, p1.x, p2.x),
                max(p0.y, p1.y, p2.y)
            )
        case .curve(let p0, let p1, let p2, let p3):
            return (
                min(p0.x, p1.x, p2.x, p3.x), min(p0.y, p1.y, p2.y, p3.y),
                max(p0.x, p1.x, p2.x, p3.x), max(p0.y, p1.y, p2.y, p3.y)
            )
        }
    }

    /// The two halves of the segment, split at parameter ½ by de Casteljau's construction.
    func halves() -> (PathSegment, PathSegment) {
        func mid(_ a: Point, _ b: Point) -> Point { a.interpolated(to: b, fraction: 0.5) }
        switch self {
        case .line(let p0, let p1):
            let m = mid(p0, p1)
            return (.line(p0, m), .line(m, p1))
        case .quadCurve(let p0, let p1, let p2):
            let (a, b) = (mid(p0, p1), mid(p1, p2))
            let m = mid(a, b)
            return (.quadCurve(p0, a, m), .quadCurve(m, b, p2))
        case .curve(let p0, let p1, let p2, let p3):
            let (a, b, c) = (mid(p0, p1), mid(p1, p2), mid(p2, p3))
            let (d, e) = (mid(a, b), mid(b, c))
            let m = mid(d, e)
            return (.curve(p0, a, d, m), .curve(m, e, c, p3))
        }
    }

    /// The largest number of straight pieces ``flatteningPieceCount(tolerance:)`` returns, so
    /// that huge or non-finite coordinates cannot exhaust memory.
    static let maximumFlatteningPieces = 1 << 16

    /// How many pieces of equal parameter length keep the polyline within `tolerance` of the
    /// curve.
    ///
    /// For a polynomial curve, the gap between the curve and the chord over a parameter span
    /// h is at most h²/8 · max‖B″‖ (Wang's bound). B″ is constant for a quadratic and linear for
    /// a cubic, so its largest length sits at an end and n = ⌈√(max‖B″‖ / 8ε)⌉ pieces suffice.
    func flatteningPieceCount(tolerance: Double) -> Int {
        let maxSecondDerivative: Double
        switch self {
        case .line:
            return 1
        case .quadCurve(let p0, let p1, let p2):
            maxSecondDerivative = 2 * secondDifference(p0, p1, p2)
        case .curve(let p0, let p1, let p2, let p3):
            maxSecondDerivative =
                6 * max(secondDifference(p0, p1, p2), secondDifference(p1, p2, p3))
        }
        let count = (maxSecondDerivative / (8 * tolerance)).squareRoot().rounded(.up)
        guard count.isFinite else { return Self.maximumFlatteningPieces }
        return Int(min(max(count, 1), Double(Self.maximumFlatteningPieces)))
    }

    /// The length of the segment, to about twelve significant digits.
    ///
    /// Lines are exact; curves integrate the speed ‖B′(t)‖ by five-point Gauss–Legendre
    /// quadrature, halving the interval where the two halves disagree with the whole.
    var length: Double {
        if case .line(let p0, let p1) = self { return p0.distance(to: p1) }
        let (minX, minY, maxX, maxY) = controlBounds
        let scale = max(maxX - minX, maxY - minY)
        guard scale > 0 else { return 0 }
        guard scale.isFinite else { return .infinity }
        return integratedSpeed(
            from: 0, to: 1, whole: gaussLegendreSpeed(from: 0, to: 1),
            tolerance: scale * 1e-13, depth: 0)
    }

    private func integratedSpeed(
        from a: Double, to b: Double, whole: Double, tolerance: Double, depth: Int
    ) -> Double {
        let m = (a + b) / 2
        let left = gaussLegendreSpeed(from: a, to: m)
        let right = gaussLegendreSpeed(from: m, to: b)
        if abs(left + right - whole) <= tolerance || depth >= 30 { return left + right }
        return integratedSpeed(
            from: a, to: m, whole: left, tolerance: tolerance / 2, depth: depth + 1)
            + integratedSpeed(
                from: m, to: b, whole: right, tolerance: tolerance / 2, depth: depth + 1)
    }

    private func gaussLegendreSpeed(from a: Double, to b: Double) -> Double {
        let half = (b - a) / 2
        let mid = (a + b) / 2
        var sum = 0.0
        for (node, weight) in gaussLegendre5 {
            sum += weight * derivative(at: mid + half * node).length
        }
        return sum * half
    }
}

/// Nodes and weights of five-point Gauss–Legendre quadrature on −1…1.
private let gaussLegendre5: [(node: Double, weight: Double)] = [
    (0, 128.0 / 225.0),
    (-0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
    (-0.906_179_845_938_664_0, 0.236_926_885_056_189_1),
    (0.906_179_845_938_664_0, 0.236_926_885_056_189_1),
]

/// ‖p0 − 2p1 + p2‖, the length of a second difference of control points.
private func secondDifference(_ p0: Point, _ p1: Point, _ p2: Point) -> Double {
    Vector(dx: p0.x - 2 * p1.x + p2.x, dy: p0.y - 2 * p1.y + p2.y).length
}

/// The real roots of a t² + b t + c = 0, or of b t + c = 0 when a is zero.
///
/// The coefficients are first divided by the largest of their magnitudes (which leaves the
/// roots unchanged), so b² − 4ac cannot overflow however large the control points are.
/// Then the cancellation-free form q = −(b + sign(b)·√disc)/2 gives the roots q/a and c/q.
private func quadraticRoots(_ a: Double, _ b: Double, _ c: Double) -> [Double] {
    let scale = max(abs(a), abs(b), abs(c))
    guard scale > 0, scale.isFinite else { return [] }
    let (a, b, c) = (a / scale, b / scale, c / scale)
    if a == 0 {
        return b == 0 ? [] : [-c / b]
    }
    let discriminant = b * b - 4 * a * c
    guard discriminant >= 0 else { return [] }
    let root = discriminant.squareRoot()
    let q = -0.5 * (b + (b < 0 ? -root : root))
    guard q != 0 else { return [0] }  // b and c are both zero: a double root at 0.
    return [q / a, c / q]
}
