import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// The same inputs give bit-identical states, whatever the frame timing.
@Suite struct DeterminismTests {
    /// A busy scene: a cradle, falling boxes and balls in a box, a spring and a push.
    func makeScene() throws -> (DynamicAnimator, [DynamicItem]) {
        let animator = Scene.animator(Rect(x: 0, y: 0, width: 600, height: 500))
        var items: [DynamicItem] = []
        var random = SeededGenerator(seed: 7)
        for i in 0..<16 {
            let x = 60 + Double(i % 8) * 60 + Double.random(in: -3...3, using: &random)
            let y = 40 + Double(i / 8) * 60
            items.append(
                i.isMultiple(of: 2)
                    ? Scene.ball(x, y, radius: 14)
                    : Scene.box(x, y, 26, 20, rotation: Double.random(in: 0...1, using: &random)))
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: items))
        try animator.addBehavior(
            Scene.properties(items, .init(elasticity: 0.4, friction: 0.3)))
        let pendulum = Scene.ball(300, 300, radius: 12)
        let spring = try AttachmentBehavior(
            item: items[3], attachedToAnchor: Point(x: 300, y: 200))
        try spring.setFrequency(1.5)
        try spring.setDamping(0.2)
        try animator.addBehavior(spring)
        try animator.addBehavior(GravityBehavior(items: [pendulum]))
        try animator.addBehavior(
            AttachmentBehavior(item: pendulum, attachedToAnchor: Point(x: 200, y: 250)))
        let push = PushBehavior(items: [items[5]], mode: .continuous)
        try push.setAngle(-1, magnitude: 0.3)
        try animator.addBehavior(push)
        return (animator, items + [pendulum])
    }

    func hash(rate: Double) throws -> UInt64 {
        let (animator, items) = try makeScene()
        Scene.run(animator, to: 10, rate: rate)
        return Scene.stateHash(items)
    }

    /// A scene large enough (over 64 shapes) for contacts to be found once a frame or less
    /// often, coloured and reused: 120 balls and boxes dropped into a box, bouncing.
    func largeSceneHash(rate: Double) throws -> UInt64 {
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: 0, y: 0, width: 400, height: 600), timeStep: 1.0 / 240,
            positionIterations: 3)
        var items: [DynamicItem] = []
        for i in 0..<120 {
            let x = 20 + Double(i % 15) * 25
            let y = 20 + Double(i / 15) * 25
            items.append(
                i.isMultiple(of: 3) ? Scene.box(x, y, 16, 12) : Scene.ball(x, y, radius: 8))
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: items))
        try animator.addBehavior(
            Scene.properties(items, .init(elasticity: 0.3, friction: 0.4)))
        Scene.run(animator, to: 4, rate: rate)
        #expect(animator.world.detectionInterval > 1, "contacts are reused in this scene")
        return Scene.stateHash(items)
    }

    @Test func largeScenesAreIdenticalAcrossFrameRates() throws {
        let first = try largeSceneHash(rate: 60)
        #expect(try largeSceneHash(rate: 144) == first)
        #expect(try largeSceneHash(rate: 37) == first)
    }

    @Test func identicalAcrossRunsAndFrameRates() throws {
        let first = try hash(rate: 60)
        #expect(try hash(rate: 60) == first)
        #expect(try hash(rate: 144) == first)
        #expect(try hash(rate: 37) == first)
    }
}
