import Foundation
import PuzzleTestSupport
import TactileHTTP
import TactilePuzzleVerifier
import Testing

@testable import TactilePuzzleService

/// A JSON body read back as a dictionary (empty when it is not an object).
func json(_ response: HTTPResponse) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
}

/// `POST path` with `object` as JSON, from a page of `origin` (none: `nil`) at `address`.
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

/// `GET path`, from a page of `origin` (none: `nil`).
func get(_ service: CaptchaService, _ path: String, origin: String? = nil) -> HTTPResponse {
    service.handle(
        HTTPRequest(method: "GET", path: path, headers: origin.map { ["Origin": $0] } ?? [:]))
}

/// A nonce that pays a challenge's price and not the deeper price of the work alone (which
/// would let a drag the rules doubt pass anyway), as the widget's worker first finds it.
func paying(_ price: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) throws
    -> String
{
    let work = ProofOfWorkChallenge(
        salt: try #require(price["salt"] as? String, sourceLocation: sourceLocation),
        difficulty: try #require(price["difficulty"] as? Int, sourceLocation: sourceLocation))
    return work.priceOnlyNonce()
}

/// The lines of `GET /metrics` on the metrics listener.
func metricLines(_ service: CaptchaService) -> [String] {
    String(
        decoding: service.handleMetrics(HTTPRequest(method: "GET", path: "/metrics")).body,
        as: UTF8.self
    ).split(separator: "\n").map(String.init)
}
