import Foundation

/// The snap joint: a body's centre pulled to a point, and its rotation to zero, by a
/// critically dampable spring.
extension World {
    /// Adds the snap's spring force and torque to its body.
    @inline(never)
    mutating func applySnapSpring(_ joint: Joint, maximumOmega: Double) {
        let i = joint.bodyA
        let b = bodies[i]
        guard b.isDynamic else { return }
        let omega = min(2 * .pi * joint.frequency, maximumOmega)
        let target = joint.localB
        let center = b.position + b.rotation.apply(b.localCenter)
        let x = center - target
        let f = (x * (omega * omega) + b.velocity * (2 * joint.dampingRatio * omega)) * -b.mass
        bodies[i].force += f
        if b.invInertia > 0 {
            let angle = remainder(b.angle, 2 * .pi)
            bodies[i].torque -=
                b.inertia
                * (omega * omega * angle + 2 * joint.dampingRatio * omega * b.angularVelocity)
        }
    }
}
