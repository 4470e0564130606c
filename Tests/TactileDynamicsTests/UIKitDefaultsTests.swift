import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// UIKit Dynamics' defaults and units.
@Suite struct UIKitDefaultsTests {
    @Test func gravityDefaultsToOneThousandPointsPerSecondSquaredDownwards() throws {
        let gravity = GravityBehavior()
        #expect(gravity.gravityDirection == Vector(dx: 0, dy: 1))
        #expect(gravity.magnitude == 1)
        expectClose(gravity.angle, .pi / 2, within: 1e-15)
        #expect(gravity.acceleration == Vector(dx: 0, dy: 1000))
        try gravity.setAngle(0, magnitude: 2.5)
        expectClose(gravity.acceleration, Vector(dx: 2500, dy: 0), within: 1e-9)
    }

    @Test func itemPropertiesDefaults() throws {
        let behavior = try DynamicItemBehavior()
        #expect(behavior.elasticity == 0)
        #expect(behavior.friction == 0)
        #expect(behavior.density == 1)
        #expect(behavior.resistance == 0)
        #expect(behavior.angularResistance == 0)
        #expect(behavior.allowsRotation)
        #expect(!behavior.isAnchored)
        #expect(behavior.charge == 0)
    }

    @Test func behaviourDefaults() throws {
        let item = Scene.ball(0, 100)
        let push = PushBehavior(items: [item], mode: .continuous)
        #expect(push.isActive && push.magnitude == 0 && push.pushDirection == .zero)
        #expect(push.targetOffsetFromCenter(for: item) == .zero)
        let snap = try SnapBehavior(item: item, snapTo: .zero)
        #expect(snap.damping == 0.5)
        let attachment = try AttachmentBehavior(item: item, attachedToAnchor: Point(x: 0, y: 40))
        #expect(attachment.length == 60)
        #expect(attachment.frequency == 0 && attachment.damping == 0)
        #expect(attachment.frictionTorque == 0)
        #expect(attachment.attachmentRange == -Double.infinity...Double.infinity)
        #expect(attachment.attachedBehaviorType == .anchor && attachment.style == .distance)
        let collision = CollisionBehavior()
        #expect(collision.collisionMode == .everything)
        #expect(!collision.translatesReferenceBoundsIntoBoundary)
        #expect(collision.boundaryIdentifiers.isEmpty)
        let field = FieldBehavior.springField()
        #expect(field.strength == 1 && field.falloff == 0 && field.minimumRadius == 0)
        #expect(field.position == .zero)
        if case .infinite = field.region {} else { Issue.record("region is not infinite") }
        #expect(try DynamicAnimator(referenceBounds: Scene.area).timeStep == 1.0 / 600)
    }

    @Test func massIsDensityTimesAreaOverTenThousand() throws {
        let animator = Scene.animator()
        let square = Scene.box(0, 0, 100, 100)
        let behavior = Scene.properties([square], .init(density: 2))
        try animator.addBehavior(behavior)
        try behavior.addLinearVelocity(Vector(dx: 10, dy: 0), for: square)
        // ½ · (2 · 10,000 / 10,000) · 10²
        expectClose(animator.kineticEnergy, 100, within: 1e-9)
        #expect(animator.world.bodies[1].mass == 2)
        // Inertia of a rectangle: m (w² + h²) / 12.
        expectClose(animator.world.bodies[1].inertia, 2 * 20_000 / 12, within: 1e-6)
    }

    @Test func continuousPushOfMagnitudeOneGivesOneHundredPointsPerSecondSquared() throws {
        let animator = Scene.animator()
        let square = Scene.box(0, 0, 100, 100)
        let push = PushBehavior(items: [square], mode: .continuous)
        try push.setAngle(0, magnitude: 1)
        try animator.addBehavior(push)
        Scene.run(animator, to: 1)
        expectClose(square.velocity, Vector(dx: 100, dy: 0), within: 1e-6)
        // Twice the density halves the acceleration.
        try animator.addBehavior(Scene.properties([square], .init(density: 2)))
        let before = square.velocity.dx
        Scene.run(animator, from: 1, to: 2)
        expectClose(square.velocity.dx - before, 50, within: 1e-6)
    }

    @Test func instantaneousPushChangesVelocityOnceAndDeactivates() throws {
        let animator = Scene.animator()
        let square = Scene.box(0, 0, 100, 100)
        let push = PushBehavior(items: [square], mode: .instantaneous)
        try push.setPushDirection(Vector(dx: 0, dy: -3))
        try animator.addBehavior(push)
        Scene.run(animator, to: 0.5)
        expectClose(square.velocity, Vector(dx: 0, dy: -300), within: 1e-9)
        #expect(!push.isActive)
        push.isActive = true
        Scene.run(animator, from: 0.5, to: 1)
        expectClose(square.velocity, Vector(dx: 0, dy: -600), within: 1e-9)
    }

    @Test func offCentrePushTurnsTheItem() throws {
        let animator = Scene.animator()
        let square = Scene.box(0, 0, 100, 100)
        let push = PushBehavior(items: [square], mode: .continuous)
        try push.setAngle(0, magnitude: 1)
        try push.setTargetOffsetFromCenter(Vector(dx: 0, dy: -50), for: square)
        try animator.addBehavior(push)
        Scene.run(animator, to: 0.1)
        // Torque 100 · 50 over inertia 1 · 20,000 / 12: 3 rad/s² (clockwise on screen).
        expectClose(square.angularVelocity, 0.3, within: 1e-3)
    }

    @Test func elasticityIsTheBounceSpeedRatio() throws {
        for elasticity in [0.3, 0.6, 1.0] {
            let animator = Scene.animator(Rect(x: 0, y: 0, width: 200, height: 400))
            let ball = Scene.ball(100, 100)
            let collision = CollisionBehavior(items: [ball])
            collision.translatesReferenceBoundsIntoBoundary = true
            try animator.addBehavior(collision)
            try animator.addBehavior(GravityBehavior(items: [ball]))
            try animator.addBehavior(Scene.properties([ball], .init(elasticity: elasticity)))
            var impact = 0.0
            var rebound = 0.0
            var previous = 0.0
            animator.advance(to: 0)
            for step in 1...600 {
                animator.advance(to: Double(step) / 600)
                let v = ball.velocity.dy
                if previous > 0 && v < 0 {
                    impact = previous
                    rebound = -v
                    break
                }
                previous = v
            }
            // One step of gravity, g·h, separates the speeds measured around the bounce.
            expectClose(rebound / impact, elasticity, within: 0.02 * elasticity)
        }
    }

    @Test func resistanceDecaysVelocityExponentially() throws {
        let animator = Scene.animator()
        let ball = Scene.ball(0, 0)
        let behavior = Scene.properties([ball], .init(resistance: 2, angularResistance: 3))
        try animator.addBehavior(behavior)
        try behavior.addLinearVelocity(Vector(dx: 100, dy: 0), for: ball)
        try behavior.addAngularVelocity(10, for: ball)
        Scene.run(animator, to: 1)
        expectClose(ball.velocity.dx, 100 * exp(-2), within: 1e-9)
        expectClose(ball.angularVelocity, 10 * exp(-3), within: 1e-9)
    }

    @Test func anchoredItemsStayAndWithoutRotationItemsDoNotTurn() throws {
        let animator = Scene.animator()
        let anchored = Scene.box(0, 100, 200, 20)
        let falling = Scene.box(60, 0, 20, 20)
        try animator.addBehavior(Scene.properties([anchored], .init(isAnchored: true)))
        try animator.addBehavior(Scene.properties([falling], .init(allowsRotation: false)))
        try animator.addBehavior(GravityBehavior(items: [anchored, falling]))
        try animator.addBehavior(CollisionBehavior(items: [anchored, falling]))
        Scene.run(animator, to: 2)
        #expect(anchored.center == Point(x: 0, y: 100))
        #expect(falling.rotation == 0)
        expectClose(falling.center.y, 100 - 10 - 10, within: 0.05)
    }

    @Test func snapSettlesOnThePoint() throws {
        let animator = Scene.animator()
        let box = Scene.box(0, 0, 40, 40, rotation: 1)
        let snap = try SnapBehavior(item: box, snapTo: Point(x: 120, y: -60))
        try animator.addBehavior(snap)
        Scene.run(animator, to: 4)
        expectClose(box.center, Point(x: 120, y: -60), within: 0.5)
        expectClose(box.rotation, 0, within: 0.01)
        #expect(throws: DynamicsError.self) { try snap.setDamping(1.5) }
    }
}
