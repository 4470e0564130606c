import Foundation
import TactileCore
import TactileDynamics

/// A Newton's cradle on the dynamics engine: balls hung from anchors by rigid attachments,
/// with gravity, collisions between the balls, and an item behaviour (elasticity,
/// resistance, no rotation).
///
/// Coordinates are the cradle's own, in points: anchors on the line y = 0, centred on
/// x = 0; balls hang at y = string length. Angles are radians from the vertical, positive
/// to the right.
public final class NewtonsCradle {
    /// The current configuration.
    public private(set) var configuration: CradleConfiguration
    /// The animator running the cradle; replaced on reset.
    public private(set) var animator: DynamicAnimator
    /// The balls, left to right.
    public private(set) var balls: [DynamicItem] = []
    /// Where each ball's string is fixed.
    public private(set) var anchors: [Point] = []
    /// Total energy when the balls were last released, or when gravity last changed (which
    /// changes every height's potential energy), mass · points²/s².
    public private(set) var releaseEnergy = 0.0

    private var gravityBehavior: GravityBehavior!
    private var itemBehavior: DynamicItemBehavior!
    private var drag: (ball: Int, attachment: AttachmentBehavior)?
    /// The balls pulled and the angle when the animator was last built: a copy is built the
    /// same way, so that its strings have the same lengths to the bit.
    private var built = (pulled: 0, angle: 0.0)

    /// Creates a cradle at rest.
    public init(configuration: CradleConfiguration = .init()) throws(CradleError) {
        try configuration.validate()
        self.configuration = configuration
        animator = Self.engine {
            try DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1, height: 1))
        }
        build(pulled: 0, angle: 0)
    }

    /// Distance between neighbouring anchors: a diameter plus the gap.
    public var spacing: Double { 2 * configuration.ballRadius + configuration.gap }

    /// The area the balls can reach, in cradle coordinates.
    public var extent: Rect {
        let c = configuration
        let half = Double(c.ballCount - 1) / 2 * spacing
        let reach = c.stringLength + c.ballRadius
        return Rect(
            x: -half - reach, y: -c.ballRadius, width: 2 * (half + reach),
            height: reach + c.ballRadius)
    }

    /// Puts every ball at rest, hanging straight down.
    public func reset() { build(pulled: 0, angle: 0) }

    /// Puts the balls at rest, then holds the first `count` balls at `angle` radians to the
    /// left and lets go.
    ///
    /// - Throws: ``CradleError`` unless `count` is 0…ball count − 1 and `angle` 0…π/2.
    public func pull(_ count: Int, angle: Double) throws(CradleError) {
        guard (0..<configuration.ballCount).contains(count) else {
            throw CradleError(
                Localization.text(
                    "balls to pull must be 0…{1}, got {2}", configuration.ballCount - 1, count))
        }
        guard angle.isFinite, (0...(Double.pi / 2)).contains(angle) else {
            throw CradleError(
                Localization.text("pull angle must be 0…90 degrees, got {1}", angle * 180 / .pi))
        }
        build(pulled: count, angle: angle)
    }

    /// Changes the configuration. Gravity, elasticity and resistance change in place; the
    /// ball count, size, string length and gap rebuild the cradle at rest.
    ///
    /// - Returns: Whether the cradle was rebuilt at rest (a change of balls, size, string or
    ///   gap) rather than changed in place.
    @discardableResult
    public func configure(_ next: CradleConfiguration) throws(CradleError) -> Bool {
        try next.validate()
        let previous = configuration
        configuration = next
        if next.ballCount != previous.ballCount || next.gap != previous.gap
            || next.ballRadius != previous.ballRadius || next.stringLength != previous.stringLength
        {
            reset()
            return true
        }
        Self.engine {
            try gravityBehavior.setAngle(.pi / 2, magnitude: next.gravity)
            try itemBehavior.update {
                $0.elasticity = next.elasticity
                $0.resistance = next.resistance
            }
        }
        // The same swing holds another energy under another gravity: measure from here.
        if next.gravity != previous.gravity { releaseEnergy = energy }
        return false
    }

    /// Runs engine calls whose values come from a validated configuration.
    ///
    /// The engine throws only for values out of its ranges, and ``CradleConfiguration``
    /// refuses those first (its ranges lie inside the engine's), so an error here is a bug in
    /// that correspondence, not something a caller did: it stops the program and names it.
    private static func engine<T>(_ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            preconditionFailure("the dynamics engine refused a validated cradle: \(error)")
        }
    }

    private func build(pulled: Int, angle: Double) {
        Self.engine { try assemble(pulled: pulled, angle: angle) }
    }

    private func assemble(pulled: Int, angle: Double) throws {
        let c = configuration
        drag = nil
        built = (pulled, angle)
        let area = extent
        animator = try DynamicAnimator(
            referenceBounds: Rect(
                x: area.minX - 100, y: area.minY - 100, width: area.width + 200,
                height: area.height + 200))
        anchors = (0..<c.ballCount).map { i in
            Point(x: (Double(i) - Double(c.ballCount - 1) / 2) * spacing, y: 0)
        }
        balls = try anchors.enumerated().map { i, anchor in
            let theta = i < pulled ? -angle : 0
            return try DynamicItem(
                center: Point(
                    x: anchor.x + c.stringLength * sin(theta),
                    y: anchor.y + c.stringLength * cos(theta)),
                size: Size(width: 2 * c.ballRadius, height: 2 * c.ballRadius),
                collisionBoundsType: .ellipse)
        }
        let root = DynamicBehavior()
        gravityBehavior = GravityBehavior(items: balls)
        try gravityBehavior.setAngle(.pi / 2, magnitude: c.gravity)
        try root.addChildBehavior(gravityBehavior)
        let collision = CollisionBehavior(items: balls)
        collision.collisionMode = .items
        try root.addChildBehavior(collision)
        itemBehavior = try DynamicItemBehavior(
            items: balls,
            properties: DynamicItemProperties(
                elasticity: c.elasticity, resistance: c.resistance, allowsRotation: false))
        try root.addChildBehavior(itemBehavior)
        for (ball, anchor) in zip(balls, anchors) {
            try root.addChildBehavior(AttachmentBehavior(item: ball, attachedToAnchor: anchor))
        }
        try animator.addBehavior(root)
        releaseEnergy = energy
    }

    /// A cradle of its own in this one's state: the same configuration, balls where these
    /// are and as fast, a ball held where this one's is, the same clock. Given the same
    /// calls from here, the two swing alike, to the bit; a change to one leaves the other
    /// alone.
    public func copy() -> NewtonsCradle {
        let twin = Self.engine { try NewtonsCradle(configuration: configuration) }
        // A new cradle is built at rest; one pulled is built again, pulled.
        if built != (0, 0) { twin.build(pulled: built.pulled, angle: built.angle) }
        if let drag {
            twin.attachDrag(
                ball: drag.ball, offset: drag.attachment.offsetFromFirstItem,
                target: drag.attachment.anchorPoint,
                maximumForce: drag.attachment.maximumForce)
        }
        twin.releaseEnergy = releaseEnergy
        twin.animator.adoptState(of: animator)
        return twin
    }

    /// Moves the simulation to `time` seconds on the caller's clock.
    public func advance(to time: Double) { animator.advance(to: time) }

    /// Whether everything has come to rest (the animator paused).
    public var isResting: Bool { !animator.isRunning }

    /// Each ball's angle from the vertical in radians, positive to the right.
    public var angles: [Double] {
        zip(balls, anchors).map { ball, anchor in
            atan2(ball.center.x - anchor.x, ball.center.y - anchor.y)
        }
    }

    /// Kinetic plus potential energy (above the rest position), mass · points²/s².
    ///
    /// Both at the same instant: a ball's velocity is the one it moved at through the last
    /// fixed step, so it belongs to that step's middle, and the height is taken there too
    /// (half a step's motion back). Reading the height at the step's end instead makes the
    /// total swing by ±0.2 % with the pendulum at 1/600 s steps, over 100 % at times; this
    /// way it stays within 0.02 %.
    public var energy: Double {
        let c = configuration
        let g = gravityAcceleration
        let mass = ballMass
        var total = 0.0
        let halfStep = 0.5 * animator.timeStep
        for (ball, anchor) in zip(balls, anchors) {
            let v = ball.velocity
            let height = anchor.y + c.stringLength - (ball.center.y - v.dy * halfStep)
            total += 0.5 * mass * v.lengthSquared + mass * g * height
        }
        return total
    }

    /// Energy as a fraction of the energy at the last release; 1 before any release.
    ///
    /// A raw measurement: see ``hasSwing`` for when it means something, and
    /// ``CradleModel/energyPercent`` for how much of it is true.
    public var energyFraction: Double {
        releaseEnergy > 0 ? energy / releaseEnergy : 1
    }

    /// The energy of the smallest swing worth a fraction: one ball swinging a point to the
    /// side, mass · points²/s².
    ///
    /// Below it the animator may stop a ball at the end of its swing (it rests once every
    /// ball moves slower than 0.5 points/s for 0.25 s, which with the default gravity and
    /// string a swing under about 0.6 points does), and a fraction of it is a fraction of
    /// rounding: a click on a ball that does not move it lets go of some 10⁻²³ of it.
    public var smallestSwingEnergy: Double {
        let length = configuration.stringLength
        return ballMass * gravityAcceleration * (length - (length * length - 1).squareRoot())
    }

    /// A ball's mass as the engine has it, from the cradle's density and the ball's area.
    private var ballMass: Double {
        let r = configuration.ballRadius
        return DynamicItemProperties.mass(density: itemBehavior.density, area: .pi * r * r)
    }

    /// Gravity in points/s².
    private var gravityAcceleration: Double {
        configuration.gravity * GravityBehavior.pointsPerSecondSquared
    }

    /// Whether the balls swing: energy was given at the last release (at least
    /// ``smallestSwingEnergy``) and the animator has not yet brought everything to rest.
    public var hasSwing: Bool { releaseEnergy >= smallestSwingEnergy && !isResting }

    /// Each string's length now, for checking that the attachments stay rigid.
    public var stringLengths: [Double] {
        zip(balls, anchors).map { $0.center.distance(to: $1) }
    }

    // MARK: - Dragging

    /// The ball under a point (cradle coordinates), with a little slack.
    public func ball(at point: Point) -> Int? {
        let reach = configuration.ballRadius + 6
        return balls.indices
            .filter { balls[$0].center.distance(to: point) <= reach }
            .min { balls[$0].center.distance(to: point) < balls[$1].center.distance(to: point) }
    }

    /// Whether a ball is being dragged.
    public var isDragging: Bool { drag != nil }

    /// The ball being dragged, if any.
    public var draggedBall: Int? { drag?.ball }

    /// How hard a drag may pull a ball, in multiples of its weight: enough to lift it to the
    /// side at once, too little for a flick to throw it over the bar.
    public static let dragForceInWeights = 2.0

    /// Starts dragging ball `index` by the point `point`: a stiff spring from the point to
    /// the ball pulls it along its arc while the string keeps its length.
    ///
    /// The spring pulls with at most ``dragForceInWeights`` times the ball's weight, and the
    /// point it pulls to stays below the bar (see ``dragTarget(for:)``), so however far or
    /// fast the pointer goes, the ball stays on its string below the bar and leaves the hand
    /// no faster than the force could make it.
    public func beginDrag(ball index: Int, at point: Point) {
        endDrag()
        guard balls.indices.contains(index), point.isFinite else { return }
        attachDrag(
            ball: index, offset: point - balls[index].center, target: dragTarget(for: point),
            maximumForce: Self.dragForceInWeights * ballMass * gravityAcceleration)
    }

    /// Holds ball `index` by the point `offset` from its centre with a spring to `target`
    /// that pulls with at most `maximumForce` (set at the drag's start, from the gravity
    /// then: a change of gravity during a drag leaves it alone).
    private func attachDrag(ball index: Int, offset: Vector, target: Point, maximumForce: Double) {
        guard
            let attachment = try? AttachmentBehavior(
                item: balls[index], offsetFromCenter: offset, attachedToAnchor: target)
        else { return }  // A point so far away that the engine refuses it: no drag, as off a ball.
        Self.engine {
            try attachment.setLength(0)
            try attachment.setFrequency(6)
            try attachment.setDamping(1)
            try attachment.setMaximumForce(maximumForce)
            try animator.addBehavior(attachment)
        }
        drag = (index, attachment)
    }

    /// Moves the dragging point.
    public func moveDrag(to point: Point) {
        guard let drag, point.isFinite else { return }
        // Refused only for points out of reach.
        try? drag.attachment.setAnchorPoint(dragTarget(for: point))
    }

    /// Where a drag at `point` pulls its ball: the point itself, or, above a line a quarter
    /// of the string below the bar, the point on that line (a ball cannot be lifted over the
    /// bar or to the horizontal, where the strings would cross).
    public func dragTarget(for point: Point) -> Point {
        Point(x: point.x, y: max(point.y, configuration.stringLength / 4))
    }

    /// Lets go: the ball keeps the velocity the drag gave it.
    public func endDrag() {
        guard let drag else { return }
        animator.removeBehavior(drag.attachment)
        self.drag = nil
        releaseEnergy = energy
    }
}
