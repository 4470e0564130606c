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

    @Test(arguments: [(1.0 / 600, 4), (1.0 / 240, 4)])
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
}
