import Foundation
import TactileCore

/// A constant acceleration on its items: magnitude 1.0 is 1,000 points/s², downwards by
/// default.
public final class GravityBehavior: ItemListBehavior {
    /// Points per second squared for a magnitude of 1.0 (UIKit's unit).
    public static let pointsPerSecondSquared = 1000.0

    /// The direction and magnitude: (0, 1) by default (down, magnitude 1).
    public private(set) var gravityDirection = Vector(dx: 0, dy: 1) {
        didSet { setNeedsParameterUpdate() }
    }

    /// Creates gravity for the given items.
    public override init(items: [DynamicItem] = []) { super.init(items: items) }

    /// The angle of the direction in radians (π/2, straight down, by default).
    public var angle: Double { atan2(gravityDirection.dy, gravityDirection.dx) }
    /// The length of the direction vector (1 by default).
    public var magnitude: Double { gravityDirection.length }
    /// The acceleration, in points/s².
    public var acceleration: Vector { gravityDirection * GravityBehavior.pointsPerSecondSquared }

    /// Sets the direction vector; its length is the magnitude.
    public func setGravityDirection(_ direction: Vector) throws(DynamicsError) {
        try DynamicsError.finite(direction, "gravity direction")
        gravityDirection = direction
    }

    /// Sets the direction by angle (radians) and magnitude.
    public func setAngle(_ angle: Double, magnitude: Double) throws(DynamicsError) {
        try setGravityDirection(
            DynamicsError.checkedDirection(angle: angle, magnitude: magnitude, of: "gravity"))
    }
}
