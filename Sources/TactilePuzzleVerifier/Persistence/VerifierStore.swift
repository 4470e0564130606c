import Foundation
import TactileCrypto

/// Why the store in a state directory cannot be used.
public struct VerifierStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// A verifier kept in a directory between runs: `key` (the token key, 32 bytes, mode 0600,
/// made on first use), `state.json` (pending puzzles and client records, mode 0600) and
/// `lock` (serialises processes).
///
/// Writes are atomic: a temporary file is written, flushed to disk with `fsync`, renamed
/// over the old one, and the directory is flushed. A key or state that cannot be read or
/// decoded stops everything (fails closed) rather than starting afresh.
public struct VerifierStore: Sendable {
    /// The directory.
    public let directory: String

    /// Opens (creating if needed, mode 0700) a state directory.
    public init(directory: String) throws(VerifierStoreError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw VerifierStoreError("\(directory) exists and is not a directory")
            }
        } else {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw VerifierStoreError("cannot create state directory \(directory): \(error)")
            }
        }
        self.directory = directory
    }

    private var keyPath: String { directory + "/key" }
    private var statePath: String { directory + "/state.json" }
    private var lockPath: String { directory + "/lock" }

    /// Loads the verifier under an exclusive lock, runs `body`, and saves the state
    /// atomically if `body` returns normally.
    public func withVerifier<R>(
        policy: VerifierPolicy = VerifierPolicy(),
        _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R {
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw VerifierStoreError("cannot open \(lockPath): \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw VerifierStoreError(
                    "cannot lock \(lockPath): \(String(cString: strerror(errno)))")
            }
        }
        let key = try loadOrCreateKey()
        let state = try loadState()
        guard var verifier = PuzzleVerifier(key: key, policy: policy, state: state) else {
            throw VerifierStoreError("\(keyPath) does not hold a 32-byte key")
        }
        let result = try body(&verifier)
        try save(verifier.state)
        return result
    }

    private func loadOrCreateKey() throws(VerifierStoreError) -> [UInt8] {
        if let data = FileManager.default.contents(atPath: keyPath) {
            guard data.count == TokenSigner.keyLength else {
                throw VerifierStoreError(
                    "\(keyPath) is damaged: \(data.count) bytes, expected \(TokenSigner.keyLength)")
            }
            return Array(data)
        }
        guard !FileManager.default.fileExists(atPath: keyPath) else {
            throw VerifierStoreError("\(keyPath) exists but cannot be read")
        }
        let key = Sodium.randomBytes(TokenSigner.keyLength)
        try writeAtomically(Data(key), to: keyPath)
        return key
    }

    private func loadState() throws(VerifierStoreError) -> VerifierState {
        guard FileManager.default.fileExists(atPath: statePath) else { return VerifierState() }
        guard let data = FileManager.default.contents(atPath: statePath) else {
            throw VerifierStoreError("\(statePath) exists but cannot be read")
        }
        do {
            return try JSONDecoder().decode(VerifierState.self, from: data)
        } catch {
            throw VerifierStoreError("\(statePath) is damaged and was left untouched: \(error)")
        }
    }

    private func save(_ state: VerifierState) throws(VerifierStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(state) } catch {
            throw VerifierStoreError("cannot encode the state: \(error)")
        }
        try writeAtomically(data, to: statePath)
    }

    /// Writes a temporary file (mode 0600), flushes it, renames it over `path` and flushes
    /// the directory, so a reader sees either the old file or the whole new one.
    private func writeAtomically(_ data: Data, to path: String) throws(VerifierStoreError) {
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw VerifierStoreError(
                "cannot write \(temporary): \(String(cString: strerror(errno)))")
        }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                offset += n
            }
            return true
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw VerifierStoreError("cannot write \(path): \(reason)")
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }
}
