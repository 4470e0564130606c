import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Soft contacts (the soft step): each contact a stiff, damped spring while solving, a rigid
/// contact again after the move. Judged against Hooke's law for the spring the contact is
/// documented to be, Coulomb's law on an incline, and a standing pyramid.
@Suite struct SoftContactTests {
    static let g = GravityBehavior.pointsPerSecondSquared

    /// A column of twelve 20-point boxes on the floor, each placed just touching the one below,
    /// sinks by what its contacts' springs give under the weight above them (Hooke's law): at
    /// each contact, the contact slop plus force / stiffness. A contact's two points are solved
    /// together, so pressed evenly it is one spring of stiffness μ · ω² along the normal, with μ
    /// the mass its two bodies move with against each other (m/2 between two boxes of mass m,
    /// m on the floor, which does not move) and ω = 2π × its frequency (twice the frequency
    /// against the floor). So between two boxes with n boxes' weight above: 2·n·g / ω².
    @Test(arguments: [(1.0 / 240, 1), (1.0 / 240, 3), (1.0 / 600, 2)] as [(Double, Int)])
    func columnSinksAsItsContactSpringsSay(timeStep: Double, passes: Int) throws {
        let count = 12
        let boxes = (0..<count).map { Scene.box(0, 990 - Double($0) * 20, 20, 20) }
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: -1000, y: 0, width: 2000, height: 1000), timeStep: timeStep,
            positionIterations: passes, softContacts: true)
        let collision = CollisionBehavior(items: boxes)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: boxes))
        let top = boxes[count - 1]
        let start = top.center.y
        Scene.run(animator, to: 8)
        let slop = animator.world.contactSlop
        let hertz = min(animator.world.contactHertz, 0.25 / timeStep)
        let omega = 2 * Double.pi * hertz
        let floorOmega = 2 * omega
        var expected: Double = slop + Double(count) * Self.g / (floorOmega * floorOmega)
        for above in 1..<count {
            expected += slop + 2 * Double(above) * Self.g / (omega * omega)
        }
        let sink = top.center.y - start
        #expect(
            abs(sink - expected) <= 0.02 * expected, "sank \(sink) points, springs say \(expected)")
        // Pressed evenly, it neither slides nor turns.
        #expect(boxes.allSatisfy { abs($0.center.x) < 1e-6 && abs($0.rotation) < 1e-6 })
        #expect(!animator.isRunning, "the column came to rest")
    }

    @Test(arguments: [(30.0, 0.3), (45.0, 0.5)])
    func slidesDownAnInclineAtTheCoulombRate(degrees: Double, friction: Double) throws {
        let d = try FrictionTests.slide(
            degrees: degrees, friction: friction, at: [0, 0.5, 1, 1.5], softContacts: true)
        let theta = degrees * .pi / 180
        let expected = Self.g * (sin(theta) - friction * cos(theta))
        let measured = FrictionTests.acceleration(Array(d.dropFirst()))
        #expect(
            abs(measured - expected) <= 0.02 * expected, "a = \(measured), expected \(expected)")
    }

    @Test func holdsOnAnInclineBelowTheFrictionAngle() throws {
        let d = try FrictionTests.slide(
            degrees: 20, friction: 0.4, at: [0.5, 3], softContacts: true)
        #expect(abs(d[0]) < 0.2, "slid \(d[0]) points while settling")
        #expect(abs(d[1] - d[0]) < 0.05, "crept \(d[1] - d[0]) points in 2.5 s")
    }

    /// Two balls placed 6 points into each other, without gravity, are pushed apart by the
    /// spring; the pass after each move takes the spring's speed back, so they end apart and
    /// all but still, the centre of mass where it was.
    @Test func overlappingBallsPartAndStop() throws {
        let animator = Scene.animator(timeStep: 1.0 / 240, softContacts: true)
        let balls = [Scene.ball(0, 0), Scene.ball(14, 0)]
        try animator.addBehavior(CollisionBehavior(items: balls))
        Scene.run(animator, to: 3)
        let gap = balls[0].center.distance(to: balls[1].center) - 20
        #expect(gap > -0.05 && gap < 0.5, "gap \(gap) points")
        #expect(abs(balls[0].center.x + balls[1].center.x - 14) < 1e-9)
        for ball in balls {
            #expect(animator.velocity(of: ball).linear.length < 0.5)
        }
    }

    /// The benchmark's pyramid, 12 rows, at its step with one pass: it stands, sinking less
    /// than a point (its springs) and spreading less than half a point.
    @Test func pyramidStandsWithOnePass() throws {
        let boxes = StackingTests.pyramid(rows: 12)
        let starts = boxes.map(\.center)
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: -1000, y: 0, width: 2000, height: 1000),
            timeStep: 1.0 / 240, positionIterations: 1, softContacts: true)
        let collision = CollisionBehavior(items: boxes)
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: boxes))
        try animator.addBehavior(Scene.properties(boxes, .init(friction: 0.6)))
        Scene.run(animator, to: 3)
        let moved = zip(boxes, starts).map { $0.center.distance(to: $1) }.max()!
        let sideways = zip(boxes, starts).map { abs($0.center.x - $1.x) }.max()!
        let tilt = boxes.map { abs(remainder($0.rotation, .pi / 2)) }.max()! * 180 / .pi
        #expect(moved < 1, "a box moved \(moved) points")
        #expect(sideways < 0.5, "a box slid \(sideways) points sideways")
        #expect(tilt < 1, "a box tilted \(tilt)°")
    }
}

/// Soft contacts between unequal masses.
@Suite struct SoftContactMassTests {
    /// A box ten times as heavy as the one it rests on: the light box is squeezed by what the
    /// springs give under that weight (Hooke's law, as in `SoftContactTests`, with μ the
    /// reduced mass 10m · m / 11m), and the pair stands exactly upright. (At a hundred times,
    /// with rigid or soft contacts alike, the light box squirts out from under within seconds.)
    @Test func aHeavyBoxOnALightOneSinksAsTheSpringsSay() throws {
        let light = Scene.box(0, 990, 20, 20)
        let heavy = Scene.box(0, 970, 20, 20)
        let animator = try DynamicAnimator(
            referenceBounds: Rect(x: -1000, y: 0, width: 2000, height: 1000),
            timeStep: 1.0 / 240, positionIterations: 1, softContacts: true)
        let collision = CollisionBehavior(items: [light, heavy])
        collision.translatesReferenceBoundsIntoBoundary = true
        try animator.addBehavior(collision)
        try animator.addBehavior(GravityBehavior(items: [light, heavy]))
        try animator.addBehavior(Scene.properties([heavy], .init(density: 10)))
        Scene.run(animator, to: 6)
        let g = GravityBehavior.pointsPerSecondSquared
        let slop = animator.world.contactSlop
        let omega = 2 * Double.pi * min(animator.world.contactHertz, 60)
        // Between the boxes: 10 m g over (10m/11) ω². On the floor: 11 m g over m (2ω)².
        let between = slop + 11 * g / (omega * omega)
        let floor = slop + 11 * g / (4 * omega * omega)
        let sink = heavy.center.y - 970
        #expect(abs(sink - (between + floor)) <= 0.02 * (between + floor), "sank \(sink)")
        #expect(abs(light.center.y - 990 - floor) <= 0.02 * floor)
        #expect(abs(heavy.center.x) < 1e-6 && abs(heavy.rotation) < 1e-6)
    }
}
