import Foundation
import TactileCore

/// Pushes items: continuously (a force) or once (an impulse).
///
/// Magnitude 1.0 on a 100×100-point item of density 1 accelerates it at 100 points/s²
/// (continuous), or changes its velocity by 100 points/s (instantaneous). The direction is
/// in the reference area's axes; an offset from an item's centre makes the push turn it.
public final class PushBehavior: ItemListBehavior {
    /// How a push acts.
    public enum Mode: Hashable, Sendable {
        /// A force for as long as the push is active.
        case continuous
        /// An impulse, once; the push then becomes inactive. Set ``PushBehavior/isActive`` to
        /// push again.
        case instantaneous
    }

    /// Force (mass · points/s²) for magnitude 1: 100, UIKit's unit.
    public static let forceUnit = 100.0

    /// How the push acts.
    public let mode: Mode
    /// Direction and magnitude: (0, 0) by default, so a new push does nothing until set.
    public private(set) var pushDirection = Vector.zero {
        didSet { setNeedsParameterUpdate() }
    }
    /// Whether the push acts. True by default.
    public var isActive = true {
        didSet { if !suppressUpdates { setNeedsParameterUpdate() } }
    }
    var suppressUpdates = false
    /// Offsets from each item's centre, in the item's own axes.
    private var offsets: [ObjectIdentifier: Vector] = [:] {
        didSet { setNeedsParameterUpdate() }
    }

    /// Creates a push.
    public init(items: [DynamicItem] = [], mode: Mode) {
        self.mode = mode
        super.init(items: items)
    }

    /// The direction's angle in radians.
    public var angle: Double { atan2(pushDirection.dy, pushDirection.dx) }
    /// The direction's length.
    public var magnitude: Double { pushDirection.length }

    /// Sets the direction vector; its length is the magnitude.
    public func setPushDirection(_ direction: Vector) throws(DynamicsError) {
        try DynamicsError.finite(direction, "push direction")
        pushDirection = direction
    }

    /// Sets the direction by angle (radians) and magnitude.
    public func setAngle(_ angle: Double, magnitude: Double) throws(DynamicsError) {
        try setPushDirection(
            DynamicsError.checkedDirection(angle: angle, magnitude: magnitude, of: "push"))
    }

    /// Where the push acts on an item, relative to its centre in its own axes (zero by
    /// default).
    public func targetOffsetFromCenter(for item: DynamicItem) -> Vector {
        offsets[ObjectIdentifier(item)] ?? .zero
    }

    /// Sets where the push acts on an item; off-centre pushes also turn it.
    public func setTargetOffsetFromCenter(_ offset: Vector, for item: DynamicItem)
        throws(DynamicsError)
    {
        try DynamicsError.finite(offset, "push offset")
        offsets[ObjectIdentifier(item)] = offset
    }
}

extension PushBehavior {
    /// Turns an instantaneous push off after it fired, without asking for another rebuild.
    func deactivateAfterFiring() {
        suppressUpdates = true
        isActive = false
        suppressUpdates = false
    }
}
