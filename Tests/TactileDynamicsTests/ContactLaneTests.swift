import Foundation
import TactileCore
import Testing

@testable import TactileDynamics

/// Contacts of one colour solved four at a time in lanes give what solving them one after
/// another gives, to the bit: the judge is the same scene run with the lanes turned off.
@Suite struct ContactLaneTests {
    /// Boxes and balls dropped into a box, so that they come to rest on each other: contacts
    /// of one point (balls) and two (boxes on boxes, solved as a pair or one at a time), with
    /// friction, restitution, a spring and a push; enough shapes (over 64) for the contacts to
    /// be reused and ordered by colour. With `soft` contacts, every contact is soft.
    func makeScene(lanes: Bool, soft: Bool) throws -> (DynamicAnimator, [DynamicItem]) {
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: 0, y: 0, width: 400, height: 400),
            timeStep: 1.0 / 240, positionIterations: soft ? 1 : 3, softContacts: soft)
        animator.world.solvesInLanes = lanes
        var items: [DynamicItem] = []
        for i in 0..<150 {
            let x = 25 + Double(i % 15) * 24 + Double(i / 15) * 2
            let y = 30 + Double(i / 15) * 26
            items.append(
                i.isMultiple(of: 4) ? Scene.ball(x, y, radius: 8) : Scene.box(x, y, 20, 14))
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: items))
        try animator.addBehavior(Scene.properties(items, .init(elasticity: 0.2, friction: 0.6)))
        let spring = try AttachmentBehavior(item: items[5], attachedToAnchor: Point(x: 200, y: 80))
        try spring.setFrequency(1)
        try spring.setDamping(0.3)
        try animator.addBehavior(spring)
        let push = PushBehavior(items: [items[9]], mode: .continuous)
        try push.setAngle(0, magnitude: 0.3)
        try animator.addBehavior(push)
        return (animator, items)
    }

    /// Rigid contacts (points in pairs and one at a time) and soft ones (one at a time, a
    /// spring while solving, relaxed after the move).
    @Test(arguments: [false, true])
    func lanesGiveTheOneAtATimeResultToTheBit(soft: Bool) throws {
        let (inLanes, laneItems) = try makeScene(lanes: true, soft: soft)
        let (oneByOne, items) = try makeScene(lanes: false, soft: soft)
        var groupsSeen = 0
        var blocksSeen = false
        var onePointSeen = false
        var vacantSeen = false
        var framesCompared = 0
        for t in FrameTimes(from: 0, to: 6, rate: 60) {
            inLanes.advance(to: t)
            oneByOne.advance(to: t)
            if inLanes.world.contactsAreInLanes {
                groupsSeen = max(groupsSeen, inLanes.world.laneGroups.count)
                for group in inLanes.world.laneGroups.elements {
                    if any(group.isBlock) { blocksSeen = true }
                    if !group.hasSecondPoint { onePointSeen = true }
                }
                // Contacts of strays, found again, leave their lanes vacant.
                if inLanes.world.contacts.elements.contains(where: { $0.pointCount == 0 }) {
                    vacantSeen = true
                }
            }
            let oneByOneInLanes = oneByOne.world.contactsAreInLanes
            #expect(!oneByOneInLanes)
            #expect(Scene.stateHash(laneItems) == Scene.stateHash(items), "at \(t) s")
            framesCompared += 1
            if Scene.stateHash(laneItems) != Scene.stateHash(items) { break }
        }
        #expect(framesCompared == 361)
        #expect(groupsSeen > 20, "the contacts were solved in lanes")
        #expect(blocksSeen && onePointSeen, "lanes held paired points and balls' single points")
        let searches = inLanes.contactSearches
        #expect(searches.aroundStrays > 0, "contacts were found around strays too: \(searches)")
        #expect(vacantSeen, "lanes were left vacant by strays' contacts")
        #expect(inLanes.isRunning || inLanes.elapsedTime > 1)
    }
}
