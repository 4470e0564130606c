/// A location in a two-dimensional coordinate space, in points.
///
/// The y axis points down, as in UIKit and Cairo.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate.
    public var x: Double
    /// The vertical coordinate, growing downwards.
    public var y: Double

    /// Creates a point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// Whether both coordinates are finite numbers.
    public var isFinite: Bool { x.isFinite && y.isFinite }

    /// The distance to another point.
    public func distance(to other: Point) -> Double { (other - self).length }

    /// The point a fraction `t` of the way from this point to `other`.
    public func interpolated(to other: Point, fraction t: Double) -> Point {
        Point(x: x + (other.x - x) * t, y: y + (other.y - y) * t)
    }

    /// The displacement from `rhs` to `lhs`.
    public static func - (lhs: Point, rhs: Point) -> Vector {
        Vector(dx: lhs.x - rhs.x, dy: lhs.y - rhs.y)
    }

    /// The point moved by a displacement.
    public static func + (lhs: Point, rhs: Vector) -> Point {
        Point(x: lhs.x + rhs.dx, y: lhs.y + rhs.dy)
    }

    /// The point moved by the opposite of a displacement.
    public static func - (lhs: Point, rhs: Vector) -> Point {
        Point(x: lhs.x - rhs.dx, y: lhs.y - rhs.dy)
    }

    /// Moves the point by a displacement.
    public static func += (lhs: inout Point, rhs: Vector) { lhs = lhs + rhs }

    public var description: String { "(\(x), \(y))" }
}
