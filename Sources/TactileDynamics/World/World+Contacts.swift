/// The contact solver: sequential impulses on velocities with Coulomb friction, warm-started
/// from the last step, then overlap removed by moving bodies.
///
/// Each contact point carries an accumulated normal impulse, kept at or above zero (contacts
/// push, never pull), and an accumulated tangential impulse, kept within friction × normal
/// impulse. Solving the points one after another, a few times over, converges to impulses
/// that satisfy every contact at once; starting each step from the last step's impulses
/// (matched by the faces and vertices that made each point) lets a resting stack carry its
/// weight from the first pass, so it neither sinks nor jitters. A box on a slope steeper than
/// its friction angle slides with acceleration g(sin θ − μ cos θ); below it, it stays put.
///
/// Impacts (approach faster than the restitution threshold, with elasticity) are resolved
/// before this, pairwise along contact chains; this solver then only keeps contacts from
/// approaching and applies friction.
extension World {
    /// Gives each contact found again the impulses it ended last step with.
    mutating func matchContacts() {
        let shapeCount = shapes.count
        if previousHead.count != shapeCount {
            previousHead = Pool(repeating: -1, count: shapeCount)
        }
        guard !previousContacts.isEmpty, !contacts.isEmpty else { return }
        if previousNext.count < previousContacts.count {
            previousNext = Pool(repeating: -1, count: 2 * previousContacts.count)
        }
        // Chains of last step's contacts by shape A, each in the order they were found.
        for k in stride(from: previousContacts.count - 1, through: 0, by: -1) {
            let s = previousContacts[k].shapeA
            guard s < shapeCount else { continue }
            previousNext[k] = previousHead[s]
            previousHead[s] = k
        }
        for k in contacts.indices {
            var m = previousHead[contacts[k].shapeA]
            while m >= 0 {
                if previousContacts[m].shapeB == contacts[k].shapeB {
                    inheritImpulses(k, from: m)
                    break
                }
                m = previousNext[m]
            }
        }
        for k in previousContacts.indices where previousContacts[k].shapeA < shapeCount {
            previousHead[previousContacts[k].shapeA] = -1
        }
    }

    /// Copies the accumulated impulses of last step's contact `m` to this step's contact `k`,
    /// point by point where the feature ids agree.
    @inline(__always)
    mutating func inheritImpulses(_ k: Int, from m: Int) {
        let old = previousContacts[m]
        for point in 0..<contacts[k].pointCount {
            let id = point == 0 ? contacts[k].id0 : contacts[k].id1
            var normal = 0.0
            var tangent = 0.0
            if old.pointCount > 0 && old.id0 == id {
                normal = old.normalImpulse0
                tangent = old.tangentImpulse0
            } else if old.pointCount > 1 && old.id1 == id {
                normal = old.normalImpulse1
                tangent = old.tangentImpulse1
            }
            if point == 0 {
                contacts[k].normalImpulse0 = normal
                contacts[k].tangentImpulse0 = tangent
            } else {
                contacts[k].normalImpulse1 = normal
                contacts[k].tangentImpulse1 = tangent
            }
        }
    }

    /// Measures every contact point at the start-of-step positions: offsets, effective
    /// masses, and the approach speed a gap still allows (so a body falling onto another
    /// stops at its surface, not at the detection margin).
    mutating func prepareContacts() {
        let invH = 1 / h
        for k in contacts.indices {
            let c = contacts[k]
            let a = bodies[c.bodyA]
            let b = bodies[c.bodyB]
            let mA = a.isDynamic ? a.invMass : 0
            let iA = a.isDynamic ? a.invInertia : 0
            let mB = b.isDynamic ? b.invMass : 0
            let iB = b.isDynamic ? b.invInertia : 0
            contacts[k].invMassA = mA
            contacts[k].invInertiaA = iA
            contacts[k].invMassB = mB
            contacts[k].invInertiaB = iB
            if c.isImpact {
                // Restitution already set these bodies apart; last step's load is stale.
                contacts[k].normalImpulse0 = 0
                contacts[k].normalImpulse1 = 0
                contacts[k].tangentImpulse0 = 0
                contacts[k].tangentImpulse1 = 0
            }
            contacts[k].isBlock = false
            for point in 0..<c.pointCount {
                let m = evaluate(c, point)
                let n = m.normal
                let t = Vec2(n.y, -n.x)
                let ra = m.point - a.position
                let rb = m.point - b.position
                let rnA = ra.cross(n)
                let rnB = rb.cross(n)
                let rtA = ra.cross(t)
                let rtB = rb.cross(t)
                let kN = mA + mB + iA * rnA * rnA + iB * rnB * rnB
                let kT = mA + mB + iA * rtA * rtA + iB * rtB * rtB
                let bias = m.separation > 0 ? -m.separation * invH : 0
                if point == 0 {
                    contacts[k].normal = n
                    contacts[k].ra0 = ra
                    contacts[k].rb0 = rb
                    contacts[k].normalMass0 = kN > 0 ? 1 / kN : 0
                    contacts[k].tangentMass0 = kT > 0 ? 1 / kT : 0
                    contacts[k].bias0 = bias
                } else {
                    contacts[k].ra1 = ra
                    contacts[k].rb1 = rb
                    contacts[k].normalMass1 = kN > 0 ? 1 / kN : 0
                    contacts[k].tangentMass1 = kT > 0 ? 1 / kT : 0
                    contacts[k].bias1 = bias
                }
            }
            if c.pointCount == 2 {
                let n = contacts[k].normal
                let ra0 = contacts[k].ra0.cross(n)
                let rb0 = contacts[k].rb0.cross(n)
                let ra1 = contacts[k].ra1.cross(n)
                let rb1 = contacts[k].rb1.cross(n)
                let k00 = mA + mB + iA * ra0 * ra0 + iB * rb0 * rb0
                let k11 = mA + mB + iA * ra1 * ra1 + iB * rb1 * rb1
                let k01 = mA + mB + iA * ra0 * ra1 + iB * rb0 * rb1
                // Solved as a pair only while the matrix is well conditioned; points nearly on
                // top of each other are solved one at a time.
                if k00 * k00 < 1000 * (k00 * k11 - k01 * k01) {
                    contacts[k].isBlock = true
                    contacts[k].k00 = k00
                    contacts[k].k01 = k01
                    contacts[k].k11 = k11
                }
            }
        }
    }

    /// Applies last step's accumulated impulses again.
    mutating func warmStartContacts() {
        for k in contacts.indices {
            let c = contacts[k]
            let n = c.normal
            let t = Vec2(n.y, -n.x)
            if c.pointCount > 0 {
                applyContactImpulse(
                    k, c.ra0, c.rb0, n * c.normalImpulse0 + t * c.tangentImpulse0)
            }
            if c.pointCount > 1 {
                applyContactImpulse(
                    k, c.ra1, c.rb1, n * c.normalImpulse1 + t * c.tangentImpulse1)
            }
        }
    }

    /// Applies impulse `p` at contact `k`: −p to body A, +p to body B.
    @inline(__always)
    mutating func applyContactImpulse(_ k: Int, _ ra: Vec2, _ rb: Vec2, _ p: Vec2) {
        let i = contacts[k].bodyA
        let j = contacts[k].bodyB
        bodies[i].velocity -= p * contacts[k].invMassA
        bodies[i].angularVelocity -= ra.cross(p) * contacts[k].invInertiaA
        bodies[j].velocity += p * contacts[k].invMassB
        bodies[j].angularVelocity += rb.cross(p) * contacts[k].invInertiaB
    }

    /// One pass over the contacts: friction at each point (clamped by the point's normal
    /// impulse), then the normal impulses (clamped at zero).
    mutating func solveContactVelocities() {
        for k in contacts.indices {
            let count = contacts[k].pointCount
            let i = contacts[k].bodyA
            let j = contacts[k].bodyB
            let mA = contacts[k].invMassA
            let iA = contacts[k].invInertiaA
            let mB = contacts[k].invMassB
            let iB = contacts[k].invInertiaB
            let n = contacts[k].normal
            let t = Vec2(n.y, -n.x)
            let friction = contacts[k].friction
            var vA = bodies[i].velocity
            var wA = bodies[i].angularVelocity
            var vB = bodies[j].velocity
            var wB = bodies[j].angularVelocity
            if count == 1 {
                // One point (a ball's contact): the same as the loops below, written out.
                let ra = contacts[k].ra0
                let rb = contacts[k].rb0
                if friction > 0 {
                    let dv = vB + cross(wB, rb) - vA - cross(wA, ra)
                    let vt = dv.dot(t)
                    let limit = friction * contacts[k].normalImpulse0
                    let old = contacts[k].tangentImpulse0
                    let total = max(-limit, min(limit, old - vt * contacts[k].tangentMass0))
                    contacts[k].tangentImpulse0 = total
                    let p = t * (total - old)
                    vA -= p * mA
                    wA -= ra.cross(p) * iA
                    vB += p * mB
                    wB += rb.cross(p) * iB
                }
                let dv = vB + cross(wB, rb) - vA - cross(wA, ra)
                let vn = dv.dot(n)
                let old = contacts[k].normalImpulse0
                let total = max(0, old - (vn - contacts[k].bias0) * contacts[k].normalMass0)
                contacts[k].normalImpulse0 = total
                let p = n * (total - old)
                bodies[i].velocity = vA - p * mA
                bodies[i].angularVelocity = wA - ra.cross(p) * iA
                bodies[j].velocity = vB + p * mB
                bodies[j].angularVelocity = wB + rb.cross(p) * iB
                continue
            }
            if friction > 0 {
                for point in 0..<count {
                    let ra = point == 0 ? contacts[k].ra0 : contacts[k].ra1
                    let rb = point == 0 ? contacts[k].rb0 : contacts[k].rb1
                    let dv = vB + cross(wB, rb) - vA - cross(wA, ra)
                    let vt = dv.dot(t)
                    let limit =
                        friction
                        * (point == 0 ? contacts[k].normalImpulse0 : contacts[k].normalImpulse1)
                    let old = point == 0 ? contacts[k].tangentImpulse0 : contacts[k].tangentImpulse1
                    let mass = point == 0 ? contacts[k].tangentMass0 : contacts[k].tangentMass1
                    let total = max(-limit, min(limit, old - vt * mass))
                    if point == 0 {
                        contacts[k].tangentImpulse0 = total
                    } else {
                        contacts[k].tangentImpulse1 = total
                    }
                    let p = t * (total - old)
                    vA -= p * mA
                    wA -= ra.cross(p) * iA
                    vB += p * mB
                    wB += rb.cross(p) * iB
                }
            }
            if count == 2 && contacts[k].isBlock {
                solveNormalPair(k, n, mA, iA, mB, iB, &vA, &wA, &vB, &wB)
            } else {
                for point in 0..<count {
                    let ra = point == 0 ? contacts[k].ra0 : contacts[k].ra1
                    let rb = point == 0 ? contacts[k].rb0 : contacts[k].rb1
                    let dv = vB + cross(wB, rb) - vA - cross(wA, ra)
                    let vn = dv.dot(n)
                    let bias = point == 0 ? contacts[k].bias0 : contacts[k].bias1
                    let old = point == 0 ? contacts[k].normalImpulse0 : contacts[k].normalImpulse1
                    let mass = point == 0 ? contacts[k].normalMass0 : contacts[k].normalMass1
                    let total = max(0, old - (vn - bias) * mass)
                    if point == 0 {
                        contacts[k].normalImpulse0 = total
                    } else {
                        contacts[k].normalImpulse1 = total
                    }
                    let p = n * (total - old)
                    vA -= p * mA
                    wA -= ra.cross(p) * iA
                    vB += p * mB
                    wB += rb.cross(p) * iB
                }
            }
            bodies[i].velocity = vA
            bodies[i].angularVelocity = wA
            bodies[j].velocity = vB
            bodies[j].angularVelocity = wB
        }
    }

    /// Solves both normal impulses of a two-point contact at once: the 2×2 complementarity
    /// problem (each point either pushes with zero relative normal velocity, or does not
    /// push and separates) by trying its four cases. Solving the points one after the other
    /// instead leaves a small imbalance that turns a tall stack over time.
    @inline(__always)
    mutating func solveNormalPair(
        _ k: Int, _ n: Vec2, _ mA: Double, _ iA: Double, _ mB: Double, _ iB: Double,
        _ vA: inout Vec2, _ wA: inout Double, _ vB: inout Vec2, _ wB: inout Double
    ) {
        let ra0 = contacts[k].ra0
        let rb0 = contacts[k].rb0
        let ra1 = contacts[k].ra1
        let rb1 = contacts[k].rb1
        let a0 = contacts[k].normalImpulse0
        let a1 = contacts[k].normalImpulse1
        let vn0 = (vB + cross(wB, rb0) - vA - cross(wA, ra0)).dot(n)
        let vn1 = (vB + cross(wB, rb1) - vA - cross(wA, ra1)).dot(n)
        let k00 = contacts[k].k00
        let k01 = contacts[k].k01
        let k11 = contacts[k].k11
        // Velocities the current impulses would give with no impulse at all, less the bias.
        let b0 = vn0 - contacts[k].bias0 - (k00 * a0 + k01 * a1)
        let b1 = vn1 - contacts[k].bias1 - (k01 * a0 + k11 * a1)
        let det = k00 * k11 - k01 * k01
        // Both push.
        var x0 = (-b0 * k11 + b1 * k01) / det
        var x1 = (-b1 * k00 + b0 * k01) / det
        if !(x0 >= 0 && x1 >= 0) {
            // Only the first pushes.
            x0 = -b0 / k00
            x1 = 0
            if !(x0 >= 0 && k01 * x0 + b1 >= 0) {
                // Only the second pushes.
                x0 = 0
                x1 = -b1 / k11
                if !(x1 >= 0 && k01 * x1 + b0 >= 0) {
                    // Neither pushes: both separate. Failing that too (rounding at a
                    // degenerate case), keep the impulses as they are.
                    guard b0 >= 0 && b1 >= 0 else { return }
                    x0 = 0
                    x1 = 0
                }
            }
        }
        contacts[k].normalImpulse0 = x0
        contacts[k].normalImpulse1 = x1
        let p0 = n * (x0 - a0)
        let p1 = n * (x1 - a1)
        vA -= (p0 + p1) * mA
        wA -= (ra0.cross(p0) + ra1.cross(p1)) * iA
        vB += (p0 + p1) * mB
        wB += (rb0.cross(p0) + rb1.cross(p1)) * iB
    }

    /// One pass of overlap removal: each point's overlap beyond the slop, a fraction at a
    /// time and at most `maximumContactCorrection` points, by moving the bodies only, so
    /// pushing apart adds no speed. Returns whether every overlap was already within the slop:
    /// then this pass changed nothing, and neither would another.
    mutating func solveContactPositions() -> Bool {
        let slop = contactSlop
        let fraction = contactBaumgarte
        let most = maximumContactCorrection
        var deepest = 0.0
        for k in contacts.indices {
            if contacts[k].kind == .points {
                // Two balls (or a ball and a corner) clearly closer than the slop need
                // nothing; told apart without a square root, with room for its rounding.
                let reach = contacts[k].radiusA + contacts[k].radiusB - slop
                let d =
                    worldPoint(contacts[k].bodyB, contacts[k].local0)
                    - worldPoint(contacts[k].bodyA, contacts[k].localPlane)
                if reach > 0 && d.lengthSquared > reach * reach * (1 + 1e-9) { continue }
            }
            for point in 0..<contacts[k].pointCount {
                let m = evaluate(contacts[k], point)
                deepest = min(deepest, m.separation)
                let error = max(-most, min(0, fraction * (m.separation + slop)))
                guard error < 0 else { continue }
                let i = contacts[k].bodyA
                let j = contacts[k].bodyB
                let ra = m.point - bodies[i].position
                let rb = m.point - bodies[j].position
                let rnA = ra.cross(m.normal)
                let rnB = rb.cross(m.normal)
                let w =
                    contacts[k].invMassA + contacts[k].invMassB + contacts[k].invInertiaA * rnA
                    * rnA + contacts[k].invInertiaB * rnB * rnB
                guard w > 0 else { continue }
                let p = m.normal * (-error / w)
                move(i, p * -1, ra)
                move(j, p, rb)
            }
        }
        return deepest >= -slop
    }
}
