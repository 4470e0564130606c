import TactileCore

/// Where the dots sit in a view, and which dots a pointer touches.
///
/// The grid fills the largest centred square; each dot sits in the middle of its cell and
/// is hit within ``hitRadius`` of its centre.
public struct PatternLayout: Hashable, Sendable {
    /// The grid laid out.
    public let grid: PatternGrid
    /// The square the cells fill.
    public let bounds: Rect
    /// The side of one cell, in points.
    public let cellSize: Double
    /// How far from a dot's centre a pointer still hits it, in points.
    public let hitRadius: Double

    /// Lays out `grid` in a view of `viewSize`.
    ///
    /// - Parameters:
    ///   - viewSize: The size of the view, in points.
    ///   - grid: The grid of dots.
    ///   - hitRadiusFraction: The hit radius as a fraction of the cell, within
    ///     ``PatternLimits/hitRadiusFractions`` (the caller checks).
    public init(
        viewSize: Size, grid: PatternGrid,
        hitRadiusFraction: Double = PatternLimits.defaultHitRadiusFraction
    ) {
        let side = max(0, min(viewSize.width, viewSize.height))
        self.grid = grid
        bounds = Rect(
            center: Point(x: viewSize.width / 2, y: viewSize.height / 2),
            size: Size(width: side, height: side))
        cellSize = side / Double(grid.size)
        hitRadius = cellSize * hitRadiusFraction
    }

    /// The centre of a dot.
    public func center(of dot: Int) -> Point {
        Point(
            x: bounds.minX + (Double(grid.column(of: dot)) + 0.5) * cellSize,
            y: bounds.minY + (Double(grid.row(of: dot)) + 0.5) * cellSize)
    }

    /// The dot whose hit circle contains `point`, if any.
    public func dot(at point: Point) -> Int? {
        grid.dots.first { center(of: $0).distance(to: point) <= hitRadius }
    }

    /// The dots whose hit circles the segment from `start` to `end` enters, in the order a
    /// pointer moving along it reaches them; a dot containing `start` comes first.
    ///
    /// Hit-testing the segment between consecutive motion samples, not only the samples,
    /// means a fast swipe that samples far apart never skips a dot.
    public func dots(alongSegmentFrom start: Point, to end: Point) -> [Int] {
        let d = end - start
        let a = d.lengthSquared
        var hits: [(entry: Double, dot: Int)] = []
        let r2 = hitRadius * hitRadius
        for dot in grid.dots {
            let f = start - center(of: dot)
            let c = f.lengthSquared - r2
            if c <= 0 {
                hits.append((0, dot))
                continue
            }
            guard a > 0 else { continue }
            // |f + t·d|² = r² ⇒ a t² + 2 (f·d) t + c = 0; the entry is the smaller root.
            let b = f.dot(d)
            let discriminant = b * b - a * c
            guard b < 0, discriminant >= 0 else { continue }
            let t = (-b - discriminant.squareRoot()) / a
            if t <= 1 { hits.append((t, dot)) }
        }
        return hits.sorted { $0.entry < $1.entry || ($0.entry == $1.entry && $0.dot < $1.dot) }
            .map(\.dot)
    }
}
