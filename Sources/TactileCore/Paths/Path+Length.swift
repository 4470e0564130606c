extension Path {
    /// The total length of the outline, in points, including the closing line of closed
    /// subpaths.
    ///
    /// Curves are measured by numerical integration to about twelve significant digits, not
    /// by flattening, so the result does not depend on a tolerance.
    ///
    /// - Complexity: O(*n*) in the number of elements.
    public var length: Double {
        var total = 0.0
        for subpath in subpaths {
            for segment in subpath.segments {
                total += segment.length
            }
            if subpath.isClosed {
                total += subpath.end.distance(to: subpath.start)
            }
        }
        return total
    }
}
