import Foundation
import TactileCore

extension PatternVault {
    /// Moves a store the vault refuses out of the way, so a new pattern can be set, and keeps
    /// it for a look: renamed to `<path>.damaged-<UTC time>` in the same folder (`-2`, `-3`, …
    /// added when that name is taken), made private (mode 0600) where the user owns it.
    ///
    /// This is starting over, not mending: nothing in the old store is read or carried into a
    /// new one, and only a store that fails closed as damaged or of an unknown version is
    /// moved. A store that reads well stays where it is, so this never removes a working lock
    /// without its pattern. It runs under the store's lock, like every other change.
    ///
    /// - Parameter now: The time in the new name.
    /// - Returns: Where the store was kept, or `nil` when there was no store.
    /// - Throws: ``PatternVaultError/alreadyEnrolled(path:)`` for a store that reads well; the
    ///   read's error when the store is unusable for another reason (unreadable, not a regular
    ///   file: nothing is moved); ``PatternVaultError/unwritable(path:reason:)`` when the
    ///   rename fails.
    public func setAside(at now: Date = Date()) throws(PatternVaultError) -> String? {
        let file = PatternStoreFile(path: path)
        return try file.withExclusiveLock { () throws(PatternVaultError) -> String? in
            do throws(PatternVaultError) {
                guard let bytes = try file.read() else { return nil }
                _ = try PatternStoreRecord(decoding: bytes, path: path)
            } catch {
                switch error {
                case .damaged, .unsupportedVersion: return try moveAside(at: now)
                default: throw error
                }
            }
            throw .alreadyEnrolled(path: path)
        }
    }

    /// Renames the store (a regular file) to a free `.damaged-…` name and flushes the folder.
    private func moveAside(at now: Date) throws(PatternVaultError) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw .unusablePath(path: path, reason: Localization.text("is not a regular file"))
        }
        let base = path + ".damaged-" + Self.timestamp(now)
        let names: [String] = [base] + (2...99).map { "\(base)-\($0)" }
        guard let target = names.first(where: { lstat($0, &info) != 0 && errno == ENOENT }) else {
            throw .unwritable(
                path: path, reason: Localization.text("no free name to keep it under"))
        }
        // Private before it moves, so the kept copy is never open to others under its new name.
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if descriptor >= 0 {
            fchmod(descriptor, 0o600)
            close(descriptor)
        }
        guard rename(path, target) == 0 else {
            throw .unwritable(path: path, reason: String(cString: strerror(errno)))
        }
        let folder = open(
            FileAccess.parentDirectory(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
        return target
    }

    /// `20240131T235959Z`: sortable, and free of characters file names dislike.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return digits(parts.tm_year + 1900, 4) + digits(parts.tm_mon + 1, 2)
            + digits(parts.tm_mday, 2) + "T" + digits(parts.tm_hour, 2) + digits(parts.tm_min, 2)
            + digits(parts.tm_sec, 2) + "Z"
    }
}
