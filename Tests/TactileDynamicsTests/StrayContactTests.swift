import Foundation
import TactileCore
import Testing

@testable import TactileDynamics

/// Between detections, the contacts of bodies that strayed are found again on their own
/// (`findContactsAroundStrays`). The judge is a search of every contact, from the same state.
@Suite struct StrayContactTests {
    /// Balls of several sizes poured into a box from staggered heights, bouncing a little: a
    /// scene of more than 64 shapes, so contacts serve several steps, in which balls keep
    /// landing and striking each other.
    func pour(soft: Bool) throws -> DynamicAnimator {
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: 0, y: 0, width: 300, height: 600),
            timeStep: 1.0 / 240, positionIterations: soft ? 1 : 3, softContacts: soft)
        var balls: [DynamicItem] = []
        for i in 0..<240 {
            let radius = 5 + Double(i % 4)
            let x = 20 + Double(i % 13) * 20 + Double(i / 13 % 3) * 3
            let y = 560 - Double(i / 13) * 19
            balls.append(Scene.ball(x, y, radius: radius))
        }
        let collision = CollisionBehavior(items: balls)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: balls))
        try animator.addBehavior(Scene.properties(balls, .init(elasticity: 0.3, friction: 0.4)))
        return animator
    }

    /// Each time the next step will find only the strays' contacts, the step is taken twice
    /// from copies of the world: as it will be, and with every contact searched for. Every
    /// pair with a stray that the full search finds touching or overlapping must have its
    /// contact in the first, once. A pair of other bodies keeps the contacts found at the last
    /// search: what each has strayed since (less than its drift limit) may have brought them
    /// into touch unseen, no deeper than the two limits.
    @Test(arguments: [false, true])
    func everyTouchingPairKeepsItsContact(soft: Bool) throws {
        let animator = try pour(soft: soft)
        var compared = 0
        var touching = 0
        var unseen = 0
        for t in FrameTimes(from: 0, to: 2, rate: 240) {
            animator.advance(to: t)
            guard animator.world.stepsUntilDetection > 0, !animator.world.strays.isEmpty,
                animator.world.strays.count * 16 <= animator.world.bodies.count
            else { continue }
            let strays = Set(animator.world.strays.elements)
            var local = World(copying: animator.world)
            var full = World(copying: animator.world)
            full.stepsUntilDetection = 0
            let searches = local.strayDetections
            local.step()
            full.step()
            #expect(local.strayDetections == searches + 1, "the step searched around strays")
            var pairs: [Int: Int] = [:]
            // (A contact left vacant in its lane has no points.)
            for c in local.contacts.elements where c.pointCount > 0 {
                pairs[c.shapeA << 20 | c.shapeB, default: 0] += 1
            }
            #expect(pairs.values.allSatisfy { $0 == 1 }, "a pair has one contact at \(t) s")
            for c in full.contacts.elements {
                let closest =
                    c.pointCount == 2
                    ? min(c.first.preparedSeparation, c.second.preparedSeparation)
                    : c.first.preparedSeparation
                guard closest <= 0 else { continue }
                touching += 1
                guard pairs[c.shapeA << 20 | c.shapeB] == nil else { continue }
                #expect(
                    !strays.contains(c.bodyA) && !strays.contains(c.bodyB),
                    "shapes \(c.shapeA) and \(c.shapeB) touch (\(closest)) but lost their contact at \(t) s"
                )
                let limits = local.bodies[c.bodyA].driftLimit + local.bodies[c.bodyB].driftLimit
                #expect(-closest < limits, "unseen overlap \(-closest) at \(t) s")
                unseen += 1
            }
            compared += 1
        }
        #expect(compared >= 20, "steps that searched around strays: \(compared)")
        #expect(touching > 1000)
        #expect(unseen < touching / 100, "\(unseen) of \(touching) touching pairs unseen")
    }
}
