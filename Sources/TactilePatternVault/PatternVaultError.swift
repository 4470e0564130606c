import TactileCore
import TactilePatternLock

/// Why the vault could not do what was asked. Messages name the store and the problem,
/// never the pattern.
public enum PatternVaultError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No store exists at the path: nothing is enrolled.
    case notEnrolled(path: String)
    /// A store already exists; changing it needs the current pattern.
    case alreadyEnrolled(path: String)
    /// The store is damaged, truncated or not a pattern store; it is not used (fail closed).
    case damaged(path: String, reason: String)
    /// The store was written by a newer or unknown format version; it is not used.
    case unsupportedVersion(path: String, version: Int)
    /// The store could not be read.
    case unreadable(path: String, reason: String)
    /// The store could not be written; nothing was verified or changed.
    case unwritable(path: String, reason: String)
    /// The path cannot hold a store: it names a directory, a FIFO, a symbolic link, or a
    /// file in a folder that does not exist. Nothing was read, checked or changed.
    case unusablePath(path: String, reason: String)
    /// The pattern is not acceptable input (too short, wrong grid); not counted as an attempt.
    case invalidPattern(PatternError)
    /// Argon2id failed, usually for lack of memory; nothing was verified.
    case hashingFailed

    /// A sentence for the user.
    public var message: String {
        switch self {
        case .notEnrolled(let path):
            Localization.text("no pattern is set: {1} does not exist", path)
        case .alreadyEnrolled(let path):
            Localization.text(
                "a pattern is already set in {1}; changing it needs the current pattern", path)
        case .damaged(let path, let reason):
            Localization.text(
                "the pattern store {1} is damaged ({2}); refusing to use it", path, reason)
        case .unsupportedVersion(let path, let version):
            Localization.text(
                "the pattern store {1} has format version {2}, but this build reads only version {3}; refusing to use it",
                path, version, PatternStoreRecord.version)
        case .unreadable(let path, let reason):
            Localization.text("cannot read the pattern store {1}: {2}", path, reason)
        case .unwritable(let path, let reason):
            Localization.text(
                "cannot write the pattern store {1}: {2}; nothing was checked or changed", path,
                reason)
        case .unusablePath(let path, let reason):
            Localization.text(
                "{1} cannot be a pattern store: it {2}; nothing was checked or changed", path,
                reason)
        case .invalidPattern(let error):
            error.message
        case .hashingFailed:
            Localization.text(
                "the pattern could not be hashed (Argon2id ran out of memory); nothing was checked"
            )
        }
    }

    /// Whether the store itself is the problem (damaged, unknown version, unreadable or
    /// unwritable): the command-line tool exits 4 for these.
    public var isStoreFailure: Bool {
        switch self {
        case .damaged, .unsupportedVersion, .unreadable, .unwritable: true
        default: false
        }
    }

    public var description: String { message }
}
