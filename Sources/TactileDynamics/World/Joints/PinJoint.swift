import Foundation

/// The pin and fixed joints: anchor points kept together, with the relative angle limited
/// (pin) or held (fixed).
extension World {
    /// Corrects the angle, then moves the anchors back together after the step.
    @inline(__always)
    mutating func solvePinPosition(_ k: Int, _ i: Int, _ j: Int) {
        let joint = joints[k]
        if let error = joint.angleError(relativeAngle(joint)) { correctAngles(i, j, error) }
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
        if let error = joint.angleError(predictedAngle(joint)) {
            angularVelocityConstraint(i, j, error)
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

extension Joint {
    /// How far the relative `angle` of a pin or fixed joint is from what the joint allows: all
    /// of it (within a turn) when fixed, how far past a limit when pinned; `nil` within them.
    @inline(__always)
    func angleError(_ angle: Double) -> Double? {
        if kind == .fixed { return remainder(angle, 2 * .pi) }
        if angle < lower { return angle - lower }
        if angle > upper { return angle - upper }
        return nil
    }
}
