import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// The engine against closed forms and conservation laws.
@Suite struct PhysicsLawTests {
    @Test func freeFallCoversHalfGTSquared() throws {
        let animator = Scene.animator()
        let ball = Scene.ball(0, 0)
        try animator.addBehavior(GravityBehavior(items: [ball]))
        animator.advance(to: 0)
        animator.advance(to: 0.5)
        let expected = 0.5 * 1000 * 0.25
        // Semi-implicit Euler falls ½g·h·t further than the closed form; h/t is 1/300 here.
        expectClose(ball.center.y, expected, within: expected * 0.005)
        expectClose(ball.velocity.dy, 1000 * 0.5, within: 1e-6)
    }

    @Test(arguments: [(160.0, 1.0), (80.0, 2.5), (400.0, 0.5)])
    func smallAnglePendulumPeriod(length: Double, gravity: Double) throws {
        let animator = Scene.animator()
        let theta = 2.0 * .pi / 180
        let ball = Scene.ball(length * sin(theta), length * cos(theta))
        let g = GravityBehavior(items: [ball])
        try g.setAngle(.pi / 2, magnitude: gravity)
        try animator.addBehavior(g)
        try animator.addBehavior(AttachmentBehavior(item: ball, attachedToAnchor: .zero))
        // Zero crossings of x, found between single steps and interpolated.
        var crossings: [Double] = []
        var previous = (t: 0.0, x: ball.center.x)
        let h = animator.timeStep
        let expected = 2 * Double.pi * (length / (gravity * 1000)).squareRoot()
        var step = 0
        animator.advance(to: 0)
        while crossings.count < 5 {
            step += 1
            let t = Double(step) * h
            animator.advance(to: t)
            let x = ball.center.x
            if (previous.x > 0) != (x > 0) {
                crossings.append(previous.t + (t - previous.t) * previous.x / (previous.x - x))
            }
            previous = (t, x)
            #expect(t < 10 * expected)
        }
        // Four half periods between the first and fifth crossing.
        let period = (crossings[4] - crossings[0]) / 2
        expectClose(period, expected, within: expected * 0.01)
    }

    @Test func pendulumKeepsItsEnergyAndLength() throws {
        let animator = Scene.animator()
        let length = 160.0
        let theta = -30.0 * .pi / 180
        let ball = Scene.ball(length * sin(theta), length * cos(theta), radius: 20)
        try animator.addBehavior(GravityBehavior(items: [ball]))
        try animator.addBehavior(AttachmentBehavior(item: ball, attachedToAnchor: .zero))
        try animator.addBehavior(Scene.properties([ball], .init(allowsRotation: false)))
        func energy() -> Double {
            0.5 * ball.velocity.lengthSquared + 1000 * (length - ball.center.y)
        }
        let start = energy()
        var worst = 0.0
        Scene.run(animator, to: 10) { _ in
            worst = max(worst, abs(ball.center.distance(to: .zero) - length))
        }
        #expect(energy() / start > 0.99)
        #expect(worst < 0.1)
    }

    @Test func equalMassElasticHeadOnCollisionSwapsVelocities() throws {
        let animator = Scene.animator()
        let a = Scene.ball(-50, 0)
        let b = Scene.ball(50, 0)
        try animator.addBehavior(CollisionBehavior(items: [a, b]))
        let behavior = Scene.properties([a, b], .init(elasticity: 1))
        try animator.addBehavior(behavior)
        try behavior.addLinearVelocity(Vector(dx: 120, dy: 0), for: a)
        try behavior.addLinearVelocity(Vector(dx: -45, dy: 0), for: b)
        Scene.run(animator, to: 2)
        expectClose(a.velocity, Vector(dx: -45, dy: 0), within: 1e-9)
        expectClose(b.velocity, Vector(dx: 120, dy: 0), within: 1e-9)
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func momentumIsConservedInFreeCollisions(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let animator = Scene.animator()
        var items: [DynamicItem] = []
        var behaviors: [DynamicItemBehavior] = []
        for i in 0..<24 {
            let x = Double(i % 6) * 60 + Double.random(in: -5...5, using: &random)
            let y = Double(i / 6) * 60 + Double.random(in: -5...5, using: &random)
            let item =
                i.isMultiple(of: 3)
                ? Scene.box(x, y, 30, 20, rotation: Double.random(in: 0...3, using: &random))
                : Scene.ball(x, y, radius: Double.random(in: 8...20, using: &random))
            items.append(item)
            let behavior = Scene.properties(
                [item],
                .init(
                    elasticity: Double.random(in: 0...1, using: &random),
                    friction: Double.random(in: 0...0.5, using: &random),
                    density: Double.random(in: 0.5...3, using: &random)))
            behaviors.append(behavior)
            try animator.addBehavior(behavior)
        }
        try animator.addBehavior(CollisionBehavior(items: items))
        for (item, behavior) in zip(items, behaviors) {
            try behavior.addLinearVelocity(
                Vector(
                    dx: Double.random(in: -200...200, using: &random),
                    dy: Double.random(in: -200...200, using: &random)), for: item)
        }
        func momentum() -> (Double, Double) {
            let bodies = animator.world.bodies.elements.filter(\.isDynamic)
            return (
                bodies.reduce(0) { $0 + $1.mass * $1.velocity.x },
                bodies.reduce(0) { $0 + $1.mass * $1.velocity.y }
            )
        }
        animator.advance(to: 0)
        let before = momentum()
        Scene.run(animator, to: 2)
        let after = momentum()
        let scale = abs(before.0) + abs(before.1) + 1
        expectClose(after.0, before.0, within: 1e-9 * scale * 1000)
        expectClose(after.1, before.1, within: 1e-9 * scale * 1000)
    }

    @Test(arguments: [(2.0, 0.05), (1.0, 0.2), (4.0, 0.5)])
    func springFrequencyAndDampingRatio(frequency: Double, damping: Double) throws {
        let animator = Scene.animator()
        let ball = Scene.ball(0, 100)
        let spring = try AttachmentBehavior(item: ball, attachedToAnchor: .zero)
        try spring.setFrequency(frequency)
        try spring.setDamping(damping)
        try spring.setLength(80)
        try animator.addBehavior(spring)
        // Displacement from the rest length, sampled every step.
        var samples: [(t: Double, x: Double)] = []
        let h = animator.timeStep
        animator.advance(to: 0)
        for step in 1...Int(3 / frequency / h) {
            animator.advance(to: Double(step) * h)
            samples.append((Double(step) * h, ball.center.y - 80))
        }
        // Peaks (local maxima) give the damped period and the logarithmic decrement.
        var peaks: [(t: Double, x: Double)] = []
        for i in 1..<(samples.count - 1)
        where samples[i].x > samples[i - 1].x && samples[i].x >= samples[i + 1].x
            && samples[i].x > 0
        {
            peaks.append(samples[i])
        }
        try #require(peaks.count >= 2)
        let dampedPeriod = peaks[1].t - peaks[0].t
        let decrement = log(peaks[0].x / peaks[1].x)
        let zeta = decrement / (4 * .pi * .pi + decrement * decrement).squareRoot()
        let omegaD = 2 * Double.pi / dampedPeriod
        let natural = omegaD / (1 - zeta * zeta).squareRoot() / (2 * .pi)
        expectClose(natural, frequency, within: frequency * 0.02)
        expectClose(zeta, damping, within: damping * 0.02)
    }
}

/// A spring attachment with a force limit pulls no harder than the limit: an item far from
/// its anchor accelerates at exactly limit / mass (Newton's second law), and no faster.
@Suite struct ForceLimitedSpringTests {
    @Test func aSaturatedSpringAcceleratesAtTheLimitOverTheMass() throws {
        let animator = Scene.animator()
        // 100 × 100 points at density 1: mass 1. No gravity, no resistance.
        let box = Scene.box(0, 0, 100, 100)
        let drag = try AttachmentBehavior(item: box, attachedToAnchor: Point(x: 1500, y: 0))
        try drag.setLength(0)
        try drag.setFrequency(6)
        try drag.setDamping(1)
        try drag.setMaximumForce(400)
        try animator.addBehavior(drag)
        Scene.run(animator, to: 0.5)
        // Unlimited, this spring would pull with (2π·6)² · 1500 ≈ 2.1 million at the start.
        let speed = animator.velocity(of: box).linear.dx
        expectClose(speed, 400 * 0.5, within: 400 * 0.5 * 0.02)
        expectClose(box.center.x, 0.5 * 400 * 0.25, within: 0.5 * 400 * 0.25 * 0.03)
    }

    @Test func aLimitMustBePositive() throws {
        let box = Scene.box(0, 0, 100, 100)
        let drag = try AttachmentBehavior(item: box, attachedToAnchor: .zero)
        for bad in [0.0, -1, .nan] {
            #expect(throws: DynamicsError.self) { try drag.setMaximumForce(bad) }
        }
        #expect(drag.maximumForce == .infinity)
    }
}
