import TactilePatternLock

/// Setting a pattern: draw it, then draw it again to confirm.
///
/// Pure logic, no storage: when ``submit(_:)`` returns
/// ``Outcome/confirmed(_:)``, the owner stores the pattern (`PatternVault.enroll` or
/// `PatternVault.change`).
public struct PatternEnrollment: Hashable, Sendable {
    /// Where enrolment stands.
    public enum Step: Hashable, Sendable {
        /// Waiting for the first drawing.
        case drawing
        /// Waiting for the same pattern again.
        case confirming
    }

    /// What a submitted pattern led to.
    public enum Outcome: Hashable, Sendable {
        /// Fewer dots than the minimum; nothing changed.
        case tooShort(minimum: Int)
        /// The first drawing was taken; draw it again.
        case confirmNext
        /// The confirmation differs from the first drawing; draw the confirmation again, or
        /// ``restart()``.
        case mismatch
        /// Both drawings match: store this pattern.
        case confirmed(Pattern)
    }

    /// The fewest dots a pattern needs.
    public let minimumLength: Int
    /// The current step.
    public private(set) var step: Step = .drawing
    private var first: Pattern?

    /// Starts an enrolment.
    public init(minimumLength: Int = PatternLimits.defaultMinimumLength) {
        self.minimumLength = minimumLength
    }

    /// Takes one drawing.
    public mutating func submit(_ pattern: Pattern) -> Outcome {
        guard pattern.count >= minimumLength else { return .tooShort(minimum: minimumLength) }
        guard let first else {
            first = pattern
            step = .confirming
            return .confirmNext
        }
        guard pattern == first else { return .mismatch }
        restart()
        return .confirmed(pattern)
    }

    /// Forgets the first drawing and starts over.
    public mutating func restart() {
        first = nil
        step = .drawing
    }
}
