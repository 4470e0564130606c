import Foundation
import TactilePuzzleVerifier

/// Where the service keeps its verifier: every operation on it is atomic.
public protocol VerifierBackend: Sendable {
    /// Runs `body` on the verifier, alone; what it changes is kept.
    func withVerifier<R>(_ body: (inout PuzzleVerifier) throws -> R) throws -> R
    /// Whether the backend answers (for `/healthz`).
    func isHealthy() -> Bool
}

/// The verifier in this process's memory, behind a lock: the default of `serve`. Bounded by
/// the policy's limits (pending puzzles, clients, redeemed tokens), evicting the oldest.
public final class MemoryBackend: VerifierBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var verifier: PuzzleVerifier

    /// Creates a backend with a fresh random key.
    public init(policy: VerifierPolicy) {
        verifier = PuzzleVerifier(key: TokenSigner.makeKey(), policy: policy)!
    }

    public func withVerifier<R>(_ body: (inout PuzzleVerifier) throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&verifier)
    }

    public func isHealthy() -> Bool { true }
}

/// The verifier in a state directory (`VerifierStore`), shared by every process that uses
/// the directory; each operation loads, changes and saves it under the directory's lock.
public struct DirectoryBackend: VerifierBackend {
    let store: VerifierStore
    let policy: VerifierPolicy

    /// Opens (creating if needed) a state directory.
    public init(directory: String, policy: VerifierPolicy) throws(VerifierStoreError) {
        store = try VerifierStore(directory: directory)
        self.policy = policy
    }

    public func withVerifier<R>(_ body: (inout PuzzleVerifier) throws -> R) throws -> R {
        try store.withVerifier(policy: policy) { verifier in
            verifier.policy = policy
            return try body(&verifier)
        }
    }

    public func isHealthy() -> Bool {
        (try? store.withVerifier(policy: policy) { _ in true }) ?? false
    }
}
