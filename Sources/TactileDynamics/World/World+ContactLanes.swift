/// The velocity pass four contacts at a time, for contacts ordered by colour.
///
/// After `orderContactsByColor`, the contacts of each of the first 64 colours share no moving
/// body: they are cut into groups of four (``ContactLaneGroup``) and each group is solved in
/// lanes, its bodies' velocities gathered before and scattered after. The last colour (contacts
/// left over when a body already has 64) is solved one contact at a time, as before. The result
/// is the one-at-a-time solver's, to the bit; only the time differs.
extension World {
    /// Cuts each colour's contacts into groups of four; the contacts must have just been
    /// ordered by colour, with `colorStarts[c]` the end of colour c.
    mutating func groupContactsIntoLanes() {
        laneGroups.removeAll()
        var start = 0
        for color in 0..<64 {
            let end = colorStarts[color]
            var k = start
            while k < end {
                var group = ContactLaneGroup()
                for lane in 0..<min(4, end - k) {
                    group.contact[lane] = Int32(k + lane)
                    if contacts[k + lane].pointCount == 2 { group.hasSecondPoint = true }
                }
                laneGroups.append(group)
                k += 4
            }
            start = end
        }
        laneRemainder = start
        contactsAreInLanes = true
        laneConstantsAreStale = Pool(repeating: true, count: contacts.count)
    }

    /// Copies what the velocity pass reads from the contacts into their lanes: their biases
    /// and accumulated impulses at every step, after the contacts were measured; their
    /// offsets, masses and normals when they were prepared since the last load.
    mutating func loadContactLanes() {
        if laneConstantsAreStale.count != contacts.count {
            laneConstantsAreStale = Pool(repeating: true, count: contacts.count)
        }
        for g in laneGroups.indices {
            let contact = laneGroups[g].contact
            var reloaded = false
            for lane in 0..<4 {
                let k = Int(contact[lane])
                guard k >= 0 else { continue }
                if laneConstantsAreStale[k] {
                    loadLaneConstants(g, lane, k)
                    laneConstantsAreStale[k] = false
                    reloaded = true
                }
                laneGroups[g].bias0[lane] = contacts[k].first.bias
                laneGroups[g].normalImpulse0[lane] = contacts[k].first.normalImpulse
                laneGroups[g].tangentImpulse[lane] = contacts[k].first.tangentImpulse
                if contacts[k].pointCount == 2 {
                    laneGroups[g].bias1[lane] = contacts[k].second.bias
                    laneGroups[g].normalImpulse1[lane] = contacts[k].second.normalImpulse
                }
            }
            if reloaded {
                let group = laneGroups[g]
                laneGroups[g].hasFriction = any(group.friction .> 0)
                laneGroups[g].hasBlock = any(group.isBlock)
                laneGroups[g].hasSequential = !all(group.isBlock)
            }
        }
    }

    /// Copies contact `k`'s bodies, normal, friction, offsets and masses into lane `lane` of
    /// group `g`; a one-point contact's second point gets zeros.
    mutating func loadLaneConstants(_ g: Int, _ lane: Int, _ k: Int) {
        let c = contacts[k]
        laneGroups[g].bodyA[lane] = Int32(c.bodyA)
        laneGroups[g].bodyB[lane] = Int32(c.bodyB)
        laneGroups[g].normalX[lane] = c.normal.x
        laneGroups[g].normalY[lane] = c.normal.y
        laneGroups[g].friction[lane] = c.friction
        laneGroups[g].invMassA[lane] = c.invMassA
        laneGroups[g].invInertiaA[lane] = c.invInertiaA
        laneGroups[g].invMassB[lane] = c.invMassB
        laneGroups[g].invInertiaB[lane] = c.invInertiaB
        laneGroups[g].ra0x[lane] = c.first.ra.x
        laneGroups[g].ra0y[lane] = c.first.ra.y
        laneGroups[g].rb0x[lane] = c.first.rb.x
        laneGroups[g].rb0y[lane] = c.first.rb.y
        laneGroups[g].normalMass0[lane] = c.first.normalMass
        laneGroups[g].tangentMass[lane] = c.first.tangentMass
        let two = c.pointCount == 2
        laneGroups[g].ra1x[lane] = two ? c.second.ra.x : 0
        laneGroups[g].ra1y[lane] = two ? c.second.ra.y : 0
        laneGroups[g].rb1x[lane] = two ? c.second.rb.x : 0
        laneGroups[g].rb1y[lane] = two ? c.second.rb.y : 0
        laneGroups[g].normalMass1[lane] = two ? c.second.normalMass : 0
        laneGroups[g].bias1[lane] = 0
        laneGroups[g].normalImpulse1[lane] = 0
        laneGroups[g].isBlock[lane] = two && c.isBlock
        laneGroups[g].k00[lane] = c.k00
        laneGroups[g].k01[lane] = c.k01
        laneGroups[g].k11[lane] = c.k11
        laneGroups[g].inverseDeterminant[lane] = c.inverseDeterminant
    }

    /// Copies the accumulated impulses from the lanes back to their contacts.
    mutating func storeContactLanes() {
        for g in laneGroups.indices {
            let contact = laneGroups[g].contact
            for lane in 0..<4 {
                let k = Int(contact[lane])
                guard k >= 0 else { continue }
                contacts[k].first.normalImpulse = laneGroups[g].normalImpulse0[lane]
                contacts[k].first.tangentImpulse = laneGroups[g].tangentImpulse[lane]
                if contacts[k].pointCount == 2 {
                    contacts[k].second.normalImpulse = laneGroups[g].normalImpulse1[lane]
                }
            }
        }
    }

    /// One velocity pass: the groups in lanes, then the last colour one contact at a time.
    mutating func solveContactLanes() {
        for g in laneGroups.indices { solveLaneGroup(g) }
        solveContactVelocities(in: laneRemainder..<contacts.count)
    }

    /// The velocities of group `g`'s bodies, lane by lane.
    @inline(__always)
    func gatherVelocities(_ g: Int) -> LaneVelocities {
        let a = laneGroups[g].bodyA
        let b = laneGroups[g].bodyB
        return LaneVelocities(
            vAx: Lanes(
                bodies[Int(a[0])].velocity.x, bodies[Int(a[1])].velocity.x,
                bodies[Int(a[2])].velocity.x, bodies[Int(a[3])].velocity.x),
            vAy: Lanes(
                bodies[Int(a[0])].velocity.y, bodies[Int(a[1])].velocity.y,
                bodies[Int(a[2])].velocity.y, bodies[Int(a[3])].velocity.y),
            wA: Lanes(
                bodies[Int(a[0])].angularVelocity, bodies[Int(a[1])].angularVelocity,
                bodies[Int(a[2])].angularVelocity, bodies[Int(a[3])].angularVelocity),
            vBx: Lanes(
                bodies[Int(b[0])].velocity.x, bodies[Int(b[1])].velocity.x,
                bodies[Int(b[2])].velocity.x, bodies[Int(b[3])].velocity.x),
            vBy: Lanes(
                bodies[Int(b[0])].velocity.y, bodies[Int(b[1])].velocity.y,
                bodies[Int(b[2])].velocity.y, bodies[Int(b[3])].velocity.y),
            wB: Lanes(
                bodies[Int(b[0])].angularVelocity, bodies[Int(b[1])].angularVelocity,
                bodies[Int(b[2])].angularVelocity, bodies[Int(b[3])].angularVelocity))
    }

    /// Stores the velocities solved in group `g`'s lanes back in its bodies, lane by lane as
    /// the one-at-a-time solver stores each contact's (A, then B).
    @inline(__always)
    mutating func scatterVelocities(_ v: LaneVelocities, _ g: Int) {
        let a = laneGroups[g].bodyA
        let b = laneGroups[g].bodyB
        for lane in 0..<4 {
            let i = Int(a[lane])
            let j = Int(b[lane])
            bodies[i].velocity = Vec2(v.vAx[lane], v.vAy[lane])
            bodies[i].angularVelocity = v.wA[lane]
            bodies[j].velocity = Vec2(v.vBx[lane], v.vBy[lane])
            bodies[j].angularVelocity = v.wB[lane]
        }
    }

    /// Friction, then the normal impulses, of the four contacts of group `g`.
    @inline(__always)
    mutating func solveLaneGroup(_ g: Int) {
        var v = gatherVelocities(g)
        solveLanes(&v, &laneGroups[g])
        scatterVelocities(v, g)
    }

    /// Applies the accumulated impulses of group `g`'s contacts again, as
    /// `warmStartContacts(in:)` does one contact at a time: the first point's, then the
    /// second's.
    @inline(__always)
    mutating func warmStartLaneGroup(_ g: Int) {
        var v = gatherVelocities(g)
        let group = laneGroups[g]
        let nx = group.normalX
        let ny = group.normalY
        // n · normal impulse + t · tangential impulse, with t = (n.y, −n.x).
        let p0x = nx * group.normalImpulse0 + ny * group.tangentImpulse
        let p0y = ny * group.normalImpulse0 + -nx * group.tangentImpulse
        v.apply(p0x, p0y, group.ra0x, group.ra0y, group.rb0x, group.rb0y, group)
        // A two-point contact keeps its one tangential impulse at the first point.
        guard group.hasSecondPoint else { return scatterVelocities(v, g) }
        let p1x = nx * group.normalImpulse1
        let p1y = ny * group.normalImpulse1
        v.apply(p1x, p1y, group.ra1x, group.ra1y, group.rb1x, group.rb1y, group)
        scatterVelocities(v, g)
    }

    /// The arithmetic of `solveContactVelocities` for one contact, in four lanes.
    @inline(__always)
    func solveLanes(_ v: inout LaneVelocities, _ group: inout ContactLaneGroup) {
        let nx = group.normalX
        let ny = group.normalY
        // The tangent (n.y, −n.x).
        let tx = ny
        let ty = -nx
        // Friction: one impulse per contact, within friction × its normal impulses.
        if group.hasFriction {
            let hasFriction = group.friction .> 0
            let limit = group.friction * (group.normalImpulse0 + group.normalImpulse1)
            let old = group.tangentImpulse
            let vt = v.relativeVelocity(
                group.ra0x, group.ra0y, group.rb0x, group.rb0y, along: tx, ty)
            let total = laneMax(-limit, laneMin(limit, old - vt * group.tangentMass))
                .taking(old, where: .!hasFriction)
            let change = total - old
            v.apply(
                tx * change, ty * change, group.ra0x, group.ra0y, group.rb0x, group.rb0y, group)
            group.tangentImpulse = total
        }
        let block = group.isBlock
        var sequential = v
        var sequential0 = group.normalImpulse0
        var sequential1 = group.normalImpulse1
        if group.hasSequential {
            // Each point on its own, the first then the second (a one-point contact's second
            // has no mass, so it changes nothing).
            sequential0 = normalLanes(
                &sequential, group.ra0x, group.ra0y, group.rb0x, group.rb0y, nx, ny,
                group.bias0, group.normalMass0, group.normalImpulse0, group)
            if group.hasSecondPoint {
                sequential1 = normalLanes(
                    &sequential, group.ra1x, group.ra1y, group.rb1x, group.rb1y, nx, ny,
                    group.bias1, group.normalMass1, group.normalImpulse1, group)
            }
        }
        if group.hasBlock {
            var paired = v
            let (x0, x1) = pairLanes(&paired, nx, ny, group)
            sequential.take(paired, where: block)
            sequential0 = sequential0.taking(x0, where: block)
            sequential1 = sequential1.taking(x1, where: block)
        }
        v = sequential
        group.normalImpulse0 = sequential0
        group.normalImpulse1 = sequential1
    }

    /// A normal impulse at one point in each lane, as `SolverPair.normalImpulse` computes it.
    @inline(__always)
    func normalLanes(
        _ v: inout LaneVelocities, _ rax: Lanes, _ ray: Lanes, _ rbx: Lanes, _ rby: Lanes,
        _ nx: Lanes, _ ny: Lanes, _ bias: Lanes, _ mass: Lanes, _ old: Lanes,
        _ group: borrowing ContactLaneGroup
    ) -> Lanes {
        let vn = v.relativeVelocity(rax, ray, rbx, rby, along: nx, ny)
        let total = laneMax(Lanes(), old - (vn - bias) * mass)
        let change = total - old
        v.apply(nx * change, ny * change, rax, ray, rbx, rby, group)
        return total
    }

    /// Both normal impulses of two-point contacts at once, as `solveNormalPair` solves them:
    /// each lane takes the first of the four cases that holds, or keeps its impulses.
    @inline(__always)
    func pairLanes(
        _ v: inout LaneVelocities, _ nx: Lanes, _ ny: Lanes, _ group: borrowing ContactLaneGroup
    ) -> (Lanes, Lanes) {
        let a0 = group.normalImpulse0
        let a1 = group.normalImpulse1
        let vn0 = v.relativeVelocity(group.ra0x, group.ra0y, group.rb0x, group.rb0y, along: nx, ny)
        let vn1 = v.relativeVelocity(group.ra1x, group.ra1y, group.rb1x, group.rb1y, along: nx, ny)
        let k00 = group.k00
        let k01 = group.k01
        let k11 = group.k11
        let b0 = vn0 - group.bias0 - (k00 * a0 + k01 * a1)
        let b1 = vn1 - group.bias1 - (k01 * a0 + k11 * a1)
        let zero = Lanes()
        // Both push.
        let both0 = (-b0 * k11 + b1 * k01) * group.inverseDeterminant
        let both1 = (-b1 * k00 + b0 * k01) * group.inverseDeterminant
        let bothPush = (both0 .>= 0) .& (both1 .>= 0)
        // Only the first pushes.
        let first0 = -b0 * group.normalMass0
        let firstPushes = (first0 .>= 0) .& (k01 * first0 + b1 .>= 0)
        // Only the second pushes.
        let second1 = -b1 * group.normalMass1
        let secondPushes = (second1 .>= 0) .& (k01 * second1 + b0 .>= 0)
        // Neither pushes; failing every case, the impulses stay as they are.
        let neither = (b0 .>= 0) .& (b1 .>= 0)
        let x0 = a0.taking(zero, where: neither .| secondPushes)
            .taking(first0, where: firstPushes).taking(both0, where: bothPush)
        let x1 = a1.taking(zero, where: neither).taking(second1, where: secondPushes)
            .taking(zero, where: firstPushes).taking(both1, where: bothPush)
        let d0 = x0 - a0
        let d1 = x1 - a1
        let p0x = nx * d0
        let p0y = ny * d0
        let p1x = nx * d1
        let p1y = ny * d1
        v.vAx -= (p0x + p1x) * group.invMassA
        v.vAy -= (p0y + p1y) * group.invMassA
        v.wA -=
            ((group.ra0x * p0y - group.ra0y * p0x) + (group.ra1x * p1y - group.ra1y * p1x))
            * group.invInertiaA
        v.vBx += (p0x + p1x) * group.invMassB
        v.vBy += (p0y + p1y) * group.invMassB
        v.wB +=
            ((group.rb0x * p0y - group.rb0y * p0x) + (group.rb1x * p1y - group.rb1y * p1x))
            * group.invInertiaB
        return (x0, x1)
    }
}
