extension Path {
    /// The smallest rectangle holding every point the path passes through.
    ///
    /// Curves count with their true extremes, not their control points, as Core Graphics'
    /// `boundingBoxOfPath`: a circle's bounds are exactly its centre ± radius. Move-to points
    /// count too, even when nothing is drawn from them. An empty path has bounds ``Rect/zero``.
    ///
    /// - Complexity: O(*n*) in the number of elements.
    public var bounds: Rect {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        func include(_ p: Point) {
            minX = min(minX, p.x)
            minY = min(minY, p.y)
            maxX = max(maxX, p.x)
            maxY = max(maxY, p.y)
        }
        for subpath in subpaths {
            include(subpath.start)
            for segment in subpath.segments {
                include(segment.end)
                for t in segment.extremumParameters {
                    include(segment.point(at: t))
                }
            }
        }
        guard minX <= maxX, minY <= maxY else { return .zero }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
