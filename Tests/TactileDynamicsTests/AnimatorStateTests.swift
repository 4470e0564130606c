import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

final class PauseLog: DynamicAnimatorDelegate {
    var events: [String] = []
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) { events.append("pause") }
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { events.append("resume") }
}

/// Running and paused, the behaviour tree, items in a rectangle, moving items by hand.
@Suite struct AnimatorStateTests {
    @Test func pausesWhenEverythingRestsAndResumesOnChange() throws {
        let animator = Scene.animator(Rect(x: 0, y: 0, width: 200, height: 200))
        let log = PauseLog()
        animator.delegate = log
        let box = Scene.box(100, 150, 40, 40)
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        let properties = Scene.properties([box], .init())
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: [box]))
        try animator.addBehavior(properties)
        #expect(animator.isRunning)  // Adding behaviours started it: the first "resume".
        Scene.run(animator, to: 2)
        #expect(!animator.isRunning)
        #expect(log.events == ["resume", "pause"])
        let rested = animator.elapsedTime
        let center = box.center
        Scene.run(animator, from: 2, to: 3)
        #expect(animator.elapsedTime == rested)
        #expect(box.center == center)
        try properties.addLinearVelocity(Vector(dx: 0, dy: -300), for: box)
        #expect(animator.isRunning)
        #expect(log.events == ["resume", "pause", "resume"])
        Scene.run(animator, from: 3, to: 3.1)
        #expect(box.center.y < center.y)
        // Any parameter change resumes too.
        Scene.run(animator, from: 3.1, to: 6)
        #expect(!animator.isRunning)
        properties.action = nil
        collision.collisionMode = .items
        #expect(animator.isRunning)
    }

    @Test func behaviourTreesActAndRunActionsEveryFrame() throws {
        let animator = Scene.animator()
        let ball = Scene.ball(0, 0)
        let root = DynamicBehavior()
        let gravity = GravityBehavior(items: [ball])
        try root.addChildBehavior(gravity)
        var frames = 0
        root.action = { frames += 1 }
        try animator.addBehavior(root)
        Scene.run(animator, to: 0.5)
        #expect(frames == 30)  // One per frame that took steps; the frame at 0 takes none.
        #expect(ball.center.y > 100)
        root.removeChildBehavior(gravity)
        let speed = ball.velocity.dy
        Scene.run(animator, from: 0.5, to: 1)
        expectClose(ball.velocity.dy, speed, within: 1e-9)
        #expect(throws: DynamicsError.self) { try root.addChildBehavior(root) }
        #expect(throws: DynamicsError.self) { try animator.addBehavior(root) }
    }

    /// A behaviour's item list, changed one item at a time, against a plain list of the
    /// items expected: in the order they came, each once.
    @Test func itemListsKeepEachItemOnceInOrder() {
        let balls = (0..<2_000).map { Scene.ball(Double($0 % 40) * 30, Double($0 / 40) * 30) }
        let gravity = GravityBehavior(items: balls + balls.prefix(10))
        #expect(gravity.items.map(ObjectIdentifier.init) == balls.map(ObjectIdentifier.init))
        gravity.removeItem(balls[5])
        gravity.removeItem(balls[5])
        gravity.addItem(balls[7])
        gravity.addItem(balls[5])
        var expected = balls
        expected.remove(at: 5)
        expected.append(balls[5])
        #expect(gravity.items.map(ObjectIdentifier.init) == expected.map(ObjectIdentifier.init))
        for ball in balls { gravity.removeItem(ball) }
        #expect(gravity.items.isEmpty)
        gravity.addItem(balls[0])
        #expect(gravity.items.count == 1 && gravity.items[0] === balls[0])
    }

    @Test func itemsInARectangle() throws {
        let animator = Scene.animator()
        let a = Scene.ball(0, 0)
        let b = Scene.box(100, 0, 20, 20, rotation: .pi / 4)
        let c = Scene.ball(300, 300)
        try animator.addBehavior(GravityBehavior(items: [a, b, c]))
        #expect(
            animator.items(in: Rect(x: -20, y: -20, width: 40, height: 40)).map(\.center) == [
                a.center
            ])
        // The turned square reaches 14.1 points from its centre.
        #expect(animator.items(in: Rect(x: 112, y: -5, width: 10, height: 10)).count == 1)
        #expect(animator.items(in: Rect(x: 115, y: -5, width: 10, height: 10)).isEmpty)
        #expect(animator.items(in: Rect(x: -500, y: -500, width: 1000, height: 1000)).count == 3)
    }

    @Test func updatingAnItemAfterMovingItByHand() throws {
        let animator = Scene.animator()
        let ball = Scene.ball(0, 0)
        try animator.addBehavior(GravityBehavior(items: [ball]))
        Scene.run(animator, to: 0.5)
        let v = ball.velocity
        ball.center = Point(x: 50, y: -40)
        try animator.updateItem(usingCurrentState: ball)
        animator.advance(to: 0.5 + 1.0 / 600)
        #expect(abs(ball.center.x - 50) < 1e-9)
        #expect(abs(ball.center.y - (-40 + (v.dy + 1000.0 / 600) / 600)) < 1e-9)
        // A bad position is refused and undone.
        let good = ball.center
        ball.center = Point(x: .nan, y: 0)
        #expect(throws: DynamicsError.self) { try animator.updateItem(usingCurrentState: ball) }
        #expect(ball.center == good)
    }

    @Test func itemGroupsMoveAsOneBody() throws {
        let animator = Scene.animator()
        let left = Scene.ball(-30, 0)
        let right = Scene.box(30, 0, 20, 20)
        let group = try DynamicItemGroup(items: [left, right])
        let push = PushBehavior(items: [group], mode: .instantaneous)
        try push.setAngle(.pi / 2, magnitude: 0.05)
        try push.setTargetOffsetFromCenter(Vector(dx: 30, dy: 0), for: group)
        try animator.addBehavior(push)
        Scene.run(animator, to: 1)
        #expect(group.angularVelocity != 0)
        expectClose(left.center.distance(to: right.center), 60, within: 1e-9)
        expectClose(right.rotation - left.rotation, 0, within: 1e-12)
        expectClose(
            right.rotation, atan2(right.center.y - left.center.y, right.center.x - left.center.x),
            within: 1e-9)
        #expect(throws: DynamicsError.self) { try DynamicItemGroup(items: []) }
        #expect(throws: DynamicsError.self) { try DynamicItemGroup(items: [left, left]) }
    }
}
