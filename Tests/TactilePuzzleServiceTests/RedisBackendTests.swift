import Foundation
import PuzzleTestSupport
import Synchronization
import TactileCore
import TactileHTTP
import TactilePuzzleDesk
import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// Two service instances on a real `redis-server`, as behind a load balancer: what needs the
/// server itself — the Lua scripts as Redis runs them, scripts by digest, pooled connections
/// through an outage, answers and redemptions racing over real connections, and what
/// `INFO memory` says. The store's logic is pinned on an in-memory Redis (`RedisStoreTests`).
@Suite(.serialized) struct RedisBackendTests {
    /// A `redis-server` on a free loopback port, stopped at the end; persistent (an
    /// append-only file, synced on every write, in a scratch folder) or in memory only.
    final class RedisServer: Sendable {
        let port: Int
        let directory: String?
        /// The server's process while it runs.
        private let process = Mutex<Process?>(nil)
        let extraArguments: [String]

        init(persistent: Bool = false, arguments: [String] = []) throws {
            port = Self.freePort()
            extraArguments = arguments
            if persistent {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "redis-\(UUID())"
                ).path
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true)
                directory = folder
            } else {
                directory = nil
            }
            try start()
        }

        func start() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
            process.arguments =
                ["--port", String(port), "--bind", "127.0.0.1", "--save", ""]
                + (directory.map {
                    ["--appendonly", "yes", "--appendfsync", "always", "--dir", $0]
                }
                    ?? ["--appendonly", "no"]) + extraArguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            self.process.withLock { $0 = process }
            // Wait until it answers (whatever its settings).
            let backend = try RedisBackend(
                url: "redis://127.0.0.1:\(port)", policy: plumbingPolicy)
            for _ in 0..<100 {
                do {
                    _ = try backend.evictionRisk()
                    return
                } catch {
                    usleep(50_000)
                }
            }
        }

        /// Stops the server: SIGTERM, then SIGKILL if it has not gone within two seconds.
        func stop() {
            guard let process = process.withLock({ $0.take() }) else { return }
            process.terminate()
            for _ in 0..<200 where process.isRunning { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            for _ in 0..<200 where process.isRunning { usleep(10_000) }
        }

        deinit {
            stop()
            if let directory { try? FileManager.default.removeItem(atPath: directory) }
        }

        static func freePort() -> Int {
            let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    getsockname(socket, $0, &length)
                }
            }
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }

    func instance(_ redis: RedisServer) throws -> (CaptchaService, RedisBackend) {
        let backend = try RedisBackend(
            url: "redis://127.0.0.1:\(redis.port)", policy: plumbingPolicy)
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
        let keys = try redisCLI(redis, "--raw", "KEYS", "tactile:*").sorted()
        let kinds = Set(keys.map { $0.split(separator: ":").prefix(2).joined(separator: ":") })
        #expect(
            kinds.isSuperset(of: [
                "tactile:key", "tactile:client", "tactile:redeemed", "tactile:image",
                "tactile:drag", "tactile:count",
            ]), "\(keys)")
        for key in keys where key != "tactile:key" {
            // -2: the key expired between KEYS and PTTL (a minute's counter can), which is
            // what a time to live is for; -1 is a key that would stay forever.
            let ttl = try redisCLI(redis, "--raw", "PTTL", key).first.flatMap { Int($0) } ?? -1
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
        #expect(try redisCLI(redis, "--raw", "EXISTS", "tactile:image:\(id)") == ["0"])
    }

    /// The same drag sent at once to eight puzzles, made half on each of two instances, by
    /// eight clients: the memory's read, the check and the memory's write are one step of
    /// Redis's scripts, so it passes once.
    @Test func theSameDragSentToManyPuzzlesAtOncePassesOnce() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let desks = try (0..<2).map { _ in
            CaptchaDesk(
                configuration: .init(policy: plumbingPolicy),
                store: try RedisBackend(
                    url: "redis://127.0.0.1:\(redis.port)", policy: plumbingPolicy))
        }
        let puzzle = try GeneratedPuzzleFixture.make()
        let none = ChallengeImages(background: [], backgroundType: "", piece: [])
        let now = Date().timeIntervalSince1970
        let ids = try (0..<8).map { index in
            try desks[index % 2].register(
                puzzle, client: "c\(index)", site: nil, surcharge: 0, images: none, now: now
            ).get().challenge.id
        }
        let end = Point(x: puzzle.holePosition.x, y: puzzle.startPosition.y)
        let answer = DeskAnswer(
            position: end, track: humanTrack(from: puzzle.startPosition, to: end, seed: 4))
        let outcomes = Mutex<[CheckOutcome]>([])
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            let answered = try? desks[index % 2].answer(
                answer, to: ids[index], client: "c\(index)", now: now + 1)
            if let answered { outcomes.withLock { $0.append(answered.outcome) } }
        }
        let all = outcomes.withLock { $0 }
        #expect(all.count == 8)
        #expect(all.filter(\.isPassed).count == 1, "\(all)")
        #expect(all.filter { $0 == .failed(.machineLike(.replayed)) }.count == 7)
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

    @Test func scriptsGoByDigestAndAreLoadedAgainWhenRedisForgetsThem() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        _ = try passOnTheOther(a, a, backendA, seed: 7)
        #expect(try calls(redis, "eval") == 0)
        #expect(try calls(redis, "evalsha") > 0)
        // Redis forgets every script (as after a restart with persistence): the next
        // operations load them again and work.
        #expect(try redisCLI(redis, "--raw", "SCRIPT", "FLUSH") == ["OK"])
        let loads = try calls(redis, "script|load")
        let token = try passOnTheOther(a, a, backendA, seed: 8)
        #expect(try calls(redis, "script|load") > loads)
        #expect(verify(a, token)["success"] as? Bool == true)
    }

    /// What `INFO memory` tells of a Redis that evicts keys when full (named as a risk, and
    /// /healthz fails) or not, and a full `noeviction` Redis refusing writes (/healthz fails).
    @Test func aRedisThatEvictsOrIsFullIsNotHealthy() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let backend = try RedisBackend(
            url: "redis://127.0.0.1:\(redis.port)", policy: plumbingPolicy)
        for (limit, policy, isRisky) in [
            ("64mb", "allkeys-lru", true), ("64mb", "noeviction", false),
            ("0", "volatile-lru", false),
        ] {
            _ = try redisCLI(redis, "CONFIG", "SET", "maxmemory", limit)
            _ = try redisCLI(redis, "CONFIG", "SET", "maxmemory-policy", policy)
            let risk = try backend.evictionRisk()
            #expect((risk != nil) == isRisky, "\(limit) \(policy): \(risk ?? "none")")
            if let risk { #expect(risk.contains(policy) && risk.contains("noeviction")) }
            #expect(backend.isHealthy() == !isRisky, "\(limit) \(policy)")
        }
        // Full for certain: a megabyte written, then a limit set below what it holds.
        let value = String(repeating: "x", count: 64 << 10)
        for k in 0..<16 { _ = try redisCLI(redis, "SET", "fill:\(k)", value) }
        _ = try redisCLI(redis, "CONFIG", "SET", "maxmemory-policy", "noeviction")
        _ = try redisCLI(redis, "CONFIG", "SET", "maxmemory", "512kb")
        #expect(try redisCLI(redis, "SET", "one", "more").joined().contains("OOM"))
        #expect(!backend.isHealthy())
    }

    /// Runs `redis-cli` against the test server; its output lines (without the CR that some
    /// replies, such as INFO's, end their lines with).
    func redisCLI(_ redis: RedisServer, _ arguments: String...) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        process.arguments = ["-p", String(redis.port), "--no-raw"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // A CR LF is one Character, a newline like LF.
        return String(decoding: output, as: UTF8.self).split(whereSeparator: \.isNewline).map(
            String.init)
    }

    /// How many times Redis has run `command` since it started (`INFO commandstats`).
    func calls(_ redis: RedisServer, _ command: String) throws -> Int {
        let prefix = "cmdstat_\(command):calls="
        let lines = try redisCLI(redis, "--raw", "INFO", "commandstats")
        guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return 0 }
        return Int(line.dropFirst(prefix.count).prefix { $0.isNumber }) ?? -1
    }
}
