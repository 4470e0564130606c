import Foundation

/// One rigid body: an item, an item group, or the static frame that boundaries and anchors
/// hang on. A plain struct kept in a contiguous array.
struct Body {
    /// Centre of mass, in points.
    var position = Vec2.zero
    var angle = 0.0
    var velocity = Vec2.zero
    var angularVelocity = 0.0
    var rotation = Rotation(0)
    /// Velocities that push overlap out: they move the body this step, then are dropped.
    var pushVelocity = Vec2.zero
    var pushAngularVelocity = 0.0
    /// Position and angle when the contacts were last prepared; contacts are measured again
    /// from how far the body has moved and turned since.
    var origin = Vec2.zero
    var originAngle = 0.0
    /// The item's centre in the body frame, relative to the centre of mass.
    var localCenter = Vec2.zero
    /// Continuous force this step (mass · points/s²) and torque (mass · points²/s²).
    var force = Vec2.zero
    var torque = 0.0
    /// Acceleration from gravity behaviours, points/s².
    var gravity = Vec2.zero
    var mass = 0.0
    var inertia = 0.0
    var invMass = 0.0
    var invInertia = 0.0
    /// Velocity multipliers applied every step: exp(−resistance · h).
    var linearDamping = 1.0
    var angularDamping = 1.0
    var elasticity = 0.0
    var friction = 0.0
    var charge = 0.0
    var isDynamic = false
    /// Largest distance from the centre of mass to any of the body's shapes, points.
    var reach = 0.0
    /// The distance from the centre of mass to the nearest face of the body's thinnest shape.
    var inner = 0.0
    /// While contacts found earlier are reused: the velocities at detection, how far the body
    /// has since strayed from moving at them (points, its turn counted at its reach), and how
    /// far it may stray before the contacts must be found again.
    var detectedVelocity = Vec2.zero
    var detectedAngularVelocity = 0.0
    var drift = 0.0
    var driftLimit = 0.0
}

/// One collision shape on a body: a circle or a convex polygon (a segment is a two-vertex
/// polygon with both faces).
struct Shape {
    var body = 0
    /// Index of the owning item in the animator's item table, or −1 for a boundary.
    var item = -1
    /// Index into the boundary table, or −1 for an item.
    var boundary = -1
    var isCircle = false
    var radius = 0.0
    /// Circle centre in the body frame.
    var center = Vec2.zero
    var worldCenter = Vec2.zero
    /// Range of the polygon's vertices and normals in the world's vertex arrays.
    var first = 0
    var count = 0
    /// Largest distance from the body origin to the shape, for swept bounds.
    var reach = 0.0
    /// Distance from the body origin to the shape's nearest face (0 when outside it).
    var inner = 0.0
    var minX = 0.0
    var minY = 0.0
    var maxX = 0.0
    var maxY = 0.0
    /// Collision behaviours (bits) in which this item collides with items.
    var itemBits: UInt64 = 0
    /// Collision behaviours in which this item collides with boundaries; for a boundary,
    /// the bit of the behaviour that owns it.
    var boundaryBits: UInt64 = 0
    /// A stable identity for contact episodes: participant ids survive rebuilds.
    var participant: UInt32 = 0
}
