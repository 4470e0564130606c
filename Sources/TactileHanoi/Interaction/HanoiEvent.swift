/// What happened in a ``HanoiModel``, returned by every operation in the order it happened.
public enum HanoiEvent: Hashable, Sendable {
    /// Solver or manual play began.
    case modeChanged(HanoiModel.Mode)
    /// The solution started, paused, stepped, jumped or changed speed.
    case playbackChanged(HanoiPlaybackState)
    /// A disk landed: played back (moves completed by time or a step) or moved by hand.
    case moveFinished(HanoiMove)
    /// A manual move was refused, and why.
    case moveRefused(HanoiRefusal)
    /// The goal was reached, by hand or by the solution.
    case solved
    /// A peg was picked (click-click play) or the pick was dropped.
    case selectionChanged(peg: Int?)
    /// The best next move is shown.
    case hintShown(HanoiMove)
    /// The sentence for the user changed.
    case messageChanged(String?)
    /// The disk in the hand moved (redraw only).
    case diskDragged
    /// A new tower: other disks or pegs, back at the start.
    case configured
}
