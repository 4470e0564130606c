import Foundation
import TactileCore
import TactileCrypto
import TactileHTTP
import TactilePuzzle
import TactilePuzzleDesk
import TactilePuzzleVerifier

/// siteverify, as Turnstile's, and the demo page's own server side that calls it.
extension CaptchaService {
    // MARK: - siteverify

    /// Verifies a token for a site's server, as Turnstile's siteverify does.
    func siteverify(_ request: HTTPRequest) -> HTTPResponse {
        let fields: [String: String]
        if request.header("Content-Type")?.lowercased().hasPrefix(
            "application/x-www-form-urlencoded") == true
        {
            fields = Self.form(request.body)
        } else if let object = Self.object(request.body) {
            fields = object.compactMapValues(\.string)
        } else {
            return verification(["bad-request"])
        }
        return Self.json(200, verify(fields))
    }

    func verify(_ fields: [String: String]) -> [String: JSONValue] {
        func failure(_ codes: [String]) -> [String: JSONValue] {
            metrics.count("tactile_siteverify_total", label: ("result", codes[0]))
            return ["success": false, "error-codes": JSONValue(codes)]
        }
        guard let secret = fields["secret"], !secret.isEmpty else {
            return failure(["missing-input-secret"])
        }
        // Compared in constant time with every site's secret, and with a previous secret
        // until its time runs out (a rotation's overlap).
        var matched: ServiceSite?
        let given = Sodium.sha256(Array(secret.utf8))
        let now = clock()
        for site in sites.sites {
            for accepted in site.acceptedSecrets(at: now)
            where Sodium.constantTimeEquals(given, Sodium.sha256(Array(accepted.utf8))) {
                matched = site
            }
        }
        guard let site = matched else { return failure(["invalid-input-secret"]) }
        guard let token = fields["response"], !token.isEmpty else {
            return failure(["missing-input-response"])
        }
        // Refused before anything is looked up or remembered.
        guard token.utf8.count <= TokenSigner.maximumLength else {
            return failure(["invalid-input-response"])
        }
        let key = fields["idempotency_key"].flatMap { $0.isEmpty ? nil : $0 }
        if let key, key.utf8.count > PuzzleVerifier.maximumIdempotencyKeyLength {
            return failure(["invalid-idempotency-key"])
        }
        let result: Result<TokenClaims, TokenError>
        do {
            // Another site's token is not this one's, and is not spent by asking.
            result = try desk.redeem(token, site: site.sitekey, idempotencyKey: key, now: now)
        } catch {
            return failure(["internal-error"])
        }
        switch result {
        case .success(let claims):
            metrics.count("tactile_siteverify_total", label: ("result", "success"))
            return [
                "success": true, "challenge_ts": JSONValue(UTCTimestamp.string(claims.issuedAt)),
                "hostname": JSONValue(claims.hostname), "action": JSONValue(claims.action),
                "mode": JSONValue(claims.mode.rawValue), "error-codes": [],
            ]
        case .failure(.expired), .failure(.alreadyUsed):
            return failure(["timeout-or-duplicate"])
        case .failure:
            return failure(["invalid-input-response"])
        }
    }

    func verification(_ codes: [String]) -> HTTPResponse {
        metrics.count("tactile_siteverify_total", label: ("result", codes[0]))
        return Self.json(200, ["success": false, "error-codes": JSONValue(codes)])
    }

    // MARK: - Demo

    var demoSite: ServiceSite? { configuration.demoSite }

    /// `GET /`: what this is, for whoever opens the address.
    func homePage() -> HTTPResponse {
        let demo =
            configuration.demoSite == nil
            ? "<p>The demo is off (start with <code>--demo</code> to see one).</p>"
            : "<p><a href=\"/demo\">Try the demo</a>: a sign-up form protected by the captcha.</p>"
        return WebResources.page("home.html", replacing: ["DEMO": demo])
    }

    func demoPage() -> HTTPResponse {
        guard let site = demoSite else { return Self.error(404, "no site") }
        return WebResources.page("demo.html", replacing: ["SITEKEY": site.sitekey])
    }

    /// The demo form's own server side: it verifies the token as a real site would.
    func demoSubmit(_ request: HTTPRequest) -> HTTPResponse {
        guard let site = demoSite else { return Self.error(404, "no site") }
        let form = Self.form(request.body)
        let result = verify([
            "secret": site.secret, "response": form["tactile-captcha-response"] ?? "",
        ])
        let success = result["success"]?.bool == true
        let codes = result["error-codes"]?.array?.compactMap(\.string) ?? []
        let name = Self.escapeHTML(form["name"] ?? "")
        return WebResources.page(
            "demo-result.html",
            replacing: [
                "SUCCESS": success ? "true" : "false",
                "HEADING": success
                    ? "Verified — welcome\(name.isEmpty ? "" : ", \(name)")!" : "Not verified",
                "SUMMARY": success
                    ? "siteverify accepted the token for action “\(Self.escapeHTML(result["action"]?.string ?? ""))” (\(Self.escapeHTML(result["mode"]?.string ?? ""))) on \(Self.escapeHTML(result["hostname"]?.string ?? ""))."
                    : codes == ["missing-input-response"]
                        ? "The form came without a token: solve the puzzle first, then send it."
                        : "siteverify refused the token.",
                "ERRORS": codes.map { "<li><code>\(Self.escapeHTML($0))</code></li>" }.joined(),
            ])
    }
}
