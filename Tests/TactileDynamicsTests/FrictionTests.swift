import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Coulomb friction against its closed forms: a box on an incline holds below the friction
/// angle and slides with acceleration g(sin θ − μ cos θ) above it; a box sliding on level
/// ground slows at μ·g; two items combine their friction as √(μ₁·μ₂).
@Suite struct FrictionTests {
    static let g = GravityBehavior.pointsPerSecondSquared

    /// A 40×20 box resting on an incline of `degrees` (falling to the right, y down), with
    /// the given friction. Returns the distance slid down the slope at each of the times.
    static func slide(
        degrees: Double, friction: Double, at times: [Double], softContacts: Bool = false
    ) throws -> [Double] {
        let theta = degrees * .pi / 180
        let animator = Scene.animator(softContacts: softContacts)
        let down = Vec2(cos(theta), sin(theta))
        let up = Vec2(sin(theta), -cos(theta))
        let start = Vec2(-900 * down.x, -900 * down.y)
        let end = Vec2(900 * down.x, 900 * down.y)
        let center = Vec2(-300 * down.x, -300 * down.y) + up * 10
        let box = Scene.box(center.x, center.y, 40, 20, rotation: theta)
        let collision = CollisionBehavior(items: [box])
        try collision.addBoundary(
            withIdentifier: "slope", from: Point(x: start.x, y: start.y),
            to: Point(x: end.x, y: end.y))
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: [box]))
        try animator.addBehavior(Scene.properties([box], .init(friction: friction)))
        var distances: [Double] = []
        for t in times {
            animator.advance(to: t)
            distances.append(
                (box.center.x - center.x) * down.x + (box.center.y - center.y) * down.y)
        }
        return distances
    }

    /// The acceleration from distances at t = 0.5, 1, 1.5 s (exact for constant acceleration).
    static func acceleration(_ d: [Double]) -> Double { (d[2] - 2 * d[1] + d[0]) / (0.5 * 0.5) }

    @Test(arguments: [(30.0, 0.3), (30.0, 0.0), (45.0, 0.5), (20.0, 0.2)])
    func slidesDownAnInclineAtTheCoulombRate(degrees: Double, friction: Double) throws {
        let d = try Self.slide(degrees: degrees, friction: friction, at: [0, 0.5, 1, 1.5])
        let theta = degrees * .pi / 180
        let expected = Self.g * (sin(theta) - friction * cos(theta))
        let measured = Self.acceleration(Array(d.dropFirst()))
        #expect(
            abs(measured - expected) <= 0.02 * expected, "a = \(measured), expected \(expected)")
    }

    @Test(arguments: [(30.0, 0.7), (20.0, 0.4), (10.0, 0.2)])
    func holdsOnAnInclineBelowTheFrictionAngle(degrees: Double, friction: Double) throws {
        #expect(tan(degrees * .pi / 180) < friction)
        let d = try Self.slide(degrees: degrees, friction: friction, at: [0.5, 3])
        // Settling onto the slope may shift it by a hair; after that it must not creep.
        #expect(abs(d[0]) < 0.2, "slid \(d[0]) points while settling")
        #expect(abs(d[1] - d[0]) < 0.05, "crept \(d[1] - d[0]) points in 2.5 s")
    }

    /// A 40×20 box on level ground launched at `speed`; returns its speed at the given times.
    static func speeds(
        speed: Double, friction: Double, groundFriction: Double? = nil, at times: [Double]
    ) throws -> [Double] {
        let animator = Scene.animator()
        let box = Scene.box(0, 990, 40, 20)
        let items: [DynamicItem]
        let collision: CollisionBehavior
        if let groundFriction {
            // The ground is an anchored item with its own friction.
            let ground = Scene.box(0, 1050, 4000, 100)
            items = [box, ground]
            collision = CollisionBehavior(items: items)
            try animator.addBehavior(
                Scene.properties([ground], .init(friction: groundFriction, isAnchored: true)))
        } else {
            items = [box]
            collision = CollisionBehavior(items: items)
            try collision.addBoundary(
                withIdentifier: "floor", from: Point(x: -1900, y: 1000),
                to: Point(x: 1900, y: 1000))
        }
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: [box]))
        let properties = Scene.properties([box], .init(friction: friction))
        try animator.addBehavior(properties)
        animator.advance(to: 0)
        try properties.addLinearVelocity(Vector(dx: speed, dy: 0), for: box)
        return times.map { t in
            animator.advance(to: t)
            return box.velocity.dx
        }
    }

    @Test(arguments: [0.2, 0.5, 1.0])
    func slidingBoxSlowsAtMuG(friction: Double) throws {
        let v = try Self.speeds(speed: 400, friction: friction, at: [0.1, 0.3])
        let deceleration = (v[0] - v[1]) / 0.2
        let expected = friction * Self.g
        #expect(
            abs(deceleration - expected) <= 0.02 * expected,
            "slowed at \(deceleration), expected \(expected)")
    }

    @Test func slidingBoxStopsWhereCoulombSays() throws {
        // v² = 2·μ·g·d: from 300 points/s at μ = 0.5 it stops after 90 points and stays.
        let animator = Scene.animator()
        let box = Scene.box(0, 990, 40, 20)
        let collision = CollisionBehavior(items: [box])
        try collision.addBoundary(
            withIdentifier: "floor", from: Point(x: -1900, y: 1000), to: Point(x: 1900, y: 1000))
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: [box]))
        let properties = Scene.properties([box], .init(friction: 0.5))
        try animator.addBehavior(properties)
        animator.advance(to: 0)
        try properties.addLinearVelocity(Vector(dx: 300, dy: 0), for: box)
        Scene.run(animator, to: 2)
        expectClose(box.center.x, 90, within: 90 * 0.02)
        expectClose(box.velocity.dx, 0, within: 1e-6)
    }

    @Test func frictionlessBoxKeepsSliding() throws {
        let v = try Self.speeds(speed: 400, friction: 0, at: [0.1, 1])
        expectClose(v[0], 400, within: 1e-6)
        expectClose(v[1], 400, within: 1e-6)
    }

    @Test func itemsCombineFrictionAsTheGeometricMean() throws {
        // 0.8 on 0.2 slides like μ = √0.16 = 0.4.
        let v = try Self.speeds(speed: 400, friction: 0.8, groundFriction: 0.2, at: [0.1, 0.3])
        let deceleration = (v[0] - v[1]) / 0.2
        expectClose(deceleration, 0.4 * Self.g, within: 0.02 * 0.4 * Self.g)
        // Either item frictionless: no friction at all.
        let free = try Self.speeds(speed: 400, friction: 0.8, groundFriction: 0, at: [0.1, 0.3])
        expectClose(free[1], free[0], within: 1e-6)
    }
}
