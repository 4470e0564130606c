/// An axis-aligned rectangle given by its origin (top-left corner) and size.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The extent; a rectangle with a negative extent is not standardised.
    public var size: Size

    /// Creates a rectangle from its origin and size.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from coordinates.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// Creates the smallest rectangle containing two corner points.
    public init(corner a: Point, corner b: Point) {
        self.init(
            x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x), height: abs(a.y - b.y))
    }

    /// Creates a rectangle of a given size centred on a point.
    public init(center: Point, size: Size) {
        self.init(
            x: center.x - size.width / 2, y: center.y - size.height / 2,
            width: size.width, height: size.height)
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }
    public var width: Double { size.width }
    public var height: Double { size.height }

    /// The centre point.
    public var center: Point { Point(x: midX, y: midY) }

    /// Whether the rectangle has no area.
    public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// Whether a point lies inside, including the top and left edges but not the bottom and right.
    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// Whether another rectangle lies wholly inside this one.
    public func contains(_ r: Rect) -> Bool {
        r.minX >= minX && r.maxX <= maxX && r.minY >= minY && r.maxY <= maxY
    }

    /// Whether the two rectangles share any area.
    public func intersects(_ r: Rect) -> Bool {
        r.minX < maxX && r.maxX > minX && r.minY < maxY && r.maxY > minY
    }

    /// The smallest rectangle containing both.
    /// The overlap of two rectangles, or `nil` when they do not overlap (touching edges give
    /// an empty rectangle).
    public func intersection(_ r: Rect) -> Rect? {
        let x0 = max(minX, r.minX)
        let y0 = max(minY, r.minY)
        let x1 = min(maxX, r.maxX)
        let y1 = min(maxY, r.maxY)
        guard x0 <= x1, y0 <= y1 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func union(_ r: Rect) -> Rect {
        Rect(
            corner: Point(x: min(minX, r.minX), y: min(minY, r.minY)),
            corner: Point(x: max(maxX, r.maxX), y: max(maxY, r.maxY)))
    }

    /// The rectangle moved inwards by `dx` on the left and right and `dy` at the top and bottom.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The rectangle moved by a displacement.
    public func offsetBy(_ v: Vector) -> Rect { Rect(origin: origin + v, size: size) }

    /// The nearest point inside the rectangle (edges included).
    public func clamped(_ p: Point) -> Point {
        Point(x: min(max(p.x, minX), maxX), y: min(max(p.y, minY), maxY))
    }

    public var description: String { "\(origin) \(size)" }
}
