/// A deterministic random number generator (SplitMix64): the same seed always gives the same
/// sequence, so a run (a test, a picture, a documented example) replays exactly.
///
/// Not for secrets: a puzzle's answer, for one, comes from a cryptographic source.
public struct SeededRandom: RandomNumberGenerator, Hashable, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
