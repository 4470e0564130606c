import Foundation
import PuzzleTestSupport
import TactileCore
import TactileHTTP
import TactilePuzzle
import TactilePuzzleSolvers
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// Sites: whose pages get challenges, the sites file and its errors, the demo site, a
/// refusal that names the setting, sites replaced while serving, a secret's rotation.
@Suite struct ServiceSitesTests: ServiceTesting {
    let log = TestLog()
    let backend = MemoryBackend(policy: plumbingPolicy)

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
        #expect(sites.first?.proofOfWorkDifficulty == 22)
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
        // Its form sent before the puzzle is solved says so, not just siteverify's code.
        let unsolved = service.handle(
            HTTPRequest(
                method: "POST", path: "/demo",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Array("name=Ada&email=ada%40example.com&tactile-captcha-response=".utf8)))
        let result = String(decoding: unsolved.body, as: UTF8.self)
        #expect(
            result.contains("solve the puzzle first") && result.contains("missing-input-response"))
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
        let log = TestLog()
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
        let clock = ManualClock(1_800_000_000.0)
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
}
