/// The two bodies of a contact while the solver works on it: their velocities, kept out of
/// the body array until the contact is done, and the inverse masses and inertias (zero for a
/// static body) that say what an impulse does to them.
struct SolverPair {
    var vA: Vec2
    var wA: Double
    var vB: Vec2
    var wB: Double
    let mA: Double
    let iA: Double
    let mB: Double
    let iB: Double

    /// The velocity of B's point at offset `rb` relative to A's point at offset `ra`.
    @inline(__always)
    func relativeVelocity(_ ra: Vec2, _ rb: Vec2) -> Vec2 {
        vB + cross(wB, rb) - vA - cross(wA, ra)
    }

    /// Applies impulse `p` at offsets `ra`, `rb`: −p to A, +p to B.
    @inline(__always)
    mutating func apply(_ p: Vec2, _ ra: Vec2, _ rb: Vec2) {
        vA -= p * mA
        wA -= ra.cross(p) * iA
        vB += p * mB
        wB += rb.cross(p) * iB
    }

    /// The new accumulated friction impulse at one point (kept within ±`limit`), its change
    /// applied to the velocities.
    @inline(__always)
    mutating func frictionImpulse(
        _ ra: Vec2, _ rb: Vec2, _ t: Vec2, _ limit: Double, _ mass: Double, _ old: Double
    ) -> Double {
        let vt = relativeVelocity(ra, rb).dot(t)
        let total = max(-limit, min(limit, old - vt * mass))
        apply(t * (total - old), ra, rb)
        return total
    }

    /// The new accumulated normal impulse at one point (kept at or above zero, and letting the
    /// normal velocity be no less than `bias`), its change applied to the velocities.
    @inline(__always)
    mutating func normalImpulse(
        _ ra: Vec2, _ rb: Vec2, _ n: Vec2, _ bias: Double, _ mass: Double, _ old: Double
    ) -> Double {
        let vn = relativeVelocity(ra, rb).dot(n)
        let total = max(0, old - (vn - bias) * mass)
        apply(n * (total - old), ra, rb)
        return total
    }
}
