import TactilePatternLock

/// The values a ``PatternSession`` works with: what the person is doing, what it asks its host
/// to do and hears back, and the effects it returns.
extension PatternSession {
    /// What the user is doing.
    public enum Task: Hashable, Sendable {
        /// Setting a first pattern.
        case enroll(PatternEnrollment)
        /// Unlocking with the stored pattern.
        case unlock
        /// Unlocked: the stored pattern was drawn, and the lock stays open (taking no drawing)
        /// until ``PatternSession/lockAgain()``.
        case unlocked
        /// Changing: first the current pattern.
        case changeCurrent
        /// Changing: the new pattern, drawn twice, `current` having just been verified.
        case changeNew(current: Pattern, PatternEnrollment)
        /// Removing: the current pattern.
        case remove
        /// The store cannot be used: nothing is accepted (fail closed).
        case damaged
    }

    /// A call to make on the vault.
    public enum Request: Hashable, Sendable {
        /// `PatternVault.enroll` (making the store's folder first).
        case enroll(Pattern)
        /// `PatternVault.verify`.
        case verify(Pattern)
        /// `PatternVault.change`.
        case change(from: Pattern, to: Pattern)
        /// `PatternVault.remove`.
        case remove(Pattern)
        /// `PatternVault.setAside`: keep the damaged store under another name.
        case setAside
    }

    /// What a request came to.
    public enum Answer: Hashable, Sendable {
        /// The pattern was stored.
        case enrolled
        /// The vault's verdict on the pattern.
        case verdict(PatternVerification)
        /// The damaged store was kept at this path (`nil`: there was none any more).
        case setAside(keptAs: String?)
        /// The vault failed.
        case failed(PatternVaultError)
    }

    /// What the lock shows.
    public enum Feedback: Hashable, Sendable {
        /// The path in the success colour.
        case correct
        /// The path in the error colour, cleared after a moment.
        case wrong
        /// An empty grid.
        case clear
    }

    /// One thing for the host to do, in order.
    public enum Effect: Hashable, Sendable {
        /// Run this on the vault (off the main thread), then tell the result to ``answer(_:)``.
        case perform(Request)
        /// Show this on the lock.
        case show(Feedback)
        /// The headline, and the explanation under it (`nil`: leave it as it is).
        case say(String, String?)
        /// Use a grid of this size.
        case useGrid(Int)
        /// Take no input for this many seconds, counting down.
        case countDown(Double)
        /// Tell the person in passing, whatever part of the window they look at (a toast).
        case notify(String)
        /// The store cannot be used: refuse all input, say what happened (a headline and an
        /// explanation), and offer to read the store again; with `canStartOver`, also to start
        /// over (``startOver()``, after asking).
        case failClosed(String, String, canStartOver: Bool)
    }
}
