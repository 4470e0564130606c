import Foundation
import TactileCore
import Testing

@testable import TactileDynamics

/// An animator that takes on another's state (``DynamicAnimator/adoptState(of:)``) goes on
/// exactly as that one does: the judge is the same scene run without a copy.
@Suite struct AnimatorCopyTests {
    /// Balls and boxes dropped into a box with friction, so that by the copy they rest on
    /// each other with accumulated contact impulses, a spring and a continuous push.
    func makeScene() throws -> (DynamicAnimator, [DynamicItem]) {
        let animator = Scene.animator(Rect(x: 0, y: 0, width: 300, height: 400))
        var items: [DynamicItem] = []
        for i in 0..<24 {
            let x = 30 + Double(i % 8) * 32 + Double(i / 8) * 5
            let y = 40 + Double(i / 8) * 40
            items.append(
                i.isMultiple(of: 3) ? Scene.ball(x, y, radius: 12) : Scene.box(x, y, 24, 18))
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: items))
        try animator.addBehavior(Scene.properties(items, .init(elasticity: 0.2, friction: 0.6)))
        let spring = try AttachmentBehavior(item: items[4], attachedToAnchor: Point(x: 150, y: 60))
        try spring.setFrequency(1)
        try spring.setDamping(0.3)
        try animator.addBehavior(spring)
        let push = PushBehavior(items: [items[7]], mode: .continuous)
        try push.setAngle(0, magnitude: 0.2)
        try animator.addBehavior(push)
        return (animator, items)
    }

    @Test func aCopyGoesOnAsTheOriginalDoes() throws {
        let (original, originalItems) = try makeScene()
        let (untouched, untouchedItems) = try makeScene()
        Scene.run(original, to: 3)
        Scene.run(untouched, to: 3)
        let contacts = original.world.contacts.elements
        #expect(
            contacts.contains { $0.first.normalImpulse > 0 || $0.second.normalImpulse > 0 },
            "bodies rest on each other, pressed together, when the copy is made")
        let (copy, copyItems) = try makeScene()
        copy.adoptState(of: original)
        #expect(Scene.stateHash(copyItems) == Scene.stateHash(originalItems))
        Scene.run(copy, from: 3, to: 8)
        Scene.run(original, from: 3, to: 8)
        Scene.run(untouched, from: 3, to: 8)
        let expected = Scene.stateHash(untouchedItems)
        #expect(Scene.stateHash(copyItems) == expected)
        #expect(Scene.stateHash(originalItems) == expected)
        #expect(copy.elapsedTime == untouched.elapsedTime)
    }
}
