import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// The grid finds the contacts that testing every pair of shapes finds, whatever size its
/// cells are given.
@Suite struct GridBroadPhaseTests {
    /// `count` balls of radius 4–8 scattered in a box, with one large box among them when
    /// `withLargeBox` (which makes the grid's cells smaller than the largest shape).
    func makeScene(count: Int, withLargeBox: Bool) throws -> DynamicAnimator {
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: 0, y: 0, width: 400, height: 400), timeStep: 1.0 / 240,
            positionIterations: 3)
        var random = SeededGenerator(seed: 11)
        var items: [DynamicItem] = (0..<count).map { _ in
            Scene.ball(
                Double.random(in: 20...380, using: &random),
                Double.random(in: 20...380, using: &random),
                radius: Double.random(in: 4...8, using: &random))
        }
        if withLargeBox { items.append(Scene.box(200, 200, 70, 50, rotation: 0.3)) }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: items))
        animator.advance(to: 0)
        animator.advance(to: 0.05)
        return animator
    }

    /// The shape pairs of a world's contacts, in order (a pair found twice shows twice).
    func pairs(_ world: borrowing World) -> [[Int]] {
        world.contacts.elements.map { [$0.shapeA, $0.shapeB].sorted() }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
    }

    @Test(arguments: [false, true])
    func theGridFindsWhatEveryPairFinds(withLargeBox: Bool) throws {
        let animator = try makeScene(count: 300, withLargeBox: withLargeBox)
        var world = World(copying: animator.world)
        world.updateShapes()
        world.findContacts()
        let found = pairs(world)
        let largest = world.shapes.elements.filter { $0.boundary < 0 }.map {
            max($0.maxX - $0.minX, $0.maxY - $0.minY)
        }.max()!
        let cell = 1 / world.grid.inverseCell
        if withLargeBox {
            #expect(cell < largest / 2, "cells smaller than the large box: it spans several")
        } else {
            #expect(cell >= largest, "cells as large as the largest ball")
        }
        // Every pair of shapes, tested one by one.
        world.contacts.removeAll()
        for a in world.shapes.indices {
            for b in world.shapes.indices where b > a {
                guard world.boundsOverlap(a, b), world.shouldCollide(a, b) else { continue }
                world.collide(a, b)
            }
        }
        let everyPair = pairs(world)
        #expect(found.count > 150, "the balls touch each other, the walls and the box")
        #expect(found == everyPair)
    }
}
