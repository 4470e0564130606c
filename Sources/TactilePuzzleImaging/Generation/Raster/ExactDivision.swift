/// Division by a fixed divisor as a multiplication and a shift, exact for every dividend in
/// the range it was made for (Granlund and Montgomery's method).
struct ExactDivision {
    private let multiplier: Int
    private let shift: Int
    private let divisor: Int

    /// Prepares division by `divisor` (≥ 1) of dividends in `0..<limit`.
    init(by divisor: Int, below limit: Int) {
        precondition(divisor >= 1 && limit >= 1)
        // ℓ = ⌈log₂ d⌉, N bits for the dividend: m = ⌈2^(N+ℓ) / d⌉ is exact below 2^N.
        let l = Int.bitWidth - (divisor - 1).leadingZeroBitCount
        let n = Int.bitWidth - (limit - 1).leadingZeroBitCount
        precondition(n + l <= 40, "dividends too large for a 64-bit product")
        self.divisor = divisor
        shift = n + l
        multiplier = ((1 << shift) + divisor - 1) / divisor
    }

    /// ⌊x / d⌋ for 0 ≤ x < limit.
    @inline(__always)
    func quotient(_ x: Int) -> Int { (x &* multiplier) &>> shift }

    /// x mod d for 0 ≤ x < limit.
    @inline(__always)
    func remainder(_ x: Int) -> Int { x &- quotient(x) &* divisor }

    /// x / d rounded to nearest, halves up: ⌊(x + ⌊d/2⌋) / d⌋, for x + ⌊d/2⌋ below limit.
    @inline(__always)
    func rounded(_ x: Int) -> Int { quotient(x &+ divisor / 2) }
}
