import Foundation
import TactileCore
import TactileHTTP
import TactilePuzzle
@_spi(AnswerReveal) import TactilePuzzleImaging
import TactilePuzzleSolvers
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService

/// Two service instances on one Redis, as behind a load balancer: a challenge made on one
/// is answered on the other, a token redeems once across both, and Redis going away stops
/// every pass until it comes back.
@Suite(.serialized) struct RedisBackendTests {
    /// A `redis-server` on a free loopback port, stopped at the end; persistent (an
    /// append-only file, synced on every write, in a scratch folder) or in memory only.
    final class RedisServer: @unchecked Sendable {
        let port: Int
        let directory: String?
        private(set) var process: Process?

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
            self.process = process
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
            guard let process else { return }
            self.process = nil
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

    let site = ServiceSite(
        sitekey: "site-one-key", secret: "secret-one-0123456789", hostnames: ["example.com"])

    /// A Redis that evicts keys when full could evict a redeemed token, which would then pass
    /// again: it is named as a risk, and /healthz fails on it. A memory limit with
    /// `noeviction`, or no limit with any policy, evicts nothing.
    @Test func aRedisThatEvictsIsRefused() throws {
        for (arguments, risky) in [
            (["--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru"], true),
            (["--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru"], true),
            (["--maxmemory", "64mb", "--maxmemory-policy", "noeviction"], false),
            (["--maxmemory", "0", "--maxmemory-policy", "allkeys-lru"], false),
        ] {
            let redis = try RedisServer(arguments: arguments)
            let backend = try RedisBackend(
                url: "redis://127.0.0.1:\(redis.port)", policy: plumbingPolicy)
            let risk = try backend.evictionRisk()
            #expect((risk != nil) == risky, "\(arguments): \(risk ?? "none")")
            if let risk { #expect(risk.contains(arguments[3]) && risk.contains("noeviction")) }
            #expect(backend.isHealthy() == !risky, "\(arguments)")
        }
        // A full noeviction Redis refuses every write: /healthz says so. Full for certain:
        // a megabyte written, then a limit set below what it holds.
        let full = try RedisServer()
        let backend = try RedisBackend(
            url: "redis://127.0.0.1:\(full.port)", policy: plumbingPolicy)
        #expect(backend.isHealthy())
        let value = String(repeating: "x", count: 64 << 10)
        for k in 0..<16 { _ = try redisCLI(full, "SET", "fill:\(k)", value) }
        _ = try redisCLI(full, "CONFIG", "SET", "maxmemory-policy", "noeviction")
        _ = try redisCLI(full, "CONFIG", "SET", "maxmemory", "512kb")
        #expect(try redisCLI(full, "SET", "one", "more").joined().contains("OOM"))
        #expect(!backend.isHealthy())
    }

    func instance(_ redis: RedisServer) throws -> (CaptchaService, RedisBackend) {
        let backend = try RedisBackend(
            url: "redis://127.0.0.1:\(redis.port)", policy: plumbingPolicy)
        return (
            CaptchaService(
                configuration: .init(sites: [site], policy: plumbingPolicy), backend: backend,
                log: { _ in }),
            backend
        )
    }

    func post(
        _ service: CaptchaService, _ path: String, _ object: [String: Any],
        from address: String = "192.0.2.7"
    )
        -> HTTPResponse
    {
        service.handle(
            HTTPRequest(
                method: "POST", path: path,
                headers: ["Origin": "https://example.com", "Content-Type": "application/json"],
                body: Array(try! JSONSerialization.data(withJSONObject: object)),
                clientAddress: address))
    }

    func json(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// `GET /v1/challenges/{id}/{file}` (file: background or piece).
    func image(_ service: CaptchaService, _ id: String, _ file: String = "background")
        -> HTTPResponse
    {
        service.handle(HTTPRequest(method: "GET", path: "/v1/challenges/\(id)/\(file)"))
    }

    /// A person's drag onto the hole of `challenge`, as the body of its answer.
    func humanAnswer(
        to challenge: [String: Any], _ backend: RedisBackend, seed: UInt64
    ) throws -> [String: Any] {
        let id = try #require(challenge["id"] as? String)
        let hole = try #require(
            try backend.withVerifier(.peeking(puzzle: id), now: Date().timeIntervalSince1970) {
                $0.testingAnswer(id: id)
            })
        let start = Point(x: 0, y: Double(challenge["pieceY"] as! Int))
        var random = SeededRandom(seed: seed)
        let track = HumanDrag.track(
            from: start, to: Point(x: hole.x, y: start.y), axis: .horizontal, using: &random)
        var answer: [String: Any] = [
            "x": track.last!.x, "y": start.y,
            "track": track.map { ["x": $0.x, "y": $0.y, "t": $0.time * 1000] },
        ]
        if let price = challenge["proofOfWork"] as? [String: Any],
            let salt = price["salt"] as? String, let difficulty = price["difficulty"] as? Int
        {
            answer["proofOfWork"] = [
                "nonce": ProofOfWorkChallenge(salt: salt, difficulty: difficulty).solve()
            ]
        }
        return answer
    }

    /// A challenge made on `a`, its images fetched and answered on `b`; the token.
    func passOnTheOther(
        _ a: CaptchaService, _ b: CaptchaService, _ backend: RedisBackend, seed: UInt64
    )
        throws -> String
    {
        let challenge = json(post(a, "/v1/challenges", ["sitekey": site.sitekey]))
        let id = try #require(challenge["id"] as? String)
        let background = image(b, id)
        #expect(background.status == 200)
        #expect(
            background.headers.contains {
                $0.name == "Content-Type" && $0.value.hasPrefix("image/")
            })
        let answer = try humanAnswer(to: challenge, backend, seed: seed)
        let passed = json(post(b, "/v1/challenges/\(id)/answer", answer))
        // The step that took the puzzle dropped its images from Redis and from the checking
        // instance (the maker may keep its own copy until it expires).
        #expect(image(b, id).status == 404)
        return try #require(passed["token"] as? String, "\(passed)")
    }

    /// How many of `times` copies of `request`, sent all at once and spread in turn over
    /// `services`, were answered `"success":true`.
    func successes(of request: HTTPRequest, times: Int, on services: [CaptchaService]) async
        -> Int
    {
        await withTaskGroup(of: Bool.self) { group in
            for k in 0..<times {
                let service = services[k % services.count]
                group.addTask {
                    String(decoding: service.handle(request).body, as: UTF8.self).contains(
                        #""success":true"#)
                }
            }
            var count = 0
            for await success in group where success { count += 1 }
            return count
        }
    }

    @Test func aChallengeMadeOnOneInstanceIsAnsweredOnTheOther() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let (b, _) = try instance(redis)
        let token = try passOnTheOther(a, b, backendA, seed: 1)
        let verified = json(post(a, "/v1/siteverify", ["secret": site.secret, "response": token]))
        #expect(verified["success"] as? Bool == true, "\(verified)")
        let again = json(post(b, "/v1/siteverify", ["secret": site.secret, "response": token]))
        #expect(again["error-codes"] as? [String] == ["timeout-or-duplicate"])
    }

    @Test func aDragAcceptedOnOneInstanceIsARefusedReplayOnTheOther() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let (b, backendB) = try instance(redis)
        let first = json(post(a, "/v1/challenges", ["sitekey": site.sitekey]))
        let answer = try humanAnswer(to: first, backendA, seed: 4)
        let passed = json(post(a, "/v1/challenges/\(first["id"]!)/answer", answer))
        #expect(passed["success"] as? Bool == true, "\(passed)")
        // The same drag stretched onto another puzzle's hole, on the other instance.
        let second = json(post(b, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.9"))
        let id = try #require(second["id"] as? String)
        let hole = try #require(
            try backendB.withVerifier(.peeking(puzzle: id), now: Date().timeIntervalSince1970) {
                $0.testingAnswer(id: id)
            })
        let samples = try #require(answer["track"] as? [[String: Double]])
        let scale = hole.x / (answer["x"] as! Double)
        // Its price paid, and not the deeper price of the work alone (which would let a
        // doubted drag pass anyway): what refuses it is the memory of the drag.
        let work = try #require(second["proofOfWork"] as? [String: Any])
        let price = ProofOfWorkChallenge(
            salt: work["salt"] as! String, difficulty: work["difficulty"] as! Int)
        let nonce = price.priceOnlyNonce()
        let replay: [String: Any] = [
            "x": hole.x, "y": answer["y"]!, "proofOfWork": ["nonce": nonce],
            "track": samples.map { ["x": $0["x"]! * scale, "y": $0["y"]!, "t": $0["t"]!] },
        ]
        let refused = json(post(b, "/v1/challenges/\(id)/answer", replay, from: "192.0.2.9"))
        #expect(refused["success"] as? Bool == false, "\(refused)")
        let kept = try redisCLI(redis, "--raw", "KEYS", "tactile:drag:*")
        #expect(kept.count == 1, "\(kept)")
        // Another drag still passes there.
        let third = json(post(b, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.10"))
        let other = try humanAnswer(to: third, backendB, seed: 5)
        let fresh = json(
            post(b, "/v1/challenges/\(third["id"]!)/answer", other, from: "192.0.2.10"))
        #expect(fresh["success"] as? Bool == true, "\(fresh)")
    }

    @Test func aTokenRedeemsOnceAcrossConcurrentVerifications() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let (b, _) = try instance(redis)
        let token = try passOnTheOther(a, b, backendA, seed: 2)
        let verify = HTTPRequest(
            method: "POST", path: "/v1/siteverify", headers: ["Content-Type": "application/json"],
            body: Array(#"{"secret": "\#(site.secret)", "response": "\#(token)"}"#.utf8))
        #expect(await successes(of: verify, times: 100, on: [a, b]) == 1)
    }

    @Test func withoutRedisNothingPassesAndItResumesWhenRedisIsBack() throws {
        let redis = try RedisServer(persistent: true)
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        #expect(a.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        // A pass made before the outage, not yet verified, and a challenge not yet answered.
        let before = try passOnTheOther(a, a, backendA, seed: 5)
        let pending = json(post(a, "/v1/challenges", ["sitekey": site.sitekey]))
        let pendingID = try #require(pending["id"] as? String)
        let pendingAnswer = try humanAnswer(to: pending, backendA, seed: 9)
        redis.stop()
        #expect(a.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 503)
        #expect(post(a, "/v1/challenges", ["sitekey": site.sitekey]).status == 503)
        // An image asked for while Redis is away must not leave the connection locked.
        #expect(image(a, String(repeating: "ab", count: 16), "piece").status == 503)
        // An answer that cannot reach Redis checks nothing: the maker keeps serving the images,
        // and the puzzle can be answered once Redis is back.
        #expect(post(a, "/v1/challenges/\(pendingID)/answer", pendingAnswer).status == 503)
        #expect(image(a, pendingID).status == 200)
        let verify = json(post(a, "/v1/siteverify", ["secret": site.secret, "response": before]))
        #expect(verify["error-codes"] as? [String] == ["internal-error"])
        try redis.start()
        // Back with its data: the very first request works (no stale connection fails it),
        // and the token from before the outage verifies, once.
        let resumed = json(post(a, "/v1/siteverify", ["secret": site.secret, "response": before]))
        #expect(resumed["success"] as? Bool == true, "\(resumed)")
        #expect(a.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        let late = json(post(a, "/v1/challenges/\(pendingID)/answer", pendingAnswer))
        #expect(late["success"] as? Bool == true, "\(late)")
        #expect(image(a, pendingID).status == 404)
        let token = try passOnTheOther(a, a, backendA, seed: 3)
        #expect(token.hasPrefix("pt2."))
    }

    @Test func aRedisThatLostItsDataStartsANewEpochByItself() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let (b, backendB) = try instance(redis)
        let before = try passOnTheOther(a, b, backendA, seed: 6)
        let pending = json(post(a, "/v1/challenges", ["sitekey": site.sitekey]))
        let pendingID = try #require(pending["id"] as? String)
        let pendingAnswer = try humanAnswer(to: pending, backendA, seed: 7)
        // Redis restarts without persistence: everything it held is gone.
        redis.stop()
        try redis.start()
        // Both instances heal by themselves, the first check of each taking up the new epoch,
        // and only once.
        #expect(a.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        #expect(b.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        #expect(a.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        #expect(backendA.epochsTakenUp == 1 && backendB.epochsTakenUp == 1)
        // Nothing issued before the loss passes: the token, the challenge.
        let verify = json(post(b, "/v1/siteverify", ["secret": site.secret, "response": before]))
        #expect(verify["success"] as? Bool == false)
        #expect(verify["error-codes"] as? [String] == ["invalid-input-response"], "\(verify)")
        let late = json(post(b, "/v1/challenges/\(pendingID)/answer", pendingAnswer))
        #expect(late["success"] as? Bool == false, "\(late)")
        // Challenges and tokens of the new epoch work across both, and redeem once.
        let token = try passOnTheOther(b, a, backendB, seed: 8)
        let first = json(post(a, "/v1/siteverify", ["secret": site.secret, "response": token]))
        #expect(first["success"] as? Bool == true, "\(first)")
        let again = json(post(b, "/v1/siteverify", ["secret": site.secret, "response": token]))
        #expect(again["error-codes"] as? [String] == ["timeout-or-duplicate"], "\(again)")
        #expect(backendA.epochsTakenUp == 1 && backendB.epochsTakenUp == 1)
        let metrics = String(
            decoding: a.handleMetrics(HTTPRequest(method: "GET", path: "/metrics")).body,
            as: UTF8.self)
        #expect(metrics.contains("\ntactile_store_epochs_total 1\n"), "\(metrics)")
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

    @Test func theInstanceThatMadeAChallengeServesItsImagesWithoutAskingRedis() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, _) = try instance(redis)
        let (b, _) = try instance(redis)
        let challenge = json(post(a, "/v1/challenges", ["sitekey": site.sitekey]))
        let id = try #require(challenge["id"] as? String)
        func fetch(_ service: CaptchaService) -> [HTTPResponse] {
            ["background", "piece"].map { image(service, id, $0) }
        }
        let before = try calls(redis, "get")
        let own = fetch(a)
        #expect(try calls(redis, "get") == before)
        let other = fetch(b)
        #expect(try calls(redis, "get") == before + 2)
        #expect(own.map(\.status) == [200, 200])
        #expect(own.map(\.body) == other.map(\.body))
        #expect(own[0].body.count > 1000 && own[1].body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aFirstVerificationTakesOneRoundTripAndRetriesGetTheSameAnswer() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let (b, _) = try instance(redis)
        let token = try passOnTheOther(a, a, backendA, seed: 10)
        func verify(_ service: CaptchaService, key: String?) -> [String: Any] {
            var fields = ["secret": site.secret, "response": token]
            fields["idempotency_key"] = key
            return json(post(service, "/v1/siteverify", fields))
        }
        let scripts = try calls(redis, "evalsha")
        let first = verify(a, key: "retry-1")
        #expect(first["success"] as? Bool == true, "\(first)")
        // Nothing was known of the token: one script wrote the redemption and the answer.
        #expect(try calls(redis, "evalsha") == scripts + 1)
        // A retry with the same key, on either instance, gets the same answer (under the
        // lock, as the records now exist); any other is a duplicate.
        for service in [a, b] {
            let retried = verify(service, key: "retry-1")
            #expect(retried["success"] as? Bool == true, "\(retried)")
            #expect(retried["hostname"] as? String == first["hostname"] as? String)
        }
        #expect(verify(b, key: "retry-2")["error-codes"] as? [String] == ["timeout-or-duplicate"])
        #expect(verify(a, key: nil)["error-codes"] as? [String] == ["timeout-or-duplicate"])
    }

    @Test func theMakerChecksItsOwnPuzzleInOneRoundTripAndOnlyOneOfManyPasses() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let (b, _) = try instance(redis)
        // A wrote the client and the puzzle last: its check is one script.
        let first = json(post(a, "/v1/challenges", ["sitekey": site.sitekey]))
        let firstID = try #require(first["id"] as? String)
        let firstAnswer = try humanAnswer(to: first, backendA, seed: 11)
        let scripts = try calls(redis, "evalsha")
        let passed = json(post(a, "/v1/challenges/\(firstID)/answer", firstAnswer))
        #expect(passed["success"] as? Bool == true, "\(passed)")
        #expect(try calls(redis, "evalsha") == scripts + 1)
        #expect(image(a, firstID).status == 404)
        #expect(try redisCLI(redis, "--raw", "EXISTS", "tactile:image:\(firstID)") == ["0"])

        // The same right answer sent 20 times at once, half to the maker (which tries its
        // copy first) and half to the other instance (which locks): it passes once.
        let challenge = json(post(a, "/v1/challenges", ["sitekey": site.sitekey]))
        let id = try #require(challenge["id"] as? String)
        let body = try JSONSerialization.data(
            withJSONObject: try humanAnswer(to: challenge, backendA, seed: 12))
        let answer = HTTPRequest(
            method: "POST", path: "/v1/challenges/\(id)/answer",
            headers: ["Origin": "https://example.com", "Content-Type": "application/json"],
            body: Array(body), clientAddress: "192.0.2.7")
        #expect(await successes(of: answer, times: 20, on: [a, b]) == 1)
    }

    @Test func aCopyOfAClientThatAnotherInstanceChangedSinceIsNotTrusted() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        var policy = VerifierPolicy()
        policy.failuresBeforeLockout = 2
        let url = "redis://127.0.0.1:\(redis.port)"
        let a = try RedisBackend(url: url, policy: policy)
        let b = try RedisBackend(url: url, policy: policy)
        let puzzle = try GeneratedPuzzleFixture.make()
        func issue(_ backend: RedisBackend, _ client: String, at now: Double) throws -> String {
            try backend.withVerifier(.issuing(client: client), now: now) {
                try $0.register(puzzle, client: client, now: now).id
            }
        }
        // Far from the hole, no drag: a failure.
        let wrong = PuzzleAttempt(position: Point(x: 0, y: 0), displayWidth: 320, track: [])
        func fail(_ backend: RedisBackend, _ id: String, _ client: String, at now: Double) throws
            -> CheckOutcome
        {
            try backend.withVerifier(.checking(puzzle: id, client: client), now: now) {
                $0.check(id: id, attempt: wrong, client: client, now: now)
            }
        }
        func lockedUntil(_ client: String, at now: Double) throws -> Double? {
            try a.withVerifier(.inspecting(client: client), now: now) {
                $0.limit(for: client, now: now)
            }
        }
        let now = Date().timeIntervalSince1970
        // A issues to "x"; then B issues to "x" and "x" fails there: A's copy of "x" is stale.
        let mine = try issue(a, "x", at: now)
        let theirs = try issue(b, "x", at: now + 1)
        #expect(try fail(b, theirs, "x", at: now + 2).isPassed == false)
        #expect(try lockedUntil("x", at: now + 2) == nil)
        // A's check of its own puzzle refuses its copy (one script), then locks, reads and
        // writes (two): the second failure in a row counts, and locks "x" out.
        let scripts = try calls(redis, "evalsha")
        #expect(try fail(a, mine, "x", at: now + 3).isPassed == false)
        #expect(try calls(redis, "evalsha") == scripts + 3)
        #expect(try lockedUntil("x", at: now + 3) != nil)

        // The same on one instance only: its copy is current, each check is one script, and
        // the lockout comes at the same failure.
        for (step, offset) in [(1, 0.0), (2, 2.0)] {
            let id = try issue(a, "y", at: now + offset)
            let before = try calls(redis, "evalsha")
            #expect(try fail(a, id, "y", at: now + offset + 1).isPassed == false)
            #expect(try calls(redis, "evalsha") == before + 1)
            #expect(try (lockedUntil("y", at: now + offset + 1) != nil) == (step == 2))
        }
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
        let verified = json(post(a, "/v1/siteverify", ["secret": site.secret, "response": token]))
        #expect(verified["success"] as? Bool == true, "\(verified)")
    }

    @Test func everyRecordHasATimeToLiveAndADamagedOneFailsClosed() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let (a, backendA) = try instance(redis)
        let token = try passOnTheOther(a, a, backendA, seed: 4)
        #expect(
            json(post(a, "/v1/siteverify", ["secret": site.secret, "response": token]))["success"]
                as? Bool == true)
        // A second client, one failure in: its record is what a damaged store could reset.
        let challenge = json(
            post(a, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.8"))
        let id = try #require(challenge["id"] as? String)
        let wrong: [String: Any] = [
            "x": 1, "y": challenge["pieceY"] as! Int, "track": [[String: Any]](),
        ]
        _ = post(a, "/v1/challenges/\(id)/answer", wrong, from: "192.0.2.8")

        // A challenge not answered yet keeps its images (answered ones are dropped).
        #expect(
            post(a, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.9").status == 201)
        let keys = try redisCLI(redis, "--raw", "KEYS", "tactile:*").sorted()
        let kinds = Set(keys.map { $0.split(separator: ":").prefix(2).joined(separator: ":") })
        #expect(
            kinds.isSuperset(of: [
                "tactile:key", "tactile:client", "tactile:redeemed", "tactile:image",
            ]), "\(keys)")
        for key in keys where key != "tactile:key" {
            // -2: the key expired between KEYS and PTTL (a minute's counter can), which is
            // what a time to live is for; -1 is a key that would stay forever.
            let ttl = try redisCLI(redis, "--raw", "PTTL", key).first.flatMap { Int($0) } ?? -1
            #expect(ttl > 0 || ttl == -2, "\(key) has no time to live (PTTL \(ttl))")
        }
        // No key names an address.
        #expect(keys.allSatisfy { !$0.contains("192.0.2") })

        // Flip one bit in each client record: that client is refused (503), not started afresh.
        for key in keys where key.hasPrefix("tactile:client:") {
            _ = try redisCLI(redis, "SETRANGE", key, "20", "X")
        }
        #expect(
            post(a, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.8").status == 503)
        #expect(post(a, "/v1/challenges", ["sitekey": site.sitekey]).status == 503)
        // A client with no record is not affected.
        #expect(
            post(a, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.10").status == 201)
    }

    @Test func anOperationThatOutlivesItsLockWritesNothing() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let backend = RedisBackend(
            client: try RedisClient(url: "redis://127.0.0.1:\(redis.port)"),
            policy: plumbingPolicy, lockLease: 0.2)
        let puzzle = try GeneratedPuzzleFixture.make()
        // An issue that stalls past its lease: the puzzle it registered is not kept.
        var issued: String?
        #expect(throws: RedisBackend.Failure.self) {
            try backend.withVerifier(.issuing(client: "a"), now: 1000) { verifier in
                issued = try verifier.register(puzzle, client: "a", now: 1000).id
                usleep(400_000)
            }
        }
        let id = try #require(issued)
        let kept = try backend.withVerifier(.peeking(puzzle: id), now: 1000) {
            $0.pendingPuzzle(id: id)
        }
        #expect(kept == nil)
        // Within its lease, the same operation is kept.
        let second = try backend.withVerifier(.issuing(client: "a"), now: 1001) {
            try $0.register(puzzle, client: "a", now: 1001).id
        }
        #expect(
            try backend.withVerifier(.peeking(puzzle: second), now: 1001) {
                $0.pendingPuzzle(id: second)
            } != nil)
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

/// A small generated puzzle for backend tests.
enum GeneratedPuzzleFixture {
    static func make() throws -> GeneratedPuzzle {
        var random = SeededRandom(seed: 9)
        let picture = try PictureSource.procedural(seed: 9).picture(width: 320, height: 180)
        return try PuzzleGenerator.generate(
            picture: picture, options: PuzzleOptions(width: 320, height: 180), using: &random)
    }
}
