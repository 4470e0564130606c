import Foundation
import TactileCore
import TestSupport
import Testing

@testable import TactileDynamics

/// Invalid parameters are refused with messages naming the value and the range.
@Suite struct ValidationTests {
    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "accepted"
        } catch let error as DynamicsError {
            return error.message
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func itemsNeedAFiniteSizeCentreAndConvexOutline() {
        #expect(
            message { _ = try DynamicItem(center: .zero, size: Size(width: 0, height: 10)) }
                == "item width must be greater than 0, got 0")
        #expect(
            message { _ = try DynamicItem(center: .zero, size: Size(width: 10, height: -1)) }
                == "item height must be greater than 0, got -1")
        #expect(
            message {
                _ = try DynamicItem(center: Point(x: .nan, y: 0), size: Size(width: 1, height: 1))
            }.hasPrefix("item centre must have finite coordinates"))
        #expect(
            message {
                _ = try DynamicItem(
                    center: .zero, size: Size(width: 1, height: 1), rotation: .infinity)
            } == "item rotation must be a finite number, got inf")
        var dent = Path()
        dent.move(to: Point(x: -20, y: -20))
        dent.addLine(to: Point(x: 20, y: -20))
        dent.addLine(to: Point(x: 0, y: 0))
        dent.addLine(to: Point(x: 20, y: 20))
        dent.addLine(to: Point(x: -20, y: 20))
        dent.closeSubpath()
        #expect(
            message {
                _ = try DynamicItem(
                    center: .zero, size: Size(width: 40, height: 40),
                    collisionBoundsType: .path(dent))
            }.hasPrefix("the collision path must be convex"))
        var line = Path()
        line.move(to: .zero)
        line.addLine(to: Point(x: 10, y: 0))
        #expect(
            message {
                _ = try DynamicItem(
                    center: .zero, size: Size(width: 40, height: 40),
                    collisionBoundsType: .path(line))
            }.hasPrefix("the collision path must enclose an area"))
    }

    @Test func propertiesAndBehavioursRefuseBadValues() throws {
        #expect(
            message { _ = try DynamicItemBehavior(properties: .init(density: -1)) }
                == "density must be greater than 0, got -1")
        #expect(
            message { _ = try DynamicItemBehavior(properties: .init(elasticity: 1.5)) }
                == "elasticity must be 0…1, got 1.5")
        let behavior = try DynamicItemBehavior(properties: .init(elasticity: 0.5))
        #expect(
            message { try behavior.update { $0.resistance = .nan } }
                == "resistance must be a finite number, got nan")
        #expect(behavior.elasticity == 0.5 && behavior.resistance == 0)
        let gravity = GravityBehavior()
        #expect(
            message { try gravity.setAngle(1, magnitude: .infinity) }
                == "gravity magnitude must be a finite number, got inf")
        #expect(
            message { try gravity.setGravityDirection(Vector(dx: .nan, dy: 1)) }
                .hasPrefix("gravity direction must have finite components"))
        #expect(gravity.gravityDirection == Vector(dx: 0, dy: 1))
        let item = Scene.ball(0, 0)
        let attachment = try AttachmentBehavior(item: item, attachedToAnchor: Point(x: 0, y: 50))
        #expect(
            message { try attachment.setLength(-2) }
                == "attachment length must be at least 0, got -2")
        #expect(
            message { try attachment.setFrequency(.nan) }
                == "attachment frequency must be a finite number, got nan")
        #expect(
            message { _ = try AttachmentBehavior(item: item, attachedTo: item) }
                == "an attachment needs two different items")
        let push = PushBehavior(items: [item], mode: .continuous)
        #expect(
            message { try push.setAngle(0, magnitude: -1) }
                == "push magnitude must be at least 0, got -1")
        #expect(
            message { _ = try FieldBehavior.noiseField(smoothness: 2, animationSpeed: 1) }
                == "field smoothness must be 0…1, got 2")
        let field = FieldBehavior.dragField()
        #expect(
            message { try field.setRegion(.circle(radius: 0)) }
                == "field region radius must be greater than 0, got 0")
        #expect(message { try field.setFalloff(-1) } == "field falloff must be at least 0, got -1")
        #expect(
            message {
                _ = try DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 0, height: 5))
            }
                == "reference width must be greater than 0, got 0")
        #expect(
            message { _ = try DynamicAnimator(referenceBounds: Scene.area, timeStep: 1) }
                .hasPrefix("time step must be 0.0001…"))
    }

    @Test func velocitiesAndCollisionLimits() throws {
        let animator = Scene.animator()
        let item = Scene.ball(0, 0)
        let other = Scene.ball(50, 0)
        let behavior = Scene.properties([item], .init())
        try animator.addBehavior(behavior)
        #expect(
            message { try behavior.addLinearVelocity(Vector(dx: .infinity, dy: 0), for: item) }
                .hasPrefix("linear velocity must have finite components"))
        #expect(
            message { try behavior.addLinearVelocity(Vector(dx: 1, dy: 0), for: other) }
                == "the item is not one of this behaviour's items")
        #expect(item.velocity == .zero)
        let many = (0..<65).map { _ in CollisionBehavior(items: [item]) }
        let root = DynamicBehavior()
        for collision in many { try root.addChildBehavior(collision) }
        #expect(
            message { try animator.addBehavior(root) }
                == "an animator holds at most 64 collision behaviours")
    }
}
