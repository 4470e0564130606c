import Foundation
import TactileCrypto

/// How a person passed.
public enum VerificationMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// By dragging the piece (mouse, finger or pen).
    case slider
    /// With the keyboard.
    case keyboard
    /// By letting the browser do a proof of work, for people who cannot drag or see.
    case proofOfWork = "proof-of-work"
}

/// What a pass token vouches for.
public struct TokenClaims: Hashable, Sendable, Codable {
    /// The puzzle that was solved.
    public var puzzleID: String
    /// A keyed digest of the client that solved it (16 hexadecimal digits).
    public var clientDigest: String
    /// When the token was issued, seconds since 1970.
    public var issuedAt: Double
    /// When it stops being accepted, seconds since 1970.
    public var expiresAt: Double
    /// A random value that makes every token unique (32 hexadecimal digits).
    public var nonce: String
    /// The site the puzzle was issued for (its site key); empty outside a service.
    public var siteKey: String
    /// The page's host name the puzzle was shown on; empty outside a service.
    public var hostname: String
    /// The action the site named (such as `signup`); empty when none.
    public var action: String
    /// How the person passed.
    public var mode: VerificationMode

    /// Creates claims.
    public init(
        puzzleID: String, clientDigest: String, issuedAt: Double, expiresAt: Double,
        nonce: String, siteKey: String = "", hostname: String = "", action: String = "",
        mode: VerificationMode = .slider
    ) {
        self.puzzleID = puzzleID
        self.clientDigest = clientDigest
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.nonce = nonce
        self.siteKey = siteKey
        self.hostname = hostname
        self.action = action
        self.mode = mode
    }
}

/// Why a token is not accepted.
public enum TokenError: Error, Hashable, Sendable, CustomStringConvertible, Codable {
    /// Not a token at all.
    case malformed
    /// The signature does not match: forged or altered.
    case badSignature
    /// Past its expiry.
    case expired
    /// Issued in the future (a clock or a forgery problem).
    case notYetValid
    /// Redeemed before: tokens are single-use.
    case alreadyUsed

    public var description: String {
        switch self {
        case .malformed: "not a pass token"
        case .badSignature: "the token's signature does not match (forged or altered)"
        case .expired: "the token has expired"
        case .notYetValid: "the token is not valid yet"
        case .alreadyUsed: "the token was already used"
        }
    }
}

/// Signs and checks pass tokens with HMAC-SHA-256.
///
/// A token reads `pt2.<claims>.<mac>`: the claims as JSON in unpadded base64url, and the MAC
/// (64 hexadecimal digits) over everything before its dot, compared in constant time. At
/// most ``maximumLength`` characters.
public struct TokenSigner: Sendable {
    private let key: [UInt8]

    /// The key length in bytes.
    public static let keyLength = 32
    /// The longest token accepted.
    public static let maximumLength = 2048

    /// A new key: 32 bytes from the operating system's secure random source.
    public static func makeKey() -> [UInt8] { Sodium.randomBytes(keyLength) }

    /// Creates a signer; the key must be 32 secret random bytes.
    public init?(key: [UInt8]) {
        guard key.count == Self.keyLength else { return nil }
        self.key = key
    }

    /// A new token for the claims.
    public func sign(_ claims: TokenClaims) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(claims)) ?? Data()
        let body = "pt2." + Base64URL.encode(Array(json))
        return body + "." + Hex.encode(Sodium.hmacSHA256(Array(body.utf8), key: key))
    }

    /// The claims of a genuine, unexpired token (without consuming it).
    public func verify(_ token: String, now: Double) throws(TokenError) -> TokenClaims {
        let fields = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= Self.maximumLength, fields.count == 3, fields[0] == "pt2",
            let tag = Hex.decode(fields[2]), tag.count == 32
        else { throw .malformed }
        let body = token.utf8.dropLast(fields[2].utf8.count + 1)
        guard Sodium.verifyHMACSHA256(tag, message: Array(body), key: key) else {
            throw .badSignature
        }
        guard let json = Base64URL.decode(fields[1]),
            let claims = try? JSONDecoder().decode(TokenClaims.self, from: Data(json)),
            claims.issuedAt.isFinite, claims.expiresAt.isFinite
        else { throw .malformed }
        // A minute of slack for clocks that disagree a little.
        guard now >= claims.issuedAt - 60 else { throw .notYetValid }
        guard now < claims.expiresAt else { throw .expired }
        return claims
    }
}

extension TokenSigner {
    /// The nonce a token claims, read without checking its signature: for naming the
    /// records a redemption touches, never for deciding anything.
    static func unverifiedNonce(_ token: String) -> String? {
        let fields = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= maximumLength, fields.count == 3, fields[0] == "pt2",
            let json = Base64URL.decode(fields[1]),
            let claims = try? JSONDecoder().decode(TokenClaims.self, from: Data(json)),
            Hex.isHex(claims.nonce, count: 32)
        else { return nil }
        return claims.nonce
    }
}

/// Unpadded base64url text (RFC 4648 §5).
enum Base64URL {
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        guard
            text.utf8.allSatisfy({
                $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "=")
            })
        else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
