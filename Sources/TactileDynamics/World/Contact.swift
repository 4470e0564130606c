import Foundation

/// How a contact measures its separation.
enum ContactKind: UInt8 {
    /// Between two points with radii (circle–circle, circle–corner): the gap between spheres.
    case points
    /// A plane on body A (a polygon face) against up to two points with a radius on body B.
    case planeA
    /// A plane on body B against points on body A.
    case planeB
}

/// What the velocity pass reads and writes for one point of a contact (box2d v3 keeps the
/// same in `b2ContactConstraintPoint`), held twice by ``Contact``.
struct ContactPoint {
    /// The point's offsets from the centres of mass of A and B.
    var ra = Vec2.zero
    var rb = Vec2.zero
    /// Effective masses along the normal and the tangent.
    var normalMass = 0.0
    var tangentMass = 0.0
    /// The normal velocity allowed (restitution), points/s.
    var bias = 0.0
    /// Accumulated normal (≥ 0, pushing B along the normal) and tangential impulses,
    /// mass · points/s; kept across steps for warm starting.
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    /// Separation when the contact was prepared, and the speed at which the overlap is
    /// pushed out this step (points/s).
    var preparedSeparation = 0.0
    var push = 0.0
    /// The separation measured at this step's start (soft contacts), points.
    var separation = 0.0
}

/// A contact manifold between two shapes, found when contacts are detected. Its geometry is
/// kept in body frames so it can be measured again at later steps, after bodies move.
struct Contact {
    // Laid out with what the velocity and overlap passes read for a one-point contact
    // first, so that it shares few cache lines.
    var bodyA = 0
    var bodyB = 0
    var pointCount = 0
    /// Whether the two points' normal impulses are solved together (their 2×2 matrix is
    /// `k00`, `k01`, `k11`).
    var isBlock = false
    var kind = ContactKind.points
    /// Unit normal from A to B at detection.
    var normal = Vec2.zero
    var friction = 0.0
    /// The bodies' inverse masses and inertias as the solver sees them (zero when static).
    var invMassA = 0.0
    var invInertiaA = 0.0
    var invMassB = 0.0
    var invInertiaB = 0.0
    /// The solver's data for each point, in the velocity pass's order. A two-point contact
    /// keeps its one tangential impulse at the first point.
    var first = ContactPoint()
    var second = ContactPoint()
    /// The spring soft contacts push overlap out with (``Softness``): one for two moving
    /// bodies, a stiffer one against a body that does not move.
    var softness = Softness.rigid
    var k00 = 0.0
    var k01 = 0.0
    var k11 = 0.0
    /// 1 / (k00 · k11 − k01²), for the block solver.
    var inverseDeterminant = 0.0
    /// A point of the reference face (plane kinds), or the point on A (points kind).
    var localPlane = Vec2.zero
    /// Points on the incident body (plane kinds); `local0` is the point on B (points kind).
    var local0 = Vec2.zero
    var radiusA = 0.0
    var radiusB = 0.0
    /// The reference face's outward normal, in the reference body's frame (plane kinds).
    var localNormal = Vec2.zero
    var local1 = Vec2.zero
    var shapeA = 0
    var shapeB = 0
    var elasticity = 0.0
    /// Whether restitution was applied to this contact this step.
    var isImpact = false
    /// Feature ids of the two points (which faces and vertices made them), so a contact
    /// found again next step can start from the impulses it ended with.
    var id0: UInt32 = 0
    var id1: UInt32 = 0
    /// The smallest separation after the step.
    var finalSeparation = 0.0
}

extension Contact {
    /// Runs `body` on point `index` (0 or 1) in place: one way to reach either point, with no
    /// copy of it (a copied point costs the solver; a `[point:]` accessor was 6–8 % slower).
    @inline(__always)
    mutating func withPoint<Result>(
        _ index: Int, _ body: (inout ContactPoint) -> Result
    ) -> Result {
        index == 0 ? body(&first) : body(&second)
    }

    mutating func setShapes(_ a: Int, _ bodyA: Int, _ b: Int, _ bodyB: Int) {
        shapeA = a
        shapeB = b
        self.bodyA = bodyA
        self.bodyB = bodyB
    }

    /// Swaps the roles of A and B.
    mutating func flip() {
        swap(&shapeA, &shapeB)
        swap(&bodyA, &bodyB)
        swap(&radiusA, &radiusB)
        switch kind {
        case .points: swap(&localPlane, &local0)
        case .planeA: kind = .planeB
        case .planeB: kind = .planeA
        }
    }
}
