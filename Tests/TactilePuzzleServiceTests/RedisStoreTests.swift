import Foundation
import PuzzleTestSupport
import Synchronization
import TactileCore
import TactileHTTP
import TactilePuzzle
import TactilePuzzleDesk
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// The Redis store's records, locks, commits, epochs and one-round-trip path, on an in-memory
/// Redis and a clock moved by hand: two instances share one Redis as behind a load balancer,
/// and the test loses connections, expires keys and empties Redis where it likes.
@Suite struct RedisStoreTests {
    let clock = ManualClock(1_800_000_000)
    let redis: InMemoryRedis

    init() {
        redis = InMemoryRedis(clock: { [clock] in clock.now })
    }

    /// A backend on the shared Redis whose wait for a busy record moves the clock instead of
    /// sleeping.
    func backend(policy: VerifierPolicy = plumbingPolicy, lockLease: Double = 5) -> RedisBackend {
        RedisBackend(
            client: redis, policy: policy, lockLease: lockLease,
            pause: { [clock] in clock.advance(by: Double($0) / 1_000_000) })
    }

    /// A service instance on its own backend.
    func instance(_ backend: RedisBackend? = nil) -> (CaptchaService, RedisBackend) {
        let backend = backend ?? self.backend()
        let service = CaptchaService(
            configuration: .init(sites: [storeSite], policy: plumbingPolicy), backend: backend,
            log: { _ in }, clock: { [clock] in clock.now })
        return (service, backend)
    }

    func challenge(_ service: CaptchaService, from address: String = "192.0.2.7") -> [String: Any] {
        json(post(service, "/v1/challenges", ["sitekey": storeSite.sitekey], from: address))
    }

    /// The scripts among `trips`, by name.
    func scripts(_ trips: [InMemoryRedis.Trip]) -> [String] {
        trips.compactMap { if case .script(let name) = $0 { name } else { nil } }
    }

    @Test func aChallengeMadeOnOneInstanceIsAnsweredOnTheOtherAndItsTokenRedeemsOnce() throws {
        let (a, backendA) = instance()
        let (b, _) = instance()
        let token = try passOnTheOther(a, b, backendA, seed: 1, now: clock.now)
        #expect(verify(a, token)["success"] as? Bool == true)
        #expect(verify(b, token)["error-codes"] as? [String] == ["timeout-or-duplicate"])
    }

    @Test func theMakerServesItsImagesAndChecksItsPuzzleInOneRoundTrip() throws {
        let (a, backendA) = instance()
        let (b, _) = instance()
        let made = challenge(a)
        let id = try #require(made["id"] as? String)
        let answer = try humanAnswer(to: made, on: backendA, seed: 11, now: clock.now)
        _ = redis.takeTrips()
        // The maker serves its own copy; the other asks Redis, once per image.
        #expect(image(a, id).status == 200 && image(a, id, "piece").status == 200)
        #expect(redis.takeTrips() == [])
        #expect(image(b, id).body == image(a, id).body)
        #expect(redis.takeTrips() == [.commands(["GET"])])
        // The maker wrote the client and the puzzle last: its answer is one look at the
        // accepted drags near this one (a pipeline, a list each), then one script that checks
        // it, counts it for the site's surge price and remembers the drag, if no list gained a
        // drag in between.
        let passed = json(post(a, "/v1/challenges/\(id)/answer", answer))
        #expect(passed["success"] as? Bool == true, "\(passed)")
        let trips = redis.takeTrips()
        #expect(trips.count == 2, "\(trips)")
        #expect(scripts(trips) == ["commitIfUnchanged"], "\(trips)")
        guard case .commands(let looks) = trips.first else {
            return #expect(Bool(false), "\(trips)")
        }
        #expect(!looks.isEmpty && looks.allSatisfy { $0 == "LRANGE" })
        #expect(redis.keys("tactile:drag:").count == 1)
        #expect(redis.keys("tactile:count:site-answers").count == 3)
        // Checked, its images are gone from the checker and from Redis.
        #expect(image(a, id).status == 404 && image(b, id).status == 404)
        #expect(redis.keys("tactile:image:") == [])
    }

    @Test func aFirstVerificationTakesOneRoundTripAndRetriesGetTheSameAnswer() throws {
        let (a, backendA) = instance()
        let (b, _) = instance()
        let token = try passOnTheOther(a, a, backendA, seed: 10, now: clock.now)
        _ = redis.takeTrips()
        // Nothing was known of the token: one script wrote the redemption and the answer.
        let first = verify(a, token, key: "retry-1")
        #expect(first["success"] as? Bool == true, "\(first)")
        #expect(redis.takeTrips() == [.script("commitIfUnchanged")])
        // A retry with the same key, on either instance, gets the same answer: tried first as
        // a first verification, then (the records exist now) under the lock. (An instance's
        // first operation reads the secret first.)
        for (service, start) in [(a, []), (b, [InMemoryRedis.Trip.commands(["SET", "GET"])])] {
            let retried = verify(service, token, key: "retry-1")
            #expect(retried["success"] as? Bool == true, "\(retried)")
            #expect(retried["hostname"] as? String == first["hostname"] as? String)
            #expect(
                redis.takeTrips()
                    == start + [
                        .script("commitIfUnchanged"), .script("lockAndRead"), .script("commit"),
                    ])
        }
        #expect(
            verify(b, token, key: "retry-2")["error-codes"] as? [String] == ["timeout-or-duplicate"]
        )
        #expect(verify(a, token)["error-codes"] as? [String] == ["timeout-or-duplicate"])
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
        #expect(scripts(redis.takeTrips()) == ["commitIfUnchanged", "lockAndRead", "commit"])
        #expect(try lockedUntil("x", at: now + 3) != nil)
        // The same on one instance only: its copy is current (after the first issue, which
        // knew nothing of "y"), each operation is one script, and the lockout comes at the same
        // failure.
        for (step, offset) in [(1, 0.0), (2, 2.0)] {
            _ = redis.takeTrips()
            let id = try issue(a, "y", at: now + offset)
            #expect(
                scripts(redis.takeTrips())
                    == (step == 1 ? ["lockAndRead", "commit"] : ["commitIfUnchanged"]))
            #expect(try fail(a, id, "y", at: now + offset + 1) == false)
            #expect(scripts(redis.takeTrips()) == ["commitIfUnchanged"])
            #expect(try (lockedUntil("y", at: now + offset + 1) != nil) == (step == 2))
        }
    }

    @Test func aDragAcceptedOnOneInstanceIsARefusedReplayOnTheOther() throws {
        let (a, backendA) = instance()
        let (b, backendB) = instance()
        let first = challenge(a)
        let answer = try humanAnswer(to: first, on: backendA, seed: 4, now: clock.now)
        let passed = json(post(a, "/v1/challenges/\(first["id"]!)/answer", answer))
        #expect(passed["success"] as? Bool == true, "\(passed)")
        #expect(redis.keys("tactile:drag:").count == 1)
        // The same drag stretched onto another puzzle's hole, on the other instance, its price
        // paid (and not the deeper price of the work alone, which would let a doubted drag
        // pass anyway): what refuses it is the memory of the drag.
        let second = challenge(b, from: "192.0.2.9")
        let id = try #require(second["id"] as? String)
        let hole = try #require(
            try backendB.withVerifier(.peeking(puzzle: id), now: clock.now) {
                $0.testingAnswer(id: id)
            })
        let samples = try #require(answer["track"] as? [[String: Double]])
        let scale = hole.x / (answer["x"] as! Double)
        let nonce = try paying(try #require(second["proofOfWork"] as? [String: Any]))
        let replay: [String: Any] = [
            "x": hole.x, "y": answer["y"]!, "proofOfWork": ["nonce": nonce],
            "track": samples.map { ["x": $0["x"]! * scale, "y": $0["y"]!, "t": $0["t"]!] },
        ]
        let refused = json(post(b, "/v1/challenges/\(id)/answer", replay, from: "192.0.2.9"))
        #expect(refused["success"] as? Bool == false, "\(refused)")
        // Another drag still passes there.
        let third = challenge(b, from: "192.0.2.10")
        let other = try humanAnswer(to: third, on: backendB, seed: 5, now: clock.now)
        let fresh = json(
            post(b, "/v1/challenges/\(third["id"]!)/answer", other, from: "192.0.2.10"))
        #expect(fresh["success"] as? Bool == true, "\(fresh)")
        // The memory of a drag lives a day.
        let drag = try #require(redis.keys("tactile:drag:").first)
        #expect(redis.entry(drag)?.expiresAt == clock.now + 86_400)
    }

    /// The same drag sent to two instances at once, for two puzzles: the second to commit
    /// finds that a drag came into the list it read and runs again under the lock, where it
    /// is a replay. Only one passes: on the one-script path (A made its puzzle), and under
    /// the lock (B made both puzzles, so A has no copy of them).
    @Test(arguments: [false, true])
    func theSameDragSentToTwoInstancesAtOncePassesOnce(underTheLock: Bool) throws {
        let (a, b) = (backend(), backend())
        let deskA = CaptchaDesk(configuration: .init(policy: plumbingPolicy), store: a)
        let deskB = CaptchaDesk(configuration: .init(policy: plumbingPolicy), store: b)
        let puzzle = try GeneratedPuzzleFixture.make()
        let none = ChallengeImages(background: [], backgroundType: "", piece: [])
        let now = clock.now
        let idA = try (underTheLock ? deskB : deskA).register(
            puzzle, client: "x", site: nil, surcharge: 0, images: none, now: now
        ).get().challenge.id
        let idB = try deskB.register(
            puzzle, client: "y", site: nil, surcharge: 0, images: none, now: now
        ).get().challenge.id
        let end = Point(x: puzzle.holePosition.x, y: puzzle.startPosition.y)
        let answer = DeskAnswer(
            position: end, track: humanTrack(from: puzzle.startPosition, to: end, seed: 3))
        // B's whole answer runs after A has read the lists and before A commits.
        let second = Mutex<CaptchaDesk.Answered?>(nil)
        redis.interrupt(before: .script(underTheLock ? "commit" : "commitIfUnchanged")) {
            let answered = try? deskB.answer(answer, to: idB, client: "y", now: now + 1)
            second.withLock { $0 = answered }
        }
        _ = redis.takeTrips()
        let first = try deskA.answer(answer, to: idA, client: "x", now: now + 1)
        #expect(second.withLock { $0?.outcome.isPassed } == true)
        #expect(first.outcome == .failed(.machineLike(.replayed)))
        // A's commit is refused; under the lock, it reads the lists again and commits (its
        // one-script path goes to the lock first). B's one script is left out.
        let scriptsOfA = scripts(redis.takeTrips()).filter { $0 != "commitIfUnchanged" }
        #expect(
            scriptsOfA
                == (underTheLock
                    ? ["lockAndRead", "commit", "commit"] : ["lockAndRead", "commit"]))
    }

    @Test func everyRecordHasATimeToLiveAndADamagedOneFailsClosed() throws {
        let (a, backendA) = instance()
        let token = try passOnTheOther(a, a, backendA, seed: 4, now: clock.now)
        #expect(verify(a, token)["success"] as? Bool == true)
        // A second client, one failure in: its record is what a damaged store could reset.
        let made = challenge(a, from: "192.0.2.8")
        let id = try #require(made["id"] as? String)
        let wrong: [String: Any] = [
            "x": 1, "y": made["pieceY"] as! Int, "track": [[String: Any]](),
        ]
        _ = post(a, "/v1/challenges/\(id)/answer", wrong, from: "192.0.2.8")
        // A challenge not answered yet keeps its images (answered ones are dropped).
        #expect(challenge(a, from: "192.0.2.9").isEmpty == false)
        let keys = redis.keys()
        let kinds = Set(keys.map { $0.split(separator: ":").prefix(2).joined(separator: ":") })
        #expect(
            kinds == [
                "tactile:key", "tactile:client", "tactile:puzzle", "tactile:redeemed",
                "tactile:image", "tactile:count", "tactile:drag",
            ], "\(keys)")
        for key in keys where key != "tactile:key" {
            #expect(redis.entry(key)?.expiresAt != nil, "\(key) has no time to live")
        }
        // No key names an address.
        #expect(keys.allSatisfy { !$0.contains("192.0.2") })
        // Flip a byte of each client record: that client is refused (503), not started afresh.
        for key in redis.keys("tactile:client:") {
            guard case .string(var bytes)? = redis.entry(key)?.value else { continue }
            bytes[20] ^= 1
            redis.overwrite(key, with: bytes)
        }
        #expect(
            post(a, "/v1/challenges", ["sitekey": storeSite.sitekey], from: "192.0.2.8").status
                == 503)
        #expect(post(a, "/v1/challenges", ["sitekey": storeSite.sitekey]).status == 503)
        // A client with no record is not affected.
        #expect(
            post(a, "/v1/challenges", ["sitekey": storeSite.sitekey], from: "192.0.2.10").status
                == 201)
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
        #expect(Set(scripts(redis.takeTrips())) == ["commitIfUnchanged", "lockAndRead"])
        #expect(redis.keys("tactile:lock:") == [lock])
        // Then it works again, on either instance.
        clock.advance(by: 5)
        #expect(redis.keys("tactile:lock:") == [])
        _ = try issue(other)
        _ = try issue(first)
        #expect(redis.keys("tactile:puzzle:").count == before.count + 2)
    }

    @Test func aRedemptionWhoseReplyIsLostIsSpentAndItsRetryGetsTheAnswer() throws {
        let (a, backendA) = instance()
        let (b, _) = instance()
        let token = try passOnTheOther(a, a, backendA, seed: 2, now: clock.now)
        // Redis writes the redemption, and the reply never arrives: the site is told of an
        // error, never of a success.
        redis.loseConnection(.after, at: .script("commitIfUnchanged"))
        #expect(verify(a, token, key: "order-17")["error-codes"] as? [String] == ["internal-error"])
        #expect(redis.keys("tactile:redeemed:").count == 1)
        // Its retry, with its idempotency key, gets the answer it would have had, on either
        // instance; without it, the token is spent.
        #expect(verify(b, token, key: "order-17")["success"] as? Bool == true)
        #expect(verify(a, token, key: "order-17")["success"] as? Bool == true)
        #expect(verify(a, token)["error-codes"] as? [String] == ["timeout-or-duplicate"])
    }

    @Test func aPuzzleGoneFromRedisIsNotBroughtBackByTheMakersCopy() throws {
        let (a, backendA) = instance()
        let made = challenge(a)
        let id = try #require(made["id"] as? String)
        let answer = try humanAnswer(to: made, on: backendA, seed: 3, now: clock.now)
        // The puzzle's record is gone (expired, or deleted by hand); the maker still has its
        // copy, which its check tries first: Redis refuses it, and under the lock there is no
        // puzzle to pass.
        redis.remove(try #require(redis.keys("tactile:puzzle:").first))
        _ = redis.takeTrips()
        let refused = json(post(a, "/v1/challenges/\(id)/answer", answer))
        #expect(refused["success"] as? Bool == false, "\(refused)")
        #expect(scripts(redis.takeTrips()) == ["commitIfUnchanged", "lockAndRead", "commit"])
    }

    @Test func aPuzzlePastItsLifetimeIsGoneFromRedisAndFromTheMaker() throws {
        let (a, backendA) = instance()
        let made = challenge(a)
        let id = try #require(made["id"] as? String)
        let answer = try humanAnswer(to: made, on: backendA, seed: 3, now: clock.now)
        clock.advance(by: plumbingPolicy.puzzleLifetime)
        #expect(redis.keys("tactile:puzzle:") == [] && redis.keys("tactile:image:") == [])
        #expect(image(a, id).status == 404)
        _ = redis.takeTrips()
        let late = json(post(a, "/v1/challenges/\(id)/answer", answer))
        #expect(late["success"] as? Bool == false, "\(late)")
        // The maker's copy of the puzzle expired with it: the check went under the lock.
        #expect(scripts(redis.takeTrips()) == ["lockAndRead", "commit"])
    }

    @Test func aRedisThatLostItsDataStartsANewEpochByItself() throws {
        let (a, backendA) = instance()
        let (b, backendB) = instance()
        let before = try passOnTheOther(a, b, backendA, seed: 6, now: clock.now)
        let pending = challenge(a)
        let pendingID = try #require(pending["id"] as? String)
        let pendingAnswer = try humanAnswer(to: pending, on: backendA, seed: 7, now: clock.now)
        redis.removeAll()
        // Both instances heal by themselves, the first check of each taking up the new epoch,
        // and only once.
        for service in [a, b, a] {
            #expect(service.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        }
        #expect(backendA.epochsTakenUp == 1 && backendB.epochsTakenUp == 1)
        // Nothing issued before the loss passes: the token, the challenge.
        let verified = verify(b, before)
        #expect(verified["error-codes"] as? [String] == ["invalid-input-response"], "\(verified)")
        let late = json(post(b, "/v1/challenges/\(pendingID)/answer", pendingAnswer))
        #expect(late["success"] as? Bool == false, "\(late)")
        // Challenges and tokens of the new epoch work across both, and redeem once.
        let token = try passOnTheOther(b, a, backendB, seed: 8, now: clock.now)
        #expect(verify(a, token)["success"] as? Bool == true)
        #expect(verify(b, token)["error-codes"] as? [String] == ["timeout-or-duplicate"])
        #expect(backendA.epochsTakenUp == 1 && backendB.epochsTakenUp == 1)
        let metrics = String(
            decoding: a.handleMetrics(HTTPRequest(method: "GET", path: "/metrics")).body,
            as: UTF8.self)
        #expect(metrics.contains("\ntactile_store_epochs_total 1\n"), "\(metrics)")
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
