import Foundation
import PuzzleTestSupport
import TactileCore
import TactileHTTP
import TactilePuzzle
@_spi(AnswerReveal) import TactilePuzzleImaging
import TactilePuzzleSolvers
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

@testable import TactilePuzzleService
@testable import TactilePuzzleStores

/// The site the shared-store tests serve.
let storeSite = ServiceSite(
    sitekey: "site-one-key", secret: "secret-one-0123456789", hostnames: ["example.com"],
    proofOfWorkDifficulty: 16)

/// A person's drag onto the hole of `challenge` (looked up on `backend` at `now`), as the
/// body of its answer, its price paid.
func humanAnswer(
    to challenge: [String: Any], on backend: any VerifierBackend, seed: UInt64,
    now: Double = Date().timeIntervalSince1970,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> [String: Any] {
    let id = try #require(challenge["id"] as? String, sourceLocation: sourceLocation)
    let hole = try #require(
        try backend.withVerifier(.peeking(puzzle: id), now: now) { $0.testingAnswer(id: id) },
        sourceLocation: sourceLocation)
    let start = Point(x: 0, y: Double(challenge["pieceY"] as! Int))
    var random = SeededRandom(seed: seed)
    let track = HumanDrag.track(
        from: start, to: Point(x: hole.x, y: start.y), axis: .horizontal, using: &random)
    var answer: [String: Any] = [
        "x": track.last!.x, "y": start.y,
        "track": track.map { ["x": $0.x, "y": $0.y, "t": $0.time * 1000] },
    ]
    if let price = challenge["proofOfWork"] as? [String: Any] {
        answer["proofOfWork"] = ["nonce": try paying(price, sourceLocation: sourceLocation)]
    }
    return answer
}

/// `GET /v1/challenges/{id}/{file}` (file: background or piece).
func image(_ service: CaptchaService, _ id: String, _ file: String = "background")
    -> HTTPResponse
{
    service.handle(HTTPRequest(method: "GET", path: "/v1/challenges/\(id)/\(file)"))
}

/// A challenge made on `a`, its images fetched and answered on `b` (the hole looked up on
/// `backend` at `now`); the token.
func passOnTheOther(
    _ a: CaptchaService, _ b: CaptchaService, _ backend: any VerifierBackend, seed: UInt64,
    now: Double = Date().timeIntervalSince1970,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
    let challenge = json(post(a, "/v1/challenges", ["sitekey": storeSite.sitekey]))
    let id = try #require(challenge["id"] as? String, sourceLocation: sourceLocation)
    let background = image(b, id)
    #expect(background.status == 200, sourceLocation: sourceLocation)
    #expect(
        background.headers.contains { $0.name == "Content-Type" && $0.value.hasPrefix("image/") },
        sourceLocation: sourceLocation)
    let answer = try humanAnswer(
        to: challenge, on: backend, seed: seed, now: now, sourceLocation: sourceLocation)
    let passed = json(post(b, "/v1/challenges/\(id)/answer", answer))
    // The step that took the puzzle dropped its images from the store and from the checking
    // instance (the maker may keep its own copy until it expires).
    #expect(image(b, id).status == 404, sourceLocation: sourceLocation)
    return try #require(passed["token"] as? String, "\(passed)", sourceLocation: sourceLocation)
}

/// `POST /v1/siteverify` of `token` with the store site's secret (and `key` as its
/// idempotency key), read back.
func verify(_ service: CaptchaService, _ token: String, key: String? = nil) -> [String: Any] {
    var fields = ["secret": storeSite.secret, "response": token]
    fields["idempotency_key"] = key
    return json(post(service, "/v1/siteverify", fields))
}

/// How many of `times` copies of `request`, sent all at once and spread in turn over
/// `services`, were answered `"success":true`.
func successes(of request: HTTPRequest, times: Int, on services: [CaptchaService]) async -> Int {
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
