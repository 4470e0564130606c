import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleStores

/// The Redis store on a real `redis-server`: what needs the server itself — the Lua scripts
/// as Redis runs them, scripts by digest, and what `INFO memory` says. The store's logic is
/// pinned on an in-memory Redis (`RedisStoreTests`).
@Suite(.serialized) struct RedisServerTests {
    /// A puzzle registered for `client` and answered on its hole through `backend`: whether it
    /// passed.
    func issueAndPass(_ backend: RedisBackend, client: String) throws -> Bool {
        let puzzle = try GeneratedPuzzleFixture.make()
        let now = Date().timeIntervalSince1970
        let id = try backend.withVerifier(.issuing(client: client), now: now) {
            try $0.register(puzzle, client: client, now: now).id
        }
        let end = Point(x: puzzle.holePosition.x, y: puzzle.startPosition.y)
        let attempt = PuzzleAttempt(
            position: end, displayWidth: Double(puzzle.background.width),
            track: humanTrack(from: puzzle.startPosition, to: end, seed: 7))
        return try backend.withVerifier(.checking(puzzle: id, client: client), now: now + 1) {
            $0.check(id: id, attempt: attempt, client: client, now: now + 1).isPassed
        }
    }

    @Test func scriptsGoByDigestAndAreLoadedAgainWhenRedisForgetsThem() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let backend = try RedisBackend(url: redis.url, policy: plumbingPolicy)
        #expect(try issueAndPass(backend, client: "a"))
        #expect(try redis.calls("eval") == 0)
        #expect(try redis.calls("evalsha") > 0)
        // Redis forgets every script (as after a restart with persistence): the next
        // operations load them again and work.
        #expect(try redis.cli("--raw", "SCRIPT", "FLUSH") == ["OK"])
        let loads = try redis.calls("script|load")
        #expect(try issueAndPass(backend, client: "b"))
        #expect(try redis.calls("script|load") > loads)
    }

    /// What `INFO memory` tells of a Redis that evicts keys when full (named as a risk, and
    /// /healthz fails) or not, and a full `noeviction` Redis refusing writes (/healthz fails).
    @Test func aRedisThatEvictsOrIsFullIsNotHealthy() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let backend = try RedisBackend(
            url: redis.url, policy: plumbingPolicy)
        for (limit, policy, isRisky) in [
            ("64mb", "allkeys-lru", true), ("64mb", "noeviction", false),
            ("0", "volatile-lru", false),
        ] {
            _ = try redis.cli("CONFIG", "SET", "maxmemory", limit)
            _ = try redis.cli("CONFIG", "SET", "maxmemory-policy", policy)
            let risk = try backend.evictionRisk()
            #expect((risk != nil) == isRisky, "\(limit) \(policy): \(risk ?? "none")")
            if let risk { #expect(risk.contains(policy) && risk.contains("noeviction")) }
            #expect(backend.isHealthy() == !isRisky, "\(limit) \(policy)")
        }
        // Full for certain: a megabyte written, then a limit set below what it holds.
        let value = String(repeating: "x", count: 64 << 10)
        for k in 0..<16 { _ = try redis.cli("SET", "fill:\(k)", value) }
        _ = try redis.cli("CONFIG", "SET", "maxmemory-policy", "noeviction")
        _ = try redis.cli("CONFIG", "SET", "maxmemory", "512kb")
        #expect(try redis.cli("SET", "one", "more").joined().contains("OOM"))
        #expect(!backend.isHealthy())
    }
}
