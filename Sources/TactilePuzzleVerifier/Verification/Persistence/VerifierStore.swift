import Foundation
import TactileCore
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

    /// The largest `state.json` read (16 MiB); a larger one is refused as damaged.
    public static let stateLimit = 16 << 20

    /// Opens (creating if needed, mode 0700) a state directory.
    public init(directory: String) throws(VerifierStoreError) {
        var info = stat()
        if lstat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw VerifierStoreError(
                    info.st_mode & S_IFMT == S_IFLNK
                        ? "\(directory) is a symbolic link; give the state directory itself"
                        : "\(directory) exists and is not a directory")
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
        let refusal = { (error: FileAccessError) in VerifierStoreError(error.description) }
        let outcome: Result<R, any Error> = try FileAccess.withExclusiveLock(
            lockPath, failure: refusal
        ) { () throws(VerifierStoreError) in
            let key = try loadOrCreateKey()
            let state = try loadState()
            guard var verifier = PuzzleVerifier(key: key, policy: policy, state: state) else {
                throw VerifierStoreError("\(keyPath) does not hold a 32-byte key")
            }
            do {
                let result = try body(&verifier)
                try save(verifier.state)
                return .success(result)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    private func loadOrCreateKey() throws(VerifierStoreError) -> [UInt8] {
        do {
            let data = try FileAccess.read(
                path: keyPath, limit: TokenSigner.keyLength, followsSymbolicLinks: false)
            guard data.count == TokenSigner.keyLength else {
                throw VerifierStoreError(
                    "\(keyPath) is damaged: \(data.count) bytes, expected \(TokenSigner.keyLength)")
            }
            return data
        } catch let error as FileAccessError {
            guard error.kind == .notFound else {
                if case .tooLarge = error.kind {
                    throw VerifierStoreError(
                        "\(keyPath) is damaged: more than \(TokenSigner.keyLength) bytes")
                }
                throw VerifierStoreError(error.description)
            }
        } catch let error as VerifierStoreError {
            throw error
        } catch {
            throw VerifierStoreError("\(error)")
        }
        let key = Sodium.randomBytes(TokenSigner.keyLength)
        try writeAtomically(key, to: keyPath)
        return key
    }

    private func loadState() throws(VerifierStoreError) -> VerifierState {
        let data: [UInt8]
        do {
            data = try FileAccess.read(
                path: statePath, limit: Self.stateLimit, followsSymbolicLinks: false)
        } catch {
            if error.kind == .notFound { return VerifierState() }
            throw VerifierStoreError("\(error.description); it was left untouched")
        }
        do {
            return try JSONDecoder().decode(VerifierState.self, from: Data(data))
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
        try writeAtomically(Array(data), to: statePath)
    }

    /// Replaces a file of the store atomically, mode 0600.
    private func writeAtomically(_ bytes: [UInt8], to path: String) throws(VerifierStoreError) {
        do { try FileAccess.write(bytes, to: path, permissions: 0o600) } catch {
            throw VerifierStoreError(error.description)
        }
    }
}
