import Foundation
import PuzzleTestSupport
import TactileHTTP
import TestSupport
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// Two service instances on a real `redis-server`, as behind a load balancer: challenges,
/// answers and redemptions across them over real connections, racing, and through an outage.
@Suite(.serialized) struct ServiceOnRedisServerTests {
    func instance(_ redis: RedisServer) throws -> (CaptchaService, RedisBackend) {
        let backend = try RedisBackend(url: redis.url, policy: plumbingPolicy)
        return (
            CaptchaService(
                configuration: .init(sites: [storeSite], policy: plumbingPolicy),
                backend: backend, log: { _ in }),
            backend
        )
    }

    @Test func aChallengeMadeOnOneInstanceIsAnsweredOnTheOther() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let (b, _) = try instance(redis)
        let token = try passOnTheOther(a, b, backendA, seed: 1)
        #expect(verify(a, token)["success"] as? Bool == true)
        #expect(verify(b, token)["error-codes"] as? [String] == ["timeout-or-duplicate"])
        // A challenge not answered yet keeps its images (answered ones are dropped).
        #expect(post(a, "/v1/challenges", ["sitekey": storeSite.sitekey]).status == 201)
        // Every key the scripts wrote has a time to live, and none names an address.
        let keys = try redis.cli("--raw", "KEYS", "tactile:*").sorted()
        let kinds = Set(keys.map { $0.split(separator: ":").prefix(2).joined(separator: ":") })
        #expect(
            kinds.isSuperset(of: [
                "tactile:key", "tactile:client", "tactile:redeemed", "tactile:image",
                "tactile:drag", "tactile:count",
            ]), "\(keys)")
        for key in keys where key != "tactile:key" {
            // -2: the key expired between KEYS and PTTL (a minute's counter can), which is
            // what a time to live is for; -1 is a key that would stay forever.
            let ttl = try redis.cli("--raw", "PTTL", key).first.flatMap { Int($0) } ?? -1
            #expect(ttl > 0 || ttl == -2, "\(key) has no time to live (PTTL \(ttl))")
        }
        #expect(keys.allSatisfy { !$0.contains("192.0.2") })
    }

    @Test func aTokenRedeemsOnceAcrossConcurrentVerifications() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let (b, _) = try instance(redis)
        let token = try passOnTheOther(a, b, backendA, seed: 2)
        let verify = HTTPRequest(
            method: "POST", path: "/v1/siteverify", headers: ["Content-Type": "application/json"],
            body: Array(#"{"secret": "\#(storeSite.secret)", "response": "\#(token)"}"#.utf8))
        #expect(await successes(of: verify, times: 100, on: [a, b]) == 1)
    }

    /// The same right answer sent 20 times at once, half to the maker (which tries its copy
    /// first) and half to the other instance (which locks): it passes once.
    @Test func aPuzzleAnsweredManyTimesAtOncePassesOnce() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let (b, _) = try instance(redis)
        let challenge = json(post(a, "/v1/challenges", ["sitekey": storeSite.sitekey]))
        let id = try #require(challenge["id"] as? String)
        let body = try JSONSerialization.data(
            withJSONObject: try humanAnswer(to: challenge, on: backendA, seed: 12))
        let answer = HTTPRequest(
            method: "POST", path: "/v1/challenges/\(id)/answer",
            headers: ["Origin": "https://example.com", "Content-Type": "application/json"],
            body: Array(body), clientAddress: "192.0.2.7")
        #expect(await successes(of: answer, times: 20, on: [a, b]) == 1)
        #expect(try redis.cli("--raw", "EXISTS", "tactile:image:\(id)") == ["0"])
    }

    @Test func withoutRedisNothingPassesAndItResumesWhenRedisIsBack() throws {
        let redis = try RedisServer(persistent: true)
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        #expect(a.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        // A pass made before the outage, not yet verified, and a challenge not yet answered.
        let before = try passOnTheOther(a, a, backendA, seed: 5)
        let pending = json(post(a, "/v1/challenges", ["sitekey": storeSite.sitekey]))
        let pendingID = try #require(pending["id"] as? String)
        let pendingAnswer = try humanAnswer(to: pending, on: backendA, seed: 9)
        redis.stop()
        #expect(a.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 503)
        #expect(post(a, "/v1/challenges", ["sitekey": storeSite.sitekey]).status == 503)
        // An image asked for while Redis is away must not leave the connection locked.
        #expect(image(a, String(repeating: "ab", count: 16), "piece").status == 503)
        // An answer that cannot reach Redis checks nothing: the maker keeps serving the images,
        // and the puzzle can be answered once Redis is back.
        #expect(post(a, "/v1/challenges/\(pendingID)/answer", pendingAnswer).status == 503)
        #expect(image(a, pendingID).status == 200)
        #expect(verify(a, before)["error-codes"] as? [String] == ["internal-error"])
        try redis.start()
        // Back with its data: the very first request works (no stale connection fails it),
        // and the token from before the outage verifies, once.
        let resumed = verify(a, before)
        #expect(resumed["success"] as? Bool == true, "\(resumed)")
        #expect(a.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        let late = json(post(a, "/v1/challenges/\(pendingID)/answer", pendingAnswer))
        #expect(late["success"] as? Bool == true, "\(late)")
        #expect(image(a, pendingID).status == 404)
        let token = try passOnTheOther(a, a, backendA, seed: 3)
        #expect(token.hasPrefix("pt2."))
    }
}
