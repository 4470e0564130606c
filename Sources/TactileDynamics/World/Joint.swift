import Foundation

/// What an attachment or snap constrains.
enum JointKind: UInt8 {
    /// Keeps the anchor points at `length` (rigid when frequency is 0, else a spring).
    case distance
    /// Keeps the anchor points at most `length` apart.
    case limit
    /// Keeps the anchor points together; the relative angle may be limited.
    case pin
    /// Keeps the anchor points together and the relative angle fixed.
    case fixed
    /// Allows motion only along an axis, within a range, without relative rotation.
    case sliding
    /// Pulls a body's centre to a point and its rotation to zero, as a damped spring.
    case snap
}

/// An attachment or snap compiled for the solver. Body B may be −1: a fixed world anchor.
struct Joint {
    var kind = JointKind.distance
    var bodyA = 0
    var bodyB = -1
    /// Anchor on A in A's frame (relative to the centre of mass).
    var localA = Vec2.zero
    /// Anchor on B in B's frame, or the world anchor point when B is −1.
    var localB = Vec2.zero
    var length = 0.0
    var frequency = 0.0
    var dampingRatio = 0.0
    /// Relative angle B − A at creation (fixed, sliding, pin limits).
    var referenceAngle = 0.0
    /// Sliding axis (unit) in A's frame, or in the world when B is −1.
    var axis = Vec2(1, 0)
    var lower = -Double.infinity
    var upper = Double.infinity
    var frictionTorque = 0.0
    /// The spring's largest pull (frequency > 0), mass · points/s².
    var maximumForce = Double.infinity
}

/// A push, compiled: which body, how hard, where.
struct PushForce {
    var body = 0
    /// Force in mass · points/s² (continuous) or impulse in mass · points/s (instantaneous),
    /// in world axes.
    var force = Vec2.zero
    /// Point of application relative to the item's centre, in the item's frame.
    var offset = Vec2.zero
}
