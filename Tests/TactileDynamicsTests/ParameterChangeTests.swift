import Foundation
import TactileCore
import Testing

@testable import TactileDynamics

/// Changing a behaviour's parameters (an anchor dragged every frame, gravity turned, a
/// property edited) updates the compiled world in place: contacts and their impulses stay,
/// and only adding or removing items or behaviours compiles the world again.
@Suite struct ParameterChangeTests {
    /// A box resting on the floor under gravity.
    func restingBox() throws -> (DynamicAnimator, DynamicItem, GravityBehavior, DynamicItemBehavior)
    {
        let animator = Scene.animator(Rect(x: 0, y: 0, width: 400, height: 400))
        let box = Scene.box(200, 380, 40, 40)
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        let gravity = GravityBehavior(items: [box])
        let properties = Scene.properties([box], .init(friction: 0.8))
        try animator.addBehavior(collision)
        try animator.addBehavior(gravity)
        try animator.addBehavior(properties)
        Scene.run(animator, to: 1)
        return (animator, box, gravity, properties)
    }

    @Test func turningGravityKeepsTheRestingContact() throws {
        let (animator, box, gravity, _) = try restingBox()
        let compiled = animator.rebuildCount
        #expect(compiled == 1)
        #expect(animator.world.contacts.count > 0)
        var lifted = 0.0
        Scene.run(animator, from: 1, to: 2) { t in
            // Gravity sways ±3° about straight down: within friction, so the box stays put.
            try? gravity.setAngle(.pi / 2 + 0.05 * sin(6 * t), magnitude: 1)
            let contacts = animator.world.contacts.count
            #expect(contacts > 0, "the floor contact was dropped at \(t)")
            lifted = max(lifted, 380 - box.center.y)
        }
        #expect(animator.rebuildCount == compiled, "a parameter change compiled the world again")
        #expect(lifted < 0.05)
        #expect(abs(box.center.x - 200) < 0.5)
    }

    @Test func aPropertyChangeTakesEffectInPlace() throws {
        let (animator, box, gravity, properties) = try restingBox()
        let compiled = animator.rebuildCount
        // Tilted gravity the box resists with friction 0.8 (tan 20° ≈ 0.36), then cannot
        // with friction 0.1: it slides only after the change.
        try gravity.setAngle(.pi / 2 - 20 * .pi / 180, magnitude: 1)
        Scene.run(animator, from: 1, to: 1.5)
        let held = box.center.x
        #expect(abs(held - 200) < 0.5)
        try properties.update { $0.friction = 0.1 }
        Scene.run(animator, from: 1.5, to: 2)
        #expect(box.center.x > held + 5, "still held at \(box.center.x)")
        #expect(animator.rebuildCount == compiled)
    }

    @Test func anAnchorDraggedEveryFrameIsFollowedWithoutRecompiling() throws {
        let animator = Scene.animator()
        let ball = Scene.ball(0, 100)
        let string = try AttachmentBehavior(item: ball, attachedToAnchor: .zero)
        try animator.addBehavior(string)
        try animator.addBehavior(GravityBehavior(items: [ball]))
        Scene.run(animator, to: 0.5)
        let compiled = animator.rebuildCount
        var worst = 0.0
        Scene.run(animator, from: 0.5, to: 2.5) { t in
            let anchor = Point(x: 200 * (t - 0.5), y: 0)
            try? string.setAnchorPoint(anchor)
            worst = max(worst, abs(ball.center.distance(to: string.anchorPoint) - 100))
        }
        #expect(animator.rebuildCount == compiled)
        // The anchor jumps 3.3 points a frame; the string catches up within the frame's steps
        // (exactly as when every move recompiled the world).
        #expect(worst < 2, "the string stretched by \(worst)")
        #expect(ball.center.x > 250, "the ball was dragged along")
    }

    /// An anchor moved alone compiles only the joints; the judge is the same drag with every
    /// parameter compiled each frame (a property set to the value it has), to the bit. With a
    /// snap, a push, gravity and friction in the scene, so the parameters left alone are many.
    @Test func anAnchorMovedAloneGivesWhatCompilingEveryParameterGives() throws {
        func drag(compilingEverything: Bool) throws -> [DynamicItem] {
            let animator = Scene.animator(Rect(x: 0, y: 0, width: 400, height: 400))
            let ball = Scene.ball(100, 200)
            let box = Scene.box(250, 380, 40, 40)
            let snapped = Scene.ball(300, 100, radius: 8)
            let items = [ball, box, snapped]
            let collision = CollisionBehavior(items: items)
            collision.translatesReferenceBoundsIntoBoundary = true
            let properties = Scene.properties(items, .init(elasticity: 0.4, friction: 0.7))
            let string = try AttachmentBehavior(
                item: ball, attachedToAnchor: Point(x: 100, y: 100))
            let push = PushBehavior(items: [box], mode: .continuous)
            try push.setAngle(.pi, magnitude: 0.2)
            for behavior in [
                collision, GravityBehavior(items: items), properties, string, push,
                try SnapBehavior(item: snapped, snapTo: Point(x: 320, y: 120)),
            ] as [DynamicBehavior] {
                try animator.addBehavior(behavior)
            }
            Scene.run(animator, to: 0.5)
            let compiled = animator.rebuildCount
            Scene.run(animator, from: 0.5, to: 2.5) { t in
                try? string.setAnchorPoint(Point(x: 100 + 120 * (t - 0.5), y: 100))
                if compilingEverything { try? properties.update { $0.friction = 0.7 } }
            }
            #expect(animator.rebuildCount == compiled)
            return items
        }
        let jointsOnly = try drag(compilingEverything: false)
        let everything = try drag(compilingEverything: true)
        #expect(Scene.stateHash(jointsOnly) == Scene.stateHash(everything))
        #expect(jointsOnly[0].center.x > 250, "the ball was dragged along")
    }

    @Test func addingAnItemStillCompilesTheWorld() throws {
        let (animator, _, gravity, _) = try restingBox()
        let compiled = animator.rebuildCount
        gravity.addItem(Scene.ball(100, 100))
        Scene.run(animator, from: 1, to: 1.1)
        #expect(animator.rebuildCount == compiled + 1)
    }
}
