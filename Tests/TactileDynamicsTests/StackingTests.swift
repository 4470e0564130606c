import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Resting contact: stacks and pyramids of boxes stand still under gravity, without sinking,
/// sliding apart or jittering.
@Suite struct StackingTests {
    /// Boxes of 20 points in `rows` rows on a floor at y = 1000, each row centred on the one
    /// below with 1-point gaps between neighbours (the benchmark's pyramid).
    static func pyramid(rows: Int) -> [DynamicItem] {
        var boxes: [DynamicItem] = []
        for row in 0..<rows {
            for column in 0..<(rows - row) {
                let x = (Double(column) - Double(rows - row - 1) / 2) * 21
                boxes.append(Scene.box(x, 990 - Double(row) * 20, 20, 20))
            }
        }
        return boxes
    }

    static func settle(
        _ boxes: [DynamicItem], timeStep: Double, iterations: Int, seconds: Double
    ) throws -> DynamicAnimator {
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: -1000, y: 0, width: 2000, height: 1000), timeStep: timeStep,
            positionIterations: iterations)
        let collision = CollisionBehavior(items: boxes)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: boxes))
        try animator.addBehavior(Scene.properties(boxes, .init(friction: 0.6)))
        Scene.run(animator, to: seconds)
        return animator
    }

    /// At the app's step, at the benchmark's (1/240 s with three passes), and with two.
    @Test(
        arguments: [(1.0 / 600, 4), (1.0 / 240, 4), (1.0 / 240, 3), (1.0 / 240, 2)]
            as [(Double, Int)])
    func pyramidStands(timeStep: Double, iterations: Int) throws {
        let boxes = Self.pyramid(rows: 12)
        let starts = boxes.map(\.center)
        _ = try Self.settle(boxes, timeStep: timeStep, iterations: iterations, seconds: 3)
        let moved = zip(boxes, starts).map { $0.center.distance(to: $1) }.max()!
        let tilt = boxes.map { abs(remainder($0.rotation, .pi / 2)) }.max()! * 180 / .pi
        #expect(moved < 2, "a box moved \(moved) points")
        #expect(tilt < 2, "a box tilted \(tilt)°")
    }

    @Test func columnRestsWithoutJitter() throws {
        let boxes = (0..<12).map { Scene.box(0, 990 - Double($0) * 20, 20, 20) }
        let starts = boxes.map(\.center)
        let animator = try Self.settle(boxes, timeStep: 1.0 / 600, iterations: 4, seconds: 3)
        for (box, start) in zip(boxes, starts) {
            // Each resting contact keeps a few hundredths of a point of overlap, no more.
            #expect(box.center.distance(to: start) < 0.5)
            #expect(abs(box.rotation) < 1e-3)
        }
        // At rest: nothing moves, so the animator has paused.
        #expect(boxes.allSatisfy { $0.velocity.length < 0.5 })
        #expect(!animator.isRunning)
    }

    /// A pile of more than 64 balls settles and, once calm, has its contacts found every fourth
    /// frame (16 steps of 1/240 s); no two balls overlap by more than the bench's tolerance
    /// (measured by brute force).
    @Test func settledPileReusesContactsWithoutSinking() throws {
        var balls: [DynamicItem] = []
        for i in 0..<150 {
            let x = -140 + Double(i % 15) * 20
            let y = 980 - Double(i / 15) * 20
            balls.append(Scene.ball(x, y, radius: 4 + Double(i % 5)))
        }
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: -160, y: 0, width: 320, height: 1000), timeStep: 1.0 / 240,
            positionIterations: 4)
        let collision = CollisionBehavior(items: balls)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: balls))
        try animator.addBehavior(Scene.properties(balls, .init(friction: 0.5)))
        Scene.run(animator, to: 4)
        #expect(animator.world.detectionInterval == 16)
        var deepest = 0.0
        for i in balls.indices {
            #expect(abs(balls[i].center.x) < 160 && balls[i].center.y < 1000)
            for j in balls.indices where j > i {
                let reach = (balls[i].bounds.width + balls[j].bounds.width) / 2
                deepest = max(deepest, reach - balls[i].center.distance(to: balls[j].center))
            }
        }
        #expect(deepest < 0.5, "deepest overlap \(deepest) points")
    }
}
