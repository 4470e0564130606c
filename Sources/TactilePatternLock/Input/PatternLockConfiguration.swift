/// The settings of a pattern lock: grid, hit area, rules and timing.
public struct PatternLockConfiguration: Hashable, Sendable {
    /// The grid of dots.
    public var grid: PatternGrid
    /// The hit radius as a fraction of the cell size, within
    /// ``PatternLimits/hitRadiusFractions``.
    public var hitRadiusFraction: Double
    /// The fewest dots a finished pattern needs, 1…N².
    public var minimumLength: Int
    /// Seconds a wrong pattern stays on screen before it clears, within
    /// ``PatternLimits/clearDelays``.
    public var wrongClearDelay: Double

    /// Creates a configuration; ``PatternLockModel`` checks it.
    public init(
        grid: PatternGrid = .standard,
        hitRadiusFraction: Double = PatternLimits.defaultHitRadiusFraction,
        minimumLength: Int = PatternLimits.defaultMinimumLength,
        wrongClearDelay: Double = 2
    ) {
        self.grid = grid
        self.hitRadiusFraction = hitRadiusFraction
        self.minimumLength = minimumLength
        self.wrongClearDelay = wrongClearDelay
    }

    /// Throws when a value is outside its accepted range.
    public func validate() throws(PatternError) {
        guard PatternLimits.hitRadiusFractions.contains(hitRadiusFraction) else {
            throw .hitRadiusOutOfRange(hitRadiusFraction)
        }
        guard (1...grid.dotCount).contains(minimumLength) else {
            throw .minimumLengthOutOfRange(minimumLength, dotCount: grid.dotCount)
        }
        guard PatternLimits.clearDelays.contains(wrongClearDelay) else {
            throw .clearDelayOutOfRange(wrongClearDelay)
        }
    }
}
