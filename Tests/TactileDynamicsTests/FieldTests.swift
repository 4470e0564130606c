import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Each field kind against its defining law.
@Suite struct FieldTests {
    /// One item in an otherwise empty animator, under `field`.
    func run(
        _ field: FieldBehavior, item: DynamicItem = Scene.ball(100, 0),
        properties: DynamicItemProperties = .init(), velocity: Vector = .zero, seconds: Double
    ) throws -> DynamicItem {
        // Frames of one step each, so even a single step's worth is simulated.
        let animator = Scene.animator()
        field.addItem(item)
        try animator.addBehavior(field)
        let behavior = Scene.properties([item], properties)
        try animator.addBehavior(behavior)
        if velocity != .zero { try behavior.addLinearVelocity(velocity, for: item) }
        Scene.run(animator, to: seconds, rate: 600)
        return item
    }

    @Test func linearGravityIsAThousandPointsPerSecondSquaredPerUnit() throws {
        let field = try FieldBehavior.linearGravityField(direction: Vector(dx: 1, dy: 0))
        try field.setStrength(0.5)
        let item = try run(field, seconds: 1)
        expectClose(item.velocity, Vector(dx: 500, dy: 0), within: 1e-6)
    }

    @Test func radialGravityPullsTowardsItsPositionAndFallsOff() throws {
        let field = try FieldBehavior.radialGravityField(position: .zero)
        try field.setFalloff(1)
        let near = try run(field, item: Scene.ball(100, 0), seconds: 1.0 / 60)
        let field2 = try FieldBehavior.radialGravityField(position: .zero)
        try field2.setFalloff(1)
        let far = try run(field2, item: Scene.ball(0, 200), seconds: 1.0 / 60)
        // At 100 points: 1,000 points/s²; at 200 with falloff 1: half, towards the centre.
        expectClose(near.velocity.dx, -1000.0 / 60, within: 0.2)
        expectClose(far.velocity.dy, -500.0 / 60, within: 0.1)
        expectClose(far.velocity.dx, 0, within: 1e-12)
    }

    @Test func springFieldOscillatesAtOneHertzPerUnitStrength() throws {
        let field = FieldBehavior.springField()
        try field.setStrength(4)  // ω² = 4 · (2π)²: 2 Hz.
        let item = try run(field, item: Scene.ball(50, 0), seconds: 0.25)
        // Half a period of 2 Hz later the item is at the other side.
        expectClose(item.center.x, -50, within: 0.5)
    }

    @Test func dragAndVelocityFields() throws {
        let drag = FieldBehavior.dragField()
        try drag.setStrength(2)
        let slowed = try run(drag, velocity: Vector(dx: 100, dy: 0), seconds: 1)
        expectClose(slowed.velocity.dx, 100 * exp(-2), within: 0.2)
        let wind = try FieldBehavior.velocityField(direction: Vector(dx: 0, dy: -1))
        try wind.setStrength(30)
        let carried = try run(wind, velocity: Vector(dx: 50, dy: 0), seconds: 0.2)
        expectClose(carried.velocity, Vector(dx: 0, dy: -30), within: 1e-9)
    }

    @Test func vortexPushesAcrossTheRadius() throws {
        let field = FieldBehavior.vortexField()
        let item = try run(field, item: Scene.ball(100, 0), seconds: 1.0 / 600)
        #expect(item.velocity.dy > 0)
        expectClose(item.velocity.dx, 0, within: 1e-9)
    }

    @Test func noiseIsDeterministicBoundedAndTurbulenceNeedsMotion() throws {
        func noisy() throws -> DynamicItem {
            try run(
                FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 2), seconds: 0.5)
        }
        let a = try noisy()
        let b = try noisy()
        #expect(a.center == b.center)
        #expect(a.velocity != .zero)
        #expect(a.velocity.length <= 1000 * 0.5 * 1.5)
        let still = try run(
            FieldBehavior.turbulenceField(smoothness: 0.2, animationSpeed: 1), seconds: 0.5)
        #expect(still.velocity == .zero)
        let moving = try run(
            FieldBehavior.turbulenceField(smoothness: 0.2, animationSpeed: 1),
            velocity: Vector(dx: 200, dy: 0), seconds: 0.5)
        #expect(moving.velocity != Vector(dx: 200, dy: 0))
    }

    @Test func electricFieldActsOnChargeOnly() throws {
        let neutral = try run(FieldBehavior.electricField(), seconds: 0.1)
        #expect(neutral.velocity == .zero)
        let charged = try run(
            FieldBehavior.electricField(), item: Scene.box(100, 0, 100, 100),
            properties: .init(charge: 2), seconds: 0.1)
        // Mass 1, charge 2, strength 1: 2,000 points/s² away from the field.
        expectClose(charged.velocity.dx, 200, within: 1e-6)
    }

    @Test func magneticFieldTurnsChargesAtConstantSpeed() throws {
        let field = FieldBehavior.magneticField()
        try field.setStrength(2 * .pi)  // Mass 1, charge 1: one turn per second.
        let item = try run(
            field, item: Scene.box(0, 0, 100, 100), properties: .init(charge: 1),
            velocity: Vector(dx: 100, dy: 0), seconds: 1)
        expectClose(item.velocity.length, 100, within: 1e-9)
        expectClose(item.velocity, Vector(dx: 100, dy: 0), within: 1)
        expectClose(item.center, .zero, within: 1)
    }

    @Test func customFieldRegionAndMinimumRadius() throws {
        let field = FieldBehavior.field { sample in
            Vector(dx: 0, dy: sample.mass * 100)
        }
        try field.setPosition(Point(x: 100, y: 0))
        try field.setRegion(.circle(radius: 20))
        let inside = try run(field, item: Scene.ball(100, 0), seconds: 0.1)
        expectClose(inside.velocity.dy, 10, within: 1e-9)
        let outside = FieldBehavior.field { _ in Vector(dx: 1, dy: 0) }
        try outside.setRegion(.inverse(.rectangle(Size(width: 1000, height: 1000))))
        #expect(try run(outside, seconds: 0.1).velocity == .zero)
        // A minimum radius caps the falloff's growth near the centre.
        let capped = try FieldBehavior.radialGravityField(position: .zero)
        try capped.setFalloff(2)
        try capped.setMinimumRadius(100)
        let close = try run(capped, item: Scene.ball(10, 0), seconds: 1.0 / 600)
        expectClose(close.velocity.dx, -1000.0 / 600, within: 1e-6)
    }
}
