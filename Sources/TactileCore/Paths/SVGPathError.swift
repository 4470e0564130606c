/// The limits every SVG path is read within, so that no data can make the path's geometry
/// overflow or its drawing take unbounded time.
public enum SVGPathLimits {
    /// The largest magnitude of any number: 1,000,000,000.
    public static let maximumMagnitude = 1e9
    /// The most segments (lines, curves, arcs each count as one per drawn piece).
    public static let maximumSegments = 10_000
}

/// A mistake in SVG path data: what the parser expected, and where.
///
/// The description reads like `expected a number at offset 12`.
public struct SVGPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the parser was looking for when it stopped.
    public enum Expectation: Hashable, Sendable, CustomStringConvertible {
        /// A moveto command, `M` or `m`, which must begin non-empty path data.
        case moveTo
        /// A command letter, after a closepath (`Z` takes no numbers).
        case command
        /// A command letter, or a number repeating the previous command.
        case commandOrNumber
        /// A number.
        case number
        /// A number within ±``SVGPathLimits/maximumMagnitude``.
        case finiteNumber
        /// The end of the data: it already has ``SVGPathLimits/maximumSegments`` segments.
        case end
        /// An arc flag, `0` or `1`.
        case flag

        public var description: String {
            switch self {
            case .moveTo: "a moveto command (M or m)"
            case .command: "a command letter"
            case .commandOrNumber: "a command letter or a number"
            case .number: "a number"
            case .finiteNumber: "a number within ±1,000,000,000"
            case .end: "the end of the data (at most 10,000 segments)"
            case .flag: "an arc flag (0 or 1)"
            }
        }
    }

    /// Where the parser stopped, in characters from the start of the data.
    ///
    /// For the ASCII text path data normally is, this is also the byte offset.
    public var offset: Int
    /// What the parser expected at ``offset``.
    public var expected: Expectation

    /// Creates an error.
    public init(offset: Int, expected: Expectation) {
        self.offset = offset
        self.expected = expected
    }

    public var description: String { "expected \(expected) at offset \(offset)" }
}
