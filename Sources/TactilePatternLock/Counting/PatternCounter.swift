/// How many valid patterns a grid has, by length.
public struct PatternCount: Hashable, Sendable {
    /// The grid counted.
    public let grid: PatternGrid
    /// The shortest length included.
    public let minimumLength: Int
    /// `byLength[k]` is the number of patterns of exactly `k` dots; lengths below
    /// ``minimumLength`` are 0. The array has N² + 1 entries.
    public let byLength: [UInt64]

    /// The number of patterns of ``minimumLength`` dots or more.
    public var total: UInt64 { byLength.reduce(0, +) }

    /// The lengths counted with their counts, shortest first.
    public var rows: [(length: Int, count: UInt64)] {
        (minimumLength...grid.dotCount).map { ($0, byLength[$0]) }
    }
}

/// Counts valid patterns by dynamic programming over (selected set, last dot).
///
/// A pattern is valid when each move passes only over dots already selected (a drag would
/// add any others itself, so a pattern that skips one is not distinct). `ways[set][last]`
/// is the number of valid orders that select exactly `set` and end at `last`; extending it
/// to a dot `next` is allowed when the dots between `last` and `next` are all in `set`.
/// Sets only grow, so visiting them in increasing numeric order visits every set after all
/// of its subsets.
///
/// Time O(2^(N²) · N⁴), memory O(2^(N²) · N²): a 3×3 grid takes microseconds, a 4×4 grid
/// (65,536 sets × 16 dots) well under a second; a 5×5 grid would need 2²⁵ × 25 counters,
/// so counting stops at ``maximumGridSize``.
public enum PatternCounter {
    /// The largest grid counted: 4×4.
    public static let maximumGridSize = 4

    /// Grid sizes ``count(grid:minimumLength:)`` accepts.
    public static let gridSizes = PatternLimits.gridSizes.lowerBound...maximumGridSize

    /// Counts the patterns of at least `minimumLength` dots on `grid`.
    ///
    /// - Parameters:
    ///   - grid: A grid of at most ``maximumGridSize`` dots per side.
    ///   - minimumLength: 1…N².
    /// - Throws: ``PatternError/gridSizeOutOfRange(_:)`` above 4×4 and
    ///   ``PatternError/minimumLengthOutOfRange(_:dotCount:)``.
    public static func count(
        grid: PatternGrid = .standard,
        minimumLength: Int = PatternLimits.defaultMinimumLength
    ) throws(PatternError) -> PatternCount {
        guard grid.size <= maximumGridSize else { throw .gridSizeOutOfRange(grid.size) }
        let n = grid.dotCount
        guard (1...n).contains(minimumLength) else {
            throw .minimumLengthOutOfRange(minimumLength, dotCount: n)
        }
        // between[last * n + next]: the set of dots a move from `last` to `next` passes over.
        var between = [UInt32](repeating: 0, count: n * n)
        for last in 0..<n {
            for next in 0..<n where next != last {
                for dot in grid.dots(between: last, and: next) {
                    between[last * n + next] |= 1 << UInt32(dot)
                }
            }
        }
        let setCount = 1 << n
        var ways = [UInt64](repeating: 0, count: setCount * n)
        var byLength = [UInt64](repeating: 0, count: n + 1)
        for dot in 0..<n { ways[(1 << dot) * n + dot] = 1 }
        ways.withUnsafeMutableBufferPointer { ways in
            for set in 1..<setCount {
                let length = set.nonzeroBitCount
                let row = set * n
                var sum: UInt64 = 0
                for last in 0..<n {
                    let w = ways[row + last]
                    guard w != 0 else { continue }
                    sum += w
                    var free = UInt32(setCount - 1) & ~UInt32(set)
                    while free != 0 {
                        let next = free.trailingZeroBitCount
                        free &= free - 1
                        let needed = between[last * n + next]
                        if needed & UInt32(set) == needed {
                            ways[(set | 1 << next) * n + next] += w
                        }
                    }
                }
                byLength[length] += sum
            }
        }
        for length in 0..<minimumLength { byLength[length] = 0 }
        return PatternCount(grid: grid, minimumLength: minimumLength, byLength: byLength)
    }
}
