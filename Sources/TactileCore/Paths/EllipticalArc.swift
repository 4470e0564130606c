import Foundation

/// An arc of an ellipse in centre form, and its approximation by cubic Bézier curves.
///
/// ``Path`` stores arcs as cubics; both ``Path/addEllipticalArc(center:radii:rotation:startAngle:sweep:)``
/// and the SVG `A` command go through this type.
struct EllipticalArc: Hashable, Sendable {
    /// One cubic Bézier piece; it starts where the previous piece (or the arc) starts.
    struct Piece: Hashable, Sendable {
        var control1: Point
        var control2: Point
        var end: Point
    }

    /// The ellipse's centre.
    var center: Point
    /// The semi-axes before rotation.
    var radii: Vector
    /// The rotation of the ellipse's x axis, in radians (clockwise on screen).
    var rotation: Double
    /// Where the arc begins, as an angle of the ellipse's parametrisation.
    var startAngle: Double
    /// How far the arc turns; positive is clockwise on screen (y down).
    var sweep: Double

    /// The transform taking the unit circle onto the ellipse.
    var unitCircleTransform: Transform2D {
        Transform2D(scaleX: radii.dx, y: radii.dy)
            .concatenating(Transform2D(rotation: rotation))
            .concatenating(Transform2D(translationX: center.x, y: center.y))
    }

    /// The point at which the arc begins.
    var startPoint: Point {
        unitCircleTransform.apply(to: Point(x: cos(startAngle), y: sin(startAngle)))
    }

    /// The cubic Bézier curves tracing the arc, each turning at most a quarter turn.
    ///
    /// The radial error of each piece is below 0.03 % of the radius. Empty when the sweep is
    /// zero or not finite.
    func pieces() -> [Piece] {
        guard sweep != 0, sweep.isFinite else { return [] }
        // The small allowance keeps a sweep of exactly k quarter turns, give or take rounding,
        // at k pieces.
        let quarterTurns = abs(sweep) / (.pi / 2)
        let count = max(1, Int((quarterTurns - 1e-9).rounded(.up)))
        let step = sweep / Double(count)
        // Distance of the control points from the ends, for a unit-circle arc of angle `step`.
        let k = 4.0 / 3.0 * tan(step / 4)
        let transform = unitCircleTransform
        var result: [Piece] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let from = startAngle + step * Double(index)
            let to = startAngle + step * Double(index + 1)
            let p0 = Point(x: cos(from), y: sin(from))
            let p3 = Point(x: cos(to), y: sin(to))
            let c1 = Point(x: p0.x - k * p0.y, y: p0.y + k * p0.x)
            let c2 = Point(x: p3.x + k * p3.y, y: p3.y - k * p3.x)
            result.append(
                Piece(
                    control1: transform.apply(to: c1), control2: transform.apply(to: c2),
                    end: transform.apply(to: p3)))
        }
        return result
    }
}

extension EllipticalArc {
    /// Converts an SVG endpoint arc to centre form, following SVG 1.1 appendix F.6.5–F.6.6.
    ///
    /// Radii too small to reach from `start` to `end` are scaled up just enough. Returns `nil`
    /// for the cases SVG draws differently (equal endpoints: nothing; a zero radius: a straight
    /// line) and when the numbers overflow.
    ///
    /// - Parameters:
    ///   - start: The current point.
    ///   - end: The arc's end point.
    ///   - radii: The ellipse's radii; signs are ignored.
    ///   - rotation: The x-axis rotation, in radians.
    ///   - isLargeArc: SVG's large-arc flag.
    ///   - isClockwise: SVG's sweep flag: clockwise on screen, towards increasing angles.
    init?(
        from start: Point, to end: Point, radii: Vector, rotation: Double, isLargeArc: Bool,
        isClockwise: Bool
    ) {
        var rx = abs(radii.dx)
        var ry = abs(radii.dy)
        guard start != end, rx > 0, ry > 0 else { return nil }
        let (sinPhi, cosPhi) = (sin(rotation), cos(rotation))
        // F.6.5.1: the midpoint difference in the ellipse's own axes.
        let hx = (start.x - end.x) / 2
        let hy = (start.y - end.y) / 2
        let x1 = cosPhi * hx + sinPhi * hy
        let y1 = -sinPhi * hx + cosPhi * hy
        // F.6.6.2: scale radii up when no ellipse of this size joins the endpoints.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let scale = lambda.squareRoot()
            rx *= scale
            ry *= scale
        }
        // F.6.5.2: the centre in the ellipse's axes.
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coefficient = (max(0, numerator) / denominator).squareRoot()
        if isLargeArc == isClockwise { coefficient = -coefficient }
        let cx1 = coefficient * rx * y1 / ry
        let cy1 = -coefficient * ry * x1 / rx
        // F.6.5.3: back to user space.
        let center = Point(
            x: cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2,
            y: sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2)
        // F.6.5.5–6: start angle and sweep.
        let u = Vector(dx: (x1 - cx1) / rx, dy: (y1 - cy1) / ry)
        let v = Vector(dx: (-x1 - cx1) / rx, dy: (-y1 - cy1) / ry)
        var sweep = atan2(u.cross(v), u.dot(v))
        if isClockwise, sweep < 0 {
            sweep += 2 * .pi
        } else if !isClockwise, sweep > 0 {
            sweep -= 2 * .pi
        }
        guard center.isFinite, rx.isFinite, ry.isFinite, sweep.isFinite else { return nil }
        self.init(
            center: center, radii: Vector(dx: rx, dy: ry), rotation: rotation,
            startAngle: u.angle, sweep: sweep)
    }
}
