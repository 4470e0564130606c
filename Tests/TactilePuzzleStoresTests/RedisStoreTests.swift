import Foundation
@_spi(Testing) import PuzzleTestSupport
import TactileCore
import TactilePuzzleVerifier
import TestSupport
import Testing

@_spi(Testing) @testable import TactilePuzzleStores

/// The Redis store's records, locks, commits and one-round-trip path, on an in-memory Redis
/// and a clock moved by hand: two backends share one Redis as two instances behind a load
/// balancer do, and the test loses connections and expires keys where it likes.
@Suite struct RedisStoreTests {
    let clock = ManualClock(1_800_000_000)
    let redis: InMemoryRedis

    init() {
        redis = InMemoryRedis(clock: clock)
    }

    /// A backend on the shared Redis whose wait for a busy record moves the clock instead of
    /// sleeping.
    func backend(policy: VerifierPolicy = plumbingPolicy, lockLease: Double = 5) -> RedisBackend {
        redis.backend(policy: policy, lockLease: lockLease, clock: clock)
    }

    @Test func aCopyOfAClientThatAnotherInstanceChangedSinceIsNotTrusted() throws {
        var policy = VerifierPolicy()
        policy.failuresBeforeLockout = 2
        let a = backend(policy: policy)
        let b = backend(policy: policy)
        let puzzle = try GeneratedPuzzleFixture.make()
        let now = clock.now
        func issue(_ backend: RedisBackend, _ client: String, at now: Double) throws -> String {
            try backend.withVerifier(.issuing(client: client), now: now) {
                try $0.register(puzzle, client: client, now: now).id
            }
        }
        // Far from the hole, no drag: a failure.
        let wrong = PuzzleAttempt(position: Point(x: 0, y: 0), displayWidth: 320, track: [])
        func fail(_ backend: RedisBackend, _ id: String, _ client: String, at now: Double) throws
            -> Bool
        {
            try backend.withVerifier(.checking(puzzle: id, client: client), now: now) {
                $0.check(id: id, attempt: wrong, client: client, now: now).isPassed
            }
        }
        func lockedUntil(_ client: String, at now: Double) throws -> Double? {
            try a.withVerifier(.inspecting(client: client), now: now) {
                $0.limit(for: client, now: now)
            }
        }
        // A issues to "x"; then B issues to "x" and "x" fails there: A's copy of "x" is stale.
        let mine = try issue(a, "x", at: now)
        let theirs = try issue(b, "x", at: now + 1)
        #expect(try fail(b, theirs, "x", at: now + 2) == false)
        #expect(try lockedUntil("x", at: now + 2) == nil)
        // A's check of its own puzzle is refused its copy, then locks, reads and writes: the
        // second failure in a row counts, and locks "x" out.
        _ = redis.takeTrips()
        #expect(try fail(a, mine, "x", at: now + 3) == false)
        #expect(redis.takeTrips().scripts == ["commitIfUnchanged", "lockAndRead", "commit"])
        #expect(try lockedUntil("x", at: now + 3) != nil)
        // The same on one instance only: its copy is current (after the first issue, which
        // knew nothing of "y"), each operation is one script, and the lockout comes at the same
        // failure.
        for (step, offset) in [(1, 0.0), (2, 2.0)] {
            _ = redis.takeTrips()
            let id = try issue(a, "y", at: now + offset)
            #expect(
                redis.takeTrips().scripts
                    == (step == 1 ? ["lockAndRead", "commit"] : ["commitIfUnchanged"]))
            #expect(try fail(a, id, "y", at: now + offset + 1) == false)
            #expect(redis.takeTrips().scripts == ["commitIfUnchanged"])
            #expect(try (lockedUntil("y", at: now + offset + 1) != nil) == (step == 2))
        }
    }

    @Test func anOperationThatOutlivesItsLockWritesNothing() throws {
        let backend = backend(lockLease: 0.2)
        let puzzle = try GeneratedPuzzleFixture.make()
        let now = clock.now
        // An issue that stalls past its lease: the puzzle it registered is not kept, and the
        // lock it lost is not released by it (another may hold it by then).
        var issued: String?
        #expect(throws: RedisBackend.Failure.self) {
            try backend.withVerifier(.issuing(client: "a"), now: now) { verifier in
                issued = try verifier.register(puzzle, client: "a", now: now).id
                clock.advance(by: 0.4)
            }
        }
        let id = try #require(issued)
        #expect(redis.keys("tactile:puzzle:") == [])
        #expect(
            try backend.withVerifier(.peeking(puzzle: id), now: clock.now) {
                $0.pendingPuzzle(id: id)
            } == nil)
        // Within its lease, the same operation is kept.
        let second = try backend.withVerifier(.issuing(client: "a"), now: clock.now) {
            try $0.register(puzzle, client: "a", now: clock.now).id
        }
        #expect(
            try backend.withVerifier(.peeking(puzzle: second), now: clock.now) {
                $0.pendingPuzzle(id: second)
            } != nil)
    }

    @Test func aConnectionLostBeforeTheCommitWritesNothingAndItsLockLapsesByItself() throws {
        let first = backend()
        let other = backend()
        let puzzle = try GeneratedPuzzleFixture.make()
        func issue(_ backend: RedisBackend) throws -> String {
            let now = clock.now
            return try backend.withVerifier(.issuing(client: "a"), now: now) {
                try $0.register(puzzle, client: "a", now: now).id
            }
        }
        _ = try issue(first)
        let before = redis.keys("tactile:puzzle:")
        // The other instance has no copy of "a": it reads the secret, locks and reads, and
        // loses the connection as it sends what it changed. Nothing is written, and the broken
        // connection cannot release the lock.
        redis.loseConnection(.before, at: .script("commit"))
        _ = redis.takeTrips()
        #expect(throws: RedisBackend.Failure.self) { try issue(other) }
        #expect(redis.takeTrips() == [.commands(["SET", "GET"]), .script("lockAndRead")])
        #expect(redis.keys("tactile:puzzle:") == before)
        let lock = try #require(redis.keys("tactile:lock:").first)
        #expect(redis.entry(lock)?.expiresAt == clock.now + 5)
        // Until the lease runs out, "a" is busy everywhere: asked again and again for about
        // two seconds, then refused.
        #expect(throws: VerifierStoreError.self) { try issue(first) }
        #expect(Set(redis.takeTrips().scripts) == ["commitIfUnchanged", "lockAndRead"])
        #expect(redis.keys("tactile:lock:") == [lock])
        // Then it works again, on either instance.
        clock.advance(by: 5)
        #expect(redis.keys("tactile:lock:") == [])
        _ = try issue(other)
        _ = try issue(first)
        #expect(redis.keys("tactile:puzzle:").count == before.count + 2)
    }

    /// A Redis that evicts keys when full could evict a redeemed token, which would then pass
    /// again: it is named as a risk, and /healthz fails on it. A memory limit with
    /// `noeviction`, or no limit with any policy, evicts nothing; a full one takes no writes.
    @Test(arguments: [
        (64 << 20, "allkeys-lru", true), (64 << 20, "volatile-lru", true),
        (64 << 20, "noeviction", false), (0, "allkeys-lru", false),
    ])
    func aRedisThatEvictsIsRefused(limit: Int, policy: String, isRisky: Bool) throws {
        let backend = backend()
        redis.setMemory(limit: limit, policy: policy)
        let risk = try backend.evictionRisk()
        #expect((risk != nil) == isRisky, "\(risk ?? "none")")
        if let risk { #expect(risk.contains(policy) && risk.contains("noeviction")) }
        #expect(backend.isHealthy() == !isRisky)
        redis.isFull = true
        #expect(!backend.isHealthy())
    }

    @Test func redisURLsAreChecked() {
        for bad in [
            "redis://", "redis://host", "redis://host:0", "redis://host:6379/99", "http://x:1",
            "redis-sentinel://", "redis-sentinel://a:26379", "redis-sentinel://a:26379/",
            "redis-sentinel://a:26379,b/main", "redis-sentinel://a:26379/main/16",
            "redis-sentinel://a:26379/main/0/x", "redis-sentinel://,a:1/main",
        ] {
            #expect(throws: ServiceConfigurationError.self, "\(bad)") {
                try RedisBackend(url: bad, policy: plumbingPolicy)
            }
        }
        #expect(
            (try? RedisBackend(url: "redis://[::1]:6380/2", policy: plumbingPolicy))?.database
                == 2)
        let sentinel = try? RedisBackend(
            url: "redis-sentinel://10.0.0.1:26379,[::1]:26380,s3:26381/main/3",
            policy: plumbingPolicy)
        #expect(
            sentinel?.sentinels.map { "\($0.host) \($0.port)" } == [
                "10.0.0.1 26379", "::1 26380", "s3 26381",
            ])
        #expect(sentinel?.primaryName == "main" && sentinel?.database == 3)
    }
}
