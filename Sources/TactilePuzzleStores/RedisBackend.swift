internal import CHiredis
import Foundation
import Synchronization
import TactileCrypto
import TactilePuzzleVerifier

/// The verifier in Redis, shared by every `serve` process that points at the same server:
/// any of them can answer a challenge another made, and a check or a redemption succeeds
/// once across all of them.
///
/// The state lives record by record (see `VerifierRecords`): `tactile:puzzle:<id>`,
/// `tactile:client:<digest>`, `tactile:redeemed:<nonce>` and `tactile:verification:<digest>`,
/// each sealed and each with a TTL, so Redis forgets what nothing can need any more. The
/// sealed secret is `tactile:key`, made once by whichever instance comes first
/// (`SET NX`). An operation locks only its client or its token
/// (`SET tactile:lock:<name> <random> NX PX 5000`), reads its records (a checked puzzle
/// with `GETDEL`, so only one check of it can ever run), and writes back what changed in
/// one script with the lock's release (a Lua compare-and-delete): two round trips, and
/// operations on other clients never wait. Most take one: a token's first verification
/// (nothing is known of it yet), and an operation on a client and a puzzle whose records
/// this instance wrote last (it keeps a copy of those) run as if Redis held what they
/// expect, and write in one script that first checks that it does (else they run again
/// under the lock). Scripts are called by digest (`EVALSHA`).
/// Images live under `tactile:image:<id>` with the challenge's lifetime as their TTL, and
/// in a small cache of the instance that made them, which serves them without asking
/// Redis; the step that takes a checked puzzle drops them from Redis and from the
/// checking instance's cache.
///
/// Connections are pooled, one per concurrent request. When Redis does not answer, every
/// operation throws (the service answers 503 and `/healthz` fails, so nothing passes); the
/// next operation reconnects. Redis that comes back with its data (persistence on) is used
/// again at once. Redis that comes back without the secret this instance knew (restarted
/// without persistence, flushed, or another server) starts a new epoch: the first instance
/// to notice makes a new secret, every instance takes it up at its next operation or
/// `/healthz`, and nothing sealed or signed under the old one (a challenge, a token) passes
/// any more. What the old epoch's records held (limits, lockouts) is lost with them; the
/// log says so.
///
/// Redis is trusted: whoever can read it can read the secret and so make tokens, and
/// whoever deletes a record lifts that record's limit. Keep it on a private network, with
/// `appendonly yes`, `appendfsync always` and `maxmemory-policy noeviction` (every record
/// has a TTL, so any other policy could evict a lockout or a redeemed token early).
public final class RedisBackend: VerifierBackend {
    /// The connection to Redis.
    let client: any RedisTransport
    /// The server's host: the one named, or with Sentinel, the primary it last named.
    public var host: String { client.host }
    /// The server's port, as ``host``.
    public var port: Int { client.port }
    /// The Sentinels to ask where the primary is, and the name they know it by; empty for
    /// a server named directly.
    public var sentinels: [(host: String, port: Int)] { client.sentinels }
    /// The name the Sentinels monitor the primary under.
    public var primaryName: String? { client.primaryName }
    /// The database number, 0…15.
    public var database: Int { client.database }
    let policy: VerifierPolicy
    /// The sealed secret as last read with the keys it holds, and how many epochs this
    /// instance has begun or taken up.
    let state = Mutex<(key: (sealed: [UInt8], keys: VerifierRecords.Keys)?, epochs: Int)>(
        (nil, 0))
    /// The images of the challenges this instance made, kept here too: a browser fetches
    /// them right after asking for the challenge, mostly from the same instance, which then
    /// answers without a round trip to Redis. Only a shortcut, so a small budget; Redis
    /// keeps them for every instance.
    let localImages = ImageCache(budget: 64 << 20)
    /// The client and puzzle records this instance wrote last, by name, as it wrote them: an
    /// operation on them first runs as if Redis still held them and writes only if it does
    /// (one round trip instead of two). Only a shortcut, so a small budget.
    let localRecords = ExpiringCache<[UInt8]>(budget: 16 << 20) { $0.count + 64 }
    /// How long a record's lock lasts if its holder never releases it, in seconds; a locked
    /// operation that takes longer writes nothing and fails. (One that ran without the lock
    /// writes only if nothing it read has changed, however long it took.)
    let lockLease: Double
    /// Waits so many microseconds before asking again for a record another process holds.
    let pause: @Sendable (Int) -> Void
    /// Where a new epoch is told (one line).
    let log: @Sendable (String) -> Void
    public var epochsTakenUp: Int { state.withLock { $0.epochs } }

    /// A Redis operation failed: the server is gone, or answered an error.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What failed, naming the server.
        public var description: String

        @_spi(Testing) public init(description: String) {
            self.description = description
        }
    }
    typealias Reply = RedisReply

    /// Parses `redis://HOST:PORT[/DB]`, or `redis-sentinel://HOST:PORT[,HOST:PORT…]/NAME[/DB]`
    /// (IPv6 in brackets), and prepares a connection. With Sentinel, every new connection
    /// asks the Sentinels (in turn, until one answers) where the primary named `NAME` is, and
    /// checks that the server there is the primary; a connection that fails sends the next
    /// one to ask again, so the instance follows a failover. A check or a redemption is told
    /// only once no failover can forget it (see `RedisClient.awaitReplica(on:)`).
    public convenience init(
        url: String, policy: VerifierPolicy,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ServiceConfigurationError) {
        self.init(client: try RedisClient(url: url), policy: policy, log: log)
    }

    /// A backend on `client`, whose records' locks last `lockLease` seconds and which waits
    /// for a busy record with `pause` (microseconds).
    @_spi(Testing) public init(
        client: any RedisTransport, policy: VerifierPolicy,
        log: @escaping @Sendable (String) -> Void = { _ in }, lockLease: Double = 5,
        pause: @escaping @Sendable (Int) -> Void = { usleep(UInt32($0)) }
    ) {
        self.client = client
        self.policy = policy
        self.log = log
        self.lockLease = lockLease
        self.pause = pause
    }

    // MARK: - The verifier

    static let keyName = "tactile:key"

    /// The sealed secret: as this instance first read it, or (on a new server) made by
    /// whichever instance sets it first.
    func key(on connection: any RedisConnection) throws -> (
        sealed: [UInt8], keys: VerifierRecords.Keys
    ) {
        if let cached = state.withLock({ $0.key }) { return cached }
        let fresh = VerifierSeal.makeKey()
        let replies = try connection.run([
            ["SET", Self.keyName].map { Array($0.utf8) } + [fresh, Array("NX".utf8)],
            ["GET", Self.keyName].map { Array($0.utf8) },
        ])
        guard let key = replies[1].bytes else {
            throw Failure(description: "Redis lost \(Self.keyName) as it was being made")
        }
        _ = try VerifierSeal.open(
            key: key, state: try VerifierSeal.emptyState(key: key), policy: policy,
            names: (key: "Redis \(Self.keyName)", state: "a fresh state"))
        let opened = (sealed: key, keys: try VerifierRecords.Keys(sealed: key))
        state.withLock { $0.key = opened }
        return opened
    }

    public func withVerifier<R>(
        _ scope: VerifierScope, now: Double, _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R {
        try operate(scope, now: now) { verifier, _ in try body(&verifier) }
    }

    /// One answer in the operation's own two scripts (one, on the fast path, after a read of
    /// the drag lists): the lists read with the records, and the counts and the accepted
    /// drag written with them, only if no list gained a drag since it was read (else the
    /// answer runs again on what the lists hold then). Two instances that are sent the same
    /// drag at once cannot both find it new.
    public func answer<R>(
        _ scope: VerifierScope, now: Double, dragBuckets: [String],
        _ body: (inout PuzzleVerifier, _ acceptedDrags: [[UInt8]]) throws -> (R, AnswerWrites)
    ) throws -> R {
        try operate(
            scope, now: now, lists: dragBuckets.map(Self.dragName),
            alongside: { Self.redisWrites(of: $0.1, now: now) }, body
        ).0
    }

    /// Registers the challenge and writes its images in the same step as the client's
    /// record: one round trip fewer than writing them after it, and no moment when another
    /// instance knows the challenge but not its images.
    public func register(
        client: String, now: Double, images: ChallengeImages,
        _ body: (inout PuzzleVerifier) throws -> Result<PuzzleChallenge, IssueRefusal>
    ) throws -> Result<PuzzleChallenge, IssueRefusal> {
        let result = try operate(
            .issuing(client: client), now: now,
            alongside: { result in
                guard case .success(let challenge) = result else { return [] }
                return [
                    .record(
                        .put(
                            name: Self.imageName(challenge.id), bytes: Self.record(of: images),
                            expiresAt: challenge.expiresAt))
                ]
            }, { verifier, _ in try body(&verifier) })
        if case .success(let challenge) = result {
            localImages.put(challenge.id, images, until: challenge.expiresAt, now: now)
        }
        return result
    }

    /// One operation; `lists` are the drag lists `body` is given (the fingerprints they hold,
    /// all together), and `alongside` names more to write with what it changed.
    private func operate<R>(
        _ scope: VerifierScope, now: Double, lists: [String] = [],
        alongside: (R) -> [RedisWrite] = { _ in [] },
        _ body: (inout PuzzleVerifier, [[UInt8]]) throws -> R
    ) throws -> R {
        try client.withConnection { connection in
            let (key, keys) = try key(on: connection)
            if let result = try run(
                scope, now: now, key: key, keys: keys, lists: lists, on: connection,
                alongside: alongside, body)
            {
                if scope.spendsOnce { try connection.awaitReplica() }
                return result
            }
            // Redis holds another secret, or none: a new epoch, then the operation in it.
            let (newKey, newKeys) = try takeUpNewEpoch(replacing: key, on: connection)
            guard
                let result = try run(
                    scope, now: now, key: newKey, keys: newKeys, lists: lists, on: connection,
                    alongside: alongside, body)
            else {
                throw VerifierStoreError(
                    "Redis replaced \(Self.keyName) again while this instance took it up")
            }
            if scope.spendsOnce { try connection.awaitReplica() }
            return result
        }
    }

    /// Forgets the secret `old` and everything kept under it, and takes up the one Redis
    /// holds (making it when Redis holds none): a new epoch. Once per epoch, however many
    /// operations notice it at once.
    private func takeUpNewEpoch(
        replacing old: [UInt8], on connection: any RedisConnection
    ) throws -> (sealed: [UInt8], keys: VerifierRecords.Keys) {
        let isFirst = state.withLock { state in
            guard state.key?.sealed == old else { return false }
            state.key = nil
            state.epochs += 1
            return true
        }
        if isFirst {
            localRecords.removeAll()
            localImages.removeAll()
        }
        let fresh = try key(on: connection)
        if isFirst {
            log(
                "store: Redis at \(host):\(port) no longer holds the secret this instance used "
                    + "(restarted without persistence, flushed, or another server): a new epoch "
                    + "begins; challenges and tokens issued before do not pass, and limits and "
                    + "lockouts start afresh")
        }
        return fresh
    }

    // MARK: - Health

    /// Whether Redis answers, takes writes, keeps every record until its TTL
    /// (``evictionRisk()``), and still holds the secret this instance uses.
    public func isHealthy() -> Bool {
        let known = state.withLock { $0.key }
        guard
            // A write too: a full `noeviction` Redis, or a replica, answers every read and
            // refuses every write (an error reply fails the whole pipeline).
            let replies = try? client.withConnection({
                try $0.run(
                    ["PING"], ["GET", Self.keyName], ["INFO", "memory"],
                    ["SET", "tactile:healthz", "1", "PX", "10000"])
            })
        else { return false }
        guard replies[0] == .status("PONG") else { return false }
        guard case .string(let info) = replies[2], evictionRisk(in: info) == nil else {
            return false
        }
        guard let known, replies[1] != .string(known.sealed) else { return true }
        // The secret is gone or replaced: healthy again once this instance is in the new
        // epoch (a load balancer's checks heal it even before any request).
        return (try? client.withConnection { try takeUpNewEpoch(replacing: known.sealed, on: $0) })
            != nil
    }

    /// Why this Redis could drop a record before its time, or `nil` when it cannot: read from
    /// `INFO memory` (which works where `CONFIG` is turned off). A Redis with a memory limit
    /// and any policy but `noeviction` evicts keys when full, and an evicted redeemed token or
    /// lockout would pass again.
    ///
    /// - Throws: ``Failure`` when Redis does not answer.
    public func evictionRisk() throws -> String? {
        let reply = try client.withConnection { try $0.run(["INFO", "memory"])[0] }
        guard case .string(let info) = reply else {
            return "Redis at \(host):\(port) did not answer INFO memory"
        }
        return evictionRisk(in: info)
    }

    /// ``evictionRisk()`` from the text of `INFO memory`.
    func evictionRisk(in info: [UInt8]) -> String? {
        let fields = RedisClient.fields(of: info)
        guard let policy = fields["maxmemory_policy"],
            let limit = fields["maxmemory"].flatMap(Int.init)
        else {
            return
                "Redis at \(host):\(port) does not say its maxmemory and maxmemory_policy (INFO memory)"
        }
        guard limit > 0, policy != "noeviction" else { return nil }
        return
            "Redis at \(host):\(port) evicts keys when full (maxmemory \(limit) bytes, maxmemory-policy \(policy)): a redeemed token or a lockout could be evicted and pass again; set maxmemory-policy noeviction, or no maxmemory"
    }
}
