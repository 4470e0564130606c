import Foundation

/// The engine's internal 2D vector: a plain pair of doubles, cheap to copy and to store in
/// contiguous arrays.
struct Vec2: Equatable {
    var x: Double
    var y: Double

    @inline(__always) init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    static let zero = Vec2(0, 0)

    @inline(__always) static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    @inline(__always) static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    @inline(__always) static prefix func - (a: Vec2) -> Vec2 { Vec2(-a.x, -a.y) }
    @inline(__always) static func * (a: Vec2, s: Double) -> Vec2 { Vec2(a.x * s, a.y * s) }
    @inline(__always) static func * (s: Double, a: Vec2) -> Vec2 { Vec2(a.x * s, a.y * s) }
    @inline(__always) static func += (a: inout Vec2, b: Vec2) {
        a.x += b.x
        a.y += b.y
    }
    @inline(__always) static func -= (a: inout Vec2, b: Vec2) {
        a.x -= b.x
        a.y -= b.y
    }

    @inline(__always) func dot(_ b: Vec2) -> Double { x * b.x + y * b.y }
    /// The z component of the 3D cross product.
    @inline(__always) func cross(_ b: Vec2) -> Double { x * b.y - y * b.x }
    /// The vector turned a quarter turn: (−y, x).
    @inline(__always) var perpendicular: Vec2 { Vec2(-y, x) }
    @inline(__always) var lengthSquared: Double { x * x + y * y }
    @inline(__always) var length: Double { (x * x + y * y).squareRoot() }
    var isFinite: Bool { x.isFinite && y.isFinite }
}

/// A rotation stored as its cosine and sine.
struct Rotation {
    var c: Double
    var s: Double

    @inline(__always) init(_ angle: Double) {
        c = cos(angle)
        s = sin(angle)
    }

    @inline(__always) init(c: Double, s: Double) {
        self.c = c
        self.s = s
    }

    /// This rotation turned further by `angle`. Small turns (a step's turn, a correction) use
    /// the sine and cosine series, exact to rounding below 0.05 rad; larger ones fall back to
    /// `fallback`, the exact rotation of the new angle.
    @inline(__always) func turned(by angle: Double, fallback: Double) -> Rotation {
        guard abs(angle) < 0.05 else { return Rotation(fallback) }
        let a2 = angle * angle
        let sine = angle * (1 - a2 / 6 * (1 - a2 / 20 * (1 - a2 / 42)))
        let cosine = 1 - a2 / 2 * (1 - a2 / 12 * (1 - a2 / 30 * (1 - a2 / 56)))
        return Rotation(c: c * cosine - s * sine, s: s * cosine + c * sine)
    }

    /// Rotates a vector from body to world orientation.
    @inline(__always) func apply(_ v: Vec2) -> Vec2 { Vec2(c * v.x - s * v.y, s * v.x + c * v.y) }
    /// Rotates a vector from world to body orientation.
    @inline(__always) func inverse(_ v: Vec2) -> Vec2 {
        Vec2(c * v.x + s * v.y, -s * v.x + c * v.y)
    }
}

/// The z component of ω × r for an angular velocity ω about z: (−ω·r.y, ω·r.x).
@inline(__always) func cross(_ w: Double, _ r: Vec2) -> Vec2 { Vec2(-w * r.y, w * r.x) }
