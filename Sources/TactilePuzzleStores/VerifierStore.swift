import Foundation
import TactileCore
import TactileCrypto
import TactilePuzzleVerifier

/// A verifier kept in a directory between runs, authenticated and failing closed.
///
/// The directory (mode 0700, owned by the user) holds:
/// - `key` (mode 0600, 72 bytes): the magic `TPZKEY01`, a 32-byte secret, and the SHA-256 of
///   both, so a damaged key is told from a good one;
/// - `state.json` (mode 0600): a header line `TPZSTATE1 <mac>` and the state as JSON, the MAC
///   being HMAC-SHA-256 under a key derived from the secret, over everything after the
///   header line;
/// - `lock`, which serialises processes, and `verifier.log`, the operator's log.
///
/// Both files are made together on first use and never again: a key without a state, a
/// state without a key, a flipped bit or a truncation anywhere, a file or the directory
/// readable or writable by others, or a value no verifier writes — each stops the store
/// with an error naming the problem (exit 4 in the CLI), and nothing is ever regenerated
/// silently. Limits therefore cannot be lifted by editing a number or deleting a file.
/// Writes are atomic (`FileAccess`).
public struct VerifierStore: Sendable {
    /// The directory.
    public let directory: String

    /// The largest `state.json` read (16 MiB); a larger one is refused as damaged.
    public static let stateLimit = 16 << 20
    /// The size at which `verifier.log` is moved to `verifier.log.1` and started afresh.
    public static let logLimit = 1 << 20

    static let keyFileLength = VerifierSeal.keyLength

    /// Opens (creating if needed, mode 0700) a state directory.
    public init(directory: String) throws(VerifierStoreError) {
        var info = stat()
        if lstat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw VerifierStoreError(
                    info.st_mode & S_IFMT == S_IFLNK
                        ? "\(directory) is a symbolic link; give the state directory itself"
                        : "\(directory) exists and is not a directory", isBadPath: true)
            }
        } else {
            guard errno == ENOENT else {
                throw VerifierStoreError(
                    "cannot use \(directory): \(String(cString: strerror(errno)))", isBadPath: true)
            }
            do throws(FileAccessError) {
                try FileAccess.createDirectory(directory, permissions: 0o700)
            } catch {
                // The folder that failed may be one above the state directory.
                let failed = error.path == directory ? "" : "cannot create \(error.path): "
                throw VerifierStoreError(
                    "cannot create state directory \(directory): \(failed)\(error.reason)",
                    isBadPath: true)
            }
        }
        self.directory = directory
    }

    private var keyPath: String { directory + "/key" }
    private var statePath: String { directory + "/state.json" }
    private var lockPath: String { directory + "/lock" }
    /// The operator's log: one line per check, with the rule that failed and its figures.
    public var logPath: String { directory + "/verifier.log" }

    /// Loads the verifier under an exclusive lock, runs `body`, and saves the state
    /// atomically if `body` returns normally and changed it.
    ///
    /// - Parameters:
    ///   - policy: The limits.
    ///   - random: Where the verifier draws puzzle ids and token nonces.
    ///   - body: The work on the verifier.
    public func withVerifier<R>(
        policy: VerifierPolicy = VerifierPolicy(),
        random: some RandomNumberGenerator & Sendable = SecureRandom(),
        _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R {
        let refusal = { (error: FileAccessError) in VerifierStoreError(error.description) }
        let outcome: Result<R, any Error> = try FileAccess.withExclusiveLock(
            lockPath, failure: refusal
        ) { () throws(VerifierStoreError) in
            try checkPrivate(directory, kind: "directory", mode: 0o700)
            let (key, state) = try load()
            var verifier = try VerifierSeal.open(
                key: key, state: state, policy: policy, random: random,
                names: (key: keyPath, state: statePath))
            let loaded = verifier
            do {
                let result = try body(&verifier)
                // Only a change is written: a read (a health check, a look at a puzzle)
                // costs no write, and leaves the file as it was.
                if !verifier.hasSameState(as: loaded) {
                    try write(try VerifierSeal.seal(verifier, key: key), to: statePath)
                }
                return .success(result)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// Appends a line to the operator's log (mode 0600), moving a full log aside first.
    public func log(_ line: String) throws(VerifierStoreError) {
        do { try FileAccess.appendLine(line, to: logPath, rotatingAt: Self.logLimit) } catch {
            throw VerifierStoreError(error.description)
        }
    }

    // MARK: - Loading and saving

    /// The sealed key and state, made together when the directory is new.
    private func load() throws(VerifierStoreError) -> (key: [UInt8], state: [UInt8]) {
        let keyBytes = try readIfPresent(keyPath, limit: Self.keyFileLength)
        let stateBytes = try readIfPresent(statePath, limit: Self.stateLimit)
        switch (keyBytes, stateBytes) {
        case (nil, nil):
            // A new directory: make both, key first. Nothing else creates either, so a
            // directory that has been used (it holds more than its lock) and lost both is
            // refused rather than started afresh.
            if let used = usedEntries(), !used.isEmpty {
                throw damaged(
                    "\(directory) has no key and no state but has been used (it holds \(used.joined(separator: ", "))); refusing to start afresh (that would lift every limit)"
                )
            }
            let key = VerifierSeal.makeKey()
            let state = try VerifierSeal.emptyState(key: key)
            try write(key, to: keyPath)
            try write(state, to: statePath)
            return (key, state)
        case (nil, .some):
            throw damaged(
                "\(keyPath) is missing but \(statePath) exists; refusing to start afresh (that would lift every limit)"
            )
        case (.some, nil):
            throw damaged(
                "\(statePath) is missing but \(keyPath) exists; refusing to start afresh (that would lift every limit). If the directory was only just created (a first run was interrupted), remove it and try again"
            )
        case (.some(let key), .some(let state)):
            return (key, state)
        }
    }

    private func write(_ bytes: [UInt8], to path: String) throws(VerifierStoreError) {
        do { try FileAccess.write(bytes, to: path, permissions: 0o600) } catch {
            throw VerifierStoreError(error.description)
        }
    }

    // MARK: - Checks

    /// The directory's entries other than its lock and temporaries, or `nil` when it cannot
    /// be listed.
    private func usedEntries() -> [String]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return nil
        }
        return names.filter { $0 != "lock" && !$0.contains(".tmp-") }.sorted()
    }

    /// The file's bytes, or `nil` when it does not exist; a file that is not private to
    /// the user fails closed.
    private func readIfPresent(_ path: String, limit: Int) throws(VerifierStoreError) -> [UInt8]? {
        do {
            let bytes = try FileAccess.read(path: path, limit: limit, followsSymbolicLinks: false)
            try checkPrivate(path, kind: "file", mode: 0o600)
            return bytes
        } catch let error as FileAccessError {
            if error.kind == .notFound { return nil }
            if case .tooLarge = error.kind { throw damaged("\(path) is damaged: \(error.reason)") }
            throw damaged(error.description)
        } catch let error as VerifierStoreError {
            throw error
        } catch {
            throw damaged("\(error)")
        }
    }

    /// Refuses a file or directory that others may read or write, or that another user owns.
    private func checkPrivate(_ path: String, kind: String, mode: mode_t) throws(VerifierStoreError)
    {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw damaged("cannot examine \(path): \(String(cString: strerror(errno)))")
        }
        guard info.st_uid == geteuid() else {
            throw damaged(
                "\(path) belongs to another user (uid \(info.st_uid)); refusing to use it")
        }
        let permissions = info.st_mode & 0o777
        guard permissions & 0o077 == 0 else {
            throw damaged(
                "the \(kind) \(path) is accessible to others (mode \(String(permissions, radix: 8))); it must be \(String(mode, radix: 8)): run chmod \(String(mode, radix: 8)) \(path) once you have checked it"
            )
        }
    }

    private func damaged(_ message: String) -> VerifierStoreError { VerifierStoreError(message) }
}
