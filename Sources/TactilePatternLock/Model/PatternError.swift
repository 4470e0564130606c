import TactileCore

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
            Localization.text(
                "grid size must be {1}…{2}, got {3}", PatternLimits.gridSizes.lowerBound,
                PatternLimits.gridSizes.upperBound, size)
        case .minimumLengthOutOfRange(let length, let dotCount):
            Localization.text(
                "minimum length must be 1…{1} on this grid, got {2}", dotCount, length)
        case .hitRadiusOutOfRange(let fraction):
            Localization.text(
                "hit radius must be {1}…{2} of a cell, got {3}",
                PatternLimits.hitRadiusFractions.lowerBound,
                PatternLimits.hitRadiusFractions.upperBound, fraction)
        case .clearDelayOutOfRange(let seconds):
            Localization.text(
                "the wrong-pattern delay must be {1}…{2} s, got {3}",
                Int(PatternLimits.clearDelays.lowerBound),
                Int(PatternLimits.clearDelays.upperBound), seconds)
        case .empty:
            Localization.text("a pattern needs at least one dot, written like 1-5-9-6")
        case .notADotNumber(let text, let position):
            text.isEmpty
                ? Localization.text("item {1} is empty; write dots like 1-5-9-6", position)
                : Localization.text(
                    "item {1} is not a dot number; write dots like 1-5-9-6", position)
        case .dotOutOfRange(let dot, let dotCount):
            Localization.text(
                "dot {1} is out of range; dots are numbered 1…{2} on this grid", dot, dotCount)
        case .repeatedDot(let position):
            Localization.text(
                "item {1} repeats a dot already selected (typed before or passed over on the way)",
                position)
        case .tooShort(let count, let minimum):
            Localization.plural(
                "connect at least {1} dot (got {2})", "connect at least {1} dots (got {2})",
                count: minimum, minimum, count)
        case .gridMismatch(let pattern, let expected):
            Localization.text(
                "the pattern is for a {1}×{1} grid, but the grid is {2}×{2}", pattern, expected)
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
