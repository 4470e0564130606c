/// Input the pattern model cannot accept, with a message naming the problem and what is
/// accepted.
///
/// Messages never repeat a dot of a pattern that could be valid: a repeated dot or a
/// mistyped item (`2x`, `1,2,3`, which may hold real dots) is named by its position in the
/// input, not by its text, so an error message cannot leak part of a real pattern. Only a
/// number that can never be a dot (out of range) is named as given.
public enum PatternError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The grid size is outside ``PatternLimits/gridSizes``.
    case gridSizeOutOfRange(Int)
    /// The minimum length is outside 1…(dots on the grid).
    case minimumLengthOutOfRange(Int, dotCount: Int)
    /// The hit radius fraction is outside ``PatternLimits/hitRadiusFractions``.
    case hitRadiusOutOfRange(Double)
    /// The wrong-pattern delay is outside ``PatternLimits/clearDelays``.
    case clearDelayOutOfRange(Double)
    /// No dots were given.
    case empty
    /// An item of the written form is not a whole number; `position` counts from 1. The
    /// message names the position only.
    case notADotNumber(String, position: Int)
    /// A dot number is outside 1…N².
    case dotOutOfRange(Int, dotCount: Int)
    /// The dot at `position` (counting from 1) was already selected, typed or passed over.
    case repeatedDot(position: Int)
    /// Fewer dots than the minimum.
    case tooShort(count: Int, minimum: Int)
    /// A pattern drawn on one grid was given where another grid is in use.
    case gridMismatch(pattern: Int, expected: Int)

    /// A sentence for the user.
    public var message: String {
        switch self {
        case .gridSizeOutOfRange(let size):
            "grid size must be \(PatternLimits.gridSizes.lowerBound)…\(PatternLimits.gridSizes.upperBound), got \(size)"
        case .minimumLengthOutOfRange(let length, let dotCount):
            "minimum length must be 1…\(dotCount) on this grid, got \(length)"
        case .hitRadiusOutOfRange(let fraction):
            "hit radius must be \(PatternLimits.hitRadiusFractions.lowerBound)…\(PatternLimits.hitRadiusFractions.upperBound) of a cell, got \(fraction)"
        case .clearDelayOutOfRange(let seconds):
            "the wrong-pattern delay must be \(Int(PatternLimits.clearDelays.lowerBound))…\(Int(PatternLimits.clearDelays.upperBound)) s, got \(seconds)"
        case .empty:
            "a pattern needs at least one dot, written like 1-5-9-6"
        case .notADotNumber(let text, let position):
            text.isEmpty
                ? "item \(position) is empty; write dots like 1-5-9-6"
                : "item \(position) is not a dot number; write dots like 1-5-9-6"
        case .dotOutOfRange(let dot, let dotCount):
            "dot \(dot) is out of range; dots are numbered 1…\(dotCount) on this grid"
        case .repeatedDot(let position):
            "item \(position) repeats a dot already selected (typed before or passed over on the way)"
        case .tooShort(let count, let minimum):
            "connect at least \(minimum) dots (got \(count))"
        case .gridMismatch(let pattern, let expected):
            "the pattern is for a \(pattern)×\(pattern) grid, but the grid is \(expected)×\(expected)"
        }
    }

    public var description: String { message }
}

/// The limits every pattern entry point checks.
public enum PatternLimits {
    /// Grid sizes accepted: 2×2 up to 6×6 (36 dots, so a set of dots fits a 64-bit mask).
    public static let gridSizes = 2...6
    /// The default minimum number of dots in a pattern.
    public static let defaultMinimumLength = 4
    /// Hit radii accepted, as a fraction of the cell size; below 0.5 circles never overlap.
    public static let hitRadiusFractions = 0.05...0.5
    /// The default hit radius: 0.3 of a cell (hit circles 0.6 of a cell across).
    public static let defaultHitRadiusFraction = 0.3
    /// Delays accepted before a wrong pattern clears, in seconds.
    public static let clearDelays = 0.0...60.0
}
