import Foundation
import TactileCore
import TactileCrypto
import TactileHTTP
import TactilePuzzle
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
        let policy = site.policy(from: configuration.policy)
        // Refuse before the costly part: a limited client or site makes no puzzle.
        let early = clock()
        let surcharge: Int
        do {
            // The client first: requests it is refused do not use up the site's budget.
            // The network is counted under a keyed digest: no store key names an address.
            let network = Self.pricingNetwork(of: address(of: request))
            let (limited, networkName) = try backend.withVerifier(
                .inspecting(client: client), now: early
            ) { verifier in
                verifier.policy = policy
                return (
                    verifier.issueLimit(for: client, now: early),
                    verifier.digest("network:" + network)
                )
            }
            if let until = limited {
                metrics.count("tactile_rate_limited_total", label: ("scope", "client"))
                return rateLimited(until: until, now: early)
            }
            let sitewide = try backend.increment(
                "site-puzzles:\(key)", window: 60, now: early)
            if sitewide.count
                > site.sitePuzzlesPerMinute ?? ServiceSite.defaultSitePuzzlesPerMinute
            {
                metrics.count("tactile_rate_limited_total", label: ("scope", "site"))
                return rateLimited(until: sitewide.windowEnds, now: early)
            }
            surcharge =
                try priceSurcharge(network: networkName, now: early)
                + surgeBits(site: key, now: early)
        } catch {
            return storeUnavailable(error)
        }
        let puzzle: GeneratedPuzzle
        do { puzzle = try generate() } catch {
            log("\(UTCTimestamp.string(clock())) error: cannot make a puzzle: \(error)")
            return Self.error(500, "internal-error")
        }
        let files = PuzzleImageEncoder().encode(puzzle)
        let images = ChallengeImages(
            background: files.background, backgroundType: files.format.mediaType,
            piece: files.piece)
        let now = clock()
        let registered: Result<PuzzleChallenge, IssueRefusal>
        do {
            registered = try backend.register(client: client, now: now, images: images) {
                verifier in
                verifier.policy = policy
                do throws(IssueRefusal) {
                    return .success(
                        try verifier.register(
                            puzzle, client: client,
                            site: SiteBinding(siteKey: key, hostname: hostname, action: action),
                            now: now, surcharge: surcharge))
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            return storeUnavailable(error)
        }
        switch registered {
        case .failure(let refusal):
            metrics.count("tactile_rate_limited_total", label: ("scope", "client"))
            return rateLimited(until: refusal.until, now: now)
        case .success(let challenge):
            metrics.count("tactile_challenges_issued_total", labels: [("site", key)])
            return Self.json(
                201,
                challenge.clientFields(
                    background: "/v1/challenges/\(challenge.id)/background",
                    piece: "/v1/challenges/\(challenge.id)/piece"))
        }
    }

    /// Puzzles a network may ask for in an hour at the base price; beyond them, every
    /// ``puzzlesPerExtraBit`` more double the price of an answer, up to ``mostExtraBits``.
    static let puzzlesAtBasePrice = 30
    static let puzzlesPerExtraBit = 8
    /// The most bits a network's volume adds: 16 times the work. A carrier or an office
    /// shares its addresses among many people, whose puzzles alone can fill a network's hour;
    /// each of them must still be able to pay. At the default 22 bits, 26 take a phone about
    /// 22 s at the median and 32 s at the 95th percentile (`benchmarks/price/widget_price.py`),
    /// much of it while the person drags; without a bound the price climbed to 30 bits, longer
    /// than a puzzle lives.
    static let mostExtraBits = 4

    /// The bits added to the price of an answer for the volume of the client's network
    /// (``pricingNetwork(of:)``, named by its keyed digest) in the last hour: counted in two
    /// hourly windows half an hour apart, the fuller one counting, so a burst across the hour
    /// does not start afresh.
    func priceSurcharge(network: String, now: Double) throws -> Int {
        let counts = try [0.0, 1800].enumerated().map { index, shift in
            try backend.increment("price\(index):\(network)", window: 3600, now: now + shift).count
        }
        let over = counts.max()! - Self.puzzlesAtBasePrice
        guard over > 0 else { return 0 }
        return min(
            Self.mostExtraBits, (over + Self.puzzlesPerExtraBit - 1) / Self.puzzlesPerExtraBit)
    }

    /// The network an address is priced by: its IPv4 /24 (an IPv4-mapped IPv6 address mapped
    /// back first) or its IPv6 /64. Offices and carriers share such networks; scripts rent
    /// addresses in them.
    static func pricingNetwork(of address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let octets = withUnsafeBytes(of: &v4) { Array($0) }
            return "\(octets[0]).\(octets[1]).\(octets[2]).0/24"
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return "\(bytes[12]).\(bytes[13]).\(bytes[14]).0/24"
        }
        return network(of: address)
    }

    func generate() throws -> GeneratedPuzzle {
        var random = SecureRandom()
        let options = configuration.options
        let picture =
            try configuration.pictures.randomElement(using: &random).map {
                PictureVariation.picture(
                    from: $0, width: options.width, height: options.height, using: &random)
            }
            ?? PictureSource.procedural(seed: random.next())
            .picture(width: options.width, height: options.height)
        return try PuzzleGenerator.generate(picture: picture, options: options, using: &random)
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
