import Foundation

/// The sliding joint: motion only along an axis, within a range, without relative rotation.
extension World {
    /// Holds the angle, removes drift across the axis and keeps the translation in range.
    @inline(__always)
    mutating func solveSlidingPosition(_ k: Int, _ i: Int, _ j: Int) {
        let joint = joints[k]
        correctAngles(i, j, remainder(relativeAngle(joint), 2 * .pi))
        let pa = worldPoint(i, joint.localA)
        let pb = worldPoint(j, joint.localB)
        let axis = j >= 0 ? bodies[i].rotation.apply(joint.axis) : joint.axis
        let across = axis.perpendicular
        let ra = pa - bodies[i].position
        let rb = j >= 0 ? pb - bodies[j].position : .zero
        // B's anchor relative to A's; when B is the world, A slides instead.
        let offset = pb - pa
        correctPositions(i, j, ra, rb, across, offset.dot(across))
        // Translation of B relative to A, or of the item relative to a world anchor.
        let sign = j >= 0 ? 1.0 : -1.0
        let translation =
            (worldPoint(j, joint.localB) - worldPoint(i, joint.localA)).dot(axis) * sign
        if translation < joint.lower {
            correctPositions(i, j, ra, rb, axis, (translation - joint.lower) * sign)
        } else if translation > joint.upper {
            correctPositions(i, j, ra, rb, axis, (translation - joint.upper) * sign)
        }
    }

    /// Changes velocities so that, after the step, the angle holds, nothing moved across the
    /// axis and the translation is in range.
    @inline(__always)
    mutating func solveSlidingVelocity(
        _ k: Int, _ i: Int, _ j: Int, _ ra: Vec2, _ rb: Vec2, h: Double
    ) {
        let joint = joints[k]
        angularVelocityConstraint(i, j, remainder(predictedAngle(joint), 2 * .pi))
        let axis = j >= 0 ? bodies[i].rotation.apply(joint.axis) : joint.axis
        let across = axis.perpendicular
        let d = predictedPoint(j, joint.localB) - predictedPoint(i, joint.localA)
        let wAcross = inverseMass(i, j, ra, rb, across)
        if wAcross > 0 {
            applyImpulse(i, j, ra, rb, across * (-d.dot(across) / (h * wAcross)))
        }
        let sign = j >= 0 ? 1.0 : -1.0
        let translation = d.dot(axis) * sign
        let wAxis = inverseMass(i, j, ra, rb, axis)
        guard wAxis > 0 else { return }
        if translation < joint.lower {
            applyImpulse(i, j, ra, rb, axis * (-(translation - joint.lower) * sign / (h * wAxis)))
        } else if translation > joint.upper {
            applyImpulse(i, j, ra, rb, axis * (-(translation - joint.upper) * sign / (h * wAxis)))
        }
    }
}
