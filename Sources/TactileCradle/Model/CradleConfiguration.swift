import TactileCore
import TactileDynamics

/// What a cradle is made of, with the accepted range of each value.
public struct CradleConfiguration: Hashable, Sendable {
    /// Accepted ball counts.
    public static let ballCounts = 2...9
    /// Accepted gaps between neighbouring balls, points.
    public static let gaps = 0.0...20
    /// Accepted gravity magnitudes (1 = 1,000 points/s²).
    public static let gravities = 0.1...5.0
    /// Accepted elasticities.
    public static let elasticities = 0.0...1
    /// Accepted resistances, per second.
    public static let resistances = 0.0...5

    /// Number of balls, 2…9. Default 5.
    public var ballCount = 5
    /// Ball radius in points. Default 20.
    public var ballRadius = 20.0
    /// Distance from an anchor to its ball's centre, in points. Default 160.
    public var stringLength = 160.0
    /// Space between neighbouring balls at rest, in points, 0…20. Default 0 (touching).
    public var gap = 0.0
    /// Gravity magnitude, 0.1…5 (1 = 1,000 points/s²). Default 1.
    public var gravity = 1.0
    /// Elasticity of the balls, 0…1. Default 1.
    public var elasticity = 1.0
    /// Resistance (air drag) per second, 0…5. Default 0.
    public var resistance = 0.0

    /// Creates a configuration; every value defaults to the classic five-ball cradle.
    public init(
        ballCount: Int = 5, ballRadius: Double = 20, stringLength: Double = 160, gap: Double = 0,
        gravity: Double = 1, elasticity: Double = 1, resistance: Double = 0
    ) {
        self.ballCount = ballCount
        self.ballRadius = ballRadius
        self.stringLength = stringLength
        self.gap = gap
        self.gravity = gravity
        self.elasticity = elasticity
        self.resistance = resistance
    }

    /// Throws unless every value is in its range.
    public func validate() throws(CradleError) {
        guard CradleConfiguration.ballCounts.contains(ballCount) else {
            throw CradleError(Localization.text("ball count must be 2…9, got {1}", ballCount))
        }
        try CradleError.check(ballRadius, Localization.text("ball radius"), 1...200)
        try CradleError.check(stringLength, Localization.text("string length"), 10...2000)
        try CradleError.check(gap, Localization.text("gap"), CradleConfiguration.gaps)
        try CradleError.check(
            gravity, Localization.text("gravity"), CradleConfiguration.gravities)
        try CradleError.check(
            elasticity, Localization.text("elasticity"), CradleConfiguration.elasticities)
        try CradleError.check(
            resistance, Localization.text("resistance"), CradleConfiguration.resistances)
    }
}

/// A cradle value out of range, with a message naming it and the accepted range.
public struct CradleError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }

    static func check(
        _ value: Double, _ name: @autoclosure () -> String, _ range: ClosedRange<Double>
    )
        throws(CradleError)
    {
        guard value.isFinite, range.contains(value) else {
            throw CradleError(
                Localization.text(
                    "{1} must be {2}…{3}, got {4}", name(), format(range.lowerBound),
                    format(range.upperBound), format(value)))
        }
    }

    static func format(_ x: Double) -> String {
        x.isFinite && x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}
