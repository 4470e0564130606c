/// The values four contacts hold side by side, one per lane.
typealias Lanes = SIMD4<Double>

/// Which lanes a condition holds in: every bit of a lane set where it holds, none where it
/// does not.
///
/// Kept as two halves of two lanes, each what one SSE2 comparison of two doubles gives, so a
/// comparison, a mask's `and` and a blend stay one instruction a half. The standard library's
/// `SIMDMask` of four 64-bit lanes is packed into 32-bit lanes after each comparison and
/// unpacked before each blend there, which took a seventh of a velocity pass.
struct LaneMask {
    /// Lanes 0 and 1, and lanes 2 and 3.
    var low: SIMD2<UInt64>
    var high: SIMD2<UInt64>

    @inline(__always)
    init(low: SIMD2<UInt64>, high: SIMD2<UInt64>) {
        self.low = low
        self.high = high
    }

    /// The mask of two halves' comparisons.
    @inline(__always)
    init(_ low: SIMDMask<SIMD2<Int64>>, _ high: SIMDMask<SIMD2<Int64>>) {
        self.low = unsafeBitCast(low, to: SIMD2<UInt64>.self)
        self.high = unsafeBitCast(high, to: SIMD2<UInt64>.self)
    }

    /// `value` in every lane.
    init(repeating value: Bool) {
        let bits: UInt64 = value ? ~0 : 0
        self.init(low: SIMD2(repeating: bits), high: SIMD2(repeating: bits))
    }

    /// Whether the condition holds in `lane` (0 to 3).
    subscript(lane: Int) -> Bool {
        get { (lane < 2 ? low[lane] : high[lane - 2]) != 0 }
        set {
            let bits: UInt64 = newValue ? ~0 : 0
            if lane < 2 { low[lane] = bits } else { high[lane - 2] = bits }
        }
    }

    @inline(__always)
    static func .& (a: LaneMask, b: LaneMask) -> LaneMask {
        LaneMask(low: a.low & b.low, high: a.high & b.high)
    }

    @inline(__always)
    static func .| (a: LaneMask, b: LaneMask) -> LaneMask {
        LaneMask(low: a.low | b.low, high: a.high | b.high)
    }

    @inline(__always)
    static prefix func .! (a: LaneMask) -> LaneMask { LaneMask(low: ~a.low, high: ~a.high) }
}

/// Whether the condition holds in any lane.
@inline(__always)
func any(_ mask: LaneMask) -> Bool { (mask.low | mask.high) != .zero }

extension Lanes {
    /// `value` of each lane's index (a body's or a contact's), as lanes.
    @inline(__always)
    init(gathering indices: SIMD4<Int32>, _ value: (Int) -> Double) {
        self.init(
            value(Int(indices[0])), value(Int(indices[1])), value(Int(indices[2])),
            value(Int(indices[3])))
    }

    // The comparisons, lane by lane, as masks of halves (the IEEE comparisons of the scalars).
    @inline(__always)
    static func .< (a: Lanes, b: Lanes) -> LaneMask {
        LaneMask(a.lowHalf .< b.lowHalf, a.highHalf .< b.highHalf)
    }

    @inline(__always)
    static func .> (a: Lanes, b: Lanes) -> LaneMask {
        LaneMask(a.lowHalf .> b.lowHalf, a.highHalf .> b.highHalf)
    }

    @inline(__always)
    static func .>= (a: Lanes, b: Lanes) -> LaneMask {
        LaneMask(a.lowHalf .>= b.lowHalf, a.highHalf .>= b.highHalf)
    }

    @inline(__always)
    static func .== (a: Lanes, b: Lanes) -> LaneMask {
        LaneMask(a.lowHalf .== b.lowHalf, a.highHalf .== b.highHalf)
    }

    @inline(__always)
    static func .> (a: Lanes, b: Double) -> LaneMask { a .> Lanes(repeating: b) }

    @inline(__always)
    static func .>= (a: Lanes, b: Double) -> LaneMask { a .>= Lanes(repeating: b) }

    @inline(__always)
    static func .== (a: Lanes, b: Double) -> LaneMask { a .== Lanes(repeating: b) }

    /// `other` in the lanes of `mask`, these values in the rest: a blend of bits, with no branch
    /// and no lane-by-lane loop.
    @inline(__always)
    func taking(_ other: Lanes, where mask: LaneMask) -> Lanes {
        @inline(__always)
        func blend(_ mine: SIMD2<Double>, _ theirs: SIMD2<Double>, _ bits: SIMD2<UInt64>)
            -> SIMD2<Double>
        {
            let m = unsafeBitCast(mine, to: SIMD2<UInt64>.self)
            let t = unsafeBitCast(theirs, to: SIMD2<UInt64>.self)
            return unsafeBitCast((t & bits) | (m & ~bits), to: SIMD2<Double>.self)
        }
        return Lanes(
            lowHalf: blend(lowHalf, other.lowHalf, mask.low),
            highHalf: blend(highHalf, other.highHalf, mask.high))
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
    /// The separations when the contacts were prepared, and what this step asks of each
    /// point: the approach speed a gap still allows (`bias`) and the speed at which overlap is
    /// pushed out (`push`), as `measureContact` sets them.
    var preparedSeparation0 = Lanes()
    var preparedSeparation1 = Lanes()
    var bias0 = Lanes()
    var bias1 = Lanes()
    var push0 = Lanes()
    var push1 = Lanes()
    /// Soft contacts: each point's separation at the step's start, and the spring.
    var separation0 = Lanes()
    var separation1 = Lanes()
    var biasRate = Lanes()
    var massScale = Lanes()
    var impulseScale = Lanes()
    /// The accumulated impulses: normal at each point, and the contact's one tangential.
    var normalImpulse0 = Lanes()
    var normalImpulse1 = Lanes()
    var tangentImpulse = Lanes()
    var k00 = Lanes()
    var k01 = Lanes()
    var k11 = Lanes()
    var inverseDeterminant = Lanes()
    /// For contacts between round surfaces: the point on A and the point on B in their
    /// bodies' frames, and the radii around them (what `evaluate` measures them from).
    var pointAx = Lanes()
    var pointAy = Lanes()
    var pointBx = Lanes()
    var pointBy = Lanes()
    var radiusA = Lanes()
    var radiusB = Lanes()
    /// Lanes whose two normal impulses are solved as a pair.
    var isBlock = LaneMask(repeating: false)
    /// Lanes whose contact has two points, and lanes whose contact is between round surfaces
    /// (measured again exactly at every step).
    var hasTwoPoints = LaneMask(repeating: false)
    var isRound = LaneMask(repeating: false)
    /// Whether any lane pushes overlap out this step, and whether any lane's contact is
    /// between round surfaces.
    var pushes = false
    var hasRound = false
    /// Whether any lane's contact has a second point (balls' contacts have one).
    var hasSecondPoint = false
    /// Whether any lane has friction, any lane a pair of points solved together, and any
    /// lane's contact points solved one at a time: kept as flags, since reading them from the
    /// lanes' masks at every pass costs more than the work they skip.
    var hasFriction = false
    var hasBlock = false
    var hasSequential = false
}

/// Two bodies' velocities in each lane while a group is solved.
struct LaneVelocities {
    /// The velocities (or, with `push`, the velocities that push overlap out) of the bodies
    /// `a` and `b` name in each lane.
    @inline(__always)
    init(_ bodies: borrowing Pool<Body>, _ a: SIMD4<Int32>, _ b: SIMD4<Int32>, push: Bool) {
        if push {
            vAx = Lanes(gathering: a) { bodies[$0].pushVelocity.x }
            vAy = Lanes(gathering: a) { bodies[$0].pushVelocity.y }
            wA = Lanes(gathering: a) { bodies[$0].pushAngularVelocity }
            vBx = Lanes(gathering: b) { bodies[$0].pushVelocity.x }
            vBy = Lanes(gathering: b) { bodies[$0].pushVelocity.y }
            wB = Lanes(gathering: b) { bodies[$0].pushAngularVelocity }
        } else {
            vAx = Lanes(gathering: a) { bodies[$0].velocity.x }
            vAy = Lanes(gathering: a) { bodies[$0].velocity.y }
            wA = Lanes(gathering: a) { bodies[$0].angularVelocity }
            vBx = Lanes(gathering: b) { bodies[$0].velocity.x }
            vBy = Lanes(gathering: b) { bodies[$0].velocity.y }
            wB = Lanes(gathering: b) { bodies[$0].angularVelocity }
        }
    }

    /// Stores each lane's velocities back in its bodies (A, then B, lane by lane, as the
    /// one-at-a-time solver stores each contact's).
    @inline(__always)
    func store(
        in bodies: borrowing Pool<Body>, _ a: SIMD4<Int32>, _ b: SIMD4<Int32>, push: Bool
    ) {
        for lane in 0..<4 {
            let i = Int(a[lane])
            let j = Int(b[lane])
            if push {
                bodies[i].pushVelocity = Vec2(vAx[lane], vAy[lane])
                bodies[i].pushAngularVelocity = wA[lane]
                bodies[j].pushVelocity = Vec2(vBx[lane], vBy[lane])
                bodies[j].pushAngularVelocity = wB[lane]
            } else {
                bodies[i].velocity = Vec2(vAx[lane], vAy[lane])
                bodies[i].angularVelocity = wA[lane]
                bodies[j].velocity = Vec2(vBx[lane], vBy[lane])
                bodies[j].angularVelocity = wB[lane]
            }
        }
    }

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

    /// Where `target` asks for it, an impulse along the normal at offsets `ra`, `rb` that
    /// brings the normal velocity up to `target` (only pushing), as `pushContactsApart` gives
    /// one point.
    @inline(__always)
    mutating func push(
        _ target: Lanes, _ rax: Lanes, _ ray: Lanes, _ rbx: Lanes, _ rby: Lanes, _ mass: Lanes,
        _ group: borrowing ContactLaneGroup
    ) {
        let nx = group.normalX
        let ny = group.normalY
        let zero = Lanes()
        let vn = relativeVelocity(rax, ray, rbx, rby, along: nx, ny)
        let impulse = zero.taking(laneMax(zero, (target - vn) * mass), where: target .> zero)
        apply(nx * impulse, ny * impulse, rax, ray, rbx, rby, group)
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

/// How far the bodies of each lane moved and turned since the contacts were prepared.
struct LaneMoves {
    var moveAx: Lanes
    var moveAy: Lanes
    var turnA: Lanes
    var moveBx: Lanes
    var moveBy: Lanes
    var turnB: Lanes

    @inline(__always)
    init(_ bodies: borrowing Pool<Body>, _ a: SIMD4<Int32>, _ b: SIMD4<Int32>) {
        moveAx = Lanes(gathering: a) { bodies[$0].position.x - bodies[$0].origin.x }
        moveAy = Lanes(gathering: a) { bodies[$0].position.y - bodies[$0].origin.y }
        turnA = Lanes(gathering: a) { bodies[$0].angle - bodies[$0].originAngle }
        moveBx = Lanes(gathering: b) { bodies[$0].position.x - bodies[$0].origin.x }
        moveBy = Lanes(gathering: b) { bodies[$0].position.y - bodies[$0].origin.y }
        turnB = Lanes(gathering: b) { bodies[$0].angle - bodies[$0].originAngle }
    }

    /// The separation at a point with offsets `ra`, `rb`: as prepared plus
    /// (moveB + turnB × rb − moveA − turnA × ra) · n, or as prepared in the lanes of `exact`
    /// (`measureContact`'s arithmetic, operation for operation).
    @inline(__always)
    func separation(
        _ prepared: Lanes, _ rax: Lanes, _ ray: Lanes, _ rbx: Lanes, _ rby: Lanes,
        _ nx: Lanes, _ ny: Lanes, exact: LaneMask
    ) -> Lanes {
        let x = moveBx + (-turnB) * rby - moveAx - (-turnA) * ray
        let y = moveBy + turnB * rbx - moveAy - turnA * rax
        return (prepared + (x * nx + y * ny)).taking(prepared, where: exact)
    }
}

/// Where the bodies of each lane are: positions and rotations.
struct LanePoses {
    var pAx: Lanes
    var pAy: Lanes
    var cA: Lanes
    var sA: Lanes
    var pBx: Lanes
    var pBy: Lanes
    var cB: Lanes
    var sB: Lanes

    @inline(__always)
    init(_ bodies: borrowing Pool<Body>, _ a: SIMD4<Int32>, _ b: SIMD4<Int32>) {
        pAx = Lanes(gathering: a) { bodies[$0].position.x }
        pAy = Lanes(gathering: a) { bodies[$0].position.y }
        cA = Lanes(gathering: a) { bodies[$0].rotation.c }
        sA = Lanes(gathering: a) { bodies[$0].rotation.s }
        pBx = Lanes(gathering: b) { bodies[$0].position.x }
        pBy = Lanes(gathering: b) { bodies[$0].position.y }
        cB = Lanes(gathering: b) { bodies[$0].rotation.c }
        sB = Lanes(gathering: b) { bodies[$0].rotation.s }
    }
}
