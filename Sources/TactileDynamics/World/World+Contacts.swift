/// The contact solver: sequential impulses on velocities with Coulomb friction, warm-started
/// from the last step, then overlap pushed out with velocities of its own.
///
/// Each contact point carries an accumulated normal impulse, kept at or above zero (contacts
/// push, never pull), and each contact an accumulated tangential impulse, kept within
/// friction × its normal impulses (a two-point contact's points lie along a face, where a
/// tangential impulse acts the same at either, so it has one). Solving the points one after another, a few times over, converges to impulses
/// that satisfy every contact at once; starting each step from the last step's impulses
/// (matched by the faces and vertices that made each point) lets a resting stack carry its
/// weight from the first pass, so it neither sinks nor jitters. A box on a slope steeper than
/// its friction angle slides with acceleration g(sin θ − μ cos θ); below it, it stays put.
///
/// Impacts (approach faster than the restitution threshold, with elasticity) are resolved
/// before this, pairwise along contact chains; this solver then only keeps contacts from
/// approaching and applies friction.
extension World {
    /// Gives each contact found again (from index `start` on) the impulses it ended last step
    /// with.
    mutating func matchContacts(from start: Int = 0) {
        let shapeCount = shapes.count
        if previousHead.count != shapeCount {
            previousHead = Pool(repeating: -1, count: shapeCount)
        }
        guard !previousContacts.isEmpty, start < contacts.count else { return }
        if previousNext.count < previousContacts.count {
            previousNext = Pool(repeating: -1, count: 2 * previousContacts.count)
        }
        // Chains of last step's contacts by shape A, each in the order they were found.
        for k in stride(from: previousContacts.count - 1, through: 0, by: -1) {
            let s = previousContacts[k].shapeA
            // A contact vacated around a stray hands nothing on.
            guard s < shapeCount, previousContacts[k].pointCount > 0 else { continue }
            previousNext[k] = previousHead[s]
            previousHead[s] = k
        }
        for k in start..<contacts.count {
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

    /// Reorders the contacts so that runs of them share no moving body: each contact takes the
    /// lowest of 64 colours that no earlier contact on either of its moving bodies has (the
    /// rest share a last colour), and the contacts are sorted by colour, keeping their order
    /// within one. The solver's passes then meet long runs of independent contacts, whose
    /// work the processor overlaps instead of waiting for each to finish before the next.
    mutating func orderContactsByColor() {
        guard contacts.count > 1 else { return }
        if bodyColors.count != bodies.count {
            bodyColors = Pool(repeating: 0, count: bodies.count)
        } else {
            for i in bodyColors.indices { bodyColors[i] = 0 }
        }
        if contactColors.count < contacts.count {
            contactColors = Pool(repeating: 0, count: 2 * contacts.count)
        }
        for c in colorStarts.indices { colorStarts[c] = 0 }
        for k in contacts.indices {
            let i = contacts[k].bodyA
            let j = contacts[k].bodyB
            let movesA = bodies[i].isDynamic
            let movesB = bodies[j].isDynamic
            let used = (movesA ? bodyColors[i] : 0) | (movesB ? bodyColors[j] : 0)
            let color = min((~used).trailingZeroBitCount, 64)
            if color < 64 {
                if movesA { bodyColors[i] |= 1 << UInt64(color) }
                if movesB { bodyColors[j] |= 1 << UInt64(color) }
            }
            contactColors[k] = color
            colorStarts[color + 1] += 1
        }
        for c in 0..<65 { colorStarts[c + 1] += colorStarts[c] }
        // Every place is written once below: a permutation of the contacts.
        orderedContacts.resize(toUninitialized: contacts.count)
        for k in contacts.indices {
            let color = contactColors[k]
            orderedContacts[colorStarts[color]] = contacts[k]
            colorStarts[color] += 1
        }
        swap(&contacts, &orderedContacts)
        if solvesInLanes { groupContactsIntoLanes() }
    }

    /// Copies the accumulated impulses of last step's contact `m` to this step's contact `k`,
    /// point by point where the feature ids agree.
    @inline(__always)
    mutating func inheritImpulses(_ k: Int, from m: Int) {
        let old = previousContacts[m]
        var matched = false
        for point in 0..<contacts[k].pointCount {
            let id = point == 0 ? contacts[k].id0 : contacts[k].id1
            var normal = 0.0
            var tangent = 0.0
            if old.pointCount > 0 && old.id0 == id {
                normal = old.first.normalImpulse
                tangent = old.first.tangentImpulse
                matched = true
            } else if old.pointCount > 1 && old.id1 == id {
                normal = old.second.normalImpulse
                tangent = old.second.tangentImpulse
                matched = true
            }
            contacts[k].withPoint(point) {
                $0.normalImpulse = normal
                $0.tangentImpulse = tangent
            }
        }
        // A two-point contact keeps its one friction impulse at the first point: the old
        // contact's whole friction, if any of its points carried on (held within friction ×
        // the normal impulses the new points inherited).
        if contacts[k].pointCount == 2 {
            let limit =
                contacts[k].friction
                * (contacts[k].first.normalImpulse + contacts[k].second.normalImpulse)
            let whole = matched ? old.first.tangentImpulse + old.second.tangentImpulse : 0
            contacts[k].first.tangentImpulse = max(-limit, min(limit, whole))
            contacts[k].second.tangentImpulse = 0
        }
    }

    /// Measures every contact point where the bodies are now: offsets, effective masses and
    /// separations, which serve until the contacts are found again.
    mutating func prepareContacts() {
        for i in bodies.indices {
            bodies[i].origin = bodies[i].position
            bodies[i].originAngle = bodies[i].angle
        }
        for k in contacts.indices { prepareContact(k) }
    }

    /// Measures contact `k` where its bodies are now.
    @inline(__always)
    mutating func prepareContact(_ k: Int) {
        do {
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
            contacts[k].isBlock = false
            contacts[k].softness = softContacts ? softness(fixed: mA == 0 || mB == 0) : .rigid
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
                if point == 0 { contacts[k].normal = n }
                contacts[k].withPoint(point) {
                    $0.ra = ra
                    $0.rb = rb
                    $0.normalMass = kN > 0 ? 1 / kN : 0
                    $0.tangentMass = kT > 0 ? 1 / kT : 0
                    $0.preparedSeparation = m.separation
                }
            }
            if c.pointCount == 2 {
                let n = contacts[k].normal
                let ra0 = contacts[k].first.ra.cross(n)
                let rb0 = contacts[k].first.rb.cross(n)
                let ra1 = contacts[k].second.ra.cross(n)
                let rb1 = contacts[k].second.rb.cross(n)
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
                    contacts[k].inverseDeterminant = 1 / (k00 * k11 - k01 * k01)
                }
            }
        }
    }

    /// Measures each contact where its bodies are now and applies last step's accumulated
    /// impulses again.
    mutating func warmStartContacts() {
        previousFastestPush = fastestPush
        fastestPush = 0
        pushing.removeAll()
        defer { contactsJustPrepared = false }
        // Measuring reads positions only and warm starting changes velocities only, so a
        // contact may be measured and warm-started before the next is measured; contacts in
        // lanes are, four at a time.
        if contactsAreInLanes {
            loadContactLanes()
            for g in laneGroups.indices { measureAndWarmStartLaneGroup(g) }
            for k in laneRemainder..<contacts.count { measureContact(k) }
            warmStartContacts(in: laneRemainder..<contacts.count)
        } else {
            for k in contacts.indices { measureContact(k) }
            warmStartContacts(in: contacts.indices)
        }
    }

    /// Applies the accumulated impulses of the contacts in `range` again.
    mutating func warmStartContacts(in range: Range<Int>) {
        for k in range {
            let c = contacts[k]
            let n = c.normal
            let t = Vec2(n.y, -n.x)
            if c.pointCount > 0 {
                applyContactImpulse(
                    k, c.first.ra, c.first.rb,
                    n * c.first.normalImpulse + t * c.first.tangentImpulse)
            }
            if c.pointCount > 1 {
                applyContactImpulse(
                    k, c.second.ra, c.second.rb,
                    n * c.second.normalImpulse + t * c.second.tangentImpulse)
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

    /// Contact `k`'s two bodies as the solver moves them: their velocities, or (`push`) the
    /// velocities that push overlap out.
    @inline(__always)
    func solverPair(_ k: Int, push: Bool) -> SolverPair {
        let i = contacts[k].bodyA
        let j = contacts[k].bodyB
        return SolverPair(
            vA: push ? bodies[i].pushVelocity : bodies[i].velocity,
            wA: push ? bodies[i].pushAngularVelocity : bodies[i].angularVelocity,
            vB: push ? bodies[j].pushVelocity : bodies[j].velocity,
            wB: push ? bodies[j].pushAngularVelocity : bodies[j].angularVelocity,
            mA: contacts[k].invMassA, iA: contacts[k].invInertiaA,
            mB: contacts[k].invMassB, iB: contacts[k].invInertiaB)
    }

    /// Stores the velocities of `pair`, solved for contact `k`, back in its bodies.
    @inline(__always)
    mutating func store(_ pair: SolverPair, for k: Int, push: Bool) {
        let i = contacts[k].bodyA
        let j = contacts[k].bodyB
        if push {
            bodies[i].pushVelocity = pair.vA
            bodies[i].pushAngularVelocity = pair.wA
            bodies[j].pushVelocity = pair.vB
            bodies[j].pushAngularVelocity = pair.wB
        } else {
            bodies[i].velocity = pair.vA
            bodies[i].angularVelocity = pair.wA
            bodies[j].velocity = pair.vB
            bodies[j].angularVelocity = pair.wB
        }
    }

    /// One pass over the contacts (or those in `range`): friction (clamped by the contact's
    /// normal impulses), then the normal impulses (clamped at zero).
    mutating func solveContactVelocities(in range: Range<Int>? = nil) {
        for k in range ?? contacts.indices {
            let n = contacts[k].normal
            let t = Vec2(n.y, -n.x)
            let friction = contacts[k].friction
            var pair = solverPair(k, push: false)
            if contacts[k].pointCount == 1 {
                // One point (a ball's contact).
                let ra = contacts[k].first.ra
                let rb = contacts[k].first.rb
                if friction > 0 {
                    contacts[k].first.tangentImpulse = pair.frictionImpulse(
                        ra, rb, t, friction * contacts[k].first.normalImpulse,
                        contacts[k].first.tangentMass, contacts[k].first.tangentImpulse)
                }
                contacts[k].first.normalImpulse = pair.normalImpulse(
                    ra, rb, n, contacts[k].first.bias, contacts[k].first.normalMass,
                    contacts[k].first.normalImpulse)
                store(pair, for: k, push: false)
                continue
            }
            // Two points, written out: friction, then both normal impulses. The points lie
            // along the face, so a tangential impulse acts the same at either: friction is one
            // impulse, held within friction × both normal impulses (kept at the first point).
            let ra0 = contacts[k].first.ra
            let rb0 = contacts[k].first.rb
            let ra1 = contacts[k].second.ra
            let rb1 = contacts[k].second.rb
            if friction > 0 {
                contacts[k].first.tangentImpulse = pair.frictionImpulse(
                    ra0, rb0, t,
                    friction * (contacts[k].first.normalImpulse + contacts[k].second.normalImpulse),
                    contacts[k].first.tangentMass, contacts[k].first.tangentImpulse)
            }
            if contacts[k].isBlock {
                solveNormalPair(k, n, &pair, .rigid)
            } else {
                contacts[k].first.normalImpulse = pair.normalImpulse(
                    ra0, rb0, n, contacts[k].first.bias, contacts[k].first.normalMass,
                    contacts[k].first.normalImpulse)
                contacts[k].second.normalImpulse = pair.normalImpulse(
                    ra1, rb1, n, contacts[k].second.bias, contacts[k].second.normalMass,
                    contacts[k].second.normalImpulse)
            }
            store(pair, for: k, push: false)
        }
    }

    /// One pass over the soft contacts in `range`: friction, as `solveContactVelocities` has
    /// it, then the normal impulses: a well-conditioned pair of points together, as
    /// `solveNormalPair` solves them, any other point on its own. While `relaxing` (after the bodies
    /// moved), a point allows the approach its gap leaves and asks for no more than a rigid
    /// contact does; otherwise an overlapping or touching point is a spring
    /// (``Softness``), pushing overlap out at the speed measured for it.
    mutating func solveSoftContacts(in range: Range<Int>, relaxing: Bool) {
        for k in range {
            let n = contacts[k].normal
            let t = Vec2(n.y, -n.x)
            let friction = contacts[k].friction
            var pair = solverPair(k, push: false)
            if friction > 0 {
                let second = contacts[k].pointCount == 2 ? contacts[k].second.normalImpulse : 0
                contacts[k].first.tangentImpulse = pair.frictionImpulse(
                    contacts[k].first.ra, contacts[k].first.rb, t,
                    friction * (contacts[k].first.normalImpulse + second),
                    contacts[k].first.tangentMass, contacts[k].first.tangentImpulse)
            }
            let pass: ContactPass = relaxing ? .relaxing : .soft
            if contacts[k].isBlock {
                solveNormalPair(k, n, &pair, pass)
                store(pair, for: k, push: false)
                continue
            }
            let softness = contacts[k].softness
            contacts[k].first.normalImpulse = softNormalImpulse(
                &pair, contacts[k].first, n, softness, pass)
            if contacts[k].pointCount == 2 {
                contacts[k].second.normalImpulse = softNormalImpulse(
                    &pair, contacts[k].second, n, softness, pass)
            }
            store(pair, for: k, push: false)
        }
    }

    /// The new accumulated normal impulse of one soft contact point, its change applied.
    @inline(__always)
    func softNormalImpulse(
        _ pair: inout SolverPair, _ point: borrowing ContactPoint, _ n: Vec2,
        _ softness: Softness, _ pass: ContactPass
    ) -> Double {
        let vn = pair.relativeVelocity(point.ra, point.rb).dot(n)
        let asks = pass.asks(point, vn, softness, h: h)
        let old = point.normalImpulse
        let total = max(
            0, asks.kept * old - (vn - asks.target) * point.normalMass * asks.massScale)
        pair.apply(n * (total - old), point.ra, point.rb)
        return total
    }

    /// Solves both normal impulses of a two-point contact at once: the 2×2 complementarity
    /// problem (each point either pushes with zero relative normal velocity, or does not
    /// push and separates) by trying its four cases. Solving the points one after the other
    /// instead leaves a small imbalance that turns a tall stack over time.
    ///
    /// Soft points (`pass` `.soft`, not in a gap) are the same problem with each point's
    /// velocity error scaled by the spring's mass scale and the impulse it holds by one less
    /// the impulse scale: `ContactPass` has the arithmetic.
    @inline(__always)
    mutating func solveNormalPair(
        _ k: Int, _ n: Vec2, _ pair: inout SolverPair, _ pass: ContactPass
    ) {
        let ra0 = contacts[k].first.ra
        let rb0 = contacts[k].first.rb
        let ra1 = contacts[k].second.ra
        let rb1 = contacts[k].second.rb
        let a0 = contacts[k].first.normalImpulse
        let a1 = contacts[k].second.normalImpulse
        let vn0 = pair.relativeVelocity(ra0, rb0).dot(n)
        let vn1 = pair.relativeVelocity(ra1, rb1).dot(n)
        let k00 = contacts[k].k00
        let k01 = contacts[k].k01
        let k11 = contacts[k].k11
        let first = pass.asks(contacts[k].first, vn0, contacts[k].softness, h: h)
        let second = pass.asks(contacts[k].second, vn1, contacts[k].softness, h: h)
        // Velocities the current impulses would give with no impulse at all, less the bias.
        let b0 = first.massScale * (vn0 - first.target) - first.kept * (k00 * a0 + k01 * a1)
        let b1 = second.massScale * (vn1 - second.target) - second.kept * (k01 * a0 + k11 * a1)
        // Divisions precomputed: 1/k00 and 1/k11 are the points' normal masses.
        let inverseDeterminant = contacts[k].inverseDeterminant
        // Both push.
        var x0 = (-b0 * k11 + b1 * k01) * inverseDeterminant
        var x1 = (-b1 * k00 + b0 * k01) * inverseDeterminant
        if !(x0 >= 0 && x1 >= 0) {
            // Only the first pushes.
            x0 = -b0 * contacts[k].first.normalMass
            x1 = 0
            if !(x0 >= 0 && k01 * x0 + b1 >= 0) {
                // Only the second pushes.
                x0 = 0
                x1 = -b1 * contacts[k].second.normalMass
                if !(x1 >= 0 && k01 * x1 + b0 >= 0) {
                    // Neither pushes: both separate. Failing that too (rounding at a
                    // degenerate case), keep the impulses as they are.
                    guard b0 >= 0 && b1 >= 0 else { return }
                    x0 = 0
                    x1 = 0
                }
            }
        }
        contacts[k].first.normalImpulse = x0
        contacts[k].second.normalImpulse = x1
        let p0 = n * (x0 - a0)
        let p1 = n * (x1 - a1)
        pair.vA -= (p0 + p1) * pair.mA
        pair.wA -= (ra0.cross(p0) + ra1.cross(p1)) * pair.iA
        pair.vB += (p0 + p1) * pair.mB
        pair.wB += (rb0.cross(p0) + rb1.cross(p1)) * pair.iB
    }

    /// One pass that pushes overlap out, on a second set of velocities that move the bodies
    /// this step and are then dropped ("split impulses"): each point overlapping by more than
    /// the slop asks for a `contactBaumgarte` share of that overlap, at most
    /// `maximumContactCorrection` points, in this step. Pushing apart so adds no speed, so no
    /// energy, however crowded the overlap: items placed inside each other part gently.
    mutating func pushContactsApart() {
        if contactsAreInLanes {
            for g in laneGroups.indices where laneGroups[g].pushes { pushLaneGroupApart(g) }
        }
        for kIndex in pushing.indices {
            let k = pushing[kIndex]
            let count = contacts[k].pointCount
            let push0 = contacts[k].first.push
            let push1 = count == 2 ? contacts[k].second.push : 0
            let n = contacts[k].normal
            var pair = solverPair(k, push: true)
            for point in 0..<count {
                let target = point == 0 ? push0 : push1
                guard target > 0 else { continue }
                let (ra, rb, mass) = contacts[k].withPoint(point) { ($0.ra, $0.rb, $0.normalMass) }
                let vn = pair.relativeVelocity(ra, rb).dot(n)
                // Only pushes, never pulls; each step starts afresh.
                pair.apply(n * max(0, (target - vn) * mass), ra, rb)
            }
            store(pair, for: k, push: true)
        }
    }

    /// Measures contact `k` again, from how far its bodies moved and turned since the contacts
    /// were prepared (with the anchors and normal as prepared; contacts between round surfaces
    /// exactly), and sets what each point asks for: the approach speed a gap still allows (so
    /// a body falling onto another stops at its surface, not at the detection margin; none for
    /// touching or overlapping points), and the speed at which overlap beyond the slop is
    /// pushed out (see `pushContactsApart`).
    @inline(__always)
    mutating func measureContact(_ k: Int) {
        let i = contacts[k].bodyA
        let j = contacts[k].bodyB
        let turnA = bodies[i].angle - bodies[i].originAngle
        let turnB = bodies[j].angle - bodies[j].originAngle
        // Between round surfaces the normal turns as the bodies roll past each other, and a
        // face turns with its body: measured exactly (from the same features) then.
        let exact = contacts[k].kind == .points || abs(turnA) > 0.02 || abs(turnB) > 0.02
        if exact && !contactsJustPrepared { prepareContact(k) }
        let n = contacts[k].normal
        let moveA = bodies[i].position - bodies[i].origin
        let moveB = bodies[j].position - bodies[j].origin
        let invH = 1 / h
        var pushes = false
        for point in 0..<contacts[k].pointCount {
            let (prepared, ra, rb) = contacts[k].withPoint(point) {
                ($0.preparedSeparation, $0.ra, $0.rb)
            }
            var s = prepared
            if !exact { s += (moveB + cross(turnB, rb) - moveA - cross(turnA, ra)).dot(n) }
            if softContacts {
                // The spring's push, in the velocity passes themselves.
                let spring = min(
                    contacts[k].softness.biasRate * max(0, -(s + contactSlop)), contactPushSpeed)
                fastestPush = max(fastestPush, spring)
                contacts[k].withPoint(point) {
                    $0.bias = s > 0 ? -s * invH : spring
                    $0.separation = s
                }
                continue
            }
            let bias = s > 0 ? -s * invH : 0
            let push =
                min(max(0, -(s + contactSlop)) * contactBaumgarte, maximumContactCorrection) * invH
            if push > 0 {
                fastestPush = max(fastestPush, push)
                pushes = true
            }
            contacts[k].withPoint(point) {
                $0.bias = bias
                $0.push = push
            }
        }
        if pushes { pushing.append(k) }
    }
}

/// Which velocity pass a contact point is solved in, and what it asks for there.
enum ContactPass {
    /// A rigid contact: the normal velocity at least the point's bias.
    case rigid
    /// A soft contact before the move: a spring where the point touches or overlaps.
    case soft
    /// A soft contact after the move: rigid, at the gap it has now.
    case relaxing

    /// What a point asks of its normal impulse in this pass: the least normal velocity
    /// (`target`), the share of the impulse that would bring it there (`massScale`) and the
    /// share of the impulse it holds that it keeps (`kept`, one less the impulse scale). For
    /// one point, the new impulse is `kept · old − massScale · (vₙ − target) · normal mass`.
    @inline(__always)
    func asks(
        _ point: borrowing ContactPoint, _ vn: Double, _ softness: Softness, h: Double
    ) -> (target: Double, massScale: Double, kept: Double) {
        switch self {
        case .rigid:
            return (point.bias, 1, 1)
        case .soft:
            guard !(point.separation > 0) else { return (point.bias, 1, 1) }
            return (point.bias, softness.massScale, 1 - softness.impulseScale)
        case .relaxing:
            // The gap now, as far as this contact can tell: moved at this relative speed.
            let s = point.separation + h * vn
            return (s > 0 ? -s * (1 / h) : 0, 1, 1)
        }
    }
}

extension ContactPass {
    /// `asks(_:_:_:h:)` for the points of four contacts in lanes: their separations, biases
    /// and normal velocities.
    @inline(__always)
    func asks(
        _ separation: Lanes, _ bias: Lanes, _ vn: Lanes, _ group: borrowing ContactLaneGroup,
        h: Double
    ) -> (target: Lanes, massScale: Lanes, kept: Lanes) {
        let one = Lanes(repeating: 1)
        switch self {
        case .rigid:
            return (bias, one, one)
        case .soft:
            let gap: LaneMask = separation .> Lanes()
            return (
                bias, group.massScale.taking(one, where: gap),
                (one - group.impulseScale).taking(one, where: gap)
            )
        case .relaxing:
            let s = separation + Lanes(repeating: h) * vn
            let zero = Lanes()
            return (zero.taking((-s) * Lanes(repeating: 1 / h), where: s .> zero), one, one)
        }
    }
}
