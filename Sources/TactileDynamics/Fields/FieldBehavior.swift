import TactileCore

/// A force field acting on its items wherever they are inside its region.
///
/// Strength 1 means 1,000 points/s² for the gravity-like fields (linear and radial gravity,
/// vortex, noise, electric per unit charge and mass), as gravity's magnitude 1. The others:
/// a spring field of strength 1 oscillates at 1 Hz about its position; a drag field of
/// strength s slows items by s per second; a velocity field sets items' velocity to its
/// direction × strength; a turbulence field pushes by noise × speed × strength; a magnetic
/// field turns moving charges (strength × charge / mass radians per second). Every field
/// is scaled by (distance / 100 points)^−falloff, the distance at least the minimum radius.
public final class FieldBehavior: ItemListBehavior {
    /// The kinds of field.
    public enum Kind: Hashable, Sendable {
        case linearGravity, radialGravity, spring, drag, velocity, vortex, noise, turbulence
        case electric, magnetic, custom
    }

    /// What kind of field this is.
    public let kind: Kind
    /// The field's centre, in the reference area (points). Zero by default.
    public private(set) var position = Point.zero {
        didSet { setNeedsParameterUpdate() }
    }
    /// Where the field acts. Everywhere by default.
    public private(set) var region = FieldRegion.infinite {
        didSet { setNeedsParameterUpdate() }
    }
    /// The field's strength. 1 by default.
    public private(set) var strength = 1.0 {
        didSet { setNeedsParameterUpdate() }
    }
    /// How fast the field weakens with distance (an exponent). 0 by default.
    public private(set) var falloff = 0.0 {
        didSet { setNeedsParameterUpdate() }
    }
    /// Distances below this count as this, in points. 0 by default.
    public private(set) var minimumRadius = 0.0 {
        didSet { setNeedsParameterUpdate() }
    }
    /// Direction of linear gravity and velocity fields.
    public private(set) var direction = Vector.zero {
        didSet { setNeedsParameterUpdate() }
    }
    /// Noise and turbulence: 0 (fine, changing every 20 points) to 1 (smooth, every 300).
    public private(set) var smoothness = 0.0 {
        didSet { setNeedsParameterUpdate() }
    }
    /// Noise and turbulence: how fast the pattern changes, in cells per second.
    public private(set) var animationSpeed = 0.0 {
        didSet { setNeedsParameterUpdate() }
    }
    /// The force of a custom field, in mass · points/s².
    let evaluation: (@Sendable (FieldSample) -> Vector)?

    private init(kind: Kind, evaluation: (@Sendable (FieldSample) -> Vector)? = nil) {
        self.kind = kind
        self.evaluation = evaluation
        super.init(items: [])
    }

    /// Uniform gravity along `direction` (its length scales it).
    public static func linearGravityField(direction: Vector) throws(DynamicsError)
        -> FieldBehavior
    {
        let field = FieldBehavior(kind: .linearGravity)
        try field.setDirection(direction)
        return field
    }

    /// Gravity towards `position`.
    public static func radialGravityField(position: Point) throws(DynamicsError) -> FieldBehavior {
        let field = FieldBehavior(kind: .radialGravity)
        try field.setPosition(position)
        return field
    }

    /// A spring pulling items to the field's position.
    public static func springField() -> FieldBehavior { FieldBehavior(kind: .spring) }

    /// Resistance proportional to speed.
    public static func dragField() -> FieldBehavior { FieldBehavior(kind: .drag) }

    /// Sets items' velocity to `direction` × strength.
    public static func velocityField(direction: Vector) throws(DynamicsError) -> FieldBehavior {
        let field = FieldBehavior(kind: .velocity)
        try field.setDirection(direction)
        return field
    }

    /// Swirls items around the field's position (clockwise on screen for positive strength).
    public static func vortexField() -> FieldBehavior { FieldBehavior(kind: .vortex) }

    /// Smooth random pushes.
    public static func noiseField(smoothness: Double, animationSpeed: Double)
        throws(DynamicsError) -> FieldBehavior
    {
        let field = FieldBehavior(kind: .noise)
        try field.setNoise(smoothness: smoothness, animationSpeed: animationSpeed)
        return field
    }

    /// Random pushes that grow with an item's speed.
    public static func turbulenceField(smoothness: Double, animationSpeed: Double)
        throws(DynamicsError) -> FieldBehavior
    {
        let field = FieldBehavior(kind: .turbulence)
        try field.setNoise(smoothness: smoothness, animationSpeed: animationSpeed)
        return field
    }

    /// Pushes charged items away from the field's position (towards it for opposite signs).
    public static func electricField() -> FieldBehavior { FieldBehavior(kind: .electric) }

    /// Turns moving charged items.
    public static func magneticField() -> FieldBehavior { FieldBehavior(kind: .magnetic) }

    /// A field computed by a closure returning a force (mass · points/s²); non-finite
    /// results are ignored.
    public static func field(evaluation: @escaping @Sendable (FieldSample) -> Vector)
        -> FieldBehavior
    {
        FieldBehavior(kind: .custom, evaluation: evaluation)
    }

    /// Moves the field.
    public func setPosition(_ position: Point) throws(DynamicsError) {
        try DynamicsError.finite(position, "field position")
        self.position = position
    }

    /// Sets where the field acts.
    public func setRegion(_ region: FieldRegion) throws(DynamicsError) {
        try region.validate()
        self.region = region
    }

    /// Sets the strength (any finite number; negative reverses the field).
    public func setStrength(_ strength: Double) throws(DynamicsError) {
        try DynamicsError.finite(strength, "field strength")
        self.strength = strength
    }

    /// Sets the falloff exponent, 0 or more.
    public func setFalloff(_ falloff: Double) throws(DynamicsError) {
        try DynamicsError.check(falloff, "field falloff", atLeast: 0)
        self.falloff = falloff
    }

    /// Sets the minimum radius in points, 0 or more.
    public func setMinimumRadius(_ radius: Double) throws(DynamicsError) {
        try DynamicsError.check(radius, "field minimum radius", atLeast: 0)
        minimumRadius = radius
    }

    /// Sets the direction of a linear gravity or velocity field.
    public func setDirection(_ direction: Vector) throws(DynamicsError) {
        try DynamicsError.finite(direction, "field direction")
        self.direction = direction
    }

    /// Sets the noise's smoothness (0…1) and animation speed (0 or more).
    public func setNoise(smoothness: Double, animationSpeed: Double) throws(DynamicsError) {
        try DynamicsError.check(smoothness, "field smoothness", in: 0...1)
        try DynamicsError.check(animationSpeed, "field animation speed", atLeast: 0)
        self.smoothness = smoothness
        self.animationSpeed = animationSpeed
    }

    var compiledKind: FieldKind {
        switch kind {
        case .linearGravity: .linearGravity
        case .radialGravity: .radialGravity
        case .spring: .spring
        case .drag: .drag
        case .velocity: .velocity
        case .vortex: .vortex
        case .noise: .noise
        case .turbulence: .turbulence
        case .electric: .electric
        case .magnetic: .magnetic
        case .custom: .custom
        }
    }
}
