import Foundation
import Synchronization
import TactilePuzzleVerifier

/// A challenge's two image files, as served.
public struct ChallengeImages: Sendable, Hashable {
    /// The background's file.
    public var background: [UInt8]
    /// The background's media type (`image/jpeg` or `image/png`).
    public var backgroundType: String
    /// The piece's PNG file.
    public var piece: [UInt8]

    /// Creates the pair.
    public init(background: [UInt8], backgroundType: String, piece: [UInt8]) {
        self.background = background
        self.backgroundType = backgroundType
        self.piece = piece
    }
}

/// Where the service keeps its verifier and its challenges' images: every operation on the
/// verifier is atomic, across every process that shares the backend.
public protocol VerifierBackend: Sendable {
    /// How many times this process found the store's secret gone and began a new epoch.
    var epochsTakenUp: Int { get }

    /// Runs `body` on the verifier, alone among the operations on the same client or token;
    /// what it changes is kept.
    ///
    /// `body` must stay within `scope`: a backend that keeps records apart (Redis) gives it
    /// a verifier holding only the scope's records. `now` is the time `body` acts at (seconds
    /// since 1970); records it keeps live on from then. A check
    /// (`VerifierScope.checkedPuzzle`) that ran also forgets its puzzle's images, in the
    /// shared store and in the checking process: checked once, whatever the outcome, they are
    /// of no more use. (Another process that made the puzzle may still serve its own copy
    /// until it expires; it shows nothing the browser did not already have.)
    ///
    /// `body` may run more than once (a backend may try an operation first as if its records
    /// were absent); only the outcome of its last run is kept and returned, so it must not act
    /// on anything outside the verifier.
    func withVerifier<R>(
        _ scope: VerifierScope, now: Double, _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R
    /// Whether the backend answers (for `/healthz`).
    func isHealthy() -> Bool
    /// Runs `body` (which registers a challenge, or is refused) in `.issuing(client:)` and, if
    /// it registered one, keeps `images` as that challenge's until it expires.
    func register(
        client: String, now: Double, images: ChallengeImages,
        _ body: (inout PuzzleVerifier) throws -> Result<PuzzleChallenge, IssueRefusal>
    ) throws -> Result<PuzzleChallenge, IssueRefusal>
    /// A challenge's images, or `nil` when unknown or expired.
    func images(id: String, now: Double) throws -> ChallengeImages?
    /// Counts one event against `name` in the fixed window of `window` seconds that holds
    /// `now`: the count so far in that window, this one included, and when the window ends.
    func increment(_ name: String, window: Double, now: Double) throws -> (
        count: Int, windowEnds: Double
    )
    /// Counts one event against each counter, `name` in the fixed window of `window` seconds
    /// that holds its `at`, as ``increment(_:window:now:)`` does, in one step (one round trip).
    func count(_ counters: [(name: String, window: Double, at: Double)]) throws
    /// The counts of counters, each `name` in the fixed window of `window` seconds that holds
    /// its `at` (0 for a window nothing was counted in), read without counting, in one step.
    func counts(_ counters: [(name: String, window: Double, at: Double)]) throws -> [Int]
    /// The fingerprints of accepted drags (`DragFingerprint.bytes`) kept in the named
    /// buckets, shared by every instance that shares the store.
    func acceptedDrags(in buckets: [String], now: Double) throws -> [[UInt8]]
    /// Keeps an accepted drag's fingerprint in its bucket for `lifetime` seconds.
    func rememberAcceptedDrag(
        _ fingerprint: [UInt8], in bucket: String, lifetime: Double, now: Double
    ) throws
}

extension VerifierBackend {
    /// How many times this process found the store's secret gone and began a new epoch
    /// (a store that cannot lose its secret without failing closed: 0).
    public var epochsTakenUp: Int { 0 }
}

/// Images and counters kept in this process (for the backends whose verifier is local to
/// one machine).
public protocol LocalCaches: VerifierBackend {
    /// The process's image cache.
    var imageCache: ImageCache { get }
    /// The process's counters.
    var counters: WindowCounters { get }
    /// The process's memory of accepted drags.
    var dragMemory: DragMemory { get }
}

extension LocalCaches {
    public func acceptedDrags(in buckets: [String], now: Double) throws -> [[UInt8]] {
        dragMemory.fingerprints(in: buckets, now: now)
    }

    public func rememberAcceptedDrag(
        _ fingerprint: [UInt8], in bucket: String, lifetime: Double, now: Double
    ) throws {
        dragMemory.remember(fingerprint, in: bucket, lifetime: lifetime, now: now)
    }

    public func increment(_ name: String, window: Double, now: Double) throws -> (
        count: Int, windowEnds: Double
    ) {
        counters.increment(name, window: window, now: now)
    }

    public func count(_ counters: [(name: String, window: Double, at: Double)]) throws {
        for (name, window, at) in counters {
            _ = self.counters.increment(name, window: window, now: at)
        }
    }

    public func counts(_ counters: [(name: String, window: Double, at: Double)]) throws -> [Int] {
        counters.map { self.counters.count($0.name, window: $0.window, now: $0.at) }
    }

    /// Registers, then keeps the images in this process.
    public func register(
        client: String, now: Double, images: ChallengeImages,
        _ body: (inout PuzzleVerifier) throws -> Result<PuzzleChallenge, IssueRefusal>
    ) throws -> Result<PuzzleChallenge, IssueRefusal> {
        let result = try withVerifier(.issuing(client: client), now: now, body)
        if case .success(let challenge) = result {
            imageCache.put(challenge.id, images, until: challenge.expiresAt, now: now)
        }
        return result
    }

    /// Forgets the images of the puzzle a check is about.
    func forgetImages(of scope: VerifierScope) {
        if let id = scope.checkedPuzzle { imageCache.remove(id) }
    }

    public func images(id: String, now: Double) throws -> ChallengeImages? {
        imageCache.get(id, now: now)
    }
}

/// The verifier in this process's memory, behind a lock: the default of `serve`. Bounded by
/// the policy's limits (pending puzzles, clients, redeemed tokens), evicting the oldest.
public final class MemoryBackend: LocalCaches {
    private let verifier: Mutex<PuzzleVerifier>
    public let imageCache = ImageCache()
    public let counters = WindowCounters()
    public let dragMemory = DragMemory()

    /// Creates a backend with a fresh random key.
    public init(policy: VerifierPolicy) {
        verifier = Mutex(PuzzleVerifier(key: TokenSigner.makeKey(), policy: policy)!)
    }

    public func withVerifier<R>(
        _ scope: VerifierScope, now: Double, _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R {
        defer { forgetImages(of: scope) }
        return try verifier.withLock { try body(&$0) }
    }

    public func isHealthy() -> Bool { true }
}

/// The verifier in a state directory (`VerifierStore`), shared by every process that uses
/// the directory; each operation loads, changes and saves it under the directory's lock.
/// Images and site-wide counters stay in the process that made them.
public struct DirectoryBackend: LocalCaches {
    /// The state directory.
    public let store: VerifierStore
    let policy: VerifierPolicy
    public let imageCache = ImageCache()
    public let counters = WindowCounters()
    public let dragMemory = DragMemory()

    /// Opens (creating if needed) a state directory.
    public init(directory: String, policy: VerifierPolicy) throws(VerifierStoreError) {
        store = try VerifierStore(directory: directory)
        self.policy = policy
    }

    public func withVerifier<R>(
        _ scope: VerifierScope, now: Double, _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R {
        defer { forgetImages(of: scope) }
        return try store.withVerifier(policy: policy) { verifier in
            verifier.policy = policy
            return try body(&verifier)
        }
    }

    public func isHealthy() -> Bool {
        (try? store.withVerifier(policy: policy) { _ in true }) ?? false
    }
}
