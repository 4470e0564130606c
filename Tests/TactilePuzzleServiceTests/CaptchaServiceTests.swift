import Foundation
import PuzzleTestSupport
import TactileCore
import TactileHTTP
import TactilePuzzle
import TactilePuzzleDesk
import TactilePuzzleSolvers
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// The HTTP contract of `tactile puzzle serve`, request by request, without sockets: a pass
/// and its token, what a client learns, prices, addresses, and the route table.
@Suite struct CaptchaServiceTests: ServiceTesting {
    let log = TestLog()
    let backend = MemoryBackend(policy: plumbingPolicy)

    @Test func aDragIntoTheHoleGivesATokenThatVerifiesOnce() throws {
        let service = service
        let (id, answer) = try challengeAndDrag(service)
        let before = Date().timeIntervalSince1970
        let passed = post(service, "/v1/challenges/\(id)/answer", answer)
        let after = Date().timeIntervalSince1970
        #expect(passed.status == 200)
        let token = try #require(json(passed)["token"] as? String)
        #expect(
            passed.headers.contains {
                $0.name == "Access-Control-Allow-Origin" && $0.value == "https://example.com"
            })
        // The page is told when the token lapses: the policy's lifetime from when it was
        // answered, in RFC 3339 (to the second, rounded down; the service's clock counts
        // whole milliseconds).
        let lapses = try #require(json(passed)["expiresAt"] as? String)
        let lapsesAt = try #require(ISO8601DateFormatter().date(from: lapses)).timeIntervalSince1970
        let lifetime = plumbingPolicy.tokenLifetime
        #expect(
            lapsesAt > before - 1.001 + lifetime && lapsesAt <= after + 0.001 + lifetime,
            "\(lapses) for an answer between \(before) and \(after)")
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

    /// An answer says which device made its drag, and the drag is judged by it: a stroke of a
    /// tenth of a second is a finger's flick, too quick for a mouse. A device the contract does
    /// not name is refused by name, before the puzzle is spent.
    @Test func aDragIsJudgedByTheDeviceItNames() throws {
        let service = service
        func quick(_ answer: [String: Any]) -> [String: Any] {
            var answer = answer
            let samples = answer["track"] as! [[String: Double]]
            let scale = 100 / samples.last!["t"]!
            answer["track"] = samples.map { ["x": $0["x"]!, "y": $0["y"]!, "t": $0["t"]! * scale] }
            return answer
        }
        let (id, answer) = try challengeAndDrag(service, seed: 5)
        var stylus = quick(answer)
        stylus["pointer"] = "stylus"
        let refused = post(service, "/v1/challenges/\(id)/answer", stylus)
        #expect(refused.status == 400)
        let message = try #require(json(refused)["error"] as? String)
        #expect(
            message.contains("\"stylus\"") && message.contains("mouse, touch or pen"), "\(message)")
        var finger = quick(answer)
        finger["pointer"] = "touch"
        let passed = json(post(service, "/v1/challenges/\(id)/answer", finger))
        #expect(passed["success"] as? Bool == true, "the puzzle was not spent by the bad device")

        let (id2, answer2) = try challengeAndDrag(service, seed: 6)
        let mouse = json(post(service, "/v1/challenges/\(id2)/answer", quick(answer2)))
        #expect(mouse["success"] as? Bool == false, "no device named is a mouse")
        #expect(log.text.contains("too quick (0.100 s, at least 0.2 s expected)"), "\(log.text)")

        // Quicker than any finger (40 ms): doubted, so priced rather than refused. Its answer
        // passes when it pays the price of the proof of work alone, and counts as that; here
        // in the 16 parts the widget pays it in.
        for paysAlone in [false, true] {
            let made = json(post(service, "/v1/challenges", ["sitekey": site.sitekey]))
            let id = try #require(made["id"] as? String)
            let price = try #require(made["proofOfWork"] as? [String: Any])
            let work = ProofOfWorkChallenge(
                salt: try #require(price["salt"] as? String),
                difficulty: try #require(price["difficulty"] as? Int),
                parts: try #require(price["parts"] as? Int))
            #expect(work.parts == 16)
            let hole = try #require(
                try backend.withVerifier(.peeking(puzzle: id), now: Date().timeIntervalSince1970) {
                    $0.testingAnswer(id: id)
                })
            let y = Double(made["pieceY"] as! Int)
            let flick: [String: Any] = [
                "x": hole.x, "y": y, "pointer": "touch",
                "track": (0...4).map {
                    ["x": hole.x * Double($0 * $0) / 16, "y": y, "t": 10.0 * Double($0)]
                },
                "proofOfWork": [
                    "nonce": paysAlone
                        ? work.solveInParts(extraBits: ProofOfWorkChallenge.aloneSurcharge)
                        : work.priceOnlyNonce()
                ],
            ]
            let answered = json(post(service, "/v1/challenges/\(id)/answer", flick))
            #expect(answered["success"] as? Bool == paysAlone, "\(answered)")
            if paysAlone {
                let verified = json(
                    post(
                        service, "/v1/siteverify",
                        ["secret": site.secret, "response": answered["token"] as! String],
                        origin: nil))
                #expect(verified["mode"] as? String == "proof-of-work")
            }
        }
        #expect(log.text.contains("pointer=touch not-passed: "), "\(log.text)")
        #expect(log.text.contains("too quick (0.040 s, at least 0.05 s expected)"))
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
        // However busy the network, 4 bits at most (the 71st puzzle would otherwise take 5):
        // people share it, and each must be able to pay.
        let busier = (42...80).map { price(from: "198.51.100.\($0)") }
        #expect(busier.compactMap { $0 }.max() == 20 && busier.last == 20, "\(busier)")
        #expect(CaptchaDesk.pricingNetwork(of: "2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(CaptchaDesk.pricingNetwork(of: "::ffff:10.1.2.3") == "10.1.2.0/24")
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
        #expect(CaptchaDesk.network(of: "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64")
        #expect(
            CaptchaDesk.network(of: "2001:db8:1:2:ffff:ffff:ffff:ffff")
                == CaptchaDesk.network(of: "2001:0db8:0001:0002::9"))
        #expect(
            CaptchaDesk.network(of: "2001:db8:1:3::1")
                != CaptchaDesk.network(of: "2001:db8:1:2::1"))
        #expect(CaptchaDesk.network(of: "192.0.2.7") == "192.0.2.7")
        // An IPv4 client forwarded as IPv6 is its IPv4 address, not a /64 every one shares.
        #expect(CaptchaDesk.network(of: "::ffff:192.0.2.7") == "192.0.2.7")
        #expect(CaptchaDesk.network(of: "::FFFF:c000:0208") == "192.0.2.8")
        #expect(CaptchaDesk.network(of: "not an address") == "not an address")
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
