import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Overlap (items placed inside each other, or pressed together) is pushed out over a few
/// steps with velocities of its own, so separating items gain no speed: energy only ever comes
/// from forces and impacts.
@Suite struct OverlapTests {
    /// Items `spacing` points apart in a square lattice of `side` × `side` balls of radius 10,
    /// without gravity, in a box far larger than the lattice.
    static func lattice(side: Int, spacing: Double) throws -> (DynamicAnimator, [DynamicItem]) {
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: -1000, y: -1000, width: 2000, height: 2000),
            timeStep: 1.0 / 240, positionIterations: 1)
        var balls: [DynamicItem] = []
        for i in 0..<(side * side) {
            balls.append(
                Scene.ball(Double(i % side) * spacing, Double(i / side) * spacing, radius: 10))
        }
        let collision = CollisionBehavior(items: balls)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        return (animator, balls)
    }

    static func deepestOverlap(_ balls: [DynamicItem]) -> Double {
        var deepest = 0.0
        for i in balls.indices {
            for j in balls.indices where j > i {
                deepest = max(deepest, 20 - balls[i].center.distance(to: balls[j].center))
            }
        }
        return deepest
    }

    /// Two balls placed 6 points into each other end apart, at rest, each having moved the
    /// same distance (equal masses, no external force: the centre of mass stays put).
    @Test func twoOverlappingBallsPartWithoutSpeed() throws {
        let (animator, balls) = try Self.lattice(side: 1, spacing: 0)
        let other = Scene.ball(14, 0, radius: 10)
        let collision = CollisionBehavior(items: [balls[0], other])
        try animator.addBehavior(collision)
        Scene.run(animator, to: 2)
        let gap = balls[0].center.distance(to: other.center) - 20
        #expect(gap > -0.05 && gap < 0.3, "gap \(gap) points")
        #expect(abs(balls[0].center.x + other.center.x - 14) < 1e-9)
        for ball in [balls[0], other] {
            #expect(animator.velocity(of: ball).linear.length < 0.5)
        }
    }

    /// A lattice of 144 balls, each 3 points into its neighbours (a scene large enough for
    /// contacts to be reused across steps), spreads until nothing overlaps by more than a
    /// twentieth of a point, and comes to rest: pushing apart added no energy.
    @Test func crowdedLatticeSpreadsAndComesToRest() throws {
        let (animator, balls) = try Self.lattice(side: 12, spacing: 17)
        #expect(abs(Self.deepestOverlap(balls) - 3) < 1e-9)
        Scene.run(animator, to: 3)
        #expect(Self.deepestOverlap(balls) < 0.05)
        let fastest = balls.map { animator.velocity(of: $0).linear.length }.max()!
        #expect(fastest < 1, "fastest ball \(fastest) points/s")
        // The lattice spread symmetrically about its centre.
        let mean = balls.reduce(0.0) { $0 + $1.center.x + $1.center.y } / Double(2 * balls.count)
        #expect(abs(mean - 5.5 * 17) < 0.5)
    }
}

/// A push given through the API reaches contacts that were being reused.
@Suite struct ReusedContactTests {
    @Test func anInstantaneousPushHasContactsFoundAtOnce() throws {
        // Balls half a point apart, without gravity: a calm scene that reuses its contacts.
        let (animator, balls) = try OverlapTests.lattice(side: 10, spacing: 20.5)
        let push = PushBehavior(items: [balls[55]], mode: .instantaneous)
        push.isActive = false
        try animator.addBehavior(push)
        var clock = 0.0
        while clock < 0.5 {
            clock += 1.0 / 240
            animator.advance(to: clock)
        }
        #expect(animator.world.detectionInterval > 1)
        // The ball is struck towards its neighbour half a point away (at about 160 points/s).
        try push.setAngle(0, magnitude: 0.05)
        push.isActive = true
        let steps = animator.stepCount
        clock += 1.0 / 240
        animator.advance(to: clock)
        #expect(animator.stepCount == steps + 1)
        // The step that applied the push found the contacts again.
        #expect(animator.world.stepsUntilDetection == animator.world.detectionInterval - 1)
        for _ in 0..<120 {
            clock += 1.0 / 240
            animator.advance(to: clock)
        }
        #expect(OverlapTests.deepestOverlap(balls) < 0.5)
    }
}
