import Foundation
@_spi(Testing) import PuzzleTestSupport
import TactileCore
import TactileHTTP
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService
@_spi(Testing) @testable import TactilePuzzleStores

/// The service on a shared Redis: two instances behind a load balancer, on an in-memory Redis
/// and a clock moved by hand, so the test can lose connections, expire keys and empty Redis
/// where it likes. Which instance serves the images, the round trips of an answer and of a
/// redemption, replays across instances, and healing after a loss. (The store's own records,
/// locks and commits are pinned in `TactilePuzzleStoresTests`.)
@Suite struct ServiceOnRedisTests {
    let clock = ManualClock(1_800_000_000)
    let redis: InMemoryRedis

    init() {
        redis = InMemoryRedis(clock: clock)
    }

    /// A service instance on its own backend on the shared Redis.
    func instance() -> (CaptchaService, RedisBackend) {
        let backend = redis.backend(clock: clock)
        let service = CaptchaService(
            configuration: .init(sites: [storeSite], policy: plumbingPolicy), backend: backend,
            log: { _ in }, clock: { [clock] in clock.now })
        return (service, backend)
    }

    func challenge(_ service: CaptchaService, from address: String = "192.0.2.7") -> [String: Any] {
        json(post(service, "/v1/challenges", ["sitekey": storeSite.sitekey], from: address))
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
        #expect(trips.scripts == ["commitIfUnchanged"], "\(trips)")
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
        #expect(redis.takeTrips().scripts == ["commitIfUnchanged", "lockAndRead", "commit"])
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
        #expect(redis.takeTrips().scripts == ["lockAndRead", "commit"])
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
}
