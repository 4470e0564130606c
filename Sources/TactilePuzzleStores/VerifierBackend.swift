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

/// What an answer writes beside the verifier's records: the counters of its puzzle's site,
/// and the drag it accepted.
public struct AnswerWrites: Sendable {
    /// Counters to count, each `name` in the fixed window of `window` seconds that holds `at`.
    public var counters: [(name: String, window: Double, at: Double)]
    /// An accepted drag's fingerprint to keep in its bucket for `lifetime` seconds.
    public var acceptedDrag: (fingerprint: [UInt8], bucket: String, lifetime: Double)?

    /// Creates the writes.
    public init(
        counters: [(name: String, window: Double, at: Double)] = [],
        acceptedDrag: (fingerprint: [UInt8], bucket: String, lifetime: Double)? = nil
    ) {
        self.counters = counters
        self.acceptedDrag = acceptedDrag
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
    /// Runs one answer as one step of the store: the accepted drags kept in `dragBuckets`
    /// read, `body` run on the verifier within `scope` (a check) with them, and the writes it
    /// returns kept with what it changed.
    ///
    /// `body` may run more than once, as in ``withVerifier(_:now:_:)``; only its last run's
    /// outcome and writes are kept. A store in this process (``MemoryBackend``) runs it all
    /// under the verifier's lock, so two answers that send the same drag at once cannot both
    /// find it new; the default reads, checks and writes in turn. A write that fails only
    /// loses that write (a count, a remembered drag): the verdict stands.
    func answer<R>(
        _ scope: VerifierScope, now: Double, dragBuckets: [String],
        _ body: (inout PuzzleVerifier, _ acceptedDrags: [[UInt8]]) throws -> (R, AnswerWrites)
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

    /// Reads the drags, checks, then writes: three steps, each atomic on its own.
    public func answer<R>(
        _ scope: VerifierScope, now: Double, dragBuckets: [String],
        _ body: (inout PuzzleVerifier, _ acceptedDrags: [[UInt8]]) throws -> (R, AnswerWrites)
    ) throws -> R {
        let drags = try acceptedDrags(in: dragBuckets, now: now)
        var writes = AnswerWrites()
        let result = try withVerifier(scope, now: now) { verifier in
            let (result, asked) = try body(&verifier, drags)
            writes = asked
            return result
        }
        keep(writes, now: now)
        return result
    }

    /// Keeps an answer's writes; one that fails is lost alone.
    func keep(_ writes: AnswerWrites, now: Double) {
        if !writes.counters.isEmpty { try? count(writes.counters) }
        if let drag = writes.acceptedDrag {
            try? rememberAcceptedDrag(
                drag.fingerprint, in: drag.bucket, lifetime: drag.lifetime, now: now)
        }
    }
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

    /// Reads the drags, checks and writes under the verifier's lock: one step.
    public func answer<R>(
        _ scope: VerifierScope, now: Double, dragBuckets: [String],
        _ body: (inout PuzzleVerifier, _ acceptedDrags: [[UInt8]]) throws -> (R, AnswerWrites)
    ) throws -> R {
        defer { forgetImages(of: scope) }
        return try verifier.withLock { verifier in
            let drags = dragMemory.fingerprints(in: dragBuckets, now: now)
            let (result, writes) = try body(&verifier, drags)
            keep(writes, now: now)
            return result
        }
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
