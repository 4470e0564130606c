/// A square grid of dots, numbered row by row; here from 0, in the written form from 1.
///
/// The grid knows the lattice rule behind Android's "passed-over dot" behaviour: the dots
/// lying exactly on the segment between two dots are the lattice points at the multiples
/// of (Δrow, Δcolumn) / gcd(|Δrow|, |Δcolumn|).
public struct PatternGrid: Hashable, Sendable, CustomStringConvertible {
    /// Dots per side.
    public let size: Int

    /// Creates a grid of `size` × `size` dots.
    ///
    /// - Throws: ``PatternError/gridSizeOutOfRange(_:)`` outside ``PatternLimits/gridSizes``.
    public init(size: Int) throws(PatternError) {
        guard PatternLimits.gridSizes.contains(size) else {
            throw .gridSizeOutOfRange(size)
        }
        self.size = size
    }

    private init(checkedSize: Int) { size = checkedSize }

    /// The usual 3×3 grid.
    public static let standard = PatternGrid(checkedSize: 3)

    /// The number of dots, `size`².
    public var dotCount: Int { size * size }

    /// All dot indices, 0 ..< ``dotCount``.
    public var dots: Range<Int> { 0..<dotCount }

    /// The row of a dot, from 0 at the top.
    public func row(of dot: Int) -> Int { dot / size }

    /// The column of a dot, from 0 at the left.
    public func column(of dot: Int) -> Int { dot % size }

    /// The dot at a row and column.
    public func dot(row: Int, column: Int) -> Int { row * size + column }

    /// The dots lying strictly between `from` and `to` on the straight segment joining
    /// them, in order from `from`; empty for neighbours and knight-like moves.
    public func dots(between from: Int, and to: Int) -> [Int] {
        let dr = row(of: to) - row(of: from)
        let dc = column(of: to) - column(of: from)
        let steps = greatestCommonDivisor(abs(dr), abs(dc))
        guard steps > 1 else { return [] }
        let (sr, sc) = (dr / steps, dc / steps)
        return (1..<steps).map { k in
            dot(row: row(of: from) + k * sr, column: column(of: from) + k * sc)
        }
    }

    public var description: String { "\(size)×\(size) grid" }
}

/// The greatest common divisor of two non-negative integers; gcd(0, n) = n.
func greatestCommonDivisor(_ a: Int, _ b: Int) -> Int {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
}
