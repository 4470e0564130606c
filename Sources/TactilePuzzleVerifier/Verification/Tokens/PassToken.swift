import Foundation
import TactileCrypto

/// What a pass token vouches for.
public struct TokenClaims: Hashable, Sendable {
    /// The puzzle that was solved.
    public var puzzleID: String
    /// A digest of the client that solved it (16 hexadecimal digits).
    public var clientDigest: String
    /// When the token was issued, seconds since 1970.
    public var issuedAt: Double
    /// When it stops being accepted, seconds since 1970.
    public var expiresAt: Double
    /// A random value that makes every token unique (32 hexadecimal digits).
    public var nonce: String
}

/// Why a token is not accepted.
public enum TokenError: Error, Hashable, Sendable, CustomStringConvertible {
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
/// A token reads `pt1.<puzzle>.<client>.<issued>.<expires>.<nonce>.<mac>`: ASCII fields
/// separated by dots, times in whole milliseconds, the MAC (64 hexadecimal digits) over
/// everything before its dot, compared in constant time.
public struct TokenSigner: Sendable {
    private let key: [UInt8]

    /// The key length in bytes.
    public static let keyLength = 32

    /// A new key: 32 bytes from the operating system's secure random source.
    public static func makeKey() -> [UInt8] { Sodium.randomBytes(keyLength) }

    /// Creates a signer; the key must be 32 secret random bytes.
    public init?(key: [UInt8]) {
        guard key.count == Self.keyLength else { return nil }
        self.key = key
    }

    /// A new token for the claims.
    public func sign(_ claims: TokenClaims) -> String {
        let body = [
            "pt1", claims.puzzleID, claims.clientDigest, Self.milliseconds(claims.issuedAt),
            Self.milliseconds(claims.expiresAt), claims.nonce,
        ].joined(separator: ".")
        return body + "." + Hex.encode(Sodium.hmacSHA256(Array(body.utf8), key: key))
    }

    /// The claims of a genuine, unexpired token (without consuming it).
    public func verify(_ token: String, now: Double) throws(TokenError) -> TokenClaims {
        let fields = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 256, fields.count == 7, fields[0] == "pt1",
            let tag = Hex.decode(fields[6]), tag.count == 32
        else { throw .malformed }
        let body = token.utf8.dropLast(fields[6].utf8.count + 1)
        guard Sodium.verifyHMACSHA256(tag, message: Array(body), key: key) else {
            throw .badSignature
        }
        guard let issued = Int64(fields[3]), let expires = Int64(fields[4]) else {
            throw .malformed
        }
        let claims = TokenClaims(
            puzzleID: String(fields[1]), clientDigest: String(fields[2]),
            issuedAt: Double(issued) / 1000, expiresAt: Double(expires) / 1000,
            nonce: String(fields[5]))
        // A minute of slack for clocks that disagree a little.
        guard now >= claims.issuedAt - 60 else { throw .notYetValid }
        guard now < claims.expiresAt else { throw .expired }
        return claims
    }

    private static func milliseconds(_ seconds: Double) -> String {
        String(Int64((seconds * 1000).rounded()))
    }
}
