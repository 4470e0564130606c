import TactileCore

/// Moves an item to a point and turns it upright, with a damped spring's overshoot.
public final class SnapBehavior: DynamicBehavior {
    /// The snapping item.
    public let item: DynamicItem
    /// Where the item's centre goes.
    public private(set) var snapPoint: Point {
        didSet { setNeedsParameterUpdate() }
    }
    /// How much the snap oscillates: 0 the most, 1 the least; 0.5 by default (UIKit's).
    public private(set) var damping = 0.5 {
        didSet { setNeedsParameterUpdate() }
    }
    /// The spring's natural frequency in hertz.
    static let frequency = 2.0

    /// Creates a snap of `item` to `point`.
    public init(item: DynamicItem, snapTo point: Point) throws(DynamicsError) {
        try DynamicsError.finite(point, "snap point")
        self.item = item
        snapPoint = point
        super.init()
    }

    override var compilesToJointsOnly: Bool { true }

    public override var items: [DynamicItem] { [item] }

    /// Moves the target point.
    public func setSnapPoint(_ point: Point) throws(DynamicsError) {
        try DynamicsError.finite(point, "snap point")
        snapPoint = point
    }

    /// Sets the damping, 0…1.
    public func setDamping(_ damping: Double) throws(DynamicsError) {
        try DynamicsError.check(damping, "snap damping", in: 0...1)
        self.damping = damping
    }

    /// The spring's damping ratio: 0.15 at damping 0 up to 1 (critical) at damping 1.
    var dampingRatio: Double { 0.15 + 0.85 * damping }
}
