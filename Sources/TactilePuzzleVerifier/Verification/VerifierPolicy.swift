/// The verifying side's limits: lifetimes, tolerance, rate limits, lockout, memory bounds.
public struct VerifierPolicy: Hashable, Sendable {
    /// Seconds a puzzle can be checked after it is issued.
    public var puzzleLifetime = 120.0
    /// Seconds a pass token stays valid.
    public var tokenLifetime = 180.0
    /// How far from the hole a release still passes, in background pixels, along each
    /// axis the piece moves on (UIKit's and TTGPuzzleVerify's 8 points). A display at
    /// another scale is converted first, so it means the same on any screen.
    public var verificationTolerance = 8.0
    /// The least tolerance on the screen, in CSS pixels or points of the picture as it was
    /// shown (``PuzzleAttempt/shownWidth``): on a phone, 8 picture pixels are 3 under a finger.
    public var shownTolerance = 8.0
    /// The narrowest a picture counts as shown, in CSS pixels or points (the widget's least
    /// width), so that a claimed tiny picture does not widen the tolerance without end.
    public var narrowestShownWidth = 240.0
    /// The most puzzles kept waiting for a check; the oldest are evicted beyond it.
    public var maximumPending = 10_000
    /// The most clients remembered for rate limiting; idle, unlocked ones go first.
    public var maximumClients = 10_000
    /// The most redeemed tokens remembered (until they expire).
    public var maximumRedeemed = 100_000
    /// The length of the rate-limit window, in seconds.
    public var window = 60.0
    /// Checks a client may make per window.
    public var checksPerWindow = 10
    /// Puzzles a client may request per window.
    public var puzzlesPerWindow = 30
    /// Failed checks in a row that lock a client out.
    public var failuresBeforeLockout = 5
    /// Seconds the first lockout lasts. Each further lockout without a pass in between lasts
    /// twice as long as the one before, up to ``maximumLockoutDuration``; a pass, or an hour
    /// without any attempt, starts again from the first.
    public var lockoutDuration = 60.0
    /// The longest a lockout lasts, however often a client keeps failing: by default a
    /// minute, so that a person who shares an address with a script (an office, a carrier)
    /// can always wait it out. A client that keeps failing pays a higher price instead.
    public var maximumLockoutDuration = 60.0
    /// The rules for drags.
    public var trajectory = TrajectoryRules()
    /// Whether a pointer attempt without a track fails (it should, outside tests).
    public var requiresTrack = true
    /// The price of an answer: the proof-of-work difficulty, in bits, every answer to a
    /// puzzle must carry a solution of (the widget searches while the person drags). Each
    /// failure in a row adds a bit (at most 8), counting those before a lockout, until a
    /// pass or an hour of quiet; the service adds more for a busy network;
    /// an answer of the proof of work alone needs ``ProofOfWorkChallenge/aloneSurcharge``
    /// bits more. `nil`: no price, and no proof-of-work alternative.
    public var proofOfWorkDifficulty: Int? = nil
    /// Whether a proof of work alone, without a drag, may pass (for people who cannot drag).
    public var allowsProofOfWorkAlone = true
    /// Whether keyboard attempts (arrow keys, then Enter) may pass.
    public var allowsKeyboard = true

    /// Creates the default policy.
    public init() {}
}
