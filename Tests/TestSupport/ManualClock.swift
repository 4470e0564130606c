/// A clock a test moves by hand: seconds since 1970, starting in November 2023 by default.
///
/// A class, so a closure handed to the code under test (`clock: { clock.now }`) sees every
/// move the test makes.
public final class ManualClock: @unchecked Sendable {
    /// The time now.
    public var now: Double

    /// A clock at `now`.
    public init(_ now: Double = 1_700_000_000) { self.now = now }

    /// Moves the clock forward (or back, for a negative `seconds`).
    public func advance(by seconds: Double) { now += seconds }
}
