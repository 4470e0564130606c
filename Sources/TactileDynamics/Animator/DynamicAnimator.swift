import Foundation
import TactileCore

/// Runs behaviours on items over a reference area, in fixed time steps.
///
/// The host moves time forward with ``advance(to:)`` from its frame clock; the animator
/// takes as many fixed steps of ``timeStep`` seconds as fit, so the same inputs give
/// bit-identical states at any frame rate. When every item rests the animator pauses
/// (``isRunning`` false, the delegate is told) and costs nothing until something changes.
///
/// ```swift
/// let animator = try DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 320, height: 480))
/// let ball = try DynamicItem(center: Point(x: 160, y: 40), size: Size(width: 40, height: 40),
///                            collisionBoundsType: .ellipse)
/// let collision = CollisionBehavior(items: [ball])
/// collision.translatesReferenceBoundsIntoBoundary = true
/// try animator.addBehavior(GravityBehavior(items: [ball]))
/// try animator.addBehavior(collision)
/// animator.advance(to: 1.0)   // ball.center has fallen
/// ```
public final class DynamicAnimator {
    /// The area items move in, in points; the collision boundary of reference bounds.
    public private(set) var referenceBounds: Rect
    /// The fixed simulation step in seconds.
    public var timeStep: Double { world.h }
    /// The top-level behaviours, in the order added.
    public private(set) var behaviors: [DynamicBehavior] = []
    /// Told when the animator pauses and resumes.
    public weak var delegate: (any DynamicAnimatorDelegate)?
    /// Whether the animator is stepping; false once everything rests.
    public private(set) var isRunning = false
    /// Simulated seconds, counting only time spent running.
    public var elapsedTime: Double { Double(stepCount) * world.h }
    /// Number of fixed steps taken.
    public private(set) var stepCount = 0
    /// How many times, since the world was last built, every contact was found (`all`), and
    /// how many times only the contacts of bodies that strayed from the motion their contacts
    /// were found for (`aroundStrays`). In a scene of many items, contacts found once serve
    /// several steps; for diagnostics and benchmarks.
    public var contactSearches: (all: Int, aroundStrays: Int) {
        (world.detections, world.strayDetections)
    }

    var world: World
    /// The empty world that stands in for ``world`` while a rebuild works on the real one.
    var spareWorld: World?
    /// Items or behaviours came or went: compile the world again before the next step.
    var needsRebuild = true
    /// Only a behaviour's parameters changed: compile those in place before the next step;
    /// only an attachment's or a snap's (`refreshesJointsOnly`): compile the joints alone.
    var needsRefresh = false
    var refreshesJointsOnly = true
    /// How many times the world was compiled from scratch (tests watch it).
    var rebuildCount = 0
    /// Host time of step zero, rebased whenever the animator pauses.
    private var clockOrigin: Double?
    /// Consecutive steps in which everything moved slower than the rest speeds.
    private var restingSteps = 0
    /// The largest number of steps one call to `advance(to:)` takes (two seconds' worth);
    /// beyond that the clock
    /// slips, so a stalled host does not freeze in catching up.
    let maximumStepsPerAdvance: Int

    // Compiled tables (rebuilt when behaviours change).
    var itemTable: [DynamicItem] = []
    var itemBody: [Int] = []
    var bodyOwner: [DynamicItem?] = []
    var bodyIndex: [ObjectIdentifier: Int] = [:]
    /// Each body's area and moment of area about its centroid, for its mass from a density.
    var bodyAreas: [(area: Double, moment: Double)] = []
    /// The group each grouped item belongs to.
    var memberOf: [ObjectIdentifier: DynamicItemGroup] = [:]
    var boundaryTable: [(behavior: Int, identifier: String?)] = []
    var collisionBehaviors: [CollisionBehavior] = []
    var participantIDs: [ObjectIdentifier: UInt32] = [:]
    var boundaryIDs: [String: UInt32] = [:]
    var nextParticipant: UInt32 = 1
    var episodes: [UInt64: Episode] = [:]
    var currentEpisodes: [UInt64: Episode] = [:]
    var events: [CollisionEvent] = []
    var endedKeys: [UInt64] = []
    var flatBehaviors: [DynamicBehavior] = []

    /// Speeds under which an item counts as resting, and for how long all must rest.
    static let restSpeed = 0.5
    static let restAngularSpeed = 0.01
    static let restDuration = 0.25

    /// Creates an animator.
    ///
    /// - Parameters:
    ///   - referenceBounds: The area in points; must have a positive, finite size.
    ///   - timeStep: The fixed step in seconds, 1/10,000…1/30. Default 1/600.
    ///   - positionIterations: Constraint passes per step, 1…100. Default 4.
    ///   - softContacts: Whether contacts are soft (the soft step): overlap is pushed out by a
    ///     stiff, damped spring within the constraint passes, and as many passes again after
    ///     the items moved take back the speed the spring gave. Tall stacks stand with fewer
    ///     passes. Default false: rigid contacts, overlap pushed out by motion that leaves no
    ///     speed behind.
    public init(
        referenceBounds: Rect, timeStep: Double = 1.0 / 600, positionIterations: Int = 4,
        softContacts: Bool = false
    ) throws(DynamicsError) {
        try DynamicAnimator.validate(referenceBounds)
        try DynamicsError.check(timeStep, "time step", in: 1.0 / 10_000...1.0 / 30)
        guard (1...100).contains(positionIterations) else {
            throw DynamicsError("position iterations must be 1…100, got \(positionIterations)")
        }
        self.referenceBounds = referenceBounds
        world = World(timeStep: timeStep, positionIterations: positionIterations)
        world.softContacts = softContacts
        maximumStepsPerAdvance = Int((2 / timeStep).rounded(.up))
    }

    private static func validate(_ bounds: Rect) throws(DynamicsError) {
        try DynamicsError.finite(bounds.origin, "reference bounds origin")
        try DynamicsError.check(bounds.width, "reference width", atLeast: 0, orEqual: false)
        try DynamicsError.check(bounds.height, "reference height", atLeast: 0, orEqual: false)
    }

    /// Changes the reference area (for example, when the view is resized).
    public func setReferenceBounds(_ bounds: Rect) throws(DynamicsError) {
        try DynamicAnimator.validate(bounds)
        guard bounds != referenceBounds else { return }
        referenceBounds = bounds
        setNeedsRebuild()
    }

    // MARK: - Behaviours

    /// Adds a behaviour and its children.
    ///
    /// - Throws: ``DynamicsError`` when the behaviour is already in an animator or is
    ///   another behaviour's child, or when the animator would hold more than 64 collision
    ///   behaviours.
    public func addBehavior(_ behavior: DynamicBehavior) throws(DynamicsError) {
        guard behavior.dynamicAnimator == nil, behavior.parentBehavior == nil else {
            throw DynamicsError("the behaviour is already part of an animator or behaviour")
        }
        var list: [DynamicBehavior] = []
        behavior.flattened(into: &list)
        let collisions =
            flatBehaviors.filter { $0 is CollisionBehavior }.count
            + list.filter { $0 is CollisionBehavior }.count
        guard collisions <= 64 else {
            throw DynamicsError("an animator holds at most 64 collision behaviours")
        }
        behaviors.append(behavior)
        behavior.setAnimator(self)
        setNeedsRebuild()
    }

    /// Removes a top-level behaviour.
    public func removeBehavior(_ behavior: DynamicBehavior) {
        guard let index = behaviors.firstIndex(where: { $0 === behavior }) else { return }
        behaviors.remove(at: index)
        behavior.setAnimator(nil)
        setNeedsRebuild()
    }

    /// Removes every behaviour.
    public func removeAllBehaviors() {
        for behavior in behaviors { behavior.setAnimator(nil) }
        behaviors.removeAll()
        setNeedsRebuild()
    }

    // MARK: - Items

    /// Items whose frames intersect `rect`, in the order behaviours name them.
    public func items(in rect: Rect) -> [DynamicItem] {
        rebuildIfNeeded()
        return itemTable.filter { item in
            guard !(item is DynamicItemGroup) else { return false }
            let frame = item.frame
            return frame.minX <= rect.maxX && frame.maxX >= rect.minX && frame.minY <= rect.maxY
                && frame.maxY >= rect.minY
        }
    }

    /// Reads an item's ``DynamicItem/center`` and ``DynamicItem/rotation`` again after the
    /// app moved it. The item keeps its velocity.
    ///
    /// - Throws: ``DynamicsError`` if the new centre or rotation is not finite; the item is
    ///   then put back where the animator had it.
    public func updateItem(usingCurrentState item: DynamicItem) throws(DynamicsError) {
        guard item.center.isFinite, item.rotation.isFinite else {
            let bad = item.center
            if let committed = item.committed {
                item.center = committed.center
                item.rotation = committed.rotation
            }
            throw DynamicsError("the item's centre \(bad) or rotation is not finite")
        }
        item.committed = nil
        if let group = item as? DynamicItemGroup {
            // Members follow the group.
            for member in group.items { member.committed = nil }
        }
        setNeedsRebuild()
    }

    /// The velocity of an item's centre and its angular velocity, as simulated now.
    public func velocity(of item: DynamicItem) -> (linear: Vector, angular: Double) {
        guard !needsRebuild, let i = bodyIndex[ObjectIdentifier(item)] else {
            return (item.velocity, item.angularVelocity)
        }
        let b = world.bodies[i]
        let r = b.rotation.apply(b.localCenter)
        let v = b.velocity + cross(b.angularVelocity, r)
        return (Vector(dx: v.x, dy: v.y), b.angularVelocity)
    }

    /// Adds to an item's velocity now.
    func changeVelocity(of item: DynamicItem, linear: Vector, angular: Double) {
        rebuildIfNeeded()
        if let i = bodyIndex[ObjectIdentifier(item)], world.bodies[i].isDynamic {
            world.bodies[i].velocity += Vec2(linear.dx, linear.dy)
            if world.bodies[i].invInertia > 0 { world.bodies[i].angularVelocity += angular }
            // Contacts found before the change no longer cover where the item is headed.
            world.stepsUntilDetection = 0
            writeBack(body: i)
        } else {
            item.velocity = item.velocity + linear
            item.angularVelocity += angular
            item.committed = nil
        }
        resume()
    }

    // MARK: - Time

    /// Moves simulated time to `time` (seconds on the host's clock), taking every fixed step
    /// that fits, then updates items, runs behaviour actions and reports contacts.
    public func advance(to time: Double) {
        guard time.isFinite else { return }
        rebuildIfNeeded()
        guard isRunning else {
            clockOrigin = time - Double(stepCount) * world.h
            return
        }
        if clockOrigin == nil { clockOrigin = time - Double(stepCount) * world.h }
        let origin = clockOrigin!
        // A hair of tolerance, so t = k·h on the caller's clock reaches step k despite rounding.
        let elapsed = (time - origin) / world.h + 1e-7
        guard elapsed >= Double(stepCount + 1) else { return }
        var target = elapsed >= Double(Int.max / 2) ? Int.max / 2 : Int(elapsed.rounded(.down))
        if target - stepCount > maximumStepsPerAdvance {
            target = stepCount + maximumStepsPerAdvance
            clockOrigin = time - Double(target) * world.h
        }
        var paused = false
        while stepCount < target {
            rebuildIfNeeded()
            step()
            if restingSteps >= Int(DynamicAnimator.restDuration / world.h) {
                paused = true
                break
            }
        }
        syncItems()
        dispatchEvents()
        for behavior in flatBehaviors { behavior.action?() }
        if paused && !needsRebuild && !needsRefresh {
            isRunning = false
            clockOrigin = time - Double(stepCount) * world.h
            delegate?.dynamicAnimatorDidPause(self)
        }
    }

    /// Takes one fixed step.
    func step() {
        world.step()
        stepCount += 1
        if world.tracksContacts { recordContacts() }
        if world.isResting(
            linear: DynamicAnimator.restSpeed, angular: DynamicAnimator.restAngularSpeed)
        {
            restingSteps += 1
        } else {
            restingSteps = 0
        }
    }

    /// Marks the compiled simulation stale and resumes if paused.
    func setNeedsRebuild() {
        needsRebuild = true
        resume()
    }

    /// Marks the compiled parameters stale (the world's structure stands) and resumes;
    /// `jointsOnly`: only the joints' (an attachment's or a snap's).
    func setNeedsRefresh(jointsOnly: Bool = false) {
        needsRefresh = true
        if !jointsOnly { refreshesJointsOnly = false }
        resume()
    }

    func resume() {
        restingSteps = 0
        guard !isRunning else { return }
        isRunning = true
        delegate?.dynamicAnimatorWillResume(self)
    }

    /// Total kinetic energy of the items, in mass · points²/s² (mass as density × area / 10⁴).
    public var kineticEnergy: Double {
        rebuildIfNeeded()
        return world.kineticEnergy
    }

    // MARK: - Copying

    /// Takes on `other`'s whole state: its world (every body, contact and accumulated impulse),
    /// its clock and rest count, its contact episodes, and each item's place and velocity.
    /// Advanced alike from here, the two go on alike, to the bit.
    ///
    /// Both animators must hold behaviours built alike (the same kinds over the same number
    /// of items, with the same settings, in the same order), so that their compiled worlds
    /// match body for body; each keeps its own behaviours, items and delegate. A library that
    /// owns both (a cradle copying itself) builds the second that way.
    package func adoptState(of other: DynamicAnimator) {
        other.rebuildIfNeeded()
        rebuildIfNeeded()
        precondition(
            world.h == other.world.h && world.positionIterations == other.world.positionIterations
                && itemTable.count == other.itemTable.count
                && world.bodies.count == other.world.bodies.count
                && world.shapes.count == other.world.shapes.count
                && world.joints.count == other.world.joints.count
                && world.fields.count == other.world.fields.count,
            "an animator takes the state only of one built alike")
        // Compiled fields call back into their own behaviours: keep this animator's.
        let fields = world.fields
        let fieldBodies = world.fieldBodies
        world = World(copying: other.world)
        world.fields = fields
        world.fieldBodies = fieldBodies
        stepCount = other.stepCount
        clockOrigin = other.clockOrigin
        restingSteps = other.restingSteps
        isRunning = other.isRunning
        episodes = other.episodes
        currentEpisodes = other.currentEpisodes
        events = other.events
        endedKeys = other.endedKeys
        for (mine, theirs) in zip(itemTable, other.itemTable) {
            mine.motion = theirs.motion
        }
    }
}
