extension Path {
    /// Whether a point lies inside the area the path would fill under a fill rule.
    ///
    /// Open subpaths count as closed by a straight line back to their start, as when Cairo or
    /// Core Graphics fill them. The answer comes from the winding number of the outline around
    /// the point: a ray is cast to the right, and each edge crossing it upwards adds one and
    /// downwards subtracts one. Curves are flattened only where they come near the ray and
    /// the point, by halving them until each piece is either clear of the question or smaller
    /// than a billionth of the original curve, so the answer does not depend on a tolerance.
    ///
    /// Points exactly on the outline may land on either side.
    ///
    /// - Parameters:
    ///   - point: The point to test, in the path's coordinates.
    ///   - rule: ``FillRule/nonZero`` (inside where the winding number is not zero) or
    ///     ``FillRule/evenOdd`` (inside where it is odd).
    public func contains(_ point: Point, rule: FillRule = .nonZero) -> Bool {
        let winding = windingNumber(around: point)
        switch rule {
        case .nonZero: return winding != 0
        case .evenOdd: return winding & 1 != 0
        }
    }

    /// How many times the outline, every subpath closed, winds around a point; positive for
    /// clockwise turns on screen.
    func windingNumber(around point: Point) -> Int {
        var winding = 0
        for subpath in subpaths where !subpath.segments.isEmpty {
            for segment in subpath.segments {
                winding += Self.winding(of: segment, around: point, depth: 0)
            }
            winding += Self.winding(of: .line(subpath.end, subpath.start), around: point, depth: 0)
        }
        return winding
    }

    /// How many halvings a curve gets at most near the point: 2⁻³⁰ is about a billionth.
    private static let maximumHalvings = 30

    /// The signed number of times a segment crosses the rightward ray from `point`.
    ///
    /// A piece whose control points all lie on one side of the ray's line, or all to the left
    /// of the point, cannot cross the ray. A piece whose control points all lie to the right
    /// crosses it exactly as often, with signs, as its chord does (the piece and its chord
    /// bound a region inside the control hull, away from the point). Anything else is halved.
    private static func winding(of segment: PathSegment, around point: Point, depth: Int) -> Int {
        let (minX, minY, maxX, maxY) = segment.controlBounds
        // Edges are half-open in y (an end exactly on the ray's line counts with the smaller
        // y), so a ray through a vertex counts the two edges meeting there once between them.
        if maxY <= point.y || minY > point.y || maxX < point.x { return 0 }
        if !segment.isLine, minX <= point.x, depth < maximumHalvings {
            let (first, second) = segment.halves()
            return winding(of: first, around: point, depth: depth + 1)
                + winding(of: second, around: point, depth: depth + 1)
        }
        // The chord crosses the ray's line to the right of the point when the point is on its
        // positive side (cross product) going down the screen, or its negative side going up.
        let (a, b) = (segment.start, segment.end)
        let side = (b - a).cross(point - a)
        if a.y <= point.y, b.y > point.y, side > 0 { return 1 }
        if b.y <= point.y, a.y > point.y, side < 0 { return -1 }
        return 0
    }
}
