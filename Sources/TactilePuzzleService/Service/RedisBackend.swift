import CHiredis
import Foundation
import TactileCrypto
import TactilePuzzleVerifier
import TactilePuzzleImaging

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
public final class RedisBackend: VerifierBackend, @unchecked Sendable {
    /// The connection to Redis.
    let client: RedisClient
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
    private let policy: VerifierPolicy
    private let lock = NSLock()
    /// The sealed secret as last read, and the keys it holds, guarded by `lock`.
    private var cachedKey: (sealed: [UInt8], keys: VerifierRecords.Keys)?
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
    var lockLease = 5.0
    /// Where a new epoch is told (one line), and how many this instance has begun or taken up.
    private let log: @Sendable (String) -> Void
    /// Guarded by `lock`.
    private var epochs = 0
    public var epochsTakenUp: Int { lock.withLock { epochs } }

    /// A Redis operation failed: the server is gone, or answered an error.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What failed, naming the server.
        public var description: String
    }
    typealias Reply = RedisClient.Reply

    /// Parses `redis://HOST:PORT[/DB]`, or `redis-sentinel://HOST:PORT[,HOST:PORT…]/NAME[/DB]`
    /// (IPv6 in brackets), and prepares a connection. With Sentinel, every new connection
    /// asks the Sentinels (in turn, until one answers) where the primary named `NAME` is, and
    /// checks that the server there is the primary; a connection that fails sends the next
    /// one to ask again, so the instance follows a failover. A check or a redemption is told
    /// only once no failover can forget it (see `RedisClient.awaitReplica(on:)`).
    public init(
        url: String, policy: VerifierPolicy,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(ServiceConfigurationError) {
        client = try RedisClient(url: url)
        self.policy = policy
        self.log = log
    }

    // MARK: - The verifier

    static let keyName = "tactile:key"
    /// KEYS: the lock (or "" for none), the key, the records to read, those to take, then
    /// keys to drop; ARGV: holder, lease in ms, how many records are read, how many taken,
    /// whether to lock. Nil when the lock is held by another (and nothing is dropped); else
    /// the key and every record read or taken (false: none).
    static let lockAndRead = """
        if ARGV[5] == '1' then
          if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
        end
        local out = {redis.call('GET', KEYS[2])}
        local reads = 2 + tonumber(ARGV[3])
        local takes = reads + tonumber(ARGV[4])
        for i = 3, #KEYS do
          if i <= reads then
            out[#out + 1] = redis.call('GET', KEYS[i])
          elseif i <= takes then
            out[#out + 1] = redis.call('GETDEL', KEYS[i])
          else
            redis.call('UNLINK', KEYS[i])
          end
        end
        return out
        """
    static let count = """
        local n = redis.call('INCR', KEYS[1])
        if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
        return n
        """
    static let release = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end
        """

    private static func bytes(_ reply: Reply) -> [UInt8]? {
        if case .string(let value) = reply { return value }
        return nil
    }

    /// The sealed secret: as this instance first read it, or (on a new server) made by
    /// whichever instance sets it first.
    private func key(on context: UnsafeMutablePointer<redisContext>) throws -> (
        sealed: [UInt8], keys: VerifierRecords.Keys
    ) {
        lock.lock()
        let cached = cachedKey
        lock.unlock()
        if let cached { return cached }
        let fresh = VerifierSeal.makeKey()
        let replies = try client.run(
            [
                ["SET", Self.keyName].map { Array($0.utf8) } + [fresh, Array("NX".utf8)],
                ["GET", Self.keyName].map { Array($0.utf8) },
            ], on: context)
        guard let key = Self.bytes(replies[1]) else {
            throw Failure(description: "Redis lost \(Self.keyName) as it was being made")
        }
        _ = try VerifierSeal.open(
            key: key, state: try VerifierSeal.emptyState(key: key), policy: policy,
            names: (key: "Redis \(Self.keyName)", state: "a fresh state"))
        let opened = (sealed: key, keys: try VerifierRecords.Keys(sealed: key))
        lock.lock()
        cachedKey = opened
        lock.unlock()
        return opened
    }

    public func withVerifier<R>(
        _ scope: VerifierScope, now: Double, _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R {
        try operate(scope, now: now, body)
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
                    .put(
                        name: Self.imageName(challenge.id), bytes: Self.record(of: images),
                        expiresAt: challenge.expiresAt)
                ]
            }, body)
        if case .success(let challenge) = result {
            localImages.put(challenge.id, images, until: challenge.expiresAt, now: now)
        }
        return result
    }

    /// One operation; `alongside` names more records to write with what it changed.
    private func operate<R>(
        _ scope: VerifierScope, now: Double,
        alongside: (R) -> [VerifierRecords.Change] = { _ in [] },
        _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R {
        try client.withConnection { context in
            let (key, keys) = try key(on: context)
            if let result = try run(
                scope, now: now, key: key, keys: keys, on: context, alongside: alongside, body)
            {
                if scope.spendsOnce { try client.awaitReplica(on: context) }
                return result
            }
            // Redis holds another secret, or none: a new epoch, then the operation in it.
            let (newKey, newKeys) = try takeUpNewEpoch(replacing: key, on: context)
            guard
                let result = try run(
                    scope, now: now, key: newKey, keys: newKeys, on: context,
                    alongside: alongside, body)
            else {
                throw VerifierStoreError(
                    "Redis replaced \(Self.keyName) again while this instance took it up")
            }
            if scope.spendsOnce { try client.awaitReplica(on: context) }
            return result
        }
    }

    /// Forgets the secret `old` and everything kept under it, and takes up the one Redis
    /// holds (making it when Redis holds none): a new epoch. Once per epoch, however many
    /// operations notice it at once.
    private func takeUpNewEpoch(
        replacing old: [UInt8], on context: UnsafeMutablePointer<redisContext>
    ) throws -> (sealed: [UInt8], keys: VerifierRecords.Keys) {
        lock.lock()
        let isFirst = cachedKey?.sealed == old
        if isFirst {
            cachedKey = nil
            epochs += 1
        }
        lock.unlock()
        if isFirst {
            localRecords.removeAll()
            localImages.removeAll()
        }
        let fresh = try key(on: context)
        if isFirst {
            log(
                "store: Redis at \(host):\(port) no longer holds the secret this instance used "
                    + "(restarted without persistence, flushed, or another server): a new epoch "
                    + "begins; challenges and tokens issued before do not pass, and limits and "
                    + "lockouts start afresh")
        }
        return fresh
    }

    /// One operation under `key` (whose keys are `keys`); `nil` when Redis holds another key
    /// (or none).
    private func run<R>(
        _ scope: VerifierScope, now: Double, key: [UInt8], keys: VerifierRecords.Keys,
        on context: UnsafeMutablePointer<redisContext>,
        alongside: (R) -> [VerifierRecords.Change],
        _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R? {
        let plan = VerifierRecords.plan(for: scope, keys: keys)
        let lockName = plan.lock.map { "tactile:lock:" + $0 }
        let names = plan.reads + plan.takes
        // A checked puzzle's images, dropped in the step that takes the puzzle.
        let drops = scope.checkedPuzzle.map { ["tactile:" + Self.imageName($0)] } ?? []
        if let lockName, let known = knownRecords(names, scope: scope, takes: plan.takes, now: now)
        {
            if let result = try runOptimistically(
                scope, now: now, key: key, keys: keys, lockName: lockName, names: names,
                known: known, drops: drops, on: context, alongside: alongside, body)
            {
                return result
            }
            // Not what this instance last wrote: read them under the lock from now on.
            for name in names { localRecords.remove(name) }
        }
        let holder = Hex.encode(Sodium.randomBytes(16))
        // One round trip: take the lock and, only if it was free, read the records (taking
        // those the plan takes, dropping the images). Busy: wait up to two seconds; a lock
        // expires by itself after its lease.
        let readKeys = [lockName ?? "", Self.keyName] + names.map { "tactile:" + $0 } + drops
        let readArguments = [
            holder, String(Int(lockLease * 1000)), String(plan.reads.count),
            String(plan.takes.count), lockName == nil ? "0" : "1",
        ]
        var read: [Reply]?
        for attempt in 0..<400 {
            let reply = try client.evaluate(
                Self.lockAndRead, keys: readKeys, arguments: readArguments, on: context)
            if case .array(let values) = reply {
                read = values
                break
            }
            usleep(UInt32(min(5000, 100 * (attempt + 1))))
        }
        guard let read else {
            // The connection is sound: the record is busy elsewhere.
            throw VerifierStoreError("a verifier record stayed locked by another process")
        }
        // Redis took the checked puzzle and dropped its images: so does this instance's cache.
        // A check that never got here (Redis away, the record busy) keeps them, as the puzzle
        // may still be answered.
        if let id = scope.checkedPuzzle { localImages.remove(id) }
        var released = false
        defer {
            if let lockName, !released {
                _ = try? client.evaluate(
                    Self.release, keys: [lockName], arguments: [holder], on: context)
            }
        }
        guard read.count == names.count + 1 else {
            throw Failure(description: "Redis answered a read with something else")
        }
        guard Self.bytes(read[0]) == key else { return nil }
        let values = read.dropFirst()
        var records: [String: [UInt8]] = [:]
        for (name, value) in zip(names, values) { records[name] = Self.bytes(value) }

        let (result, changes) = try apply(
            body, to: records, scope: scope, now: now, keys: keys, alongside: alongside)
        guard let lockName else {
            // Only reading operations go without a lock, and they change nothing.
            guard changes.isEmpty else {
                throw Failure(description: "an unlocked operation tried to write")
            }
            return result
        }
        // Every write and the release in one script that first checks the lock is still
        // ours: an operation that outlived its lock (a stall past five seconds) writes
        // nothing and fails, rather than undo what the lock's next holder did.
        var keys: [[UInt8]] = [Array(lockName.utf8)]
        var arguments: [[UInt8]] = [Array(holder.utf8)]
        Self.append(changes, now: now, keys: &keys, arguments: &arguments)
        let reply = try client.evaluate(Self.commit, keys: keys, arguments: arguments, on: context)
        released = true
        guard reply == .integer(1) else {
            throw Failure(
                description:
                    "the operation outlived its lock on \(lockName); nothing was written")
        }
        remember(changes, now: now)
        return result
    }

    /// Runs `body` on a verifier holding `records` (by name, as read); its result and the
    /// records to write.
    private func apply<R>(
        _ body: (inout PuzzleVerifier) throws -> R, to records: [String: [UInt8]],
        scope: VerifierScope, now: Double, keys: VerifierRecords.Keys,
        alongside: (R) -> [VerifierRecords.Change]
    ) throws -> (R, [VerifierRecords.Change]) {
        let opened = try VerifierRecords.open(
            keys: keys, scope: scope, records: records, policy: policy)
        var verifier = opened
        verifier.policy = policy
        let result = try body(&verifier)
        let changes =
            try VerifierRecords.changes(from: opened, to: verifier, keys: keys, now: now)
            + alongside(result)
        return (result, changes)
    }

    /// What this instance believes the records of `names` hold, for an operation in
    /// `scope` that takes `takes`: nothing, for a token verified for the first time (of
    /// which nothing is known yet); what it last wrote, when it wrote every one of them (a
    /// client and the puzzle it was given, most often by the instance now asked to check
    /// it); else `nil`, and the operation reads them under the lock.
    private func knownRecords(
        _ names: [String], scope: VerifierScope, takes: [String], now: Double
    ) -> [String: [UInt8]]? {
        if scope.usuallyFindsNoRecords, takes.isEmpty { return [:] }
        var known: [String: [UInt8]] = [:]
        for name in names {
            guard let bytes = localRecords.get(name, now: now) else { return nil }
            known[name] = bytes
        }
        return known
    }

    /// Keeps what an operation wrote to the records a later one may find here instead of
    /// reading them: clients' and puzzles' (a token's are written once and seldom read).
    private func remember(_ changes: [VerifierRecords.Change], now: Double) {
        for change in changes {
            switch change {
            case .put(let name, let bytes, let expiresAt)
            where name.hasPrefix("client:") || name.hasPrefix("puzzle:"):
                localRecords.put(name, bytes, until: expiresAt, now: now)
            case .put:
                break
            case .remove(let name):
                localRecords.remove(name)
            }
        }
    }

    /// One round trip instead of two, when this instance believes it knows what the records
    /// of `names` hold (`known`; a name missing from it, that the record is absent): runs
    /// `body` on a verifier holding `known`, then writes what it changed and drops `drops`
    /// in one script, but only if, at that moment, every record of `names` holds what
    /// `known` says, nobody holds `lockName` and Redis holds `key`. That is the state `body`
    /// assumed, so its outcome is what it would have been under the lock. `nil` when the
    /// state was otherwise (nothing written or dropped): the caller runs the operation
    /// again, under the lock, with what Redis holds.
    private func runOptimistically<R>(
        _ scope: VerifierScope, now: Double, key: [UInt8], keys: VerifierRecords.Keys,
        lockName: String, names: [String], known: [String: [UInt8]], drops: [String],
        on context: UnsafeMutablePointer<redisContext>,
        alongside: (R) -> [VerifierRecords.Change],
        _ body: (inout PuzzleVerifier) throws -> R
    ) throws -> R? {
        let (result, changes) = try apply(
            body, to: known, scope: scope, now: now, keys: keys, alongside: alongside)
        var redisKeys: [[UInt8]] = [Array(lockName.utf8), Array(Self.keyName.utf8)]
        redisKeys += names.map { Array("tactile:\($0)".utf8) }
        redisKeys += drops.map { Array($0.utf8) }
        var arguments: [[UInt8]] =
            [key] + [names.count, drops.count].map { Array(String($0).utf8) }
        arguments += names.map { known[$0] ?? [] }
        Self.append(changes, now: now, keys: &redisKeys, arguments: &arguments)
        let reply = try client.evaluate(
            Self.commitIfUnchanged, keys: redisKeys, arguments: arguments, on: context)
        guard reply == .integer(1) else { return nil }
        if let id = scope.checkedPuzzle { localImages.remove(id) }
        remember(changes, now: now)
        return result
    }

    /// KEYS: a lock, the secret's key, ARGV[2] records, ARGV[3] keys to drop, then records to
    /// write; ARGV: the sealed secret, the two counts, what each of the ARGV[2] records must
    /// hold ("" for nothing), then the writes in threes, as `commit` takes them. Writes and
    /// drops only if nobody holds the lock, the secret is ARGV[1] and every record holds what
    /// it must: 1 if it did, else 0.
    static let commitIfUnchanged = """
        if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
        if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
        local n, m = tonumber(ARGV[2]), tonumber(ARGV[3])
        for i = 1, n do
          if (redis.call('GET', KEYS[2 + i]) or '') ~= ARGV[3 + i] then return 0 end
        end
        for i = 3 + n, 2 + n + m do redis.call('UNLINK', KEYS[i]) end
        local first, base = 3 + n + m, 4 + n
        \(writes)
        return 1
        """

    /// Appends each change as a key (under `tactile:`) and three arguments: "set", the value
    /// and its time to live in milliseconds from `now`, or "del" and two empty ones.
    private static func append(
        _ changes: [VerifierRecords.Change], now: Double, keys: inout [[UInt8]],
        arguments: inout [[UInt8]]
    ) {
        for change in changes {
            switch change {
            case .put(let name, let bytes, let expiresAt):
                let milliseconds = max(1, Int(((expiresAt - now) * 1000).rounded(.up)))
                keys.append(Array("tactile:\(name)".utf8))
                arguments += [Array("set".utf8), bytes, Array(String(milliseconds).utf8)]
            case .remove(let name):
                keys.append(Array("tactile:\(name)".utf8))
                arguments += [Array("del".utf8), [], []]
            }
        }
    }

    /// Writes KEYS[2…] (ARGV in threes after the holder: "set", value, milliseconds, or "del")
    /// and releases KEYS[1], only if ARGV[1] still holds it; 1 if it did, else 0.
    static let commit = """
        if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
        local first, base = 2, 2
        \(writes)
        redis.call('DEL', KEYS[1])
        return 1
        """

    /// The writes both commit scripts end with, in Lua: KEYS[first…] in order, each with three
    /// ARGV from ARGV[base] on ("set", value, milliseconds, or "del"), as `append` made them.
    static let writes = """
        for i = first, #KEYS do
          local a = base + 3 * (i - first)
          if ARGV[a] == 'set' then
            redis.call('SET', KEYS[i], ARGV[a + 1], 'PX', ARGV[a + 2])
          else
            redis.call('DEL', KEYS[i])
          end
        end
        """

    public func increment(_ name: String, window: Double, now: Double) throws -> (
        count: Int, windowEnds: Double
    ) {
        let index = Int((now / window).rounded(.down))
        let ends = Double(index + 1) * window
        let key = "tactile:count:\(name):\(index)"
        let milliseconds = String(max(1, Int(((ends - now) * 1000).rounded(.up))))
        // Counted and given its TTL in one step, so no counter outlives its window.
        let reply = try client.withConnection {
            try client.evaluate(Self.count, keys: [key], arguments: [milliseconds], on: $0)
        }
        guard case .integer(let count) = reply else {
            throw Failure(description: "Redis answered a count with something else")
        }
        return (count, ends)
    }

    // MARK: - Accepted drags

    /// The list (under `tactile:drag:`) that holds a bucket's fingerprints.
    static func dragName(_ bucket: String) -> String { "tactile:drag:\(bucket)" }

    public func acceptedDrags(in buckets: [String], now: Double) throws -> [[UInt8]] {
        guard !buckets.isEmpty else { return [] }
        // Every bucket in one pipeline: one round trip.
        let replies = try client.withConnection { context in
            try client.run(
                buckets.map {
                    [Array("LRANGE".utf8), Array(Self.dragName($0).utf8)] + [
                        Array("0".utf8), Array("-1".utf8),
                    ]
                }, on: context)
        }
        return replies.flatMap { reply -> [[UInt8]] in
            guard case .array(let items) = reply else { return [] }
            return items.compactMap(Self.bytes)
        }
    }

    public func rememberAcceptedDrag(
        _ fingerprint: [UInt8], in bucket: String, lifetime: Double, now: Double
    ) throws {
        let name = Array(Self.dragName(bucket).utf8)
        let milliseconds = Array(String(max(1, Int((lifetime * 1000).rounded(.up)))).utf8)
        let keep = Array(String(-DragMemory.perBucket).utf8)
        // Appended, trimmed to the newest and given its lifetime in one transaction.
        _ = try client.withConnection { context in
            try client.run(
                [
                    [Array("MULTI".utf8)], [Array("RPUSH".utf8), name, fingerprint],
                    [Array("LTRIM".utf8), name, keep, Array("-1".utf8)],
                    [Array("PEXPIRE".utf8), name, milliseconds], [Array("EXEC".utf8)],
                ], on: context)
        }
    }

    /// Whether Redis answers, takes writes, keeps every record until its TTL
    /// (``evictionRisk()``), and still holds the secret this instance uses.
    public func isHealthy() -> Bool {
        lock.lock()
        let known = cachedKey
        lock.unlock()
        guard
            // A write too: a full `noeviction` Redis, or a replica, answers every read and
            // refuses every write (an error reply fails the whole pipeline).
            let replies = try? client.withConnection({
                try client.run(
                    ["PING"], ["GET", Self.keyName], ["INFO", "memory"],
                    ["SET", "tactile:healthz", "1", "PX", "10000"], on: $0)
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
        let reply = try client.withConnection { try client.run(["INFO", "memory"], on: $0)[0] }
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

    // MARK: - Images

    /// The record (under `tactile:`) that holds a challenge's images.
    static func imageName(_ id: String) -> String { "image:\(id)" }

    /// How images are kept in Redis: `type \n length \n background piece`.
    static func record(of images: ChallengeImages) -> [UInt8] {
        Array(images.backgroundType.utf8) + [10] + Array(String(images.background.count).utf8)
            + [10] + images.background + images.piece
    }

    /// A challenge's images: this instance's own copy if it made them (another instance
    /// that checked the puzzle since cannot take that copy away, but it shows nothing the
    /// browser did not have), else Redis's.
    public func images(id: String, now: Double) throws -> ChallengeImages? {
        if let own = localImages.get(id, now: now) { return own }
        let replies = try client.withConnection {
            try client.run(["GET", "tactile:" + Self.imageName(id)], on: $0)
        }
        guard let value = Self.bytes(replies[0]) else { return nil }
        // type \n length \n background piece
        guard let first = value.firstIndex(of: 10),
            let second = value[(first + 1)...].firstIndex(of: 10),
            let length = Int(String(decoding: value[(first + 1)..<second], as: UTF8.self)),
            second + 1 + length <= value.count
        else { return nil }
        let start = second + 1
        return ChallengeImages(
            background: Array(value[start..<start + length]),
            backgroundType: String(decoding: value[..<first], as: UTF8.self),
            piece: Array(value[(start + length)...]))
    }
}
