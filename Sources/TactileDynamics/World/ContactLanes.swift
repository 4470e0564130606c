/// The values four contacts hold side by side, one per lane.
typealias Lanes = SIMD4<Double>
/// Which lanes a condition holds in.
typealias LaneMask = SIMDMask<Lanes.MaskStorage>

extension Lanes {
    /// `other` in the lanes of `mask`, these values in the rest: a blend of bits, with no branch
    /// and no lane-by-lane loop.
    @inline(__always)
    func taking(_ other: Lanes, where mask: LaneMask) -> Lanes {
        let bits = unsafeBitCast(mask, to: SIMD4<UInt64>.self)
        let mine = unsafeBitCast(self, to: SIMD4<UInt64>.self)
        let theirs = unsafeBitCast(other, to: SIMD4<UInt64>.self)
        return unsafeBitCast((theirs & bits) | (mine & ~bits), to: Lanes.self)
    }
}

/// `Swift.min` in each lane (`b` where it is less than `a`, else `a`).
@inline(__always)
func laneMin(_ a: Lanes, _ b: Lanes) -> Lanes { a.taking(b, where: b .< a) }

/// `Swift.max` in each lane (`b` where it is at least `a`, else `a`).
@inline(__always)
func laneMax(_ a: Lanes, _ b: Lanes) -> Lanes { a.taking(b, where: b .>= a) }

/// Four contacts of one colour, laid out lane by lane so that the velocity pass solves them
/// together (box2d v3's `b2ContactConstraintSIMD` does the same in float lanes).
///
/// Contacts of one colour share no moving body, so solving them side by side gives exactly
/// what solving them one after another does: the lanes are the same arithmetic, in the same
/// order, on the same doubles. A lane without a contact holds zeros and the static frame
/// (body 0) on both sides, so whatever it computes changes nothing.
struct ContactLaneGroup {
    /// The contact in each lane, −1 for an empty lane.
    var contact = SIMD4<Int32>(repeating: -1)
    var bodyA = SIMD4<Int32>(repeating: 0)
    var bodyB = SIMD4<Int32>(repeating: 0)
    var normalX = Lanes()
    var normalY = Lanes()
    var friction = Lanes()
    var invMassA = Lanes()
    var invInertiaA = Lanes()
    var invMassB = Lanes()
    var invInertiaB = Lanes()
    /// The points' offsets from the centres of mass (the second point's are zero, and so are
    /// its masses, in a one-point contact).
    var ra0x = Lanes()
    var ra0y = Lanes()
    var rb0x = Lanes()
    var rb0y = Lanes()
    var ra1x = Lanes()
    var ra1y = Lanes()
    var rb1x = Lanes()
    var rb1y = Lanes()
    var normalMass0 = Lanes()
    var normalMass1 = Lanes()
    var tangentMass = Lanes()
    var bias0 = Lanes()
    var bias1 = Lanes()
    /// The accumulated impulses: normal at each point, and the contact's one tangential.
    var normalImpulse0 = Lanes()
    var normalImpulse1 = Lanes()
    var tangentImpulse = Lanes()
    var k00 = Lanes()
    var k01 = Lanes()
    var k11 = Lanes()
    var inverseDeterminant = Lanes()
    /// Lanes whose two normal impulses are solved as a pair.
    var isBlock = LaneMask(repeating: false)
    /// Whether any lane's contact has a second point (balls' contacts have one).
    var hasSecondPoint = false
    /// Whether any lane has friction, any lane a pair of points solved together, and any
    /// lane points solved one at a time: kept as flags, since reading them from the lanes'
    /// masks at every pass costs more than the work they skip.
    var hasFriction = false
    var hasBlock = false
    var hasSequential = false
}

/// Two bodies' velocities in each lane while a group is solved.
struct LaneVelocities {
    var vAx: Lanes
    var vAy: Lanes
    var wA: Lanes
    var vBx: Lanes
    var vBy: Lanes
    var wB: Lanes

    /// The velocities of B's points at offsets `rb` relative to A's at `ra`, along (`dx`, `dy`).
    @inline(__always)
    func relativeVelocity(
        _ rax: Lanes, _ ray: Lanes, _ rbx: Lanes, _ rby: Lanes, along dx: Lanes, _ dy: Lanes
    ) -> Lanes {
        // As SolverPair.relativeVelocity(_:_:).dot(_:), operation for operation.
        let x = vBx + (-wB) * rby - vAx - (-wA) * ray
        let y = vBy + wB * rbx - vAy - wA * rax
        return x * dx + y * dy
    }

    /// Applies impulse (`px`, `py`) at offsets `ra`, `rb`: −p to A, +p to B.
    @inline(__always)
    mutating func apply(
        _ px: Lanes, _ py: Lanes, _ rax: Lanes, _ ray: Lanes, _ rbx: Lanes, _ rby: Lanes,
        _ group: borrowing ContactLaneGroup
    ) {
        vAx -= px * group.invMassA
        vAy -= py * group.invMassA
        wA -= (rax * py - ray * px) * group.invInertiaA
        vBx += px * group.invMassB
        vBy += py * group.invMassB
        wB += (rbx * py - rby * px) * group.invInertiaB
    }

    /// Keeps, in the lanes of `mask`, the velocities of `other`.
    @inline(__always)
    mutating func take(_ other: LaneVelocities, where mask: LaneMask) {
        vAx = vAx.taking(other.vAx, where: mask)
        vAy = vAy.taking(other.vAy, where: mask)
        wA = wA.taking(other.wA, where: mask)
        vBx = vBx.taking(other.vBx, where: mask)
        vBy = vBy.taking(other.vBy, where: mask)
        wB = wB.taking(other.wB, where: mask)
    }
}
