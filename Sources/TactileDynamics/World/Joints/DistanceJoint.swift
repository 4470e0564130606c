/// The distance joint (rigid, limit and spring attachments): anchor points kept at a length,
/// kept at most a length apart, or pulled to it by a damped spring.
extension World {
    /// Projects a rigid or limit attachment's anchors back to its length after the step.
    @inline(__always)
    mutating func solveDistancePosition(
        _ k: Int, _ i: Int, _ j: Int, _ ra: Vec2, _ rb: Vec2, _ d: Vec2
    ) {
        let joint = joints[k]
        let length = d.length
        let error = length - joint.length
        if joint.kind == .limit && error <= 0 { return }
        guard length > 1e-12 else { return }
        correctPositions(i, j, ra, rb, d * (1 / length), error)
    }

    /// Changes velocities along the string so the predicted length is the joint's.
    @inline(__always)
    mutating func solveDistanceVelocity(
        _ k: Int, _ i: Int, _ j: Int, _ pa: Vec2, _ pb: Vec2, _ ra: Vec2, _ rb: Vec2,
        h: Double
    ) {
        let joint = joints[k]
        let current = pb - pa
        let length = current.length
        guard length > 1e-9 else { return }
        let n = current * (1 / length)
        let d = predictedPoint(j, joint.localB) - predictedPoint(i, joint.localA)
        let predicted = d.length
        let error = predicted - joint.length
        if joint.kind == .limit && error <= 0 { return }
        guard predicted > 1e-9 else { return }
        let slope = h * n.dot(d * (1 / predicted))
        guard slope > 0.1 * h else { return }
        let w = inverseMass(i, j, ra, rb, n)
        guard w > 0 else { return }
        applyImpulse(i, j, ra, rb, n * (-error / (slope * w)))
    }

    /// A spring attachment (frequency > 0) as a force: explicit, so frequency and damping
    /// ratio come out as set (the step is small against the period).
    @inline(never)
    mutating func applyDistanceSpring(_ joint: Joint, maximumOmega: Double) {
        let i = joint.bodyA
        let j = joint.bodyB
        let pa = worldPoint(i, joint.localA)
        let pb = worldPoint(j, joint.localB)
        let d = pb - pa
        let length = d.length
        guard length > 1e-12 else { return }
        let n = d * (1 / length)
        let a = bodies[i]
        let ra = pa - a.position
        var va = a.velocity + cross(a.angularVelocity, ra)
        var inverseMass = a.isDynamic ? a.invMass : 0
        var rb = Vec2.zero
        var vb = Vec2.zero
        if j >= 0 {
            let b = bodies[j]
            rb = pb - b.position
            vb = b.velocity + cross(b.angularVelocity, rb)
            inverseMass += b.isDynamic ? b.invMass : 0
        }
        if !a.isDynamic { va = .zero }
        guard inverseMass > 0 else { return }
        let mass = 1 / inverseMass
        let omega = min(2 * .pi * joint.frequency, maximumOmega)
        let stretch = length - joint.length
        let rate = (vb - va).dot(n)
        let pull = mass * (omega * omega * stretch + 2 * joint.dampingRatio * omega * rate)
        let magnitude = max(-joint.maximumForce, min(joint.maximumForce, pull))
        let f = n * magnitude
        if a.isDynamic {
            bodies[i].force += f
            bodies[i].torque += ra.cross(f)
        }
        if j >= 0 && bodies[j].isDynamic {
            bodies[j].force -= f
            bodies[j].torque -= rb.cross(f)
        }
    }
}
