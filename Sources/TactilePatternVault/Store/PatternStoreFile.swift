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

    /// The store's bytes, or `nil` when there is no store. A store, lock file or folder
    /// that others could change fails closed: loosened modes are damage, not to be mended
    /// silently.
    func read() throws(PatternVaultError) -> [UInt8]? {
        do {
            let bytes = try FileAccess.read(
                path: path, limit: Self.readLimit, followsSymbolicLinks: false)
            try checkPrivate()
            return bytes
        } catch let error as PatternVaultError {
            throw error
        } catch let error as FileAccessError {
            if error.kind == .notFound { return nil }
            if case .tooLarge = error.kind {
                throw .damaged(
                    path: path,
                    reason: Localization.text("larger than {1} bytes", Self.readLimit))
            }
            throw error.isBadPath
                ? .unusablePath(path: path, reason: error.reason)
                : .unreadable(path: path, reason: error.reason)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// Refuses a store or lock file that another user owns or that others may read or write,
    /// and a folder that others may write to (unless it is sticky, as /tmp is).
    private func checkPrivate() throws(PatternVaultError) {
        var info = stat()
        for (file, isStore) in [(path, true), (lockPath, false)] {
            guard lstat(file, &info) == 0 else { continue }
            let what = isStore ? Localization.text("the store") : Localization.text("its lock file")
            guard info.st_uid == geteuid() else {
                throw .damaged(
                    path: path,
                    reason: Localization.text(
                        "{1} belongs to another user (uid {2})", what, info.st_uid))
            }
            let mode = info.st_mode & 0o777
            guard mode & 0o077 == 0 else {
                throw .damaged(
                    path: path,
                    reason: Localization.text(
                        "{1} is open to other users (mode {2}), it must be 600", what,
                        String(mode, radix: 8)))
            }
        }
        let folder = FileAccess.parentDirectory(of: path)
        if lstat(folder, &info) == 0, info.st_mode & 0o022 != 0, info.st_mode & S_ISVTX == 0 {
            throw .damaged(
                path: path,
                reason: Localization.text(
                    "its folder {1} can be written by other users (mode {2})", folder,
                    String(info.st_mode & 0o777, radix: 8)))
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
                    ? .unusablePath(
                        path: path,
                        reason: Localization.text("has a lock file that {1}", error.reason))
                    : .unwritable(
                        path: path, reason: Localization.text("cannot lock it: {1}", error.reason))
            }, body)
    }

    private static func writeFailure(_ error: FileAccessError, path: String) -> PatternVaultError {
        error.isBadPath
            ? .unusablePath(path: path, reason: error.reason)
            : .unwritable(path: path, reason: error.reason)
    }
}
