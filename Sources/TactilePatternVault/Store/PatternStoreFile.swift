import Foundation
import TactileCore

/// The file operations behind a pattern store, through `FileAccess`: bounded reads that
/// never follow a link, atomic writes with mode 0600, and an exclusive lock so concurrent
/// checks cannot lose a counted failure.
struct PatternStoreFile {
    /// The store's path.
    let path: String

    /// The largest file read; anything bigger is not a store.
    static let readLimit = 4096

    /// The lock file next to the store. The store itself is replaced on every write, so
    /// it cannot carry the lock.
    var lockPath: String { path + ".lock" }

    /// The store's bytes, or `nil` when there is no store.
    func read() throws(PatternVaultError) -> [UInt8]? {
        do {
            return try FileAccess.read(
                path: path, limit: Self.readLimit, followsSymbolicLinks: false)
        } catch {
            if error.kind == .notFound { return nil }
            if case .tooLarge = error.kind {
                throw .damaged(path: path, reason: "larger than \(Self.readLimit) bytes")
            }
            throw error.isBadPath
                ? .unusablePath(path: path, reason: error.reason)
                : .unreadable(path: path, reason: error.reason)
        }
    }

    /// Replaces the store with `bytes` atomically (mode 0600), so a crash leaves either the
    /// old store or the new one.
    func write(_ bytes: [UInt8]) throws(PatternVaultError) {
        do { try FileAccess.write(bytes, to: path, permissions: 0o600) } catch {
            throw Self.writeFailure(error, path: path)
        }
    }

    /// Deletes the store (the lock file stays, as other processes may be waiting on it).
    func remove() throws(PatternVaultError) {
        do { try FileAccess.remove(path) } catch { throw Self.writeFailure(error, path: path) }
    }

    /// Runs `body` holding an exclusive lock on the store's lock file.
    func withExclusiveLock<T>(_ body: () throws(PatternVaultError) -> T)
        throws(PatternVaultError) -> T
    {
        try FileAccess.withExclusiveLock(
            lockPath,
            failure: { error in
                error.isBadPath
                    ? .unusablePath(path: path, reason: "has a lock file that \(error.reason)")
                    : .unwritable(path: path, reason: "cannot lock it: \(error.reason)")
            }, body)
    }

    private static func writeFailure(_ error: FileAccessError, path: String) -> PatternVaultError {
        error.isBadPath
            ? .unusablePath(path: path, reason: error.reason)
            : .unwritable(path: path, reason: error.reason)
    }
}
