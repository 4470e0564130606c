import Foundation

/// Restitution at impacts, joints and springs.
extension World {
    // MARK: - Impacts

    /// The relative normal velocity (B − A) at a world point; negative when approaching.
    @inline(__always)
    func approach(_ c: Contact, _ n: Vec2, _ point: Vec2) -> Double {
        let a = bodies[c.bodyA]
        let b = bodies[c.bodyB]
        let va = impactVelocity(c.bodyA) + cross(a.angularVelocity, point - a.position)
        let vb = impactVelocity(c.bodyB) + cross(b.angularVelocity, point - b.position)
        return (vb - va).dot(n)
    }

    /// A body's velocity as an impact sees it: for a tethered bob, only the part across its
    /// string. This step's gravity has been added but its string has not yet taken up the
    /// part along it; counting that part would hand on speed the bob does not have (a bob
    /// that climbed a little past its rest to reach the next ball, as across a gap, would
    /// pass on its speed from before the climb).
    @inline(__always)
    func impactVelocity(_ i: Int) -> Vec2 {
        let b = bodies[i]
        guard tethers.count == bodies.count, !tethers[i].x.isNaN else { return b.velocity }
        let radial = b.position + b.rotation.apply(tetherPoints[i]) - tethers[i]
        let length = radial.length
        guard length > 1e-9 else { return b.velocity }
        let u = radial * (1 / length)
        return b.velocity - u * b.velocity.dot(u)
    }

    /// The inverse effective mass of two bodies at a point along a direction.
    @inline(__always)
    func inverseMass(_ i: Int, _ j: Int, _ ra: Vec2, _ rb: Vec2, _ n: Vec2) -> Double {
        var w = 0.0
        if i >= 0 {
            let cn = ra.cross(n)
            w += bodies[i].invMass + bodies[i].invInertia * cn * cn
        }
        if j >= 0 {
            let cn = rb.cross(n)
            w += bodies[j].invMass + bodies[j].invInertia * cn * cn
        }
        return w
    }

    /// Applies impulse `p` at offsets `ra`, `rb`: −p to A, +p to B (velocities only).
    @inline(__always)
    mutating func applyImpulse(_ i: Int, _ j: Int, _ ra: Vec2, _ rb: Vec2, _ p: Vec2) {
        if i >= 0 && bodies[i].isDynamic {
            bodies[i].velocity -= p * bodies[i].invMass
            bodies[i].angularVelocity -= ra.cross(p) * bodies[i].invInertia
        }
        if j >= 0 && bodies[j].isDynamic {
            bodies[j].velocity += p * bodies[j].invMass
            bodies[j].angularVelocity += rb.cross(p) * bodies[j].invInertia
        }
    }

    /// Resolves impacts one contact at a time, each as a two-body collision with restitution,
    /// sweeping the contacts until none that will touch this step still approaches faster than
    /// the threshold. In a row of touching balls this hands the momentum from ball to ball
    /// exactly as a sequence of separate collisions does, which is what a Newton's cradle does.
    mutating func propagateImpacts() {
        guard !contacts.isEmpty, contactsMayImpact else { return }
        let h = self.h
        if impactTimes.count != bodies.count {
            impactTimes = Pool(repeating: -1, count: bodies.count)
            impactShifts = Pool(repeating: .zero, count: bodies.count)
            impactTurns = Pool(repeating: 0, count: bodies.count)
        }
        let threshold = restitutionThreshold
        let maximumSweeps = contacts.count <= 64 ? 2 * contacts.count + 16 : 32
        var sweeps = 0
        var changed = true
        while changed && sweeps < maximumSweeps {
            changed = false
            sweeps += 1
            for k in contacts.indices {
                let c = contacts[k]
                let e = c.elasticity
                guard e > 0 else { continue }
                // A two-point manifold collides at its middle, so a flat landing stays flat.
                var m = evaluate(c, 0)
                if c.pointCount == 2 {
                    let m1 = evaluate(c, 1)
                    m.point = (m.point + m1.point) * 0.5
                    m.separation = min(m.separation, m1.separation)
                }
                let vn = approach(c, m.normal, m.point)
                guard vn < -threshold, m.separation + vn * h <= linearSlop else { continue }
                let ra = m.point - bodies[c.bodyA].position
                let rb = m.point - bodies[c.bodyB].position
                let w =
                    impactInverseMass(c.bodyA, ra, m.normal)
                    + impactInverseMass(c.bodyB, rb, m.normal)
                guard w > 0 else { continue }
                // The moment of impact within the step: when the gap closes, or when the
                // impact that set one of the bodies moving reached it (a chain of touching
                // balls passes the blow on at once).
                let moment = max(
                    min(max(0, m.separation) / -vn, h), impactTimes[c.bodyA], impactTimes[c.bodyB])
                let j = -(1 + e) * vn / w
                let p = m.normal * j
                // Until that moment the bodies moved at their old velocities: the position
                // update that follows uses the new ones for the whole step, so make up the
                // difference.
                applyImpact(c.bodyA, ra, -p, at: moment)
                applyImpact(c.bodyB, rb, p, at: moment)
                contacts[k].isImpact = true
                impactsMarked = true
                // Restitution set these bodies apart; the load they carried is stale.
                contacts[k].first.normalImpulse = 0
                contacts[k].second.normalImpulse = 0
                contacts[k].first.tangentImpulse = 0
                contacts[k].second.tangentImpulse = 0
                lanesHoldImpulses = false
                changed = true
            }
        }
    }

    /// A body's inverse mass for an impulse along `n` at offset `r`; a tethered bob can only
    /// move across its string, so only that part of the impulse counts.
    @inline(__always)
    func impactInverseMass(_ i: Int, _ r: Vec2, _ n: Vec2) -> Double {
        let b = bodies[i]
        guard b.isDynamic else { return 0 }
        let anchor = tethers.count == bodies.count ? tethers[i] : Vec2(.nan, .nan)
        if anchor.x.isNaN {
            let cn = r.cross(n)
            return b.invMass + b.invInertia * cn * cn
        }
        let radial = b.position + b.rotation.apply(tetherPoints[i]) - anchor
        let length = radial.length
        guard length > 1e-9 else { return b.invMass }
        let along = n.dot(radial) / length
        return b.invMass * (1 - along * along)
    }

    /// Applies an impact impulse `p` to a body at offset `r`, at `moment` within the step.
    @inline(__always)
    mutating func applyImpact(_ i: Int, _ r: Vec2, _ p: Vec2, at moment: Double) {
        guard bodies[i].isDynamic else { return }
        var dv = p * bodies[i].invMass
        var dw = r.cross(p) * bodies[i].invInertia
        let anchor = tethers.count == bodies.count ? tethers[i] : Vec2(.nan, .nan)
        if !anchor.x.isNaN {
            let radial = worldPoint(i, tetherPoints[i]) - anchor
            let length = radial.length
            if length > 1e-9 {
                let u = radial * (1 / length)
                dv -= u * dv.dot(u)
                dw = 0
            }
        }
        bodies[i].velocity += dv
        bodies[i].angularVelocity += dw
        impactShifts[i] -= dv * moment
        impactTurns[i] -= dw * moment
        impactTimes[i] = moment
    }

    // MARK: - Positions

    /// Moves bodies `i` (by −) and `j` (by +) along `n` through the points at offsets `ra`,
    /// `rb` so that the constraint error `error` along `n` becomes zero. Returns the impulse.
    @inline(__always)
    @discardableResult
    mutating func correctPositions(
        _ i: Int, _ j: Int, _ ra: Vec2, _ rb: Vec2, _ n: Vec2, _ error: Double
    ) -> Double {
        let w = inverseMass(i, j, ra, rb, n)
        guard w > 0 else { return 0 }
        let lambda = -error / w
        let p = n * lambda
        if i >= 0 && bodies[i].isDynamic {
            correct(i, p * -bodies[i].invMass, -ra.cross(p) * bodies[i].invInertia)
        }
        if j >= 0 && bodies[j].isDynamic {
            correct(j, p * bodies[j].invMass, rb.cross(p) * bodies[j].invInertia)
        }
        return lambda
    }

    /// Turns bodies `i` (by −) and `j` (by +) so that the angle error becomes zero.
    @inline(__always)
    mutating func correctAngles(_ i: Int, _ j: Int, _ error: Double) {
        let wi = i >= 0 && bodies[i].isDynamic ? bodies[i].invInertia : 0
        let wj = j >= 0 && bodies[j].isDynamic ? bodies[j].invInertia : 0
        guard wi + wj > 0 else { return }
        let lambda = -error / (wi + wj)
        if wi > 0 { correct(i, .zero, -lambda * wi) }
        if wj > 0 { correct(j, .zero, lambda * wj) }
    }

    /// Moves a body by a position impulse without changing its velocity.
    @inline(__always)
    mutating func move(_ i: Int, _ p: Vec2, _ r: Vec2) {
        guard i >= 0, bodies[i].isDynamic else { return }
        bodies[i].position += p * bodies[i].invMass
        let turn = r.cross(p) * bodies[i].invInertia
        if turn != 0 {
            bodies[i].angle += turn
            bodies[i].rotation = bodies[i].rotation.turned(by: turn, fallback: bodies[i].angle)
        }
    }

    /// The relative angle of B to A, less the joint's reference angle.
    @inline(__always)
    func relativeAngle(_ joint: Joint) -> Double {
        let a = bodies[joint.bodyA].angle
        let b = joint.bodyB >= 0 ? bodies[joint.bodyB].angle : 0
        return b - a - joint.referenceAngle
    }

    /// Projects positions back onto every rigid joint after the step; each kind's rule is in
    /// its own file under `Joints/`.
    mutating func solveJointPositions() {
        for k in joints.indices {
            let joint = joints[k]
            let i = joint.bodyA
            let j = joint.bodyB
            if joint.kind == .snap { continue }
            if joint.kind == .distance && joint.frequency > 0 { continue }
            let pa = worldPoint(i, joint.localA)
            let pb = worldPoint(j, joint.localB)
            let ra = pa - bodies[i].position
            let rb = j >= 0 ? pb - bodies[j].position : .zero
            switch joint.kind {
            case .distance, .limit: solveDistancePosition(k, i, j, ra, rb, pb - pa)
            case .pin, .fixed: solvePinPosition(k, i, j)
            case .sliding: solveSlidingPosition(k, i, j)
            case .snap: continue
            }
        }
    }

    // MARK: - Joint velocities

    /// Changes velocities, along each constraint's direction at the current positions, so
    /// that the positions after the step satisfy the joints (SHAKE's choice). For a pendulum
    /// this conserves energy over long runs, where projecting positions afterwards damps.
    mutating func solveJointVelocities() {
        let h = self.h
        for k in joints.indices {
            let joint = joints[k]
            let i = joint.bodyA
            let j = joint.bodyB
            if joint.kind == .snap || (joint.kind == .distance && joint.frequency > 0) { continue }
            let pa = worldPoint(i, joint.localA)
            let pb = worldPoint(j, joint.localB)
            let ra = pa - bodies[i].position
            let rb = j >= 0 ? pb - bodies[j].position : .zero
            switch joint.kind {
            case .distance, .limit: solveDistanceVelocity(k, i, j, pa, pb, ra, rb, h: h)
            case .pin, .fixed: solvePinVelocity(k, i, j, ra, rb, h: h)
            case .sliding: solveSlidingVelocity(k, i, j, ra, rb, h: h)
            case .snap: continue
            }
        }
    }

    /// The relative angle of B to A after the step, less the joint's reference angle.
    @inline(__always)
    func predictedAngle(_ joint: Joint) -> Double {
        let a = bodies[joint.bodyA]
        let angleA = a.angle + (a.isDynamic ? a.angularVelocity * h : 0)
        var angleB = 0.0
        if joint.bodyB >= 0 {
            let b = bodies[joint.bodyB]
            angleB = b.angle + (b.isDynamic ? b.angularVelocity * h : 0)
        }
        return angleB - angleA - joint.referenceAngle
    }

    /// Changes angular velocities so the predicted angle error becomes zero.
    @inline(__always)
    mutating func angularVelocityConstraint(_ i: Int, _ j: Int, _ error: Double) {
        let wi = bodies[i].isDynamic ? bodies[i].invInertia : 0
        let wj = j >= 0 && bodies[j].isDynamic ? bodies[j].invInertia : 0
        guard wi + wj > 0 else { return }
        let lambda = -error / (h * (wi + wj))
        bodies[i].angularVelocity -= lambda * wi
        if j >= 0 { bodies[j].angularVelocity += lambda * wj }
    }

    // MARK: - Springs

    /// Spring attachments and snaps as forces (`Joints/DistanceJoint.swift`,
    /// `Joints/SnapJoint.swift`).
    mutating func applySpringForces() {
        let maximumOmega = 1 / h
        for jointIndex in joints.indices {
            let joint = joints[jointIndex]
            if joint.kind == .snap {
                applySnapSpring(joint, maximumOmega: maximumOmega)
            } else if joint.kind == .distance, joint.frequency > 0 {
                applyDistanceSpring(joint, maximumOmega: maximumOmega)
            }
        }
    }

    // MARK: - Joint friction

    /// Friction torque at pin, fixed and sliding attachments, and at rigid anchors.
    mutating func applyJointFriction() {
        for jointIndex in joints.indices {
            let joint = joints[jointIndex]
            guard joint.frictionTorque > 0 else { continue }
            let i = joint.bodyA
            let j = joint.bodyB
            let wi = bodies[i].isDynamic ? bodies[i].invInertia : 0
            let wj = j >= 0 && bodies[j].isDynamic ? bodies[j].invInertia : 0
            guard wi + wj > 0 else { continue }
            let relative = (j >= 0 ? bodies[j].angularVelocity : 0) - bodies[i].angularVelocity
            let limit = joint.frictionTorque * h
            let impulse = max(-limit, min(limit, -relative / (wi + wj)))
            bodies[i].angularVelocity -= impulse * wi
            if j >= 0 { bodies[j].angularVelocity += impulse * wj }
        }
    }

    /// Records each contact's separation after the step, for contact callbacks.
    mutating func measureSeparations() {
        for k in contacts.indices {
            guard contacts[k].pointCount > 0 else {
                contacts[k].finalSeparation = .infinity
                continue
            }
            var least = evaluate(contacts[k], 0).separation
            if contacts[k].pointCount == 2 {
                least = min(least, evaluate(contacts[k], 1).separation)
            }
            contacts[k].finalSeparation = least
        }
    }
}
