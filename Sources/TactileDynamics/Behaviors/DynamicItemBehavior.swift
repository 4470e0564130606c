import TactileCore

/// Physical properties of items, with UIKit's defaults.
public struct DynamicItemProperties: Hashable, Sendable {
    /// Bounciness of collisions, 0…1 (1 keeps all the energy). Default 0.
    public var elasticity: Double = 0
    /// Coulomb friction coefficient, 0 or more. Default 0. Two items in contact use the
    /// geometric mean √(μ₁·μ₂) of theirs (so a frictionless item slides on anything); an item
    /// against a boundary uses its own. A resting item holds on a slope while tan θ < μ;
    /// a sliding one slows at μ times the normal acceleration.
    public var friction: Double = 0
    /// Mass per area: mass is density × area / 10,000 points², so a 100×100 item of density 1
    /// has mass 1 (``mass(density:area:)``). Must be positive. Default 1.
    public var density: Double = 1

    /// The area, in points², that density 1 gives a mass of 1: a 100 × 100 item.
    public static let areaOfUnitMass = 10_000.0

    /// The mass the engine gives an item of `density` and `area` (points²).
    public static func mass(density: Double, area: Double) -> Double {
        density * area / areaOfUnitMass
    }
    /// Linear damping, per second (velocity decays as e^(−resistance·t)). Default 0.
    public var resistance: Double = 0
    /// Angular damping, per second. Default 0.
    public var angularResistance: Double = 0
    /// Whether the item turns. Default true.
    public var allowsRotation = true
    /// Whether the item stays put, taking part in collisions as an immovable obstacle.
    /// Default false.
    public var isAnchored = false
    /// Electric charge, for electric and magnetic fields. Default 0.
    public var charge: Double = 0

    /// Creates properties; every argument defaults to UIKit's value.
    public init(
        elasticity: Double = 0, friction: Double = 0, density: Double = 1, resistance: Double = 0,
        angularResistance: Double = 0, allowsRotation: Bool = true, isAnchored: Bool = false,
        charge: Double = 0
    ) {
        self.elasticity = elasticity
        self.friction = friction
        self.density = density
        self.resistance = resistance
        self.angularResistance = angularResistance
        self.allowsRotation = allowsRotation
        self.isAnchored = isAnchored
        self.charge = charge
    }

    /// Throws unless every value is in its range.
    public func validate() throws(DynamicsError) {
        try DynamicsError.check(elasticity, "elasticity", in: 0...1)
        try DynamicsError.check(friction, "friction", atLeast: 0)
        try DynamicsError.check(density, "density", atLeast: 0, orEqual: false)
        try DynamicsError.check(resistance, "resistance", atLeast: 0)
        try DynamicsError.check(angularResistance, "angular resistance", atLeast: 0)
        try DynamicsError.finite(charge, "charge")
    }
}

/// Sets physical properties of its items, and changes their velocities.
///
/// When several item behaviours name the same item, the one added last wins.
public final class DynamicItemBehavior: ItemListBehavior {
    /// The properties applied to every item of this behaviour.
    public private(set) var properties: DynamicItemProperties

    /// Creates the behaviour.
    public init(items: [DynamicItem] = [], properties: DynamicItemProperties = .init())
        throws(DynamicsError)
    {
        try properties.validate()
        self.properties = properties
        super.init(items: items)
    }

    /// Changes properties; nothing changes if any new value is out of range.
    ///
    /// ```swift
    /// try behavior.update { $0.elasticity = 1; $0.resistance = 0 }
    /// ```
    public func update(_ change: (inout DynamicItemProperties) -> Void) throws(DynamicsError) {
        var next = properties
        change(&next)
        try next.validate()
        properties = next
        setNeedsParameterUpdate()
    }

    /// Elasticity, 0…1.
    public var elasticity: Double { properties.elasticity }
    /// Friction coefficient.
    public var friction: Double { properties.friction }
    /// Density.
    public var density: Double { properties.density }
    /// Linear resistance per second.
    public var resistance: Double { properties.resistance }
    /// Angular resistance per second.
    public var angularResistance: Double { properties.angularResistance }
    /// Whether items turn.
    public var allowsRotation: Bool { properties.allowsRotation }
    /// Whether items stay put.
    public var isAnchored: Bool { properties.isAnchored }
    /// Electric charge.
    public var charge: Double { properties.charge }

    /// Adds to an item's velocity (points per second).
    public func addLinearVelocity(_ velocity: Vector, for item: DynamicItem) throws(DynamicsError) {
        try DynamicsError.finite(velocity, "linear velocity")
        try requireItem(item)
        if let animator = dynamicAnimator {
            animator.changeVelocity(of: item, linear: velocity, angular: 0)
        } else {
            item.velocity = item.velocity + velocity
            item.committed = nil
        }
    }

    /// Adds to an item's angular velocity (radians per second).
    public func addAngularVelocity(_ velocity: Double, for item: DynamicItem) throws(DynamicsError)
    {
        try DynamicsError.finite(velocity, "angular velocity")
        try requireItem(item)
        if let animator = dynamicAnimator {
            animator.changeVelocity(of: item, linear: .zero, angular: velocity)
        } else {
            item.angularVelocity += velocity
            item.committed = nil
        }
    }

    /// An item's velocity in points per second.
    public func linearVelocity(for item: DynamicItem) -> Vector {
        dynamicAnimator?.velocity(of: item).linear ?? item.velocity
    }

    /// An item's angular velocity in radians per second.
    public func angularVelocity(for item: DynamicItem) -> Double {
        dynamicAnimator?.velocity(of: item).angular ?? item.angularVelocity
    }

    private func requireItem(_ item: DynamicItem) throws(DynamicsError) {
        guard items.contains(where: { $0 === item }) else {
            throw DynamicsError("the item is not one of this behaviour's items")
        }
    }
}
