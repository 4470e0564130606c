extension Path {
    /// A subpath with its segments made self-contained, as the measuring code wants them.
    struct Subpath: Hashable, Sendable {
        /// Where the subpath begins (its move-to point).
        var start: Point
        /// The drawn segments, in order; empty for a subpath that is only a move.
        var segments: [PathSegment] = []
        /// Whether the subpath ends with a close element.
        var isClosed = false

        /// Where the subpath's last segment ends, or its start when it has none.
        var end: Point { segments.last?.end ?? start }
    }

    /// The path split into subpaths.
    ///
    /// A drawing element that follows a close without a move starts a new subpath at the
    /// closed subpath's start, as in Cairo and SVG.
    var subpaths: [Subpath] {
        var result: [Subpath] = []
        var current: Subpath?
        // Where a drawing element with no open subpath begins: the last subpath's start.
        var restart = Point.zero
        func append(_ makeSegment: (Point) -> PathSegment) {
            // Clearing `current` leaves `subpath` the only owner of its segments, so appending
            // does not copy them.
            var subpath = current ?? Subpath(start: restart)
            current = nil
            subpath.segments.append(makeSegment(subpath.end))
            current = subpath
        }
        for element in elements {
            switch element {
            case .move(let p):
                if let current { result.append(current) }
                current = Subpath(start: p)
                restart = p
            case .line(let p):
                append { .line($0, p) }
            case .quadCurve(let p, let c):
                append { .quadCurve($0, c, p) }
            case .curve(let p, let c1, let c2):
                append { .curve($0, c1, c2, p) }
            case .closeSubpath:
                guard var subpath = current else { continue }
                subpath.isClosed = true
                result.append(subpath)
                current = nil
            }
        }
        if let current { result.append(current) }
        return result
    }
}
