/// Where the captcha stands.
///
/// `idle → dragging → verified | failed`; a failed puzzle may be dragged again until the
/// number of failures reaches ``PuzzleModel/maximumFailures``, when it is `locked` until reset.
public enum PuzzleState: String, Hashable, Sendable {
    /// Waiting for the user.
    case idle
    /// The piece is being moved by pointer or keyboard.
    case dragging
    /// The attempt was sent to a verifier whose verdict has not come yet; input waits.
    case verifying
    /// The piece was accepted.
    case verified
    /// The last attempt was refused; the user may try again.
    case failed
    /// Too many refused attempts: input is ignored until ``PuzzleModel/reset()``.
    case locked

    /// Whether the piece can be picked up in this state.
    public var acceptsInput: Bool { self == .idle || self == .failed || self == .dragging }
}
