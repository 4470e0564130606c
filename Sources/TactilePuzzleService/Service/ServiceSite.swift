import Foundation
import TactileCore
import TactileCrypto
import TactilePuzzleStores
import TactilePuzzleVerifier

/// A site that uses the captcha: its public key, its secret, where it may be shown, and its
/// policy.
public struct ServiceSite: Codable, Hashable, Sendable {
    /// The public site key the widget sends.
    public var sitekey: String
    /// The secret the site's server sends to siteverify.
    public var secret: String
    /// The secret before ``secret``, still accepted until ``previousSecretUntil``: a new
    /// secret can then be put in place first here, then on the site's servers.
    public var previousSecret: String?
    /// Until when ``previousSecret`` is accepted, in seconds since 1970 (written in the file
    /// as RFC 3339, such as `2026-12-04T12:00:00Z`).
    public var previousSecretUntil: Double?
    /// The host names of pages allowed to show its puzzles (from `Origin` or `Referer`).
    public var hostnames: [String]
    /// The price of an answer, in bits of expected work: every answer carries 16 nonces of
    /// this many bits less 4 (the widget searches while the person drags; about a second on a
    /// phone at the default ``defaultPrice``), rising with failures, with the volume of the
    /// client's network and with a surge of the site's answers. `nil`: no price, and no
    /// proof-of-work alternative for people who cannot drag.
    public var proofOfWorkDifficulty: Int?
    /// Whether a proof of work alone (4 times the price, no drag) may pass; `nil` or `true`
    /// allows it, for people who cannot drag; `false` refuses such passes.
    public var proofOfWorkAlone: Bool?
    /// Whether keyboard attempts (arrow keys, then Enter) may pass; `nil` or `true` allows
    /// them, `false` refuses them.
    public var keyboard: Bool?
    /// Puzzles one client may ask for per minute on this site; `nil` for the default (30).
    public var puzzlesPerMinute: Int?
    /// Answers one client may give per minute on this site; `nil` for the default (10).
    public var answersPerMinute: Int?
    /// Puzzles the whole site may hand out per minute, to all clients together; `nil` for
    /// the default (``defaultSitePuzzlesPerMinute``). A flood on one site then cannot take
    /// the service from the others.
    public var sitePuzzlesPerMinute: Int?
    /// The drag model's score (0 a person's, 1 a script's) from which this site's drags are
    /// refused; `nil` for the trained threshold, 1 to refuse no drag for its shape (for
    /// tests of a page's plumbing, never for a site people use).
    public var scriptScoreLimit: Double?

    /// The site-wide limit when a site sets none: 30,000 puzzles a minute (500 a second).
    public static let defaultSitePuzzlesPerMinute = 30_000
    /// The price of an answer where a site does not set one, in bits of expected work
    /// (16 nonces of 18 bits): about a second at the median on a phone, measured with the
    /// widget's own hashing (`benchmarks/price`).
    public static let defaultPrice = 22

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case sitekey, secret, hostnames, proofOfWorkDifficulty, puzzlesPerMinute, answersPerMinute
        case sitePuzzlesPerMinute, scriptScoreLimit, proofOfWorkAlone, keyboard
        case previousSecret, previousSecretUntil
    }

    /// Any field name, to find those a site has that are not ours.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The secrets siteverify accepts for this site at `now`.
    func acceptedSecrets(at now: Double) -> [String] {
        guard let previousSecret, let until = previousSecretUntil, now < until else {
            return [secret]
        }
        return [secret, previousSecret]
    }

    /// Creates a site.
    public init(
        sitekey: String, secret: String, hostnames: [String],
        proofOfWorkDifficulty: Int? = ServiceSite.defaultPrice
    ) {
        self.sitekey = sitekey
        self.secret = secret
        self.hostnames = hostnames
        self.proofOfWorkDifficulty = proofOfWorkDifficulty
    }

    public init(from decoder: any Decoder) throws {
        // A misspelt field would otherwise be ignored, and its setting silently not applied.
        let known = Set(CodingKeys.allCases.map(\.stringValue))
        for key in try decoder.container(keyedBy: AnyKey.self).allKeys
        where !known.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: try decoder.container(keyedBy: AnyKey.self),
                debugDescription:
                    "unknown field; the fields are \(CodingKeys.allCases.map(\.stringValue).joined(separator: ", "))"
            )
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sitekey = try container.decode(String.self, forKey: .sitekey)
        secret = try container.decode(String.self, forKey: .secret)
        hostnames = try container.decode([String].self, forKey: .hostnames)
        proofOfWorkDifficulty =
            container.contains(.proofOfWorkDifficulty)
            ? try container.decodeIfPresent(Int.self, forKey: .proofOfWorkDifficulty)
            : Self.defaultPrice
        puzzlesPerMinute = try container.decodeIfPresent(Int.self, forKey: .puzzlesPerMinute)
        answersPerMinute = try container.decodeIfPresent(Int.self, forKey: .answersPerMinute)
        sitePuzzlesPerMinute = try container.decodeIfPresent(
            Int.self, forKey: .sitePuzzlesPerMinute)
        scriptScoreLimit = try container.decodeIfPresent(Double.self, forKey: .scriptScoreLimit)
        proofOfWorkAlone = try container.decodeIfPresent(Bool.self, forKey: .proofOfWorkAlone)
        keyboard = try container.decodeIfPresent(Bool.self, forKey: .keyboard)
        previousSecret = try container.decodeIfPresent(String.self, forKey: .previousSecret)
        if let until = try container.decodeIfPresent(String.self, forKey: .previousSecretUntil) {
            guard let date = ISO8601DateFormatter().date(from: until) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .previousSecretUntil, in: container,
                    debugDescription: "must be a time in RFC 3339, such as 2026-12-04T12:00:00Z")
            }
            previousSecretUntil = date.timeIntervalSince1970
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sitekey, forKey: .sitekey)
        try container.encode(secret, forKey: .secret)
        try container.encode(hostnames, forKey: .hostnames)
        try container.encode(proofOfWorkDifficulty, forKey: .proofOfWorkDifficulty)
        try container.encodeIfPresent(puzzlesPerMinute, forKey: .puzzlesPerMinute)
        try container.encodeIfPresent(answersPerMinute, forKey: .answersPerMinute)
        try container.encodeIfPresent(sitePuzzlesPerMinute, forKey: .sitePuzzlesPerMinute)
        try container.encodeIfPresent(scriptScoreLimit, forKey: .scriptScoreLimit)
        try container.encodeIfPresent(proofOfWorkAlone, forKey: .proofOfWorkAlone)
        try container.encodeIfPresent(keyboard, forKey: .keyboard)
        try container.encodeIfPresent(previousSecret, forKey: .previousSecret)
        try container.encodeIfPresent(
            previousSecretUntil.map {
                ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: $0))
            }, forKey: .previousSecretUntil)
    }

    /// The verifier's policy for this site: `base` with the site's own limits.
    func policy(from base: VerifierPolicy) -> VerifierPolicy {
        var policy = base
        policy.proofOfWorkDifficulty = proofOfWorkDifficulty
        if let puzzlesPerMinute { policy.puzzlesPerWindow = puzzlesPerMinute }
        if let answersPerMinute { policy.checksPerWindow = answersPerMinute }
        if let scriptScoreLimit { policy.trajectory.maximumScriptScore = scriptScoreLimit }
        if let proofOfWorkAlone { policy.allowsProofOfWorkAlone = proofOfWorkAlone }
        if let keyboard { policy.allowsKeyboard = keyboard }
        return policy
    }

    /// The built-in site of `/demo`, with a fresh random key and secret: only its own
    /// pages, on this service, show its puzzles.
    public static func demo() -> ServiceSite {
        ServiceSite(
            sitekey: "demo-" + Hex.encode(Sodium.randomBytes(8)),
            secret: "demo-secret-" + Hex.encode(Sodium.randomBytes(16)),
            hostnames: ["localhost", "127.0.0.1", "::1"])
    }

    /// A development site for this machine, with a fresh random key and secret.
    public static func development() -> ServiceSite {
        ServiceSite(
            sitekey: "dev-" + Hex.encode(Sodium.randomBytes(8)),
            secret: "dev-secret-" + Hex.encode(Sodium.randomBytes(16)),
            hostnames: ["localhost", "127.0.0.1", "::1"])
    }

    /// Reads a sites file: a JSON array of sites, checked.
    ///
    /// - Throws: `ServiceConfigurationError` naming the file and what is wrong.
    public static func load(path: String) throws(ServiceConfigurationError) -> [ServiceSite] {
        let bytes: [UInt8]
        do { bytes = try FileAccess.read(path: path, limit: 1 << 20) } catch {
            throw ServiceConfigurationError("--sites: \(error)")
        }
        let sites: [ServiceSite]
        do {
            sites = try JSONDecoder().decode([ServiceSite].self, from: Data(bytes))
        } catch let error as DecodingError {
            throw ServiceConfigurationError("--sites \(path): \(Self.describe(error))")
        } catch {
            throw ServiceConfigurationError("--sites \(path): \(error)")
        }
        try validate(sites, path: path)
        return sites
    }

    /// What a decoding error says, naming the entry (counted from 1) and the field.
    static func describe(_ error: DecodingError) -> String {
        let shape = #"expected a JSON array of {"sitekey", "secret", "hostnames": […], …}"#
        func place(_ path: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
            var entry: Int?
            var fields: [String] = []
            for step in path + (key.map { [$0] } ?? []) {
                if entry == nil, let index = step.intValue {
                    entry = index + 1
                } else if let index = step.intValue {
                    fields.append("[\(index)]")
                } else {
                    fields.append(step.stringValue)
                }
            }
            let field = fields.isEmpty ? "" : " field \"\(fields.joined(separator: "."))\""
            return entry.map { "entry \($0)\(field)" } ?? "the file"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath)): the field \"\(key.stringValue)\" is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            if context.codingPath.isEmpty { return shape }
            return "\(place(context.codingPath)) must be \(describe(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON; \(shape)" }
            return "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return shape
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [String].Type: "a list of text"
        default: "of another kind"
        }
    }

    static func validate(_ sites: [ServiceSite], path: String) throws(ServiceConfigurationError) {
        guard !sites.isEmpty else { throw ServiceConfigurationError("--sites \(path): no sites") }
        var keys: Set<String> = []
        var secrets: Set<String> = []
        for (index, site) in sites.enumerated() {
            guard (8...128).contains(site.sitekey.utf8.count),
                site.sitekey.allSatisfy(\.isSafeToken)
            else {
                throw ServiceConfigurationError(
                    "--sites \(path): entry \(index + 1) field \"sitekey\" must be 8…128 letters, digits, - or _"
                )
            }
            guard site.secret.utf8.count >= 16 else {
                throw ServiceConfigurationError(
                    "--sites \(path): the secret of \(site.sitekey) must be at least 16 characters")
            }
            guard !site.hostnames.isEmpty, site.hostnames.allSatisfy({ !$0.isEmpty }) else {
                throw ServiceConfigurationError(
                    "--sites \(path): \(site.sitekey) needs at least one host name")
            }
            if let bits = site.proofOfWorkDifficulty, !(8...28).contains(bits) {
                throw ServiceConfigurationError(
                    "--sites \(path): proofOfWorkDifficulty of \(site.sitekey) must be 8…28 bits or null, got \(bits)"
                )
            }
            for (name, value) in [
                ("puzzlesPerMinute", site.puzzlesPerMinute),
                ("answersPerMinute", site.answersPerMinute),
                ("sitePuzzlesPerMinute", site.sitePuzzlesPerMinute),
            ] {
                if let value, !(1...1_000_000).contains(value) {
                    throw ServiceConfigurationError(
                        "--sites \(path): \(name) of \(site.sitekey) must be 1…1000000, got \(value)"
                    )
                }
            }
            if let limit = site.scriptScoreLimit, !(limit > 0 && limit <= 1) {
                throw ServiceConfigurationError(
                    "--sites \(path): scriptScoreLimit of \(site.sitekey) must be above 0 and at most 1, got \(limit)"
                )
            }
            if (site.previousSecret == nil) != (site.previousSecretUntil == nil) {
                throw ServiceConfigurationError(
                    "--sites \(path): \(site.sitekey) needs both previousSecret and previousSecretUntil, or neither"
                )
            }
            if let previous = site.previousSecret, previous.utf8.count < 16 {
                throw ServiceConfigurationError(
                    "--sites \(path): the previousSecret of \(site.sitekey) must be at least 16 characters"
                )
            }
            for secret in [site.secret] + (site.previousSecret.map { [$0] } ?? [])
            where !secrets.insert(secret).inserted {
                throw ServiceConfigurationError(
                    "--sites \(path): a secret of \(site.sitekey) is also another site's (or its own twice); every secret must be one site's"
                )
            }
            guard keys.insert(site.sitekey).inserted else {
                throw ServiceConfigurationError(
                    "--sites \(path): site key \(site.sitekey) appears twice")
            }
        }
    }
}

extension Character {
    fileprivate var isSafeToken: Bool {
        isASCII && (isLetter || isNumber || self == "-" || self == "_")
    }
}
