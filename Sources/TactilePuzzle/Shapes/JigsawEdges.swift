import TactileCore

/// What each side of a jigsaw piece has: nothing, a knob sticking out, or a socket cut in.
public struct JigsawEdges: Hashable, Sendable {
    /// One side of a jigsaw piece.
    public enum Edge: Hashable, Sendable, CaseIterable {
        /// A straight side.
        case flat
        /// A round tab sticking out.
        case knob
        /// A round tab cut in.
        case socket
    }

    /// The top side.
    public var top: Edge
    /// The right side.
    public var right: Edge
    /// The bottom side.
    public var bottom: Edge
    /// The left side.
    public var left: Edge

    /// Creates a set of sides.
    public init(top: Edge, right: Edge, bottom: Edge, left: Edge) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// Knobs on top and right, a socket at the bottom, a flat left side.
    public static let standard = JigsawEdges(top: .knob, right: .knob, bottom: .socket, left: .flat)

    /// How far a knob reaches beyond the body, as a fraction of the rectangle's shorter side.
    public static let knobDepthFraction = 0.2

    /// The rectangle of the body (the piece without its knobs) inside `rect`.
    public func body(in rect: Rect) -> Rect {
        let depth = min(rect.width, rect.height) * Self.knobDepthFraction
        let left = self.left == .knob ? depth : 0
        let right = self.right == .knob ? depth : 0
        let top = self.top == .knob ? depth : 0
        let bottom = self.bottom == .knob ? depth : 0
        return Rect(
            x: rect.minX + left, y: rect.minY + top, width: rect.width - left - right,
            height: rect.height - top - bottom)
    }

    /// The closed outline filling `rect`: the body's sides in clockwise order, each with its
    /// knob or socket, all tabs the same size so a piece scales without distortion.
    public func path(in rect: Rect) -> Path {
        let depth = min(rect.width, rect.height) * Self.knobDepthFraction
        let body = body(in: rect)
        let tabWidth = min(body.width, body.height)
        let corners = [
            Point(x: body.minX, y: body.minY), Point(x: body.maxX, y: body.minY),
            Point(x: body.maxX, y: body.maxY), Point(x: body.minX, y: body.maxY),
        ]
        var path = Path()
        path.move(to: corners[0])
        for (index, edge) in [top, right, bottom, left].enumerated() {
            let start = corners[index]
            let end = corners[(index + 1) % 4]
            Self.addSide(
                to: &path, from: start, to: end, edge: edge, tabWidth: tabWidth, depth: depth)
        }
        path.closeSubpath()
        return path
    }

    /// The tab's outline in (along, out) units: along in tab widths from the side's middle,
    /// out in knob depths away from the body. Each entry is a cubic: control 1, control 2, end.
    private static let tab: [(Point, Point, Point)] = [
        (Point(x: -0.08, y: 0.2), Point(x: -0.22, y: 0.3), Point(x: -0.18, y: 0.55)),
        (Point(x: -0.14, y: 0.85), Point(x: -0.08, y: 1.0), Point(x: 0, y: 1.0)),
        (Point(x: 0.08, y: 1.0), Point(x: 0.14, y: 0.85), Point(x: 0.18, y: 0.55)),
        (Point(x: 0.22, y: 0.3), Point(x: 0.08, y: 0.2), Point(x: 0.12, y: 0)),
    ]

    private static func addSide(
        to path: inout Path, from start: Point, to end: Point, edge: Edge, tabWidth: Double,
        depth: Double
    ) {
        guard edge != .flat else { return path.addLine(to: end) }
        let along = (end - start).normalized
        // Clockwise on screen (y down), the outside is to the left of the direction of travel.
        let outward = Vector(dx: along.dy, dy: -along.dx) * (edge == .knob ? 1 : -1)
        let middle = start.interpolated(to: end, fraction: 0.5)
        func map(_ p: Point) -> Point {
            middle + along * (p.x * tabWidth) + outward * (p.y * depth)
        }
        path.addLine(to: map(Point(x: -0.12, y: 0)))
        for (c1, c2, p) in tab {
            path.addCurve(to: map(p), control1: map(c1), control2: map(c2))
        }
        path.addLine(to: end)
    }
}
