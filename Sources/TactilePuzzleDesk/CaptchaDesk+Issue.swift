import Foundation
import TactileCore
import TactileCrypto
import TactilePuzzleImaging
import TactilePuzzleStores
import TactilePuzzleVerifier

/// Issuing: a client, its network or the site that asks for too many is refused before the
/// costly part; else the puzzle is priced, cut and registered.
extension CaptchaDesk {
    /// What a puzzle will cost, and what of it a surge of the site's answers adds.
    public struct Price: Hashable, Sendable {
        /// Bits added to the base price of its answer: the network's volume and the surge.
        public var surcharge: Int
        /// The site's surge now (`nil` without a site), for the caller to log a change.
        public var surge: Surge?
    }

    /// A site's answers per minute against its normal, and the bits that adds to its price.
    public struct Surge: Hashable, Sendable {
        /// Bits added (0 when there is no surge).
        public var bits: Int
        /// Answers in the last minute.
        public var answersPerMinute: Double
        /// The site's normal answers per minute.
        public var normal: Double
    }

    /// A registered puzzle: what the client is told, and the puzzle (its images to hand out).
    public struct Issued: Sendable {
        /// What the client is told.
        public var challenge: PuzzleChallenge
        /// The puzzle, whose images the client gets.
        public var puzzle: GeneratedPuzzle
    }

    /// Whether a client may have a puzzle now, and at what price: refused when the client is
    /// limited or locked out, or the site has given out its minute's budget; the client's own
    /// refusals do not spend the site's budget.
    ///
    /// - Parameters:
    ///   - client: Who asks, as limits count it.
    ///   - address: The client's address, whose network's volume is priced
    ///     (``pricingNetwork(of:)``); `nil` for none.
    ///   - site: The site the puzzle is for, or `nil` outside a service.
    ///   - now: The time, seconds since 1970.
    public func admit(client: String, address: String?, site: DeskSite?, now: Double)
        throws(DeskFailure) -> Result<Price, IssueLimit>
    {
        let policy = site?.policy ?? configuration.policy
        // The network is counted under a keyed digest: no store key names an address.
        let network = address.map(Self.pricingNetwork(of:))
        let (limited, networkName) = try withVerifier(
            .inspecting(client: client), policy: policy, now: now
        ) { verifier in
            (
                verifier.issueLimit(for: client, now: now),
                network.map { verifier.digest("network:" + $0) }
            )
        }
        if let until = limited { return .failure(IssueLimit(scope: .client, until: until)) }
        do {
            var surge: Surge?
            if let site {
                let key = site.binding.siteKey
                let sitewide = try store.increment("site-puzzles:\(key)", window: 60, now: now)
                if sitewide.count > site.puzzlesPerMinute {
                    return .failure(IssueLimit(scope: .site, until: sitewide.windowEnds))
                }
                surge = try self.surge(site: key, now: now)
            }
            let volume = try networkName.map { try priceSurcharge(network: $0, now: now) } ?? 0
            return .success(Price(surcharge: volume + (surge?.bits ?? 0), surge: surge))
        } catch {
            throw .storeUnavailable(error)
        }
    }

    /// Cuts a puzzle from one of the photos (varied anew) or a drawn picture, with the
    /// configured options; the hole's place comes from `random`.
    public func cut(using random: inout some RandomNumberGenerator) throws(DeskFailure)
        -> GeneratedPuzzle
    {
        let options = configuration.options
        do {
            let picture =
                try configuration.pictures.randomElement(using: &random).map {
                    PictureVariation.picture(
                        from: $0, width: options.width, height: options.height, using: &random)
                }
                ?? PictureSource.procedural(seed: random.next())
                .picture(width: options.width, height: options.height)
            return try PuzzleGenerator.generate(
                picture: picture, options: options, using: &random)
        } catch {
            throw .cannotMakePuzzle(error)
        }
    }

    /// Registers a cut puzzle for `client`, with `images` kept by the store as the
    /// challenge's until it expires; refused when the client is limited or locked out.
    public func register(
        _ puzzle: GeneratedPuzzle, client: String, site: DeskSite?, surcharge: Int,
        images: ChallengeImages, now: Double
    ) throws(DeskFailure) -> Result<Issued, IssueLimit> {
        let policy = site?.policy ?? configuration.policy
        let registered: Result<PuzzleChallenge, IssueRefusal>
        do {
            registered = try store.register(client: client, now: now, images: images) {
                verifier in
                verifier.policy = policy
                do throws(IssueRefusal) {
                    return .success(
                        try verifier.register(
                            puzzle.facts, client: client, site: site?.binding, now: now,
                            surcharge: surcharge))
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw .storeUnavailable(error)
        }
        return registered.map { Issued(challenge: $0, puzzle: puzzle) }.mapError {
            IssueLimit(scope: .client, until: $0.until)
        }
    }

    // MARK: - Price

    /// Puzzles a network may ask for in an hour at the base price; beyond them, every
    /// ``puzzlesPerExtraBit`` more double the price of an answer, up to ``mostExtraBits``.
    public static let puzzlesAtBasePrice = 30
    /// Puzzles beyond ``puzzlesAtBasePrice`` that add a bit.
    public static let puzzlesPerExtraBit = 8
    /// The most bits a network's volume adds: 16 times the work. A carrier or an office
    /// shares its addresses among many people, whose puzzles alone can fill a network's hour;
    /// each of them must still be able to pay. At the default 22 bits, 26 take a phone about
    /// 22 s at the median and 32 s at the 95th percentile (`benchmarks/price/widget_price.py`),
    /// much of it while the person drags; without a bound the price climbed to 30 bits, longer
    /// than a puzzle lives.
    public static let mostExtraBits = 4

    /// The bits added to the price of an answer for the volume of the client's network
    /// (named by its keyed digest) in the last hour: counted in two hourly windows half an
    /// hour apart, the fuller one counting, so a burst across the hour does not start afresh.
    func priceSurcharge(network: String, now: Double) throws -> Int {
        let counts = try [0.0, 1800].enumerated().map { index, shift in
            try store.increment("price\(index):\(network)", window: 3600, now: now + shift).count
        }
        let over = counts.max()! - Self.puzzlesAtBasePrice
        guard over > 0 else { return 0 }
        return min(
            Self.mostExtraBits, (over + Self.puzzlesPerExtraBit - 1) / Self.puzzlesPerExtraBit)
    }

    /// The network an address is priced by: its IPv4 /24 (an IPv4-mapped IPv6 address mapped
    /// back first) or its IPv6 /64. Offices and carriers share such networks; scripts rent
    /// addresses in them.
    public static func pricingNetwork(of address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let octets = withUnsafeBytes(of: &v4) { Array($0) }
            return "\(octets[0]).\(octets[1]).\(octets[2]).0/24"
        }
        // An IPv4-mapped address is its IPv4 address.
        let client = network(of: address)
        return client != address && inet_pton(AF_INET, client, &v4) == 1
            ? pricingNetwork(of: client) : client
    }

    /// What limits count as one client: an IPv4 address, or an IPv6 address's /64 network
    /// (one subscriber's usual allocation, so a client cannot be a new one per address).
    public static func network(of address: String) -> String {
        var bytes = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else {
            return address
        }
        // An IPv4 address written as IPv6 (as some proxies forward it) is that address: as
        // a /64 it would put every IPv4 client in one bucket.
        let raw = withUnsafeBytes(of: &bytes) { Array($0) }
        if raw.prefix(10).allSatisfy({ $0 == 0 }), raw[10] == 0xFF, raw[11] == 0xFF {
            return raw.suffix(4).map(String.init).joined(separator: ".")
        }
        let words = (0..<4).map {
            String(format: "%x", UInt16(raw[2 * $0]) << 8 | UInt16(raw[2 * $0 + 1]))
        }
        return words.joined(separator: ":") + "::/64"
    }

    // MARK: - Surge

    /// The counters one answer to a puzzle of `site` counts in the store (so every instance
    /// sees the same rate): per minute, and per day in two windows half a day apart.
    static func answerCounters(_ site: String, _ now: Double) -> [(
        name: String, window: Double, at: Double
    )] {
        // The second day window starts half a day later: its clock is shifted.
        [
            ("site-answers:\(site)", 60, now), ("site-answers-day0:\(site)", 86_400, now),
            ("site-answers-day1:\(site)", 86_400, now + 43_200),
        ]
    }

    /// The surge of `site`'s answers now.
    func surge(site: String, now: Double) throws -> Surge {
        let counts = try store.counts([
            ("site-answers:\(site)", 60, now), ("site-answers:\(site)", 60, now - 60),
            ("site-answers-day0:\(site)", 86_400, now),
            ("site-answers-day1:\(site)", 86_400, now + 43_200),
        ])
        let rate = SurgePricing.rate(current: counts[0], previous: counts[1], now: now)
        let normal = SurgePricing.normal(counts: (counts[2], counts[3]), now: now)
        return Surge(
            bits: configuration.surge.bits(rate: rate, normal: normal), answersPerMinute: rate,
            normal: normal)
    }
}
