import Foundation
import PuzzleTestSupport
import TactileHTTP
import TactilePuzzleVerifier
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// Which answers a page of another origin may read: a challenge, an answer's verdict and a
/// wait, for a page of a site's own host names; the images and the widget, for any page;
/// nothing else (a refused request, siteverify).
@Suite struct CrossOriginTests {
    let site = ServiceSite(
        sitekey: "site-one-key", secret: "secret-one-0123456789", hostnames: ["example.com"],
        proofOfWorkDifficulty: 16)

    func service(puzzlesPerMinute: Int? = nil) -> CaptchaService {
        var site = site
        site.puzzlesPerMinute = puzzlesPerMinute
        return CaptchaService(
            configuration: .init(sites: [site], policy: plumbingPolicy),
            backend: MemoryBackend(policy: plumbingPolicy), log: { _ in })
    }

    /// The response's cross-origin headers (and `Vary`), by name.
    func shared(_ response: HTTPResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for header in response.headers
        where header.name.hasPrefix("Access-Control-") || header.name == "Vary" {
            headers[header.name] = header.value
        }
        return headers
    }

    let sitePage = [
        "Access-Control-Allow-Origin": "https://example.com", "Vary": "Origin",
        "Access-Control-Expose-Headers": "Retry-After, Date",
    ]
    let anyPage = ["Access-Control-Allow-Origin": "*"]

    @Test func aChallengeAndItsVerdictAreSharedWithTheSitesPagesOnly() throws {
        let service = service()
        let made = post(service, "/v1/challenges", ["sitekey": site.sitekey])
        #expect(made.status == 201)
        #expect(shared(made) == sitePage)
        let id = try #require(json(made)["id"] as? String)
        let answered = post(service, "/v1/challenges/\(id)/answer", ["x": 1, "y": 1, "track": []])
        #expect(answered.status == 200)
        #expect(shared(answered) == sitePage)
        // A page named only by its Referer gets its challenge, but nothing to share it with.
        let viaReferer = post(
            service, "/v1/challenges", ["sitekey": site.sitekey], origin: nil,
            headers: ["Referer": "https://example.com/signup"])
        #expect(viaReferer.status == 201)
        #expect(shared(viaReferer) == [:])
        // Refused requests are not shared: an unknown key, another page, a bad body or id.
        let refused = [
            post(service, "/v1/challenges", ["sitekey": "nope"]),
            post(service, "/v1/challenges", ["sitekey": site.sitekey], origin: "https://evil.test"),
            post(service, "/v1/challenges/\(id)/answer", ["x": "one"]),
            post(service, "/v1/challenges/not-an-id/answer", ["x": 1]),
        ]
        #expect(refused.map(\.status) == [400, 403, 400, 404])
        #expect(refused.map(shared) == [[:], [:], [:], [:]])
        // Server to server: siteverify shares nothing, whoever asks.
        let verified = post(service, "/v1/siteverify", ["secret": site.secret, "response": "x"])
        #expect(verified.status == 200)
        #expect(shared(verified) == [:])
    }

    @Test func aWaitIsSharedWithTheSitesPagesWithItsRetryAfter() {
        let service = service(puzzlesPerMinute: 1)
        #expect(post(service, "/v1/challenges", ["sitekey": site.sitekey]).status == 201)
        let waiting = post(service, "/v1/challenges", ["sitekey": site.sitekey])
        #expect(waiting.status == 429)
        #expect(shared(waiting) == sitePage)
        #expect(waiting.headers.contains { $0.name == "Retry-After" })
        let elsewhere = post(
            service, "/v1/challenges", ["sitekey": site.sitekey], origin: "https://evil.test")
        #expect(elsewhere.status == 403)
        #expect(shared(elsewhere) == [:])
    }

    @Test func theImagesAndTheWidgetAreForAnyPage() throws {
        let service = service()
        let id = try #require(
            json(post(service, "/v1/challenges", ["sitekey": site.sitekey]))["id"] as? String)
        for file in ["background", "piece"] {
            let image = get(service, "/v1/challenges/\(id)/\(file)", origin: "https://evil.test")
            #expect(image.status == 200)
            #expect(shared(image) == anyPage)
        }
        let missing = get(service, "/v1/challenges/\(String(repeating: "0", count: 32))/piece")
        #expect(missing.status == 404)
        #expect(shared(missing) == [:])
        for path in ["/widget.js", "/widget/session.js", "/widget/widget.css"] {
            let file = get(service, path)
            #expect(file.status == 200, "\(path)")
            #expect(shared(file) == anyPage, "\(path)")
        }
        #expect(shared(get(service, "/widget/nope.js")) == [:])
        #expect(shared(get(service, "/healthz", origin: "https://example.com")) == [:])
    }

    @Test(arguments: [
        "/v1/challenges", "/v1/challenges/abc/background", "/v1/challenges/abc/piece",
        "/v1/challenges/abc/answer",
    ])
    func aPreflightIsAnsweredForTheSitesPagesOnly(path: String) {
        let service = service()
        let allowed = service.handle(
            HTTPRequest(method: "OPTIONS", path: path, headers: ["Origin": "https://example.com"]))
        #expect(allowed.status == 204)
        #expect(
            shared(allowed) == [
                "Access-Control-Allow-Origin": "https://example.com", "Vary": "Origin",
                "Access-Control-Allow-Methods": "GET, POST",
                "Access-Control-Allow-Headers": "Content-Type", "Access-Control-Max-Age": "600",
            ])
        let refused = service.handle(
            HTTPRequest(method: "OPTIONS", path: path, headers: ["Origin": "https://evil.test"]))
        #expect(refused.status == 403)
        #expect(shared(refused) == [:])
        // The widget is fetched without a preflight: none is offered.
        let widget = service.handle(
            HTTPRequest(
                method: "OPTIONS", path: "/widget.js", headers: ["Origin": "https://example.com"]))
        #expect(widget.status == 405)
    }
}
