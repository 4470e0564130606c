extension Path {
    /// The path as polylines, one per subpath, each within `tolerance` of the true outline.
    ///
    /// Every curve is cut into pieces of equal parameter length, as many as Wang's bound says
    /// keep every point of the curve within `tolerance` points of the polyline (and every
    /// point of the polyline within `tolerance` of the curve); lines stay single pieces. All
    /// vertices lie on the path.
    ///
    /// A closed subpath's polyline ends with its first point repeated (unless its last segment
    /// already ends exactly there). A subpath that draws nothing (a lone move, or a move and a
    /// close) gives no polyline.
    ///
    /// - Parameter tolerance: The largest allowed distance between outline and polyline, in
    ///   points; must be positive. A single curve is cut into at most 65,536 pieces, so an
    ///   absurdly small tolerance for a huge curve is not met.
    /// - Returns: The polylines in drawing order.
    public func flattened(tolerance: Double = 0.1) -> [[Point]] {
        precondition(tolerance > 0, "flattening tolerance must be positive")
        var polylines: [[Point]] = []
        for subpath in subpaths where !subpath.segments.isEmpty {
            var points = [subpath.start]
            for segment in subpath.segments {
                let count = segment.flatteningPieceCount(tolerance: tolerance)
                for index in 1..<count {
                    points.append(segment.point(at: Double(index) / Double(count)))
                }
                points.append(segment.end)
            }
            if subpath.isClosed, points.last != subpath.start {
                points.append(subpath.start)
            }
            polylines.append(points)
        }
        return polylines
    }
}
