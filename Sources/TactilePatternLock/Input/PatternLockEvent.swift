/// What the pattern lock reports to its owner.
///
/// Events carry the pattern itself, for the owner to verify; never log them.
public enum PatternLockEvent: Hashable, Sendable {
    /// The first dot of a new pattern was selected.
    case started
    /// A dot was selected (passed-over dots come as their own events, first); `pattern` is
    /// the pattern so far.
    case dotAdded(Int, pattern: Pattern)
    /// The pattern was cleared: cancelled, escaped, or the error display timed out.
    case cleared
    /// The pattern was completed (pointer released or Enter) with at least the minimum
    /// number of dots; the owner verifies it and calls
    /// ``PatternLockModel/show(_:)`` with the verdict.
    case finished(Pattern)
    /// The pattern was completed with too few dots; it shows as wrong and is not a
    /// candidate, so owners should not count it as an attempt.
    case tooShort(Pattern)
}

/// How the pattern is shown.
public enum PatternDisplayState: Hashable, Sendable {
    /// Nothing drawn; waiting for input.
    case normal
    /// A pattern is being drawn, or waits for a verdict.
    case drawing
    /// The pattern was accepted.
    case correct
    /// The pattern was refused; it clears after the configured delay.
    case wrong
}
