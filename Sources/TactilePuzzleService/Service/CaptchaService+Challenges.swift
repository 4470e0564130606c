import Foundation
import TactileCore
import TactileCrypto
import TactileHTTP
import TactilePuzzle
import TactilePuzzleDesk
import TactilePuzzleImaging
import TactilePuzzleStores
import TactilePuzzleVerifier

/// Challenges: refused early when a client, its network or the site asks for too many, else
/// made, priced and registered; their two images.
extension CaptchaService {
    func issue(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = Self.object(request.body), let key = body["sitekey"]?.string else {
            return Self.error(400, "expected JSON {\"sitekey\": …, \"action\"?: …}")
        }
        guard let site = sites.byKey[key] else {
            refuseChallenge(
                "the site key \(Self.quoted(key)) is not one of the sites' (check the page's "
                    + "data-sitekey against --sites)", reason: "sitekey", request: request)
            return Self.error(400, "invalid-sitekey")
        }
        let action = body["action"]?.string ?? ""
        guard action.utf8.count <= 64,
            action.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./".contains($0)) })
        else { return Self.error(400, "action must be at most 64 letters, digits or -_./") }
        guard let hostname = pageHostname(request), allows(site, hostname, request) else {
            let page = pageHostname(request).map { "host name \(Self.quoted($0))" }
            refuseChallenge(
                "the page's \(page ?? "origin (none, or opaque)") is not one of site key "
                    + "\(site.sitekey)'s host names (\(site.hostnames.joined(separator: ", ")))",
                reason: "hostname", request: request)
            return Self.error(403, "this page's host name is not one of the site's")
        }
        let client = client(of: request)
        let deskSite = DeskSite(
            binding: SiteBinding(siteKey: key, hostname: hostname, action: action),
            policy: site.policy(from: configuration.policy),
            puzzlesPerMinute: site.sitePuzzlesPerMinute ?? ServiceSite.defaultSitePuzzlesPerMinute)
        let issued: Result<CaptchaDesk.Issued, IssueLimit>
        do {
            // Refused before the costly part: a limited client or site makes no puzzle.
            let early = clock()
            let price = try desk.admit(
                client: client, address: address(of: request), site: deskSite, now: early)
            switch price {
            case .failure(let limit):
                issued = .failure(limit)
            case .success(let price):
                if let surge = price.surge { noteSurge(surge, site: key, now: early) }
                var random = SecureRandom()
                let puzzle = try desk.cut(using: &random)
                let files = PuzzleImageEncoder().encode(puzzle)
                let images = ChallengeImages(
                    background: files.background, backgroundType: files.format.mediaType,
                    piece: files.piece)
                issued = try desk.register(
                    puzzle, client: client, site: deskSite, surcharge: price.surcharge,
                    images: images, now: clock())
            }
        } catch .cannotMakePuzzle(let error) {
            log("\(UTCTimestamp.string(clock())) error: cannot make a puzzle: \(error)")
            return Self.error(500, "internal-error")
        } catch {
            return storeUnavailable(error)
        }
        switch issued {
        case .failure(let limit):
            metrics.count("tactile_rate_limited_total", label: ("scope", limit.scope.rawValue))
            return rateLimited(until: limit.until, now: clock())
        case .success(let issued):
            let challenge = issued.challenge
            metrics.count("tactile_challenges_issued_total", labels: [("site", key)])
            return Self.json(
                201,
                challenge.clientFields(
                    background: "/v1/challenges/\(challenge.id)/background",
                    piece: "/v1/challenges/\(challenge.id)/piece"))
        }
    }

    func image(id: String, kind: String) -> HTTPResponse {
        guard Hex.isHex(id, count: 32) else { return Self.error(404, "no such puzzle") }
        let found: ChallengeImages?
        do { found = try backend.images(id: id, now: clock()) } catch {
            return storeUnavailable(error)
        }
        guard let stored = found else {
            return Self.error(404, "no such puzzle (or it expired)")
        }
        let response = HTTPResponse(
            status: 200, contentType: kind == "background" ? stored.backgroundType : "image/png",
            body: kind == "background" ? stored.background : stored.piece)
        return response.adding("Cache-Control", "no-store")
    }
}
