import Foundation
import TactileCore

/// The kinds of field, compiled.
enum FieldKind: UInt8 {
    case linearGravity, radialGravity, spring, drag, velocity, vortex, noise, turbulence
    case electric, magnetic, custom
}

/// What a custom field is told about one item.
public struct FieldSample: Sendable {
    /// The item's centre of mass, in points.
    public var position: Point
    /// The item's velocity, in points per second.
    public var velocity: Vector
    /// The item's mass (density × area / 10,000 points²).
    public var mass: Double
    /// The item's charge.
    public var charge: Double
    /// Simulated seconds since the animator started.
    public var time: Double
}

/// A field behaviour compiled for the step.
struct CompiledField {
    var kind = FieldKind.linearGravity
    var position = Vec2.zero
    var direction = Vec2.zero
    var strength = 1.0
    var falloff = 0.0
    var minimumRadius = 0.0
    var region = FieldRegion.infinite
    var smoothness = 0.0
    var animationSpeed = 0.0
    /// Bodies acted on: `fieldBodies[first..<first + count]`.
    var first = 0
    var count = 0
    var custom: (@Sendable (FieldSample) -> Vector)?
}

extension World {
    /// Acceleration scale of fields: strength 1 is 1,000 points/s², as gravity's magnitude 1.
    static let fieldAcceleration = 1000.0

    mutating func applyFields() {
        for f in fields.indices {
            let field = fields[f]
            for n in field.first..<(field.first + field.count) {
                let i = fieldBodies[n]
                guard bodies[i].isDynamic else { continue }
                let b = bodies[i]
                let offset = b.position - field.position
                guard field.region.contains(Point(x: offset.x, y: offset.y)) else { continue }
                let length = offset.length
                let distance = max(length, field.minimumRadius, 1e-9)
                let fade = field.falloff == 0 ? 1 : pow(distance / 100, -field.falloff)
                let unit = length > 1e-12 ? offset * (1 / length) : Vec2.zero
                let g = World.fieldAcceleration * field.strength * fade
                var acceleration = Vec2.zero
                switch field.kind {
                case .linearGravity:
                    acceleration = field.direction * g
                case .radialGravity:
                    acceleration = unit * -g
                case .spring:
                    acceleration = offset * (-4 * .pi * .pi * field.strength * fade)
                case .drag:
                    acceleration = b.velocity * (-field.strength * fade)
                case .velocity:
                    let target = field.direction * (field.strength * fade)
                    acceleration = (target - b.velocity) * (1 / h)
                case .vortex:
                    acceleration = unit.perpendicular * g
                case .noise:
                    acceleration = noise(field, b.position) * g
                case .turbulence:
                    acceleration =
                        noise(field, b.position) * (field.strength * fade * b.velocity.length)
                case .electric:
                    acceleration = unit * (g * b.charge * b.invMass)
                case .magnetic:
                    // Turns the velocity by exactly ω·h this step (ω = strength · charge / mass),
                    // so even a strong field keeps the speed instead of blowing up.
                    let turn = Rotation(-field.strength * fade * b.charge * b.invMass * h)
                    acceleration = (turn.apply(b.velocity) - b.velocity) * (1 / h)
                case .custom:
                    guard let custom = field.custom else { continue }
                    let sample = FieldSample(
                        position: Point(x: b.position.x, y: b.position.y),
                        velocity: Vector(dx: b.velocity.x, dy: b.velocity.y), mass: b.mass,
                        charge: b.charge, time: time)
                    let force = custom(sample)
                    guard force.isFinite else { continue }
                    acceleration = Vec2(force.dx, force.dy) * b.invMass
                }
                bodies[i].force += acceleration * b.mass
            }
        }
    }

    /// A smooth pseudo-random vector of length at most about 1, changing over space by the
    /// field's smoothness and over time by its animation speed; the same everywhere for the
    /// same inputs.
    func noise(_ field: CompiledField, _ p: Vec2) -> Vec2 {
        let cell = 20 + 280 * field.smoothness
        let x = p.x / cell
        let y = p.y / cell
        let t = time * field.animationSpeed
        return Vec2(
            ValueNoise.sample(x, y, t, seed: 0x9E37_79B9),
            ValueNoise.sample(x, y, t, seed: 0x85EB_CA6B))
    }
}

/// Lattice value noise in three dimensions, in −1…1.
enum ValueNoise {
    @inline(__always)
    static func hash(_ x: Int, _ y: Int, _ z: Int, _ seed: UInt64) -> Double {
        var h = UInt64(bitPattern: Int64(x)) &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(bitPattern: Int64(y)) &* 0xC2B2_AE3D_27D4_EB4F
        h ^= UInt64(bitPattern: Int64(z)) &* 0x1656_67B1_9E37_79F9
        h ^= seed
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 31
        return Double(h >> 11) / Double(1 << 52) - 1
    }

    @inline(__always)
    static func fade(_ t: Double) -> Double { t * t * (3 - 2 * t) }

    static func sample(_ x: Double, _ y: Double, _ z: Double, seed: UInt64) -> Double {
        let fx = x.rounded(.down)
        let fy = y.rounded(.down)
        let fz = z.rounded(.down)
        let ix = Int(fx)
        let iy = Int(fy)
        let iz = Int(fz)
        let u = fade(x - fx)
        let v = fade(y - fy)
        let w = fade(z - fz)
        func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
        func corner(_ dx: Int, _ dy: Int, _ dz: Int) -> Double {
            hash(ix + dx, iy + dy, iz + dz, seed)
        }
        let x00 = lerp(corner(0, 0, 0), corner(1, 0, 0), u)
        let x10 = lerp(corner(0, 1, 0), corner(1, 1, 0), u)
        let x01 = lerp(corner(0, 0, 1), corner(1, 0, 1), u)
        let x11 = lerp(corner(0, 1, 1), corner(1, 1, 1), u)
        return lerp(lerp(x00, x10, v), lerp(x01, x11, v), w)
    }
}
