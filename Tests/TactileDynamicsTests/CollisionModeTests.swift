import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Who collides with whom, and with which boundaries.
@Suite struct CollisionModeTests {
    func drop(
        onto boundary: (CollisionBehavior) throws -> Void,
        mode: CollisionBehavior.Mode = .everything,
        item: DynamicItem = Scene.ball(100, 50), seconds: Double = 2
    ) throws -> DynamicItem {
        let animator = Scene.animator(Rect(x: 0, y: 0, width: 200, height: 200))
        let collision = CollisionBehavior(items: [item])
        collision.collisionMode = mode
        try boundary(collision)
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: [item]))
        Scene.run(animator, to: seconds)
        return item
    }

    @Test func referenceBoundsWithInsetsHoldItems() throws {
        let ball = try drop(onto: {
            try $0.setTranslatesReferenceBoundsIntoBoundary(with: EdgeInsets(bottom: 40))
        })
        expectClose(ball.center.y, 200 - 40 - 10, within: 0.05)
        let fallen = try drop(
            onto: { $0.translatesReferenceBoundsIntoBoundary = true }, mode: .items)
        #expect(fallen.center.y > 1000)
    }

    @Test func namedSegmentAndPathBoundaries() throws {
        let onSegment = try drop(onto: {
            try $0.addBoundary(
                withIdentifier: "shelf", from: Point(x: 0, y: 120), to: Point(x: 200, y: 120))
        })
        expectClose(onSegment.center.y, 110, within: 0.05)
        // A V-shaped path: the ball settles at the bottom of the V.
        var v = Path()
        v.move(to: Point(x: 20, y: 80))
        v.addLine(to: Point(x: 100, y: 160))
        v.addLine(to: Point(x: 180, y: 80))
        let inV = try drop(
            onto: { try $0.addBoundary(withIdentifier: "v", for: v) },
            item: Scene.ball(70, 40), seconds: 4)
        expectClose(inV.center.x, 100, within: 0.5)
        expectClose(inV.center.y, 160 - 10 * 2.squareRoot(), within: 0.2)
        let collision = CollisionBehavior()
        try collision.addBoundary(withIdentifier: "a", from: .zero, to: Point(x: 1, y: 0))
        #expect(collision.boundaryIdentifiers == ["a"])
        #expect(collision.boundary(withIdentifier: "a") != nil)
        collision.removeBoundary(withIdentifier: "a")
        #expect(collision.boundaryIdentifiers.isEmpty)
        #expect(throws: DynamicsError.self) {
            try collision.addBoundary(withIdentifier: "dot", from: .zero, to: .zero)
        }
    }

    @Test func boundaryOnlyItemsPassThroughEachOther() throws {
        let animator = Scene.animator()
        let a = Scene.ball(0, 0)
        let b = Scene.ball(100, 0)
        let collision = CollisionBehavior(items: [a, b])
        collision.collisionMode = .boundaries
        try animator.addBehavior(collision)
        let properties = Scene.properties([a, b], .init())
        try animator.addBehavior(properties)
        try properties.addLinearVelocity(Vector(dx: 100, dy: 0), for: a)
        Scene.run(animator, to: 2)
        expectClose(a.center.x, 200, within: 0.01)
        #expect(b.center.x == 100)
    }

    @Test func rotatedBoxesStackAndSettle() throws {
        let animator = Scene.animator(Rect(x: 0, y: 0, width: 300, height: 300))
        let boxes = (0..<4).map {
            Scene.box(150, 260 - Double($0) * 45, 60, 40, rotation: 0.05 * Double($0))
        }
        let collision = CollisionBehavior(items: boxes)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: boxes))
        try animator.addBehavior(Scene.properties(boxes, .init(friction: 0.6)))
        Scene.run(animator, to: 4)
        for (i, box) in boxes.enumerated() {
            expectClose(box.center.y, 300 - 20 - 40 * Double(i), within: 1)
            expectClose(remainder(box.rotation, .pi / 2), 0, within: 0.02)
        }
    }

    @Test func convexPathItemsLandOnTheirFlatSide() throws {
        // A triangle, wide side down, relative to its centre.
        var triangle = Path()
        triangle.move(to: Point(x: -30, y: 15))
        triangle.addLine(to: Point(x: 30, y: 15))
        triangle.addLine(to: Point(x: 0, y: -15))
        triangle.closeSubpath()
        let item = try DynamicItem(
            center: Point(x: 100, y: 60), size: Size(width: 60, height: 30), rotation: 0.2,
            collisionBoundsType: .path(triangle))
        let landed = try drop(
            onto: { $0.translatesReferenceBoundsIntoBoundary = true }, item: item, seconds: 4)
        // Base flat on the floor: the item's centre (its bounds' centre) half its height up.
        let rotation = remainder(landed.rotation, 2 * .pi)
        expectClose(rotation, 0, within: 0.01)
        expectClose(landed.center.y, 200 - 15, within: 0.1)
    }

    @Test func itemToItemSlidingKeepsTheAxisInTheFirstItemsFrame() throws {
        let animator = Scene.animator()
        let rail = Scene.box(0, 0, 100, 10, rotation: .pi / 6)
        let bead = Scene.box(0, 0, 10, 10, rotation: .pi / 6)
        let slide = try AttachmentBehavior.slidingAttachment(
            with: rail, attachedTo: bead, attachmentAnchor: .zero,
            axisOfTranslation: Vector(dx: 1, dy: 0))
        try slide.setAttachmentRange(-40...40)
        try animator.addBehavior(slide)
        try animator.addBehavior(Scene.properties([rail], .init(isAnchored: true)))
        try animator.addBehavior(GravityBehavior(items: [bead]))
        Scene.run(animator, to: 2)
        // Down the rail tilted 30° to the lower end: 40 points along it.
        expectClose(bead.center, Point(x: 40 * cos(.pi / 6), y: 40 * sin(.pi / 6)), within: 0.1)
        expectClose(bead.rotation, .pi / 6, within: 1e-6)
    }
}
