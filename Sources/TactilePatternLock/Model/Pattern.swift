/// A sequence of distinct dots on a grid, built by Android's rules.
///
/// Dots are indices 0 ..< N², row by row; the written form numbers them from 1 (see
/// ``canonical``). Extending a pattern to a dot first adds every unselected dot lying exactly
/// on the way from the last dot (``PatternGrid/dots(between:and:)``), so a pattern is
/// always one a finger could have drawn. A pattern's `description` never shows its dots,
/// so logging one by mistake does not leak it.
public struct Pattern: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The grid the pattern is drawn on.
    public let grid: PatternGrid
    /// The selected dots in order, each 0 ..< N².
    public private(set) var dots: [Int] = []
    /// The selected dots as bits, for constant-time membership tests.
    private var selection: UInt64 = 0

    /// Creates an empty pattern.
    public init(grid: PatternGrid = .standard) {
        self.grid = grid
    }

    /// Creates a pattern from dot indices (0 ..< N²), adding passed-over dots as a drag would.
    ///
    /// - Throws: ``PatternError/dotOutOfRange(_:dotCount:)`` (the number given is the
    ///   1-based dot number) or ``PatternError/repeatedDot(position:)``.
    public init(dots: [Int], grid: PatternGrid = .standard) throws(PatternError) {
        self.grid = grid
        for (position, dot) in dots.enumerated() {
            guard grid.dots.contains(dot) else {
                throw .dotOutOfRange(dot + 1, dotCount: grid.dotCount)
            }
            guard !contains(dot) else { throw .repeatedDot(position: position + 1) }
            extend(to: dot)
        }
    }

    /// The number of dots.
    public var count: Int { dots.count }

    /// Whether no dot is selected.
    public var isEmpty: Bool { dots.isEmpty }

    /// The last dot selected.
    public var last: Int? { dots.last }

    /// Whether `dot` is selected.
    public func contains(_ dot: Int) -> Bool { selection & (1 << UInt64(dot)) != 0 }

    /// Moves on to `dot` as a finger would: unselected dots exactly on the way are added
    /// first, then `dot` itself; a dot already selected adds nothing.
    ///
    /// - Parameter dot: A dot index, 0 ..< N².
    /// - Returns: The dots added, in order (empty when `dot` was already selected).
    @discardableResult
    public mutating func extend(to dot: Int) -> [Int] {
        precondition(grid.dots.contains(dot), "dot \(dot) is outside the grid")
        guard !contains(dot) else { return [] }
        var added: [Int] = []
        if let last {
            for passed in grid.dots(between: last, and: dot) where !contains(passed) {
                append(passed)
                added.append(passed)
            }
        }
        append(dot)
        added.append(dot)
        return added
    }

    private mutating func append(_ dot: Int) {
        dots.append(dot)
        selection |= 1 << UInt64(dot)
    }

    /// Removes every dot.
    public mutating func removeAll() {
        dots.removeAll()
        selection = 0
    }

    /// Checks that the pattern has at least `minimum` dots.
    ///
    /// - Throws: ``PatternError/tooShort(count:minimum:)``.
    public func validate(minimumLength minimum: Int = PatternLimits.defaultMinimumLength)
        throws(PatternError)
    {
        guard count >= minimum else { throw .tooShort(count: count, minimum: minimum) }
    }

    /// A summary that does not reveal the dots, such as "pattern of 4 dots on a 3×3 grid".
    public var description: String { "pattern of \(count) dots on a \(grid)" }

    /// The same summary as ``description``: the dots stay hidden in debug output too.
    public var debugDescription: String { description }
}
