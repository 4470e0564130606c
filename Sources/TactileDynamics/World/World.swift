import Foundation

/// The simulation proper: contiguous arrays of plain structs and a fixed-step integrator.
///
/// A step: forces and velocities; contact detection; restitution propagated pairwise through
/// the contact graph until no contact still approaches; joint velocities and a sequential-
/// impulse contact solver (accumulated, clamped normal and friction impulses, warm-started
/// from the last step); overlap pushed out with velocities used for this step's motion only;
/// position prediction; joint position constraints. Nothing allocates once the arrays have
/// grown to the scene's size.
struct World: ~Copyable {
    /// The fixed time step, seconds.
    var h: Double
    var positionIterations: Int
    var bodies = Pool<Body>()
    var shapes = Pool<Shape>()
    /// Polygon vertices and outward normals in body frames, and their world positions.
    var localVertices = Pool<Vec2>()
    var localNormals = Pool<Vec2>()
    var worldVertices = Pool<Vec2>()
    var worldNormals = Pool<Vec2>()
    var joints = Pool<Joint>()
    var pushes: [PushForce] = []
    var impulses: [PushForce] = []
    var fields: [CompiledField] = []
    /// Bodies each field acts on, as ranges into this array.
    var fieldBodies: [Int] = []
    var contacts = Pool<Contact>()
    /// Last step's contacts, and for each shape the first of them in which it is shape A
    /// (−1 for none) with the next such contact after each: how contacts found again are
    /// matched to their accumulated impulses.
    var previousContacts = Pool<Contact>()
    var previousHead = Pool<Int>()
    var previousNext = Pool<Int>()
    /// Shape indices sorted by the left edge of their bounds, kept between steps.
    var sortOrder = Pool<Int>()
    /// Scratch for ordering contacts by colour: each body's colours so far, each contact's
    /// colour, how many contacts have each colour, and the reordered contacts.
    var bodyColors = Pool<UInt64>()
    var contactColors = Pool<Int>()
    var colorStarts = Pool<Int>(repeating: 0, count: 66)
    var orderedContacts = Pool<Contact>()
    /// The contacts of the first 64 colours in groups of four, solved in lanes; the contacts
    /// from `laneRemainder` on (the last colour) are solved one at a time. Only while
    /// `contactsAreInLanes`: since the contacts were last found and ordered by colour.
    var laneGroups = Pool<ContactLaneGroup>()
    /// For each contact before `laneRemainder`, its group and lane (4 × group + lane).
    var contactLanes = Pool<Int>()
    /// Whether contacts ordered by colour are solved in lanes (tests turn it off to compare).
    var solvesInLanes = true
    var laneRemainder = 0
    var contactsAreInLanes = false
    /// Whether the lanes' copies of the contacts' offsets, masses and normals are yet to be
    /// loaded: right after the contacts are found and prepared.
    var lanesNeedConstants = false
    /// Whether the lanes hold the contacts' accumulated impulses as the contacts do: from
    /// when the lanes stored theirs back until anything else writes the impulses of a contact
    /// in a lane (regrouping, a stray's contact vacated, an impact), so a step need not load
    /// them again.
    var lanesHoldImpulses = false
    /// The uniform grid used instead of sorting when there are many shapes.
    var grid = Grid()
    /// Seconds simulated so far.
    var time = 0.0
    /// Approach speed below which contacts are inelastic, points/s.
    var restitutionThreshold = 10.0
    /// How far past touching an impact may be found at the end of a step, points.
    var linearSlop = 0.005
    /// Overlap resting contacts keep, so they stay in touch from step to step, points.
    var contactSlop = 0.02
    /// The share of a contact's overlap beyond the slop pushed out per step, and the most
    /// pushed out in one step, points.
    var contactBaumgarte = 0.2
    var maximumContactCorrection = 2.0
    /// Whether contacts are soft (the soft step): overlap is pushed out in the velocity passes
    /// themselves, by a stiff, damped spring (``Softness``), and after the bodies have moved, a
    /// pass without the spring ("relaxing") takes back the speed it gave. Otherwise contacts
    /// are rigid and overlap is pushed out with velocities of its own (`pushContactsApart`).
    var softContacts = false
    /// The soft contacts' spring: its frequency (at most a quarter of the step rate) and
    /// damping ratio; against a body that does not move, twice the frequency. And the fastest
    /// it pushes overlap out, points/s.
    var contactHertz = 60.0
    var contactDampingRatio = 10.0
    var contactPushSpeed = 300.0
    /// The fastest push this step, points/s: overlap still being pushed out is motion, though
    /// it leaves no trace in the velocities.
    var fastestPush = 0.0
    /// The contacts with a point to push out this step.
    var pushing = Pool<Int>()
    /// Whether any contact found since the last detection may bounce (has elasticity), and
    /// whether any is marked as an impact: the passes over every contact for impacts, and for
    /// clearing their marks, are skipped when none.
    var contactsMayImpact = false
    var impactsMarked = false
    /// Whether the contacts were prepared this step (so they need not be measured again), and
    /// last step's fastest push (a push that makes no headway is not motion).
    var contactsJustPrepared = false
    var previousFastestPush = 0.0
    /// The most a body moves in one step, points.
    var maximumTranslation = 50.0
    var maximumSpeed: Double { maximumTranslation / h }
    var maximumAngularSpeed: Double { 0.5 * .pi / h }
    /// Per body: when in this step it last took an impact, and how far its position must be
    /// moved back (or on) so that impacts take effect at their moment within the step.
    var impactTimes = Pool<Double>()
    var impactShifts = Pool<Vec2>()
    var impactTurns = Pool<Double>()
    /// Per body: the world anchor of its single rigid string, if it hangs from exactly one
    /// (and does not turn), so impacts treat it as a pendulum bob that can only move across
    /// its string. NaN when it is not tethered.
    var tethers = Pool<Vec2>()
    /// Where the string is tied on each tethered body, in its frame.
    var tetherPoints = Pool<Vec2>()
    /// Steps left before contacts are found again; 0 finds them at the next step.
    var stepsUntilDetection = 0
    /// How many steps the contacts found last (all of them, or those around strays) serve
    /// from when they were found: shapes' bounds and contact margins are swept that far.
    var sweepSteps = 1
    /// Bodies that strayed further than their contacts allow for in the last step (see
    /// `contactReuse`), whose contacts are found again at the next step; and each body's mark
    /// while they are.
    var strays = Pool<Int>()
    var strayMarks = Pool<Bool>()
    /// The shapes whose bounds were set again around strays since the last detection (their
    /// places in the grid are stale), each body's mark while they are, and the strays' shapes
    /// at the present search.
    var shapesBoundAgain = Pool<Int>()
    var boundAgain = Pool<Bool>()
    var strayShapes = Pool<Int>()
    /// How many times every contact was found, and how many times only strays' contacts
    /// were (for the benchmark's report and the tests).
    var detections = 0
    var strayDetections = 0
    /// How many steps the contacts found at the last detection serve; bounds and margins are
    /// swept that far ahead.
    var detectionInterval = 1
    /// How many steps the contacts found now may serve: one for small scenes (so impacts and
    /// callbacks see every touch as it happens); in scenes of more than 64 shapes, the steps of
    /// four frames of 1/60 s, two, or one: the longest in which no body moves further than
    /// `reuseDistance` at its present speed (a settled pile, a standing stack: four). Contacts
    /// are then found that far ahead: each pair within the distance its relative motion
    /// covers by then, plus each body's slack, and measured again at every step. A body that
    /// strays further from its velocity at detection than the slack and a quarter of its
    /// thickness (it bounced, or was struck) has its own contacts found again at the next
    /// step, for the steps left (`findContactsAroundStrays`), or all of them when more than
    /// one body in 16 strayed; a push or a change of velocity made through the API finds them
    /// all again at once.
    var contactReuse: Int {
        guard shapes.count > 64 else { return 1 }
        let frame = max(1, Int(1 / (60 * h) + 1e-9))
        var fastest = 0.0
        for bIndex in bodies.indices {
            let b = bodies[bIndex]
            guard b.isDynamic else { continue }
            fastest = max(fastest, b.velocity.length + abs(b.angularVelocity) * b.reach)
        }
        let reach = fastest * Double(frame) * h
        if 4 * reach <= reuseDistance { return 4 * frame }
        if 2 * reach <= reuseDistance { return 2 * frame }
        return frame
    }
    /// Extra distance each moving body's contact margins allow for while contacts are reused
    /// (half the detection margin), points.
    var reuseSlack: Double { detectionInterval > 1 ? 0.5 * World.contactMargin : 0 }
    /// The most any body may move while contacts serve longer than a frame, points.
    var reuseDistance = 2.0
    /// Whether final separations are measured for collision callbacks.
    var tracksContacts = false

    init(timeStep: Double, positionIterations: Int) {
        h = timeStep
        self.positionIterations = positionIterations
    }

    /// Finds the bodies that hang from a single rigid string to a fixed point.
    mutating func findTethers() {
        let none = Vec2(.nan, .nan)
        tethers = Pool(repeating: none, count: bodies.count)
        tetherPoints = Pool(repeating: .zero, count: bodies.count)
        let counts = Pool(repeating: 0, count: bodies.count)
        for jointIndex in joints.indices {
            let joint = joints[jointIndex]
            counts[joint.bodyA] += 1
            if joint.bodyB >= 0 { counts[joint.bodyB] += 1 }
        }
        for jointIndex in joints.indices {
            let joint = joints[jointIndex]
            guard
                joint.kind == .distance && joint.frequency == 0 && joint.bodyB < 0
                    && counts[joint.bodyA] == 1 && bodies[joint.bodyA].invInertia == 0
                    && joint.length > 0
            else { continue }
            tethers[joint.bodyA] = joint.localB
            tetherPoints[joint.bodyA] = joint.localA
        }
    }

    /// Advances the simulation by one fixed step.
    mutating func step() {
        applyImpulses()
        accumulateForces()
        integrateVelocities()
        if stepsUntilDetection > 0 && strays.count * 16 > bodies.count {
            stepsUntilDetection = 0
        }
        if stepsUntilDetection <= 0 {
            detectionInterval = contactReuse
            stepsUntilDetection = detectionInterval
            sweepSteps = detectionInterval
            strays.removeAll()
            forgetShapesBoundAgain()
            detections += 1
            updateShapes()
            swap(&contacts, &previousContacts)
            findContacts()
            contactsAreInLanes = false
            matchContacts()
            if detectionInterval > 1 { orderContactsByColor() }
            prepareContacts()
            contactsJustPrepared = true
        } else {
            // Between detections the contacts found last serve as prepared; their accumulated
            // impulses carry over as they are.
            if impactsMarked {
                for k in contacts.indices { contacts[k].isImpact = false }
                impactsMarked = false
            }
            if !strays.isEmpty { findContactsAroundStrays() }
        }
        stepsUntilDetection -= 1
        propagateImpacts()
        warmStartContacts()
        for _ in 0..<positionIterations {
            if !joints.isEmpty { solveJointVelocities() }
            solveContacts(relaxing: false)
        }
        if softContacts {
            predictPositions()
            for _ in 0..<positionIterations { solveContacts(relaxing: true) }
            if contactsAreInLanes { storeContactLanes() }
        } else {
            if contactsAreInLanes { storeContactLanes() }
            pushContactsApart()
            predictPositions()
        }
        if !joints.isEmpty {
            for _ in 0..<positionIterations { solveJointPositions() }
        }
        applyJointFriction()
        if tracksContacts { measureSeparations() }
        time += h
    }

    /// One velocity pass over the contacts, in lanes where they are; `relaxing` (soft
    /// contacts only): the pass after the bodies moved, without the spring.
    mutating func solveContacts(relaxing: Bool) {
        switch (softContacts, contactsAreInLanes) {
        case (false, true): solveContactLanes()
        case (false, false): solveContactVelocities()
        case (true, true): solveSoftContactLanes(relaxing: relaxing)
        case (true, false): solveSoftContacts(in: contacts.indices, relaxing: relaxing)
        }
    }

    /// The soft contacts' spring against moving bodies (`fixed`: against a body that does not
    /// move) at this step.
    func softness(fixed: Bool) -> Softness {
        let hertz = min(contactHertz, 0.25 / h) * (fixed ? 2 : 1)
        return Softness(hertz: hertz, dampingRatio: contactDampingRatio, h: h)
    }

    // MARK: - Forces and velocities

    mutating func applyImpulses() {
        guard !impulses.isEmpty else { return }
        for impulse in impulses { applyImpulse(impulse) }
        impulses.removeAll(keepingCapacity: true)
        // A blow changes where bodies are headed: contacts found before it no longer cover it.
        stepsUntilDetection = 0
    }

    mutating func applyImpulse(_ impulse: PushForce) {
        let i = impulse.body
        guard bodies[i].isDynamic else { return }
        let r = bodies[i].rotation.apply(impulse.offset + bodies[i].localCenter)
        let j = impulse.force
        bodies[i].velocity += j * bodies[i].invMass
        bodies[i].angularVelocity += r.cross(j) * bodies[i].invInertia
    }

    mutating func accumulateForces() {
        for i in bodies.indices {
            bodies[i].force = .zero
            bodies[i].torque = 0
        }
        for push in pushes {
            let i = push.body
            let r = bodies[i].rotation.apply(push.offset + bodies[i].localCenter)
            let f = push.force
            bodies[i].force += f
            bodies[i].torque += r.cross(f)
        }
        applySpringForces()
        if !fields.isEmpty { applyFields() }
    }

    mutating func integrateVelocities() {
        let h = self.h
        for i in bodies.indices where bodies[i].isDynamic {
            var b = bodies[i]
            b.velocity += (b.gravity + b.force * b.invMass) * h
            b.angularVelocity += b.torque * b.invInertia * h
            b.velocity = b.velocity * b.linearDamping
            b.angularVelocity *= b.angularDamping
            // No body moves further than `maximumTranslation` or turns more than a quarter
            // turn in one step, however hard it is pushed; tunnelling needs more than that.
            let speed = b.velocity.lengthSquared
            if speed > maximumSpeed * maximumSpeed {
                b.velocity = b.velocity * (maximumSpeed / speed.squareRoot())
            }
            if abs(b.angularVelocity) > maximumAngularSpeed {
                b.angularVelocity =
                    b.angularVelocity > 0 ? maximumAngularSpeed : -maximumAngularSpeed
            }
            bodies[i] = b
        }
    }

    mutating func predictPositions() {
        let h = self.h
        let shifted = impactShifts.count == bodies.count
        for i in bodies.indices {
            guard bodies[i].isDynamic else { continue }
            let b = bodies[i]
            let impact = shifted && impactTimes[i] >= 0
            if detectionInterval > 1 {
                bodies[i].drift +=
                    ((b.velocity - b.detectedVelocity).length + b.pushVelocity.length
                        + (abs(b.angularVelocity - b.detectedAngularVelocity)
                            + abs(b.pushAngularVelocity)) * b.reach)
                    * h
                // An impact's catching up moves the body off its path too.
                if impact {
                    bodies[i].drift += impactShifts[i].length + abs(impactTurns[i]) * b.reach
                }
                // Strayed further than its contacts allow for: find them again next step.
                if bodies[i].drift > b.driftLimit { strays.append(i) }
            }
            bodies[i].position += (b.velocity + b.pushVelocity) * h
            var turn = (b.angularVelocity + b.pushAngularVelocity) * h
            bodies[i].pushVelocity = .zero
            bodies[i].pushAngularVelocity = 0
            if impact {
                bodies[i].position += impactShifts[i]
                turn += impactTurns[i]
                impactShifts[i] = .zero
                impactTurns[i] = 0
                impactTimes[i] = -1
            }
            if turn != 0 {
                bodies[i].angle += turn
                bodies[i].rotation = b.rotation.turned(by: turn, fallback: bodies[i].angle)
            }
        }
    }

    /// Moves body `i` by `dp` and turns it by `da`, changing its velocity by the same over h.
    @inline(__always)
    mutating func correct(_ i: Int, _ dp: Vec2, _ da: Double) {
        let invH = 1 / h
        bodies[i].position += dp
        bodies[i].velocity += dp * invH
        if da != 0 {
            bodies[i].angle += da
            bodies[i].angularVelocity += da * invH
            bodies[i].rotation = bodies[i].rotation.turned(by: da, fallback: bodies[i].angle)
        }
    }

    /// Where a point given in body `i`'s frame will be after one step at the current
    /// velocities; a world anchor when `i` < 0.
    @inline(__always)
    func predictedPoint(_ i: Int, _ local: Vec2) -> Vec2 {
        guard i >= 0 else { return local }
        let b = bodies[i]
        guard b.isDynamic else { return b.position + b.rotation.apply(local) }
        let r = b.angularVelocity == 0 ? b.rotation : Rotation(b.angle + b.angularVelocity * h)
        return b.position + b.velocity * h + r.apply(local)
    }

    /// The world position of a point given in body `i`'s frame; a world anchor when `i` < 0.
    @inline(__always)
    func worldPoint(_ i: Int, _ local: Vec2) -> Vec2 {
        i < 0 ? local : bodies[i].position + bodies[i].rotation.apply(local)
    }

    /// Whether every dynamic body moves slower than the given speeds, and no overlap is being
    /// pushed out faster than the linear one while shrinking.
    func isResting(linear: Double, angular: Double) -> Bool {
        // An overlap still shrinking is motion; one held in place (an item jammed between
        // walls, or held into one by an attachment) pushes as hard every step and is not.
        let pushMakesHeadway = fastestPush > linear && fastestPush < 0.99 * previousFastestPush
        guard !pushMakesHeadway else { return false }
        let v2 = linear * linear
        for bIndex in bodies.indices {
            let b = bodies[bIndex]
            guard b.isDynamic else { continue }
            if b.velocity.lengthSquared > v2 || abs(b.angularVelocity) > angular { return false }
        }
        return true
    }

    /// Total kinetic energy, mass · points²/s².
    var kineticEnergy: Double {
        var e = 0.0
        for bIndex in bodies.indices {
            let b = bodies[bIndex]
            guard b.isDynamic else { continue }
            e += 0.5 * b.mass * b.velocity.lengthSquared
            if b.invInertia > 0 { e += 0.5 * b.inertia * b.angularVelocity * b.angularVelocity }
        }
        return e
    }
}
