import Foundation
import TactileCore
import Testing

@testable import TactileDynamics

/// Between detections, the contacts of bodies that strayed are found again on their own
/// (`findContactsAroundStrays`). The judge is a search of every contact, from the same state.
@Suite struct StrayContactTests {
    /// Balls of several sizes and boxes poured into a box from staggered heights, bouncing a
    /// little: a scene of more than 64 shapes, so contacts serve several steps, in which items
    /// keep landing and striking each other. With `groups`, every twelfth ball is joined to
    /// the box after it into one body of two shapes.
    func pour(soft: Bool, groups: Bool = false) throws -> DynamicAnimator {
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: 0, y: 0, width: 300, height: 600),
            timeStep: 1.0 / 240, positionIterations: soft ? 1 : 3, softContacts: soft)
        var items: [DynamicItem] = []
        var pending: DynamicItem?
        for i in 0..<240 {
            let x = 20 + Double(i % 13) * 20 + Double(i / 13 % 3) * 3
            let y = 560 - Double(i / 13) * 19
            let item =
                i % 3 == 2
                ? Scene.box(x, y, 12, 10, rotation: Double(i % 5) * 0.2)
                : Scene.ball(x, y, radius: 5 + Double(i % 4))
            if groups && i % 12 == 1 {
                pending = item
                continue
            }
            if let ball = pending {
                items.append(try DynamicItemGroup(items: [ball, item]))
                pending = nil
            } else {
                items.append(item)
            }
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: items))
        try animator.addBehavior(Scene.properties(items, .init(elasticity: 0.3, friction: 0.4)))
        return animator
    }

    /// Each time the next step will find only the strays' contacts, the step is taken twice
    /// from copies of the world: as it will be, and with every contact searched for. Every
    /// pair with a stray that the full search finds touching or overlapping must have its
    /// contact in the first, once. A pair of other bodies keeps the contacts found at the last
    /// search: what each has strayed since (less than its drift limit) may have brought them
    /// into touch unseen, no deeper than the two limits.
    @Test(arguments: [false, true], [false, true])
    func everyTouchingPairKeepsItsContact(soft: Bool, groups: Bool) throws {
        let animator = try pour(soft: soft, groups: groups)
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

    /// Items come and go while shapes are bound again around strays (every quarter second an
    /// item group of two shapes is taken out and a ball put in, which compiles the world again
    /// and renumbers its shapes but not how many bodies there are): at every step, a body is
    /// marked as bound again only if one of its shapes is listed as bound again, so no body's
    /// pairs are skipped in the grid for a mark left from before.
    @Test func itemsComingAndGoingLeaveNoStaleMarks() throws {
        let animator = try pour(soft: true, groups: true)
        let collision = animator.behaviors.compactMap { $0 as? CollisionBehavior }.first!
        let gravity = animator.behaviors.compactMap { $0 as? GravityBehavior }.first!
        let properties = animator.behaviors.compactMap { $0 as? DynamicItemBehavior }.first!
        var rebuiltBoundAgain = 0
        for (n, t) in FrameTimes(from: 0, to: 2, rate: 240).enumerated() {
            if n > 0 && n % 60 == 0 {
                if !animator.world.shapesBoundAgain.isEmpty { rebuiltBoundAgain += 1 }
                let gone = collision.items.first { $0 is DynamicItemGroup }!
                let ball = Scene.ball(150, 40, radius: 6)
                for behavior in [collision, gravity, properties] as [ItemListBehavior] {
                    behavior.removeItem(gone)
                    behavior.addItem(ball)
                }
            }
            animator.advance(to: t)
            let world = (
                listed: Set(
                    animator.world.shapesBoundAgain.elements.map { animator.world.shapes[$0].body }),
                marks: animator.world.boundAgain.elements
            )
            for (body, marked) in world.marks.enumerated() where marked {
                #expect(world.listed.contains(body), "body \(body) marked at \(t) s")
            }
        }
        #expect(rebuiltBoundAgain > 0, "the world was compiled again while shapes were bound again")
    }
}
