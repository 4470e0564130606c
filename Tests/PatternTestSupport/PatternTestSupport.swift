// Helpers the pattern lock's test targets share.

@_spi(Testing) import TactileCrypto
import TactilePatternLock
import TactilePatternVault
import TestSupport

/// A pattern written the canonical way, dot numbers joined by hyphens ("1-2-3-6").
public func pattern(_ text: String) throws -> Pattern { try Pattern(canonical: text) }

/// What the session says when the drawing that should confirm the first one differs from it.
public let confirmationMismatch: [PatternSession.Effect] = [
    .show(.wrong),
    .say(
        "Patterns didn't match",
        "Draw the same pattern again to confirm, or press Cancel to start over."),
]

/// A pattern store in a scratch directory, with a clock moved by hand. Each ``vault`` is a
/// new value on the same file: nothing survives in memory between two uses, as after a
/// restart.
public struct VaultOnDisk: Sendable {
    /// The directory the store is in, removed when the last copy of this goes.
    public let scratch = ScratchDirectory()
    /// The clock the vault reads.
    public let clock = ManualClock()

    /// A store in a new scratch directory, the clock at its start.
    public init() {}

    /// The store file's path.
    public var path: String { scratch.file("pattern.store") }

    /// A new vault value on the store, at the cheapest hashing cost.
    public var vault: PatternVault {
        PatternVault(path: path, cost: .minimum, clock: { [clock] in clock.now })
    }
}
