import Foundation
import TactileCore
import TactileHTTP
import TactilePuzzle
import TactilePuzzleSolvers
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService

/// The HTTP contract of `tactile puzzle serve`, request by request, without sockets.
@Suite struct CaptchaServiceTests {
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var lines: [String] = []
        func append(_ line: String) {
            lock.lock()
            lines.append(line)
            lock.unlock()
        }
        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return lines.joined(separator: "\n")
        }
    }

    let site = ServiceSite(
        sitekey: "site-one-key", secret: "secret-one-0123456789", hostnames: ["example.com"])
    let other = ServiceSite(
        sitekey: "site-two-key", secret: "secret-two-0123456789", hostnames: ["other.org"],
        proofOfWorkDifficulty: nil)
    let log = Log()
    let backend = MemoryBackend(policy: plumbingPolicy)
    var service: CaptchaService {
        CaptchaService(
            configuration: .init(
                sites: [site, other], policy: plumbingPolicy, trustedProxies: ["10.0.0.1"]),
            backend: backend, log: { [log] in log.append($0) })
    }

    func json(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    func post(
        _ service: CaptchaService, _ path: String, _ object: [String: Any],
        origin: String? = "https://example.com", from address: String = "192.0.2.7",
        headers: [String: String] = [:]
    ) -> HTTPResponse {
        var all = headers
        if let origin { all["Origin"] = origin }
        all["Content-Type"] = "application/json"
        return service.handle(
            HTTPRequest(
                method: "POST", path: path, headers: all,
                body: Array(try! JSONSerialization.data(withJSONObject: object)),
                clientAddress: address))
    }

    /// A nonce that pays a challenge's price and not the deeper price of the work alone (which
    /// would let a drag the rules doubt pass anyway), as the widget's worker first finds it.
    func paying(_ price: [String: Any]) throws -> String {
        let work = ProofOfWorkChallenge(
            salt: try #require(price["salt"] as? String),
            difficulty: try #require(price["difficulty"] as? Int))
        return work.priceOnlyNonce()
    }

    /// A challenge, and a hand-like drag into its hole, as the widget would send it.
    func challengeAndDrag(
        _ service: CaptchaService, seed: UInt64 = 1, off: Double = 0,
        store: (any VerifierBackend)? = nil
    ) throws -> (id: String, answer: [String: Any]) {
        let backend = store ?? backend
        let made = post(service, "/v1/challenges", ["sitekey": site.sitekey, "action": "signup"])
        #expect(made.status == 201)
        let challenge = json(made)
        let id = try #require(challenge["id"] as? String)
        let hole = try #require(
            try backend.withVerifier(.peeking(puzzle: id), now: Date().timeIntervalSince1970) {
                $0.testingAnswer(id: id)
            })
        let start = Point(x: 0, y: Double(challenge["pieceY"] as! Int))
        var random = SeededRandom(seed: seed)
        let target = Point(x: hole.x + off, y: start.y)
        let track = HumanDrag.track(from: start, to: target, axis: .horizontal, using: &random)
        let samples = track.map { ["x": $0.x, "y": $0.y, "t": $0.time * 1000] }
        var answer: [String: Any] = ["x": track.last!.x, "y": start.y, "track": samples]
        if let price = challenge["proofOfWork"] as? [String: Any] {
            answer["proofOfWork"] = ["nonce": try paying(price)]
        }
        return (id, answer)
    }

    @Test func aDragIntoTheHoleGivesATokenThatVerifiesOnce() throws {
        let service = service
        let (id, answer) = try challengeAndDrag(service)
        let passed = post(service, "/v1/challenges/\(id)/answer", answer)
        #expect(passed.status == 200)
        let token = try #require(json(passed)["token"] as? String)
        #expect(
            passed.headers.contains {
                $0.name == "Access-Control-Allow-Origin" && $0.value == "https://example.com"
            })
        // The page is told when the token lapses: the policy's lifetime from now, in RFC 3339.
        let lapses = try #require(json(passed)["expiresAt"] as? String)
        let lapsesAt = try #require(ISO8601DateFormatter().date(from: lapses))
        let lifetime = lapsesAt.timeIntervalSinceNow
        #expect(
            lifetime > plumbingPolicy.tokenLifetime - 5 && lifetime <= plumbingPolicy.tokenLifetime,
            "\(lapses)")
        let verified = json(
            post(
                service, "/v1/siteverify", ["secret": site.secret, "response": token], origin: nil))
        #expect(verified["success"] as? Bool == true)
        #expect(verified["hostname"] as? String == "example.com")
        #expect(verified["action"] as? String == "signup")
        #expect(verified["mode"] as? String == "slider")
        let again = json(
            post(
                service, "/v1/siteverify", ["secret": site.secret, "response": token], origin: nil))
        #expect(again["error-codes"] as? [String] == ["timeout-or-duplicate"])
    }

    @Test func anAcceptedDragReplayedOntoAnotherPuzzleFails() throws {
        let service = service
        let (id, answer) = try challengeAndDrag(service, seed: 3)
        #expect(
            json(post(service, "/v1/challenges/\(id)/answer", answer))["success"] as? Bool == true)
        // Stretched onto the next puzzle's hole and slowed by 5 %, as a replay tool does.
        let (id2, answer2) = try challengeAndDrag(service, seed: 4)
        let samples = try #require(answer["track"] as? [[String: Double]])
        let hole = answer2["x"] as! Double
        let scale = hole / (answer["x"] as! Double)
        let replay: [String: Any] = [
            "x": hole, "y": answer2["y"]!, "proofOfWork": answer2["proofOfWork"]!,
            "track": samples.map {
                ["x": $0["x"]! * scale, "y": answer2["y"] as! Double, "t": $0["t"]! * 1.05]
            },
        ]
        let refused = json(post(service, "/v1/challenges/\(id2)/answer", replay))
        #expect(refused["success"] as? Bool == false)
        #expect(refused["error-codes"] as? [String] == ["not-passed"])
        #expect(log.text.contains("the drag repeats one accepted before"), "\(log.text)")
        // The drag that was made for that second puzzle passes on a third.
        let (id3, answer3) = try challengeAndDrag(service, seed: 4)
        #expect(
            json(post(service, "/v1/challenges/\(id3)/answer", answer3))["success"] as? Bool == true
        )
    }

    @Test func aBusyNetworkPaysMoreForEachAnswer() {
        let service = service
        func price(from address: String) -> Int? {
            let made = json(
                post(service, "/v1/challenges", ["sitekey": site.sitekey], from: address))
            return (made["proofOfWork"] as? [String: Any])?["difficulty"] as? Int
        }
        // 40 addresses of one /24, a puzzle each: 30 at the base price, then a bit per 8.
        let prices = (1...40).map { price(from: "198.51.100.\($0)") }
        #expect(prices.prefix(30).allSatisfy { $0 == 16 }, "\(prices)")
        #expect(prices[30] == 17 && prices[37] == 17 && prices[38] == 18, "\(prices)")
        // Another network pays the base; the same /24 written as IPv4-mapped IPv6 does not.
        #expect(price(from: "203.0.113.5") == 16)
        #expect(price(from: "::ffff:198.51.100.77") == 18)
        #expect(CaptchaService.pricingNetwork(of: "2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(CaptchaService.pricingNetwork(of: "::ffff:10.1.2.3") == "10.1.2.0/24")
    }

    /// A megabyte of fake token with an idempotency key is refused before anything is
    /// remembered: 20 of them leave the directory store's state as small as it was, and it
    /// goes on working (they once pushed it past its read limit for good). A key longer than
    /// 64 bytes is refused by name.
    @Test func hugeTokensAndKeysAreRefusedBeforeAnythingIsRemembered() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("tactile-huge-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try DirectoryBackend(directory: folder, policy: plumbingPolicy)
        let service = CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy), backend: store,
            log: { _ in })
        func size() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return names.reduce(0) { total, name in
                let attributes = try? FileManager.default.attributesOfItem(
                    atPath: folder + "/" + name)
                return total + ((attributes?[.size] as? Int) ?? 0)
            }
        }
        let (id, answer) = try challengeAndDrag(service, seed: 4, store: store)
        let token = try #require(
            json(post(service, "/v1/challenges/\(id)/answer", answer))["token"] as? String)
        let before = size()
        let huge = "pt2." + String(repeating: "A", count: 1 << 20)
        for k in 0..<20 {
            let reply = json(
                post(
                    service, "/v1/siteverify",
                    ["secret": site.secret, "response": huge, "idempotency_key": "k\(k)"],
                    origin: nil))
            #expect(reply["error-codes"] as? [String] == ["invalid-input-response"])
        }
        #expect(size() < before + 64 * 1024, "state grew from \(before) to \(size()) bytes")
        let longKey = json(
            post(
                service, "/v1/siteverify",
                [
                    "secret": site.secret, "response": token,
                    "idempotency_key": String(repeating: "k", count: 65),
                ], origin: nil))
        #expect(longKey["error-codes"] as? [String] == ["invalid-idempotency-key"])
        // The token was not spent by the refused call, and the store still works.
        let verified = json(
            post(
                service, "/v1/siteverify",
                [
                    "secret": site.secret, "response": token,
                    "idempotency_key": String(repeating: "k", count: 64),
                ], origin: nil))
        #expect(verified["success"] as? Bool == true, "\(verified)")
    }

    @Test func siteverifyNamesWhatIsWrongAsTurnstileDoes() throws {
        let service = service
        let (id, answer) = try challengeAndDrag(service, seed: 2)
        let token = try #require(
            json(post(service, "/v1/challenges/\(id)/answer", answer))["token"] as? String)
        func codes(_ fields: [String: Any]) -> [String] {
            json(post(service, "/v1/siteverify", fields, origin: nil))["error-codes"] as? [String]
                ?? []
        }
        #expect(codes(["response": token]) == ["missing-input-secret"])
        #expect(
            codes(["secret": "wrong-secret-0123456789", "response": token]) == [
                "invalid-input-secret"
            ])
        #expect(codes(["secret": site.secret]) == ["missing-input-response"])
        #expect(
            codes(["secret": site.secret, "response": "pt2.abc.def"]) == ["invalid-input-response"])
        // Another site's secret cannot redeem this site's token, and does not spend it.
        #expect(codes(["secret": other.secret, "response": token]) == ["invalid-input-response"])
        // A form body works too, and an idempotency key makes a retry safe.
        let form = "secret=\(site.secret)&response=\(token)&idempotency_key=retry-1"
        func formVerify() -> [String: Any] {
            json(
                service.handle(
                    HTTPRequest(
                        method: "POST", path: "/v1/siteverify",
                        headers: ["Content-Type": "application/x-www-form-urlencoded"],
                        body: Array(form.utf8))))
        }
        let firstForm = formVerify()
        #expect(firstForm["success"] as? Bool == true, "\(firstForm)")
        let retried = formVerify()
        #expect(
            retried["success"] as? Bool == true, "the same key gets the same answer: \(retried)")
        #expect(codes(["secret": site.secret, "response": token]) == ["timeout-or-duplicate"])
        let junk = service.handle(
            HTTPRequest(method: "POST", path: "/v1/siteverify", body: Array("{not json".utf8)))
        #expect(json(junk)["error-codes"] as? [String] == ["bad-request"])
    }

    @Test func aClientLearnsOnlyTheVerdictAndTheLogTheRule() throws {
        let service = service
        let (id, answer) = try challengeAndDrag(service, seed: 3, off: 40)
        let failed = post(service, "/v1/challenges/\(id)/answer", answer)
        #expect(failed.status == 200)
        let body = String(decoding: failed.body, as: UTF8.self)
        #expect(json(failed)["error-codes"] as? [String] == ["not-passed"])
        #expect(!body.contains("hole") && !body.contains("px"), "\(body)")
        #expect(log.text.contains("not-passed: the piece is not in the hole"), "\(log.text)")
        // The same puzzle again: gone.
        let again = post(service, "/v1/challenges/\(id)/answer", answer)
        #expect(json(again)["error-codes"] as? [String] == ["expired"])
        #expect(service.handleMetrics(HTTPRequest(method: "GET", path: "/metrics")).body.count > 0)
        let metrics = String(
            decoding: service.handleMetrics(HTTPRequest(method: "GET", path: "/metrics")).body,
            as: UTF8.self)
        #expect(
            metrics.contains(
                #"tactile_failures_total{site="site-one-key",rule="wrong-position"} 1"#),
            "\(metrics)")
        #expect(metrics.contains(#"tactile_challenges_issued_total{site="site-one-key"} 1"#))
        #expect(metrics.contains(#"tactile_challenges_issued_total{site="site-two-key"} 0"#))
    }

    /// The metrics follow Prometheus's conventions from the start: every family has a HELP
    /// and a TYPE line before its samples, and the counters an alert would watch are there at
    /// zero before their first event.
    @Test func metricsHaveHelpTypeAndZerosFromTheStart() {
        let fresh = CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy), log: { _ in })
        let lines = metricLines(fresh)
        for zero in [
            #"tactile_passes_total{site="site-one-key"} 0"#,
            #"tactile_challenges_issued_total{site="site-one-key"} 0"#,
            #"tactile_challenges_refused_total{reason="hostname"} 0"#,
            "tactile_store_errors_total 0", #"tactile_rate_limited_total{scope="client"} 0"#,
        ] {
            #expect(lines.contains(zero), "\(zero) missing: \(lines)")
        }
        var helped: Set<String> = []
        var typed: Set<String> = []
        for line in lines {
            let words = line.split(separator: " ")
            if line.hasPrefix("# HELP ") {
                helped.insert(String(words[2]))
                #expect(words.count > 3, "HELP without text: \(line)")
            } else if line.hasPrefix("# TYPE ") {
                #expect(helped.contains(String(words[2])), "TYPE before HELP: \(line)")
                typed.insert(String(words[2]))
            } else {
                var family = String(line.prefix { $0 != "{" && $0 != " " })
                for suffix in ["_bucket", "_sum", "_count"] where !typed.contains(family) {
                    if family.hasSuffix(suffix) { family = String(family.dropLast(suffix.count)) }
                }
                #expect(typed.contains(family), "a sample before its TYPE: \(line)")
            }
        }
    }

    /// The metrics' lines, as a set, and one histogram's cumulative counts by bound.
    func metricLines(_ service: CaptchaService) -> [String] {
        String(
            decoding: service.handleMetrics(HTTPRequest(method: "GET", path: "/metrics")).body,
            as: UTF8.self
        ).split(separator: "\n").map(String.init)
    }

    func buckets(_ lines: [String], _ series: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in lines where line.hasPrefix(series + "_bucket{") {
            guard let bound = line.split(separator: "le=\"").last?.prefix(while: { $0 != "\"" }),
                let count = line.split(separator: " ").last.flatMap({ Int($0) })
            else { continue }
            counts[String(bound)] = count
        }
        return counts
    }

    @Test func madeUpPathsShareOneSeriesAndWriteNothingOfTheirOwnToTheLog() {
        let service = service
        // One made-up path and one look at the metrics first: both have their series then.
        _ = service.handle(HTTPRequest(method: "GET", path: "/nothing-here"))
        _ = metricLines(service)
        let before = metricLines(service).count
        // libmicrohttpd hands over the path decoded: %0A arrives as a line break.
        let forged = "2026-01-01T00:00:00Z 203.0.113.9 POST /v1/siteverify 200 1.0 ms"
        let paths =
            (0..<300).map { "/made-up-\($0)" } + ["/x\n\(forged)", "/v1/challenges/a/b/c/d", "/v1"]
        for path in paths {
            let response = service.handle(HTTPRequest(method: "GET", path: path))
            #expect(response.status == 404, "\(path)")
        }
        let lines = metricLines(service)
        // The counts went up; no line was added.
        #expect(lines.count == before, "\(lines.count - before) lines added")
        let others = lines.first {
            $0.hasPrefix(#"tactile_http_request_duration_seconds_count{endpoint="other"}"#)
        }
        #expect(others?.hasSuffix(" \(paths.count + 1)") == true, "\(others ?? "none")")
        #expect(
            !log.text.contains("made-up") && !log.text.contains(forged), "\(log.text.suffix(300))")
        #expect(log.lines.allSatisfy { !$0.contains("\n") })
        // Real endpoints keep their names, ids replaced.
        let id = String(repeating: "ab", count: 16)
        _ = service.handle(HTTPRequest(method: "GET", path: "/v1/challenges/\(id)/piece"))
        #expect(
            log.lines.last?.contains(" GET /v1/challenges/{id}/piece 404 ") == true,
            "\(log.lines.last ?? "")")
        #expect(!log.text.contains(id))
    }

    @Test func theServersOwnMessagesAreTimedAndBounded() {
        final class Clock: @unchecked Sendable { var now = 1_767_225_600.25 }
        let clock = Clock()
        let service = CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy), backend: backend,
            log: { [log] in log.append($0) }, clock: { clock.now })
        service.logServerMessage("Error processing request (HTTP response code is 431)")
        service.logServerMessage(String(repeating: "m", count: 5000))
        #expect(
            log.lines.first
                == "2026-01-01T00:00:00Z server: Error processing request (HTTP response code is 431)",
            "\(log.lines)")
        #expect(
            log.lines.last == "2026-01-01T00:00:00Z server: " + String(repeating: "m", count: 300))
        // A flood: 1,000 in one second, then one more a second later.
        for index in 0..<1000 { service.logServerMessage("refused \(index)") }
        #expect(log.lines.count == 10, "\(log.lines.count) lines in the first second")
        #expect(log.lines.last == "2026-01-01T00:00:00Z server: refused 7")
        clock.now += 1
        service.logServerMessage("refused again")
        #expect(
            log.lines.last
                == "2026-01-01T00:00:01Z server: refused again (992 more held back before this one)",
            "\(log.lines.last ?? "")")
        service.logServerMessage("and again")
        #expect(log.lines.last == "2026-01-01T00:00:01Z server: and again")
        let metrics = metricLines(service)
        #expect(metrics.contains(#"tactile_server_messages_total{logged="no"} 992"#), "\(metrics)")
        #expect(metrics.contains(#"tactile_server_messages_total{logged="yes"} 12"#))
    }

    @Test func requestTimeCountsTheWaitForAWorker() {
        let service = service
        // Read whole 0.3 s ago, answered now: it waited 0.3 s for a worker.
        _ = service.handle(
            HTTPRequest(method: "GET", path: "/healthz", received: .now - .milliseconds(300)))
        _ = service.handle(HTTPRequest(method: "GET", path: "/healthz"))
        let lines = metricLines(service)
        let durations = buckets(
            lines.filter { $0.contains(#"endpoint="/healthz""#) },
            "tactile_http_request_duration_seconds")
        let waits = buckets(lines, "tactile_http_request_wait_seconds")
        for (name, counts) in [("duration", durations), ("wait", waits)] {
            // One of the two at most 0.1 s, both at most 0.5 s, one above 0.25 s.
            #expect(counts["0.1"] == 1, "\(name): \(counts)")
            #expect(counts["0.25"] == 1, "\(name): \(counts)")
            #expect(counts["0.5"] == 2, "\(name): \(counts)")
            #expect(counts["+Inf"] == 2, "\(name): \(counts)")
        }
        #expect(lines.contains("# TYPE tactile_http_request_wait_seconds histogram"))
        #expect(log.lines.first?.hasSuffix(" ms") == true)
        let logged = log.lines.first.flatMap { $0.split(separator: " ").dropLast().last }
            .flatMap { Double($0) }
        #expect((logged ?? 0) >= 300, "\(log.lines.first ?? "")")
    }

    @Test func challengesComeOnlyForTheSitesOwnPages() {
        let service = service
        #expect(post(service, "/v1/challenges", ["sitekey": "nope-nope-nope"]).status == 400)
        let foreign = post(
            service, "/v1/challenges", ["sitekey": site.sitekey], origin: "https://evil.test")
        #expect(foreign.status == 403)
        #expect(!foreign.headers.contains { $0.name == "Access-Control-Allow-Origin" })
        #expect(
            post(service, "/v1/challenges", ["sitekey": site.sitekey], origin: nil).status == 403)
        let viaReferer = post(
            service, "/v1/challenges", ["sitekey": site.sitekey], origin: nil,
            headers: ["Referer": "https://example.com/signup?x=1"])
        #expect(viaReferer.status == 201)
        let preflight = service.handle(
            HTTPRequest(
                method: "OPTIONS", path: "/v1/challenges",
                headers: ["Origin": "https://example.com"]))
        #expect(preflight.status == 204)
        let badPreflight = service.handle(
            HTTPRequest(
                method: "OPTIONS", path: "/v1/challenges", headers: ["Origin": "https://evil.test"])
        )
        #expect(badPreflight.status == 403)
    }

    @Test func tooManyRequestsGet429WithRetryAfter() {
        let service = service
        var last = HTTPResponse(status: 0)
        for _ in 0...VerifierPolicy().puzzlesPerWindow {
            last = post(service, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.99")
        }
        #expect(last.status == 429)
        #expect(last.headers.contains { $0.name == "Retry-After" && Int($0.value) ?? 0 > 0 })
        // Another address is not limited.
        #expect(
            post(service, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.100").status
                == 201)
    }

    @Test func aSiteSetsItsOwnLimits() {
        var strict = site
        strict.puzzlesPerMinute = 2
        let service = CaptchaService(
            configuration: .init(sites: [strict], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy),
            log: { _ in })
        let codes = (0..<3).map {
            _ in
            post(service, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.50").status
        }
        #expect(codes == [201, 201, 429])
    }

    @Test func aSiteHasALimitForAllItsClientsTogether() throws {
        var limited = site
        limited.sitePuzzlesPerMinute = 3
        var other = ServiceSite(
            sitekey: "site-two-key", secret: "secret-two-0123456789", hostnames: ["example.com"])
        other.sitePuzzlesPerMinute = 3
        let service = CaptchaService(
            configuration: .init(sites: [limited, other], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy), log: { _ in },
            clock: { 120.5 })
        let codes = (0..<5).map {
            post(service, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.\(60 + $0)")
                .status
        }
        #expect(codes == [201, 201, 201, 429, 429])
        let refused = post(
            service, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.70")
        // The window is the clock's minute: it ends at 180 s.
        #expect(refused.headers.first { $0.name == "Retry-After" }?.value == "60")
        // Another site is not affected.
        #expect(
            post(service, "/v1/challenges", ["sitekey": other.sitekey], from: "192.0.2.71").status
                == 201)
        let metrics = String(
            decoding: service.handleMetrics(HTTPRequest(method: "GET", path: "/metrics")).body,
            as: UTF8.self)
        #expect(metrics.contains(#"tactile_rate_limited_total{scope="site"} 3"#), "\(metrics)")
    }

    @Test func aClientRefusedForItsOwnLimitDoesNotSpendTheSitesBudget() {
        var limited = site
        limited.puzzlesPerMinute = 1
        limited.sitePuzzlesPerMinute = 3
        let service = CaptchaService(
            configuration: .init(sites: [limited], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy), log: { _ in }, clock: { 120.5 })
        // One client asks twenty times: one puzzle, nineteen refusals of its own.
        let flood = (0..<20).map {
            _ in
            post(service, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.80").status
        }
        #expect(flood.filter { $0 == 201 }.count == 1)
        // Two other visitors still get theirs: the site's budget of three is not used up.
        for visitor in ["192.0.2.81", "192.0.2.82"] {
            #expect(
                post(service, "/v1/challenges", ["sitekey": site.sitekey], from: visitor).status
                    == 201)
        }
    }

    /// Images live by the service's clock, not the wall's (a service on an injected clock
    /// still serves them).
    @Test func imagesExpireByTheServicesClock() throws {
        let now = Box(1000.0)
        let service = CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy),
            log: { _ in }, clock: { now.value })
        let id = try #require(
            json(post(service, "/v1/challenges", ["sitekey": site.sitekey]))["id"] as? String)
        // A second challenge, whose storing sheds expired images, keeps the first's.
        _ = post(service, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.30")
        let piece = HTTPRequest(method: "GET", path: "/v1/challenges/\(id)/piece")
        #expect(service.handle(piece).status == 200)
        now.value += VerifierPolicy().puzzleLifetime + 1
        #expect(service.handle(piece).status == 404)
    }

    @Test func anIPv6ClientIsItsSlash64() {
        #expect(CaptchaService.network(of: "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(
            CaptchaService.network(of: "2001:db8:1:2:ffff:ffff:ffff:ffff")
                == CaptchaService.network(of: "2001:0db8:0001:0002::9"))
        #expect(
            CaptchaService.network(of: "2001:db8:1:3::1")
                != CaptchaService.network(of: "2001:db8:1:2::1"))
        #expect(CaptchaService.network(of: "192.0.2.7") == "192.0.2.7")
        // An IPv4 client forwarded as IPv6 is its IPv4 address, not a /64 every one shares.
        #expect(CaptchaService.network(of: "::ffff:192.0.2.7") == "192.0.2.7")
        #expect(CaptchaService.network(of: "::FFFF:c000:0208") == "192.0.2.8")
        #expect(CaptchaService.network(of: "not an address") == "not an address")
    }

    @Test func aPuzzlesSiteSetsItsAnswerLimitWhateverTheOriginSays() throws {
        var strict = site
        strict.answersPerMinute = 2
        let backend = MemoryBackend(policy: plumbingPolicy)
        let service = CaptchaService(
            configuration: .init(sites: [strict], policy: plumbingPolicy), backend: backend,
            log: { _ in })
        var codes: [Int] = []
        for k in 0..<3 {
            let made = json(post(service, "/v1/challenges", ["sitekey": site.sitekey]))
            let id = try #require(made["id"] as? String)
            // Answered without an Origin (a script need not send one).
            let answer = post(
                service, "/v1/challenges/\(id)/answer",
                ["x": 10 + k, "y": made["pieceY"] as! Int, "track": [[String: Any]]()], origin: nil)
            codes.append(answer.status)
        }
        #expect(codes == [200, 200, 429])
    }

    @Test func anAnsweredPuzzlesImagesAreGoneAndTracksAreCappedExactly() throws {
        let service = service
        let (id, answer) = try challengeAndDrag(service, seed: 3)
        let background = HTTPRequest(method: "GET", path: "/v1/challenges/\(id)/background")
        #expect(service.handle(background).status == 200)
        _ = post(service, "/v1/challenges/\(id)/answer", answer)
        #expect(service.handle(background).status == 404)
        // 10,000 samples are read; 10,001 are refused before anything is judged.
        for (count, status) in [
            (DragTrack.maximumSamples, 200), (DragTrack.maximumSamples + 1, 400),
        ] {
            let made = json(
                post(service, "/v1/challenges", ["sitekey": site.sitekey], from: "192.0.2.90"))
            let fresh = try #require(made["id"] as? String)
            let samples = (0..<count).map { ["x": Double($0) / 100, "y": 0.0, "t": Double($0)] }
            let reply = post(
                service, "/v1/challenges/\(fresh)/answer", ["x": 1, "y": 0, "track": samples],
                from: "192.0.2.90")
            #expect(reply.status == status, "\(count) samples")
        }
    }

    @Test func theCachesKeepToTheirBudgetOldestFirstAndDropTheExpired() {
        let cache = ImageCache(budget: 1000)
        func images(_ size: Int) -> ChallengeImages {
            ChallengeImages(
                background: [UInt8](repeating: 1, count: size), backgroundType: "image/jpeg",
                piece: [])
        }
        for k in 0..<5 {
            cache.put("\(k)", images(300), until: 100 + Double(k), now: 0)
        }
        // 1,500 bytes asked for, 1,000 allowed: the two oldest went.
        #expect(cache.size == 900)
        #expect(cache.get("0", now: 0) == nil && cache.get("1", now: 0) == nil)
        #expect(cache.get("2", now: 0) != nil)
        // A put at 103.5 first forgets "2" and "3" (expired at 102 and 103), keeps "4".
        cache.put("5", images(100), until: 200, now: 103.5)
        #expect(cache.size == 400)
        #expect(cache.get("3", now: 0) == nil && cache.get("4", now: 0) != nil)
        cache.remove("4")
        #expect(cache.size == 100)

        // A name put again counts from its latest put: "a", put again after "b", outlives it.
        let records = ExpiringCache<[UInt8]>(budget: 1000) { $0.count }
        for name in ["a", "b", "a", "c", "d"] {
            records.put(name, [UInt8](repeating: 0, count: 300), until: 100, now: 0)
        }
        #expect(records.size == 900)
        #expect(records.get("a", now: 0) != nil && records.get("b", now: 0) == nil)
        // Put again and again, it stays one entry.
        for k in 0..<1000 { records.put("c", [UInt8(k & 0xFF)], until: 100, now: 0) }
        #expect(records.size == 601 && records.get("c", now: 0) == [UInt8(999 & 0xFF)])
    }

    @Test func forwardedAddressesAreBelievedOnlyFromTrustedProxies() {
        let service = service
        let proxied = HTTPRequest(
            method: "GET", path: "/", headers: ["X-Forwarded-For": "203.0.113.5, 10.0.0.1"],
            clientAddress: "10.0.0.1")
        #expect(service.client(of: proxied) == "203.0.113.5")
        let spoofed = HTTPRequest(
            method: "GET", path: "/", headers: ["X-Forwarded-For": "203.0.113.5"],
            clientAddress: "198.51.100.1")
        #expect(service.client(of: spoofed) == "198.51.100.1")
        // Blanks around hops (spaces or tabs), empty hops and chained trusted proxies.
        let chained = HTTPRequest(
            method: "GET", path: "/",
            headers: ["X-Forwarded-For": " 198.51.100.9 ,\t203.0.113.5\t, , 10.0.0.1 "],
            clientAddress: "10.0.0.1")
        #expect(service.client(of: chained) == "203.0.113.5")
    }

    /// Log and response times read as Foundation's ISO 8601 writer writes them.
    @Test func timestampsAreISO8601InUTC() {
        var random = SystemRandomNumberGenerator()
        for seconds in [0, 951_782_400, 1_764_639_718.9, 4_102_444_799]
            + (0..<500).map({ _ in
                Double.random(in: 0..<253_402_300_800, using: &random)
            })
        {
            #expect(
                CaptchaService.timestamp(seconds)
                    == Date(timeIntervalSince1970: seconds.rounded(.down)).ISO8601Format(),
                "\(seconds)")
        }
        #expect(CaptchaService.timestamp(-5) == "1970-01-01T00:00:00Z")
        #expect(CaptchaService.timestamp(.nan) == "1970-01-01T00:00:00Z")
        #expect(CaptchaService.timestamp(.infinity) == "9999-12-31T23:59:59Z")
        #expect(CaptchaService.milliseconds(0.01234) == "12.3")
        #expect(CaptchaService.milliseconds(0.00006) == "0.1")
        #expect(CaptchaService.milliseconds(0) == "0.0")
        #expect(CaptchaService.milliseconds(2.5) == "2500.0")
    }

    /// The default clock counts whole milliseconds, so the times records and tokens keep
    /// are written in at most 13 digits, and read back exactly.
    @Test func theDefaultClockCountsMilliseconds() throws {
        for _ in 0..<200 {
            let before = Date().timeIntervalSince1970
            let now = CaptchaService.millisecondClock()
            let after = Date().timeIntervalSince1970
            #expect(now >= before - 0.001 && now <= after + 0.001)
            let text = String(decoding: JSONValue(now).serialized(), as: UTF8.self)
            #expect(text.filter(\.isNumber).count <= 13, "\(text)")
            #expect(try JSONValue.parse(Array(text.utf8)).number == now)
        }
    }

    @Test func unknownPathsAndMethodsAndHealth() {
        let service = service
        #expect(service.handle(HTTPRequest(method: "GET", path: "/nope")).status == 404)
        #expect(service.handle(HTTPRequest(method: "GET", path: "/v1/siteverify")).status == 405)
        #expect(
            service.handle(HTTPRequest(method: "GET", path: "/v1/challenges/abc/piece")).status
                == 404)
        #expect(service.handle(HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        #expect(
            service.handle(HTTPRequest(method: "GET", path: "/test/answer/x")).status == 404,
            "answers stay hidden")
        let widget = service.handle(HTTPRequest(method: "GET", path: "/widget.js"))
        #expect(widget.status == 200)
        #expect(String(decoding: widget.body, as: UTF8.self).contains("tactile-captcha"))
        // No demo unless one is asked for; the home page says so.
        #expect(service.handle(HTTPRequest(method: "GET", path: "/demo")).status == 404)
        #expect(service.handle(HTTPRequest(method: "POST", path: "/demo")).status == 404)
        let home = service.handle(HTTPRequest(method: "GET", path: "/"))
        #expect(home.status == 200)
        #expect(String(decoding: home.body, as: UTF8.self).contains("The demo is off"))
        #expect(service.handle(HTTPRequest(method: "POST", path: "/")).status == 405)
        // A wrong method is told which are right; HEAD is answered where GET is.
        let wrong = service.handle(HTTPRequest(method: "DELETE", path: "/v1/challenges"))
        #expect(wrong.status == 405)
        #expect(wrong.headers.contains { $0.name == "Allow" && $0.value == "POST, OPTIONS" })
        #expect(service.handle(HTTPRequest(method: "HEAD", path: "/healthz")).status == 200)
        #expect(service.handle(HTTPRequest(method: "HEAD", path: "/widget.js")).status == 200)
    }

    /// What a client sends as its method reaches the log only when it is a standard one: a
    /// made-up method could carry terminal escapes or fill a line.
    @Test func madeUpMethodsDoNotReachTheLog() {
        let service = service
        let method = "\u{1B}]0;owned\u{07}" + String(repeating: "X", count: 50_000)
        _ = service.handle(HTTPRequest(method: method, path: "/healthz"))
        let line = log.lines.last ?? ""
        #expect(line.contains(" other ") && !line.contains("\u{1B}") && line.count < 200, "\(line)")
    }

    /// An opaque origin (`Origin: null`: a sandboxed frame, a file) is no site's page,
    /// whatever its `Referer` says: no challenge, and no `Access-Control-Allow-Origin: null`.
    @Test func anOpaqueOriginIsNoSitesPage() {
        let service = service
        let made = post(
            service, "/v1/challenges", ["sitekey": site.sitekey], origin: "null",
            headers: ["Referer": "https://example.com/signup"])
        #expect(made.status == 403, "\(made.status)")
        #expect(!made.headers.contains { $0.name == "Access-Control-Allow-Origin" })
        let preflight = service.handle(
            HTTPRequest(
                method: "OPTIONS", path: "/v1/challenges",
                headers: ["Origin": "null", "Referer": "https://example.com/"]))
        #expect(preflight.status == 403)
    }

    @Test func sitesFilesAreChecked() throws {
        let scratch = ScratchDirectory("sites")
        let good = try scratch.write(
            #"[{"sitekey": "abcdefgh", "secret": "0123456789abcdef", "hostnames": ["a.com"]}]"#,
            to: "good.json")
        let sites = try ServiceSite.load(path: good)
        #expect(sites.first?.proofOfWorkDifficulty == 16)
        for (name, text) in [
            ("empty", "[]"),
            ("short", #"[{"sitekey": "abcdefgh", "secret": "short", "hostnames": ["a"]}]"#),
            (
                "nohosts",
                #"[{"sitekey": "abcdefgh", "secret": "0123456789abcdef", "hostnames": []}]"#
            ),
            ("junk", "{"),
        ] {
            let path = try scratch.write(text, to: name + ".json")
            #expect(throws: ServiceConfigurationError.self, "\(name)") {
                try ServiceSite.load(path: path)
            }
        }
    }

    @Test func theDemoHasASiteOfItsOwnOnThisServicesPagesOnly() throws {
        let demoSite = ServiceSite.demo()
        let service = CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy, demoSite: demoSite),
            backend: MemoryBackend(policy: plumbingPolicy), log: { _ in })
        let page = String(
            decoding: service.handle(HTTPRequest(method: "GET", path: "/demo")).body,
            as: UTF8.self)
        #expect(page.contains(demoSite.sitekey) && !page.contains(site.sitekey))
        let home = service.handle(HTTPRequest(method: "GET", path: "/"))
        #expect(String(decoding: home.body, as: UTF8.self).contains("href=\"/demo\""))
        // Its puzzles show on pages this service serves, wherever it runs, and nowhere else.
        func challenge(origin: String, host: String) -> Int {
            post(
                service, "/v1/challenges", ["sitekey": demoSite.sitekey], origin: origin,
                headers: ["Host": host]
            ).status
        }
        #expect(
            challenge(origin: "https://captcha.example.net", host: "captcha.example.net") == 201)
        #expect(challenge(origin: "http://[::1]:8080", host: "[::1]:8080") == 201)
        #expect(challenge(origin: "https://evil.example", host: "captcha.example.net") == 403)
        // The configured site keeps its own host names only.
        #expect(
            post(
                service, "/v1/challenges", ["sitekey": site.sitekey],
                origin: "https://captcha.example.net", headers: ["Host": "captcha.example.net"]
            ).status == 403)
    }

    @Test func aRefusedChallengeTellsTheOperatorWhichSettingIsWrong() {
        let log = Log()
        let service = CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy), log: { log.append($0) })
        #expect(post(service, "/v1/challenges", ["sitekey": "no-such-key"]).status == 400)
        #expect(
            post(
                service, "/v1/challenges", ["sitekey": site.sitekey], origin: "https://shop.example"
            )
            .status == 403)
        let preflight = service.handle(
            HTTPRequest(
                method: "OPTIONS", path: "/v1/challenges",
                headers: ["Origin": "https://typo.example\u{1B}[31m"]))
        #expect(preflight.status == 403)
        let text = log.text
        #expect(
            text.contains(
                #"refused a challenge from "https://example.com": the site key "no-such-key" is not one of the sites'"#
            ), "\(text)")
        #expect(
            text.contains(
                #"refused a challenge from "https://shop.example": the page's host name "shop.example" is not one of site key site-one-key's host names (example.com)"#
            ), "\(text)")
        // What a client sent reaches the log escaped.
        #expect(text.contains(#""https://typo.example\u{1b}[31m""#), "\(text)")
        #expect(!text.contains("\u{1B}"))
        let metrics = metricLines(service)
        #expect(metrics.contains(#"tactile_challenges_refused_total{reason="sitekey"} 1"#))
        #expect(metrics.contains(#"tactile_challenges_refused_total{reason="hostname"} 2"#))
    }

    @Test func sitesCanBeReplacedWhileServing() {
        let service = CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy), log: { _ in })
        #expect(post(service, "/v1/challenges", ["sitekey": site.sitekey]).status == 201)
        service.replaceSites([other])
        #expect(post(service, "/v1/challenges", ["sitekey": site.sitekey]).status == 400)
        #expect(
            post(service, "/v1/challenges", ["sitekey": other.sitekey], origin: "https://other.org")
                .status == 201)
        let verify = json(
            post(service, "/v1/siteverify", ["secret": site.secret, "response": "x"], origin: nil))
        #expect(verify["error-codes"] as? [String] == ["invalid-input-secret"])
        #expect(metricLines(service).contains(#"tactile_passes_total{site="site-two-key"} 0"#))
    }

    @Test func aPreviousSecretIsAcceptedUntilItsTime() throws {
        final class Clock: @unchecked Sendable { var now = 1_800_000_000.0 }
        let clock = Clock()
        var rotated = site
        rotated.secret = "the-new-secret-0123456789"
        rotated.previousSecret = site.secret
        rotated.previousSecretUntil = clock.now + 7200
        let service = CaptchaService(
            configuration: .init(sites: [rotated], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy), log: { _ in }, clock: { clock.now })
        func codes(_ secret: String) -> [String] {
            json(
                post(service, "/v1/siteverify", ["secret": secret, "response": "x.y"], origin: nil))[
                    "error-codes"] as? [String] ?? []
        }
        // Both secrets are the site's (the token is what is wrong) until the time is up.
        #expect(codes(rotated.secret) == ["invalid-input-response"])
        #expect(codes(site.secret) == ["invalid-input-response"])
        clock.now += 7200
        #expect(codes(rotated.secret) == ["invalid-input-response"])
        #expect(codes(site.secret) == ["invalid-input-secret"])
    }

    @Test func aSitesFileErrorNamesTheEntryAndTheField() throws {
        let scratch = ScratchDirectory("sites-errors")
        let good = #""sitekey": "abcdefgh", "secret": "0123456789abcdef", "hostnames": ["a.com"]"#
        for (text, expected) in [
            (
                #"[{\#(good)}, {"sitekey": "ijklmnop", "secret": "0123456789abcdef"}]"#,
                #"entry 2: the field "hostnames" is missing"#
            ),
            (
                #"[{\#(good), "puzzlesPerMinute": "ten"}]"#,
                #"entry 1 field "puzzlesPerMinute" must be a whole number"#
            ),
            (
                #"[{"sitekey": "abcdefgh", "secret": "0123456789abcdef", "hostnames": ["a.com", 7]}]"#,
                #"entry 1 field "hostnames.[1]" must be text"#
            ),
            (
                #"[{\#(good), "puzzlesPerMinutes": 10}]"#,
                #"entry 1 field "puzzlesPerMinutes": unknown field"#
            ),
            (
                #"[{\#(good), "previousSecret": "0123456789abcdef", "previousSecretUntil": "tomorrow"}]"#,
                #"entry 1 field "previousSecretUntil": must be a time in RFC 3339"#
            ),
            (
                #"[{\#(good), "previousSecret": "0123456789abcdef"}]"#,
                "abcdefgh needs both previousSecret and previousSecretUntil"
            ),
            (
                #"[{"sitekey": "a b", "secret": "0123456789abcdef", "hostnames": ["a"]}]"#,
                #"entry 1 field "sitekey" must be"#
            ),
            (
                #"[{\#(good)}, {"sitekey": "ijklmnop", "secret": "fedcba9876543210", "hostnames": ["b"], "previousSecret": "0123456789abcdef", "previousSecretUntil": "2026-12-04T12:00:00Z"}]"#,
                "a secret of ijklmnop is also another site's"
            ),
            ("{", "not valid JSON"),
            (#"{"sitekey": "x"}"#, "expected a JSON array"),
        ] {
            let path = try scratch.write(text, to: "sites.json")
            do {
                _ = try ServiceSite.load(path: path)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.description.contains(expected), "\(text): \(error.description)")
            }
        }
        let rotated = try scratch.write(
            #"[{\#(good), "previousSecret": "fedcba9876543210", "previousSecretUntil": "2026-12-04T12:00:00Z"}]"#,
            to: "rotated.json")
        let site = try #require(try ServiceSite.load(path: rotated).first)
        #expect(site.previousSecretUntil == 1_796_385_600)
        #expect(
            site.acceptedSecrets(at: 1_796_385_599) == ["0123456789abcdef", "fedcba9876543210"])
        #expect(site.acceptedSecrets(at: 1_796_385_600) == ["0123456789abcdef"])
    }

    /// The route table is the one list of endpoints: each is reached by its method and
    /// answered by its handler (not 404 or 405), labelled by its pattern, and a path's other
    /// methods are told in `Allow` exactly as the table has them.
    @Test func everyRouteIsReachedAndNamedFromTheTable() {
        let service = CaptchaService(
            configuration: .init(
                sites: [site], policy: plumbingPolicy, revealsAnswers: true,
                demoSite: ServiceSite.demo()),
            backend: MemoryBackend(policy: plumbingPolicy), log: { _ in })
        for route in CaptchaService.routes {
            let path = route.label.replacingOccurrences(of: "{id}", with: "abc")
            let response = service.handle(
                HTTPRequest(
                    method: route.method, path: path, headers: ["Origin": "https://example.com"],
                    body: Array("{}".utf8)))
            let body = String(decoding: response.body, as: UTF8.self)
            #expect(
                response.status != 405 && !body.contains("no such endpoint"),
                "\(route.method) \(path): \(response.status) \(body)")
            #expect(CaptchaService.endpoint(of: path) == route.label)
            let allowed = CaptchaService.routes.filter { $0.label == route.label }.flatMap {
                $0.method == "GET" ? ["GET", "HEAD"] : [$0.method]
            }
            let wrong = service.handle(HTTPRequest(method: "PUT", path: path))
            #expect(wrong.status == 405)
            #expect(
                wrong.headers.first { $0.name == "Allow" }?.value
                    == allowed.joined(separator: ", "), "\(path)")
        }
        #expect(CaptchaService.endpoint(of: "/v1/challenges/abc") == "other")
        #expect(CaptchaService.endpoint(of: "/") == "/")
    }
}
