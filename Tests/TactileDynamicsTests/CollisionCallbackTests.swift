import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Records what a collision behaviour reports.
final class ContactLog: CollisionBehaviorDelegate {
    var log: [String] = []
    var points: [Point] = []

    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item1: DynamicItem,
        with item2: DynamicItem, at point: Point
    ) {
        log.append("began items")
        points.append(point)
    }
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item1: DynamicItem,
        with item2: DynamicItem
    ) { log.append("ended items") }
    func collisionBehavior(
        _ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
        withBoundaryIdentifier identifier: String?, at point: Point
    ) {
        log.append("began \(identifier ?? "bounds")")
        points.append(point)
    }
    func collisionBehavior(
        _ behavior: CollisionBehavior, endedContactFor item: DynamicItem,
        withBoundaryIdentifier identifier: String?
    ) { log.append("ended \(identifier ?? "bounds")") }
}

/// Contact callbacks come once per contact episode.
@Suite struct CollisionCallbackTests {
    @Test func aRestingContactBeginsOnceAndNeverEnds() throws {
        let animator = Scene.animator(Rect(x: 0, y: 0, width: 200, height: 200))
        let box = Scene.box(100, 100, 40, 30)
        let collision = CollisionBehavior(items: [box])
        try collision.addBoundary(
            withIdentifier: "floor", from: Point(x: 0, y: 180), to: Point(x: 200, y: 180))
        let log = ContactLog()
        collision.collisionDelegate = log
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: [box]))
        Scene.run(animator, to: 3)
        #expect(log.log == ["began floor"])
        expectClose(log.points[0].y, 180, within: 0.5)
        expectClose(box.center.y, 180 - 15, within: 0.05)
        #expect(!animator.isRunning)
    }

    @Test func eachBounceIsOneEpisode() throws {
        let animator = Scene.animator(Rect(x: 0, y: 0, width: 200, height: 400))
        let ball = Scene.ball(100, 100)
        let collision = CollisionBehavior(items: [ball])
        collision.translatesReferenceBoundsIntoBoundary = true
        let log = ContactLog()
        collision.collisionDelegate = log
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: [ball]))
        try animator.addBehavior(Scene.properties([ball], .init(elasticity: 0.7)))
        // Count rebounds independently: the vertical velocity turning from down to up.
        var rebounds = 0
        var previous = 0.0
        animator.advance(to: 0)
        for step in 1...1800 {
            animator.advance(to: Double(step) / 600)
            if previous > 30 && ball.velocity.dy < 0 { rebounds += 1 }
            previous = ball.velocity.dy
        }
        let began = log.log.filter { $0 == "began bounds" }.count
        let ended = log.log.filter { $0 == "ended bounds" }.count
        #expect(rebounds >= 3)
        #expect(began == rebounds || began == rebounds + 1)
        #expect(ended == began || ended == began - 1)
        // Strictly alternating.
        for (i, entry) in log.log.enumerated() {
            #expect(entry == (i.isMultiple(of: 2) ? "began bounds" : "ended bounds"))
        }
    }

    @Test func itemsReportEachOtherOnceAndOnlyToTheirOwnBehaviour() throws {
        let animator = Scene.animator()
        let a = Scene.ball(0, 0)
        let b = Scene.ball(100, 0)
        let c = Scene.ball(200, 0)
        let first = CollisionBehavior(items: [a, b])
        let second = CollisionBehavior(items: [c])
        let firstLog = ContactLog()
        let secondLog = ContactLog()
        first.collisionDelegate = firstLog
        second.collisionDelegate = secondLog
        try animator.addBehavior(first)
        try animator.addBehavior(second)
        let properties = Scene.properties([a, b, c], .init(elasticity: 0))
        try animator.addBehavior(properties)
        try properties.addLinearVelocity(Vector(dx: 100, dy: 0), for: a)
        Scene.run(animator, to: 3)
        // a hits b (inelastic: they move on together), b passes through c.
        #expect(firstLog.log == ["began items"])
        expectClose(firstLog.points[0].x, 90, within: 1)
        #expect(secondLog.log.isEmpty)
        expectClose(b.velocity.dx, 50, within: 1e-6)
    }
}
