import Foundation

/// A displacement in two dimensions, in points.
public struct Vector: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal component.
    public var dx: Double
    /// The vertical component, positive downwards.
    public var dy: Double

    /// Creates a vector from its components.
    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    /// Creates a unit vector at an angle in radians, measured from the positive x axis
    /// towards the positive y axis (clockwise on screen).
    public init(angle: Double, length: Double = 1) {
        self.init(dx: cos(angle) * length, dy: sin(angle) * length)
    }

    /// The zero vector.
    public static let zero = Vector(dx: 0, dy: 0)

    /// The Euclidean length.
    public var length: Double { (dx * dx + dy * dy).squareRoot() }

    /// The squared length, cheaper than ``length`` when only comparing.
    public var lengthSquared: Double { dx * dx + dy * dy }

    /// The angle in radians from the positive x axis, in −π…π.
    public var angle: Double { atan2(dy, dx) }

    /// The vector scaled to length 1, or zero when it has no length.
    public var normalized: Vector {
        let l = length
        return l > 0 ? Vector(dx: dx / l, dy: dy / l) : .zero
    }

    /// The vector turned a quarter turn, (−dy, dx).
    public var perpendicular: Vector { Vector(dx: -dy, dy: dx) }

    /// Whether both components are finite numbers.
    public var isFinite: Bool { dx.isFinite && dy.isFinite }

    /// The dot product.
    public func dot(_ other: Vector) -> Double { dx * other.dx + dy * other.dy }

    /// The z component of the cross product (positive when `other` is clockwise on screen).
    public func cross(_ other: Vector) -> Double { dx * other.dy - dy * other.dx }

    public static func + (lhs: Vector, rhs: Vector) -> Vector {
        Vector(dx: lhs.dx + rhs.dx, dy: lhs.dy + rhs.dy)
    }
    public static func - (lhs: Vector, rhs: Vector) -> Vector {
        Vector(dx: lhs.dx - rhs.dx, dy: lhs.dy - rhs.dy)
    }
    public static prefix func - (v: Vector) -> Vector { Vector(dx: -v.dx, dy: -v.dy) }
    public static func * (lhs: Vector, rhs: Double) -> Vector {
        Vector(dx: lhs.dx * rhs, dy: lhs.dy * rhs)
    }
    public static func * (lhs: Double, rhs: Vector) -> Vector { rhs * lhs }
    public static func / (lhs: Vector, rhs: Double) -> Vector {
        Vector(dx: lhs.dx / rhs, dy: lhs.dy / rhs)
    }
    public static func += (lhs: inout Vector, rhs: Vector) { lhs = lhs + rhs }
    public static func -= (lhs: inout Vector, rhs: Vector) { lhs = lhs - rhs }

    public var description: String { "⟨\(dx), \(dy)⟩" }
}
