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
        contactLanes.resize(toUninitialized: contacts.count)
        var start = 0
        for color in 0..<64 {
            let end = colorStarts[color]
            var k = start
            while k < end {
                var group = ContactLaneGroup()
                for lane in 0..<min(4, end - k) {
                    group.contact[lane] = Int32(k + lane)
                    contactLanes[k + lane] = 4 * laneGroups.count + lane
                }
                laneGroups.append(group)
                k += 4
            }
            start = end
        }
        laneRemainder = start
        contactsAreInLanes = true
        lanesNeedConstants = true
        lanesHoldImpulses = false
    }

    /// Copies what the lanes read from the contacts into them: their accumulated impulses
    /// unless the lanes already hold them (see `lanesHoldImpulses`); their offsets, masses
    /// and normals once after the contacts were found and prepared.
    mutating func loadContactLanes() {
        let constants = lanesNeedConstants
        lanesNeedConstants = false
        guard constants || !lanesHoldImpulses else { return }
        for g in laneGroups.indices {
            let contact = laneGroups[g].contact
            if constants { loadGroupConstants(g) }
            laneGroups[g].normalImpulse0 = gather(contact) { contacts[$0].first.normalImpulse }
            laneGroups[g].tangentImpulse = gather(contact) { contacts[$0].first.tangentImpulse }
            laneGroups[g].normalImpulse1 = gather(contact) {
                contacts[$0].pointCount == 2 ? contacts[$0].second.normalImpulse : 0
            }
        }
    }

    /// A value of each lane's contact (0 for an empty lane), as lanes.
    @inline(__always)
    func gather(_ contact: SIMD4<Int32>, _ value: (Int) -> Double) -> Lanes {
        Lanes(gathering: contact) { $0 >= 0 ? value($0) : 0 }
    }

    /// Copies the contacts' bodies, normals, friction, offsets, masses, prepared separations
    /// and round surfaces into group `g`'s lanes, a lane's worth of each value in one store;
    /// a one-point contact's second point gets zeros. Then sets the group's flags.
    mutating func loadGroupConstants(_ g: Int) {
        let contact = laneGroups[g].contact
        for lane in 0..<4 {
            let k = Int(contact[lane])
            guard k >= 0 else {
                // An empty lane (or one left vacant around a stray) is the static frame's.
                laneGroups[g].bodyA[lane] = 0
                laneGroups[g].bodyB[lane] = 0
                laneGroups[g].isBlock[lane] = false
                laneGroups[g].hasTwoPoints[lane] = false
                laneGroups[g].isRound[lane] = false
                continue
            }
            laneGroups[g].bodyA[lane] = Int32(contacts[k].bodyA)
            laneGroups[g].bodyB[lane] = Int32(contacts[k].bodyB)
            let two = contacts[k].pointCount == 2
            laneGroups[g].isBlock[lane] = two && contacts[k].isBlock
            laneGroups[g].hasTwoPoints[lane] = two
            laneGroups[g].isRound[lane] = contacts[k].kind == .points
        }
        func second(_ k: Int, _ value: (borrowing ContactPoint) -> Double) -> Double {
            contacts[k].pointCount == 2 ? value(contacts[k].second) : 0
        }
        laneGroups[g].normalX = gather(contact) { contacts[$0].normal.x }
        laneGroups[g].normalY = gather(contact) { contacts[$0].normal.y }
        laneGroups[g].friction = gather(contact) { contacts[$0].friction }
        laneGroups[g].invMassA = gather(contact) { contacts[$0].invMassA }
        laneGroups[g].invInertiaA = gather(contact) { contacts[$0].invInertiaA }
        laneGroups[g].invMassB = gather(contact) { contacts[$0].invMassB }
        laneGroups[g].invInertiaB = gather(contact) { contacts[$0].invInertiaB }
        laneGroups[g].ra0x = gather(contact) { contacts[$0].first.ra.x }
        laneGroups[g].ra0y = gather(contact) { contacts[$0].first.ra.y }
        laneGroups[g].rb0x = gather(contact) { contacts[$0].first.rb.x }
        laneGroups[g].rb0y = gather(contact) { contacts[$0].first.rb.y }
        laneGroups[g].normalMass0 = gather(contact) { contacts[$0].first.normalMass }
        laneGroups[g].tangentMass = gather(contact) { contacts[$0].first.tangentMass }
        laneGroups[g].preparedSeparation0 = gather(contact) {
            contacts[$0].first.preparedSeparation
        }
        laneGroups[g].ra1x = gather(contact) { second($0) { $0.ra.x } }
        laneGroups[g].ra1y = gather(contact) { second($0) { $0.ra.y } }
        laneGroups[g].rb1x = gather(contact) { second($0) { $0.rb.x } }
        laneGroups[g].rb1y = gather(contact) { second($0) { $0.rb.y } }
        laneGroups[g].normalMass1 = gather(contact) { second($0) { $0.normalMass } }
        laneGroups[g].preparedSeparation1 = gather(contact) {
            second($0) { $0.preparedSeparation }
        }
        laneGroups[g].biasRate = gather(contact) { contacts[$0].softness.biasRate }
        laneGroups[g].massScale = gather(contact) { contacts[$0].softness.massScale }
        laneGroups[g].impulseScale = gather(contact) { contacts[$0].softness.impulseScale }
        laneGroups[g].k00 = gather(contact) { contacts[$0].k00 }
        laneGroups[g].k01 = gather(contact) { contacts[$0].k01 }
        laneGroups[g].k11 = gather(contact) { contacts[$0].k11 }
        laneGroups[g].inverseDeterminant = gather(contact) { contacts[$0].inverseDeterminant }
        laneGroups[g].pointAx = gather(contact) { contacts[$0].localPlane.x }
        laneGroups[g].pointAy = gather(contact) { contacts[$0].localPlane.y }
        laneGroups[g].pointBx = gather(contact) { contacts[$0].local0.x }
        laneGroups[g].pointBy = gather(contact) { contacts[$0].local0.y }
        laneGroups[g].radiusA = gather(contact) { contacts[$0].radiusA }
        laneGroups[g].radiusB = gather(contact) { contacts[$0].radiusB }
        refreshLaneFlags(g)
    }

    /// Sets group `g`'s flags from its lanes.
    mutating func refreshLaneFlags(_ g: Int) {
        let group = laneGroups[g]
        laneGroups[g].hasFriction = any(group.friction .> 0)
        laneGroups[g].hasBlock = any(group.isBlock)
        var sequential = false
        for lane in 0..<4 where group.contact[lane] >= 0 && !group.isBlock[lane] {
            sequential = true
        }
        laneGroups[g].hasSequential = sequential
        laneGroups[g].hasRound = any(group.isRound)
        laneGroups[g].hasSecondPoint = any(group.hasTwoPoints)
    }

    /// Copies the accumulated impulses from the lanes back to their contacts.
    mutating func storeContactLanes() {
        defer { lanesHoldImpulses = true }
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

    /// Friction, then the normal impulses, of the four contacts of group `g`.
    @inline(__always)
    mutating func solveLaneGroup(_ g: Int) {
        let a = laneGroups[g].bodyA
        let b = laneGroups[g].bodyB
        var v = LaneVelocities(bodies, a, b, push: false)
        solveLanes(&v, &laneGroups[g])
        v.store(in: bodies, a, b, push: false)
    }

    /// Measures group `g`'s contacts again and applies their accumulated impulses again, as
    /// `measureContact` and `warmStartContacts(in:)` do one contact at a time. A contact
    /// between round surfaces is prepared again in lanes; one whose body turned more than
    /// 0.02 rad, one at a time (its group then loaded afresh); both are then measured
    /// exactly.
    @inline(__always)
    mutating func measureAndWarmStartLaneGroup(_ g: Int) {
        let moves = LaneMoves(bodies, laneGroups[g].bodyA, laneGroups[g].bodyB)
        // Round, or turned more than 0.02 rad (either way: the larger of t and −t).
        let limit = Lanes(repeating: 0.02)
        let turnedA: LaneMask = laneMax(moves.turnA, -moves.turnA) .> limit
        let turnedB: LaneMask = laneMax(moves.turnB, -moves.turnB) .> limit
        let exact: LaneMask = laneGroups[g].isRound .| turnedA .| turnedB
        if !contactsJustPrepared && any(exact) {
            // Round contacts are prepared in lanes; a turned face one at a time.
            let round = laneGroups[g].isRound
            if any(exact .& .!round) {
                for lane in 0..<4 where exact[lane] && !round[lane] {
                    let k = Int(laneGroups[g].contact[lane])
                    guard k >= 0 else { continue }
                    prepareContact(k)
                }
                // The whole group loads again; its round lanes are prepared afresh below.
                loadGroupConstants(g)
            }
            if laneGroups[g].hasRound { prepareRoundLanes(g) }
        }
        let group = laneGroups[g]
        // As measureContact: the separation from the moves and turns since the contacts were
        // prepared (or as prepared, when measured exactly), and what each point asks for.
        let s0 = moves.separation(
            group.preparedSeparation0, group.ra0x, group.ra0y, group.rb0x, group.rb0y,
            group.normalX, group.normalY, exact: exact)
        // The second points' (zeros where a contact has one).
        let s1 =
            group.hasSecondPoint
            ? moves.separation(
                group.preparedSeparation1, group.ra1x, group.ra1y, group.rb1x, group.rb1y,
                group.normalX, group.normalY, exact: exact) : Lanes()
        if softContacts {
            measureSoftLanes(g, s0, s1)
        } else {
            measureRigidLanes(g, s0, s1)
        }
        warmStartLaneGroup(g)
    }

    /// Sets what group `g`'s soft points ask for, from their separations (`s0` at the first
    /// points, `s1` at the second), as `measureContact` does for soft contacts: a gap's
    /// approach, or the spring's push.
    @inline(__always)
    mutating func measureSoftLanes(_ g: Int, _ s0: Lanes, _ s1: Lanes) {
        let group = laneGroups[g]
        let invH = Lanes(repeating: 1 / h)
        let slop = Lanes(repeating: contactSlop)
        let fastest = Lanes(repeating: contactPushSpeed)
        let zero = Lanes()
        laneGroups[g].separation0 = s0
        let spring0 = laneMin(group.biasRate * laneMax(zero, -(s0 + slop)), fastest)
        laneGroups[g].bias0 = spring0.taking((-s0) * invH, where: s0 .> zero)
        var springs = spring0
        if group.hasSecondPoint {
            let two = group.hasTwoPoints
            let spring1 = zero.taking(
                laneMin(group.biasRate * laneMax(zero, -(s1 + slop)), fastest), where: two)
            laneGroups[g].separation1 = zero.taking(s1, where: two)
            laneGroups[g].bias1 = spring1.taking((-s1) * invH, where: two .& (s1 .> zero))
            springs = laneMax(springs, spring1)
        }
        // The spring's push is motion the pass after the move takes back out of the velocities.
        let widest = max(max(springs[0], springs[1]), max(springs[2], springs[3]))
        fastestPush = max(fastestPush, widest)
    }

    /// Sets what group `g`'s rigid points ask for, from their separations (`s0` at the first
    /// points, `s1` at the second): a gap's approach, and the overlap to push out.
    @inline(__always)
    mutating func measureRigidLanes(_ g: Int, _ s0: Lanes, _ s1: Lanes) {
        let group = laneGroups[g]
        let invH = Lanes(repeating: 1 / h)
        let slop = Lanes(repeating: contactSlop)
        let baumgarte = Lanes(repeating: contactBaumgarte)
        let correction = Lanes(repeating: maximumContactCorrection)
        let zero = Lanes()
        laneGroups[g].bias0 = zero.taking((-s0) * invH, where: s0 .> zero)
        let push0 = laneMin(laneMax(zero, -(s0 + slop)) * baumgarte, correction) * invH
        laneGroups[g].push0 = push0
        var fastest = push0
        if group.hasSecondPoint {
            let two = group.hasTwoPoints
            laneGroups[g].bias1 = zero.taking((-s1) * invH, where: two .& (s1 .> zero))
            let push1 = zero.taking(
                laneMin(laneMax(zero, -(s1 + slop)) * baumgarte, correction) * invH, where: two)
            laneGroups[g].push1 = push1
            fastest = laneMax(fastest, push1)
        }
        let widest = max(max(fastest[0], fastest[1]), max(fastest[2], fastest[3]))
        laneGroups[g].pushes = widest > 0
        fastestPush = max(fastestPush, widest)
    }

    /// Applies group `g`'s accumulated impulses again.
    @inline(__always)
    mutating func warmStartLaneGroup(_ g: Int) {
        let group = laneGroups[g]
        let a = group.bodyA
        let b = group.bodyB
        // Warm starting: n · normal impulse + t · tangential impulse, t = (n.y, −n.x).
        let nx = group.normalX
        let ny = group.normalY
        var v = LaneVelocities(bodies, a, b, push: false)
        let p0x = nx * group.normalImpulse0 + ny * group.tangentImpulse
        let p0y = ny * group.normalImpulse0 + -nx * group.tangentImpulse
        v.apply(p0x, p0y, group.ra0x, group.ra0y, group.rb0x, group.rb0y, group)
        if group.hasSecondPoint {
            // A two-point contact keeps its one tangential impulse at the first point.
            let p1x = nx * group.normalImpulse1
            let p1y = ny * group.normalImpulse1
            v.apply(p1x, p1y, group.ra1x, group.ra1y, group.rb1x, group.rb1y, group)
        }
        v.store(in: bodies, a, b, push: false)
    }

    /// Prepares group `g`'s contacts between round surfaces where their bodies are now, in
    /// lanes: `evaluate` and `prepareContact` for a one-point contact of the points kind,
    /// operation for operation. Each such contact's normal goes back to it too (it is what
    /// `evaluate` falls back on when the centres meet).
    @inline(__always)
    mutating func prepareRoundLanes(_ g: Int) {
        let group = laneGroups[g]
        let round = group.isRound
        let poses = LanePoses(bodies, group.bodyA, group.bodyB)
        // The points on A and B in the world: position + rotation · local point.
        let qax = poses.pAx + (poses.cA * group.pointAx - poses.sA * group.pointAy)
        let qay = poses.pAy + (poses.sA * group.pointAx + poses.cA * group.pointAy)
        let qbx = poses.pBx + (poses.cB * group.pointBx - poses.sB * group.pointBy)
        let qby = poses.pBy + (poses.sB * group.pointBx + poses.cB * group.pointBy)
        let dx = qbx - qax
        let dy = qby - qay
        let distance = (dx * dx + dy * dy).squareRoot()
        let inverse = 1 / distance
        // Centres that meet keep the normal they had (straight down when they had none).
        let unset: LaneMask = (group.normalX .== 0) .& (group.normalY .== 0)
        let keptX = group.normalX.taking(Lanes(), where: unset)
        let keptY = group.normalY.taking(Lanes(repeating: 1), where: unset)
        let apart: LaneMask = distance .> Lanes(repeating: 1e-12)
        let nx = keptX.taking(dx * inverse, where: apart)
        let ny = keptY.taking(dy * inverse, where: apart)
        let separation = distance - group.radiusA - group.radiusB
        let reach = group.radiusA + 0.5 * separation
        let px = qax + nx * reach
        let py = qay + ny * reach
        let rax = px - poses.pAx
        let ray = py - poses.pAy
        let rbx = px - poses.pBx
        let rby = py - poses.pBy
        // Cross products with the normal and with the tangent (n.y, −n.x).
        let rnA = rax * ny - ray * nx
        let rnB = rbx * ny - rby * nx
        let rtA = rax * (-nx) - ray * ny
        let rtB = rbx * (-nx) - rby * ny
        let masses = group.invMassA + group.invMassB
        let kN = masses + group.invInertiaA * rnA * rnA + group.invInertiaB * rnB * rnB
        let kT = masses + group.invInertiaA * rtA * rtA + group.invInertiaB * rtB * rtB
        let zero = Lanes()
        laneGroups[g].normalX = group.normalX.taking(nx, where: round)
        laneGroups[g].normalY = group.normalY.taking(ny, where: round)
        laneGroups[g].ra0x = group.ra0x.taking(rax, where: round)
        laneGroups[g].ra0y = group.ra0y.taking(ray, where: round)
        laneGroups[g].rb0x = group.rb0x.taking(rbx, where: round)
        laneGroups[g].rb0y = group.rb0y.taking(rby, where: round)
        laneGroups[g].normalMass0 = group.normalMass0.taking(
            zero.taking(1 / kN, where: kN .> zero), where: round)
        laneGroups[g].tangentMass = group.tangentMass.taking(
            zero.taking(1 / kT, where: kT .> zero), where: round)
        laneGroups[g].preparedSeparation0 = group.preparedSeparation0.taking(
            separation, where: round)
        for lane in 0..<4 where round[lane] {
            contacts[Int(group.contact[lane])].normal = Vec2(nx[lane], ny[lane])
        }
    }

    /// Pushes group `g`'s overlap out, as `pushContactsApart` does one contact at a time: at
    /// each point that asks for it, the first then the second, an impulse that only pushes.
    @inline(__always)
    mutating func pushLaneGroupApart(_ g: Int) {
        let group = laneGroups[g]
        let a = group.bodyA
        let b = group.bodyB
        var v = LaneVelocities(bodies, a, b, push: true)
        v.push(
            group.push0, group.ra0x, group.ra0y, group.rb0x, group.rb0y, group.normalMass0, group)
        if group.hasSecondPoint {
            v.push(
                group.push1, group.ra1x, group.ra1y, group.rb1x, group.rb1y, group.normalMass1,
                group)
        }
        v.store(in: bodies, a, b, push: true)
    }

    /// The arithmetic of `solveContactVelocities` for one contact, in four lanes.
    @inline(__always)
    func solveLanes(_ v: inout LaneVelocities, _ group: inout ContactLaneGroup) {
        let nx = group.normalX
        let ny = group.normalY
        frictionLanes(&v, &group)
        if !group.hasSequential {
            // Every contact's two points are solved as a pair (an empty lane's zeros change
            // nothing).
            let (x0, x1) = pairLanes(&v, nx, ny, group, .rigid)
            group.normalImpulse0 = x0
            group.normalImpulse1 = x1
            return
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
            let (x0, x1) = pairLanes(&paired, nx, ny, group, .rigid)
            sequential.take(paired, where: block)
            sequential0 = sequential0.taking(x0, where: block)
            sequential1 = sequential1.taking(x1, where: block)
        }
        v = sequential
        group.normalImpulse0 = sequential0
        group.normalImpulse1 = sequential1
    }

    /// Friction: one impulse per contact, within friction × its normal impulses.
    @inline(__always)
    func frictionLanes(_ v: inout LaneVelocities, _ group: inout ContactLaneGroup) {
        guard group.hasFriction else { return }
        // The tangent (n.y, −n.x).
        let tx = group.normalY
        let ty = -group.normalX
        let hasFriction: LaneMask = group.friction .> 0
        let limit = group.friction * (group.normalImpulse0 + group.normalImpulse1)
        let old = group.tangentImpulse
        let vt = v.relativeVelocity(group.ra0x, group.ra0y, group.rb0x, group.rb0y, along: tx, ty)
        let total = laneMax(-limit, laneMin(limit, old - vt * group.tangentMass))
            .taking(old, where: .!hasFriction)
        let change = total - old
        v.apply(tx * change, ty * change, group.ra0x, group.ra0y, group.rb0x, group.rb0y, group)
        group.tangentImpulse = total
    }

    /// One soft velocity pass (see `solveSoftContacts(in:relaxing:)`): the groups in lanes,
    /// then the last colour one contact at a time.
    mutating func solveSoftContactLanes(relaxing: Bool) {
        for g in laneGroups.indices {
            let a = laneGroups[g].bodyA
            let b = laneGroups[g].bodyB
            var v = LaneVelocities(bodies, a, b, push: false)
            softLanes(&v, &laneGroups[g], relaxing: relaxing)
            v.store(in: bodies, a, b, push: false)
        }
        solveSoftContacts(in: laneRemainder..<contacts.count, relaxing: relaxing)
    }

    /// The arithmetic of `solveSoftContacts(in:relaxing:)` for one contact, in four lanes.
    @inline(__always)
    func softLanes(_ v: inout LaneVelocities, _ group: inout ContactLaneGroup, relaxing: Bool) {
        let pass: ContactPass = relaxing ? .relaxing : .soft
        frictionLanes(&v, &group)
        if !group.hasSequential {
            let (x0, x1) = pairLanes(&v, group.normalX, group.normalY, group, pass)
            group.normalImpulse0 = x0
            group.normalImpulse1 = x1
            return
        }
        var sequential = v
        let sequential0 = softNormalLanes(
            &sequential, group.ra0x, group.ra0y, group.rb0x, group.rb0y, group.separation0,
            group.bias0, group.normalMass0, group.normalImpulse0, group, pass)
        var sequential1 = group.normalImpulse1
        if group.hasSecondPoint {
            sequential1 = softNormalLanes(
                &sequential, group.ra1x, group.ra1y, group.rb1x, group.rb1y, group.separation1,
                group.bias1, group.normalMass1, group.normalImpulse1, group, pass)
        }
        if group.hasBlock {
            var paired = v
            let (x0, x1) = pairLanes(&paired, group.normalX, group.normalY, group, pass)
            sequential.take(paired, where: group.isBlock)
            group.normalImpulse0 = sequential0.taking(x0, where: group.isBlock)
            group.normalImpulse1 = sequential1.taking(x1, where: group.isBlock)
        } else {
            group.normalImpulse0 = sequential0
            group.normalImpulse1 = sequential1
        }
        v = sequential
    }

    /// A soft normal impulse at one point in each lane, as `softNormalImpulse` computes it.
    @inline(__always)
    func softNormalLanes(
        _ v: inout LaneVelocities, _ rax: Lanes, _ ray: Lanes, _ rbx: Lanes, _ rby: Lanes,
        _ separation: Lanes, _ bias: Lanes, _ mass: Lanes, _ old: Lanes,
        _ group: borrowing ContactLaneGroup, _ pass: ContactPass
    ) -> Lanes {
        let nx = group.normalX
        let ny = group.normalY
        let vn = v.relativeVelocity(rax, ray, rbx, rby, along: nx, ny)
        let asks = pass.asks(separation, bias, vn, group, h: h)
        let total = laneMax(Lanes(), asks.kept * old - (vn - asks.target) * mass * asks.massScale)
        let change = total - old
        v.apply(nx * change, ny * change, rax, ray, rbx, rby, group)
        return total
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
        _ v: inout LaneVelocities, _ nx: Lanes, _ ny: Lanes, _ group: borrowing ContactLaneGroup,
        _ pass: ContactPass
    ) -> (Lanes, Lanes) {
        let a0 = group.normalImpulse0
        let a1 = group.normalImpulse1
        let vn0 = v.relativeVelocity(group.ra0x, group.ra0y, group.rb0x, group.rb0y, along: nx, ny)
        let vn1 = v.relativeVelocity(group.ra1x, group.ra1y, group.rb1x, group.rb1y, along: nx, ny)
        let k00 = group.k00
        let k01 = group.k01
        let k11 = group.k11
        let first = pass.asks(group.separation0, group.bias0, vn0, group, h: h)
        let second = pass.asks(group.separation1, group.bias1, vn1, group, h: h)
        let b0 = first.massScale * (vn0 - first.target) - first.kept * (k00 * a0 + k01 * a1)
        let b1 = second.massScale * (vn1 - second.target) - second.kept * (k01 * a0 + k11 * a1)
        let zero = Lanes()
        // Both push.
        let both0 = (-b0 * k11 + b1 * k01) * group.inverseDeterminant
        let both1 = (-b1 * k00 + b0 * k01) * group.inverseDeterminant
        let bothPush: LaneMask = (both0 .>= 0) .& (both1 .>= 0)
        // Only the first pushes.
        let first0 = -b0 * group.normalMass0
        let firstPushes: LaneMask = (first0 .>= 0) .& (k01 * first0 + b1 .>= 0)
        // Only the second pushes.
        let second1 = -b1 * group.normalMass1
        let secondPushes: LaneMask = (second1 .>= 0) .& (k01 * second1 + b0 .>= 0)
        // Neither pushes; failing every case, the impulses stay as they are.
        let neither: LaneMask = (b0 .>= 0) .& (b1 .>= 0)
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
