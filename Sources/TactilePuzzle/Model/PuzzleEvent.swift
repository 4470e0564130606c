import TactileCore

/// What happened in a puzzle, returned by each change of a ``PuzzleControl`` and told through
/// its host's `onEvent`, in the order it happened.
public enum PuzzleEvent: Hashable, Sendable {
    /// The piece moved, to this position (area units).
    case pieceMoved(Point)
    /// The state changed, to this one.
    case stateChanged(PuzzleState)
    /// An attempt was made (released, or submitted from the keyboard) and goes to the
    /// verifier.
    case attemptMade(PuzzleResult)
    /// The attempt passed; told once the snap and fade have finished.
    case passed(PuzzleResult)
    /// The attempt failed; told once the shake (and the glide back) have finished.
    case failed(PuzzleResult)
}
