import Foundation

/// The pin and fixed joints: anchor points kept together, with the relative angle limited
/// (pin) or held (fixed).
extension World {
    /// Corrects the angle, then moves the anchors back together after the step.
    @inline(__always)
    mutating func solvePinPosition(_ k: Int, _ i: Int, _ j: Int) {
        let joint = joints[k]
        if joint.kind == .fixed {
            correctAngles(i, j, remainder(relativeAngle(joint), 2 * .pi))
        } else if joint.lower > -.infinity || joint.upper < .infinity {
            let angle = relativeAngle(joint)
            if angle < joint.lower {
                correctAngles(i, j, angle - joint.lower)
            } else if angle > joint.upper {
                correctAngles(i, j, angle - joint.upper)
            }
        }
        let pa = worldPoint(i, joint.localA)
        let pb = worldPoint(j, joint.localB)
        let gap = pb - pa
        let length = gap.length
        guard length > 1e-12 else { return }
        correctPositions(
            i, j, pa - bodies[i].position, j >= 0 ? pb - bodies[j].position : .zero,
            gap * (1 / length), length)
    }

    /// Changes velocities so the predicted angle and anchor gap after the step are zero.
    @inline(__always)
    mutating func solvePinVelocity(
        _ k: Int, _ i: Int, _ j: Int, _ ra: Vec2, _ rb: Vec2, h: Double
    ) {
        let joint = joints[k]
        if joint.kind == .fixed {
            angularVelocityConstraint(i, j, remainder(predictedAngle(joint), 2 * .pi))
        } else if joint.lower > -.infinity || joint.upper < .infinity {
            let angle = predictedAngle(joint)
            if angle < joint.lower {
                angularVelocityConstraint(i, j, angle - joint.lower)
            } else if angle > joint.upper {
                angularVelocityConstraint(i, j, angle - joint.upper)
            }
        }
        let d = predictedPoint(j, joint.localB) - predictedPoint(i, joint.localA)
        let gap = d.length
        guard gap > 1e-12 else { return }
        let n = d * (1 / gap)
        let w = inverseMass(i, j, ra, rb, n)
        guard w > 0 else { return }
        applyImpulse(i, j, ra, rb, n * (-gap / (h * w)))
    }
}
