import Foundation

/// A vector outline made of subpaths of straight lines and Bézier curves.
///
/// Arcs are stored as cubic Bézier curves (at most a quarter turn each, error below 0.03 % of
/// the radius), so every consumer only has to handle four kinds of element.
public struct Path: Hashable, Sendable {
    /// One drawing instruction.
    public enum Element: Hashable, Sendable {
        /// Starts a new subpath at a point.
        case move(to: Point)
        /// A straight line from the current point.
        case line(to: Point)
        /// A quadratic Bézier curve from the current point.
        case quadCurve(to: Point, control: Point)
        /// A cubic Bézier curve from the current point.
        case curve(to: Point, control1: Point, control2: Point)
        /// A straight line back to the start of the current subpath, closing it.
        case closeSubpath
    }

    /// The elements in drawing order.
    public private(set) var elements: [Element] = []
    /// The current point, where the next segment starts.
    public private(set) var currentPoint: Point?
    private var subpathStart: Point?

    /// Creates an empty path.
    public init() {}

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// Starts a new subpath.
    public mutating func move(to p: Point) {
        elements.append(.move(to: p))
        currentPoint = p
        subpathStart = p
    }

    /// Adds a straight line; starts a subpath there if there is no current point.
    public mutating func addLine(to p: Point) {
        guard currentPoint != nil else { return move(to: p) }
        elements.append(.line(to: p))
        currentPoint = p
    }

    /// Adds a quadratic Bézier curve.
    public mutating func addQuadCurve(to p: Point, control: Point) {
        if currentPoint == nil { move(to: control) }
        elements.append(.quadCurve(to: p, control: control))
        currentPoint = p
    }

    /// Adds a cubic Bézier curve.
    public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
        if currentPoint == nil { move(to: control1) }
        elements.append(.curve(to: p, control1: control1, control2: control2))
        currentPoint = p
    }

    /// Closes the current subpath with a straight line to its start.
    public mutating func closeSubpath() {
        guard currentPoint != nil else { return }
        elements.append(.closeSubpath)
        currentPoint = subpathStart
    }

    /// Adds a circular arc, joined to the current point by a straight line.
    ///
    /// - Parameters:
    ///   - center: The circle's centre.
    ///   - radius: The circle's radius in points.
    ///   - startAngle: Where the arc begins, in radians from the positive x axis.
    ///   - endAngle: Where the arc ends.
    ///   - clockwise: Whether the arc runs clockwise on screen (increasing angle, y down).
    public mutating func addArc(
        center: Point, radius: Double, startAngle: Double, endAngle: Double,
        clockwise: Bool = true
    ) {
        var sweep = endAngle - startAngle
        if clockwise {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: 2 * .pi) + 2 * .pi }
        } else {
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: 2 * .pi) - 2 * .pi }
        }
        addArc(center: center, radius: radius, startAngle: startAngle, sweep: sweep)
    }

    /// Adds an arc of a circle sweeping `sweep` radians (positive is clockwise on screen).
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, sweep: Double) {
        addEllipticalArc(
            center: center, radii: Vector(dx: radius, dy: radius), rotation: 0,
            startAngle: startAngle, sweep: sweep)
    }

    /// Adds an arc of an ellipse whose axes are rotated by `rotation` radians.
    ///
    /// The arc is joined to the current point by a straight line unless it starts there; with
    /// no current point it starts a new subpath.
    public mutating func addEllipticalArc(
        center: Point, radii: Vector, rotation: Double, startAngle: Double, sweep: Double
    ) {
        let arc = EllipticalArc(
            center: center, radii: radii, rotation: rotation, startAngle: startAngle, sweep: sweep)
        let start = arc.startPoint
        if currentPoint == nil {
            move(to: start)
        } else if currentPoint != start {
            addLine(to: start)
        }
        for piece in arc.pieces() {
            addCurve(to: piece.end, control1: piece.control1, control2: piece.control2)
        }
    }

    /// Adds a closed rectangle.
    public mutating func addRect(_ r: Rect) {
        move(to: r.origin)
        addLine(to: Point(x: r.maxX, y: r.minY))
        addLine(to: Point(x: r.maxX, y: r.maxY))
        addLine(to: Point(x: r.minX, y: r.maxY))
        closeSubpath()
    }

    /// Adds a closed rectangle with circular corners of the given radius.
    public mutating func addRoundedRect(_ r: Rect, cornerRadius: Double) {
        let radius = min(max(cornerRadius, 0), r.width / 2, r.height / 2)
        guard radius > 0 else { return addRect(r) }
        move(to: Point(x: r.minX + radius, y: r.minY))
        addArc(
            center: Point(x: r.maxX - radius, y: r.minY + radius), radius: radius,
            startAngle: -.pi / 2, sweep: .pi / 2)
        addArc(
            center: Point(x: r.maxX - radius, y: r.maxY - radius), radius: radius,
            startAngle: 0, sweep: .pi / 2)
        addArc(
            center: Point(x: r.minX + radius, y: r.maxY - radius), radius: radius,
            startAngle: .pi / 2, sweep: .pi / 2)
        addArc(
            center: Point(x: r.minX + radius, y: r.minY + radius), radius: radius,
            startAngle: .pi, sweep: .pi / 2)
        closeSubpath()
    }

    /// Adds a closed ellipse inscribed in a rectangle.
    public mutating func addEllipse(in r: Rect) {
        let center = r.center
        move(to: Point(x: r.maxX, y: center.y))
        addEllipticalArc(
            center: center, radii: Vector(dx: r.width / 2, dy: r.height / 2), rotation: 0,
            startAngle: 0, sweep: 2 * .pi)
        closeSubpath()
    }

    /// Appends all subpaths of another path.
    public mutating func addPath(_ other: Path) {
        for element in other.elements {
            switch element {
            case .move(let p): move(to: p)
            case .line(let p): addLine(to: p)
            case .quadCurve(let p, let c): addQuadCurve(to: p, control: c)
            case .curve(let p, let c1, let c2): addCurve(to: p, control1: c1, control2: c2)
            case .closeSubpath: closeSubpath()
            }
        }
    }

    /// The path with every point mapped through a transform.
    public func applying(_ t: Transform2D) -> Path {
        var result = Path()
        for element in elements {
            switch element {
            case .move(let p): result.move(to: t.apply(to: p))
            case .line(let p): result.addLine(to: t.apply(to: p))
            case .quadCurve(let p, let c):
                result.addQuadCurve(to: t.apply(to: p), control: t.apply(to: c))
            case .curve(let p, let c1, let c2):
                result.addCurve(
                    to: t.apply(to: p), control1: t.apply(to: c1), control2: t.apply(to: c2))
            case .closeSubpath: result.closeSubpath()
            }
        }
        return result
    }
}

extension Path {
    /// A closed rectangle.
    public init(rect: Rect) {
        self.init()
        addRect(rect)
    }

    /// A closed rectangle with rounded corners.
    public init(roundedRect rect: Rect, cornerRadius: Double) {
        self.init()
        addRoundedRect(rect, cornerRadius: cornerRadius)
    }

    /// A closed ellipse inscribed in a rectangle.
    public init(ellipseIn rect: Rect) {
        self.init()
        addEllipse(in: rect)
    }
}
