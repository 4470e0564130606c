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

/// Limits: a client's and a site's, told as 429 with `Retry-After`, and the bounded caches.
@Suite struct ServiceLimitsTests: ServiceTesting {
    let log = TestLog()
    let backend = MemoryBackend(policy: plumbingPolicy)

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
}
