import Foundation
import TactileCore
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

extension TokenClaims {
    /// The claims as a token carries them: a JSON object with the properties' names.
    var json: JSONValue {
        [
            "puzzleID": JSONValue(puzzleID), "clientDigest": JSONValue(clientDigest),
            "issuedAt": JSONValue(issuedAt), "expiresAt": JSONValue(expiresAt),
            "nonce": JSONValue(nonce), "siteKey": JSONValue(siteKey),
            "hostname": JSONValue(hostname), "action": JSONValue(action),
            "mode": JSONValue(mode.rawValue),
        ]
    }

    /// The claims of a token's JSON text; `nil` unless every field is there with its type
    /// and both times are finite.
    init?(json bytes: [UInt8]) {
        guard let object = try? JSONValue.parse(bytes) else { return nil }
        self.init(json: object)
    }

    /// The claims of a JSON object, as ``init(json:)-(_:[UInt8])`` reads them.
    init?(json object: JSONValue) {
        guard let puzzleID = object["puzzleID"]?.string,
            let clientDigest = object["clientDigest"]?.string,
            let issuedAt = object["issuedAt"]?.number, let expiresAt = object["expiresAt"]?.number,
            let nonce = object["nonce"]?.string, let siteKey = object["siteKey"]?.string,
            let hostname = object["hostname"]?.string, let action = object["action"]?.string,
            let mode = object["mode"]?.string.flatMap(VerificationMode.init(rawValue:))
        else { return nil }
        self.init(
            puzzleID: puzzleID, clientDigest: clientDigest, issuedAt: issuedAt,
            expiresAt: expiresAt, nonce: nonce, siteKey: siteKey, hostname: hostname,
            action: action, mode: mode)
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
    private let key: HMACKey

    /// The key length in bytes.
    public static let keyLength = 32
    /// The longest token accepted.
    public static let maximumLength = 2048

    /// A new key: 32 bytes from the operating system's secure random source.
    public static func makeKey() -> [UInt8] { Sodium.randomBytes(keyLength) }

    /// Creates a signer; the key must be 32 secret random bytes.
    public init?(key: [UInt8]) {
        guard key.count == Self.keyLength else { return nil }
        self.key = HMACKey(key)
    }

    /// A new token for the claims.
    public func sign(_ claims: TokenClaims) -> String {
        let body = "pt2." + Base64URL.encode(claims.json.serialized())
        return body + "." + Hex.encode(key.authenticate(Array(body.utf8)))
    }

    /// The claims of a genuine, unexpired token (without consuming it).
    public func verify(_ token: String, now: Double) throws(TokenError) -> TokenClaims {
        guard let fields = Self.fields(token),
            let tag = Hex.decode(String(decoding: fields.tag, as: UTF8.self)), tag.count == 32
        else { throw .malformed }
        guard key.verify(tag, message: Array(fields.body)) else {
            throw .badSignature
        }
        guard let json = Base64URL.decode(digits: fields.claims),
            let claims = TokenClaims(json: json)
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
        guard let fields = fields(token), let json = Base64URL.decode(digits: fields.claims),
            let claims = TokenClaims(json: json), Hex.isHex(claims.nonce, count: 32)
        else { return nil }
        return claims.nonce
    }

    /// A token's parts, `pt2.<claims>.<tag>`, as UTF-8: the signed body (version and
    /// claims), the claims' base64url digits and the tag's hex digits; `nil` for a token
    /// too long or of another shape.
    static func fields(_ token: String) -> (
        body: ArraySlice<UInt8>, claims: ArraySlice<UInt8>, tag: ArraySlice<UInt8>
    )? {
        guard token.utf8.count <= maximumLength else { return nil }
        let bytes = Array(token.utf8)
        let dot = UInt8(ascii: ".")
        let parts = bytes.split(separator: dot, maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].elementsEqual("pt2".utf8) else { return nil }
        return (bytes[..<parts[2].startIndex].dropLast(), parts[1], parts[2])
    }
}

/// Unpadded base64url text (RFC 4648 §5).
enum Base64URL {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's value in the alphabet, or 0xFF.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var group = UInt32(bytes[index]) << 16
            if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
            if count > 2 { group |= UInt32(bytes[index + 2]) }
            for position in 0...count {
                out.append(alphabet[Int((group >> (18 - 6 * UInt32(position))) & 0x3F)])
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of unpadded base64url text; `nil` for any other character, padding, a
    /// length no encoding has, or unused bits that are not zero (so each byte string has
    /// exactly one text).
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(digits: ArraySlice(text.utf8))
    }

    /// The bytes of unpadded base64url digits in UTF-8 (as ``decode(_:)``).
    static func decode(digits: ArraySlice<UInt8>) -> [UInt8]? {
        let digits = Array(digits)
        guard digits.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count * 3 / 4)
        var index = 0
        while index < digits.count {
            let count = min(4, digits.count - index)
            var group: UInt32 = 0
            for position in 0..<4 {
                var value: UInt8 = 0
                if position < count {
                    value = values[Int(digits[index + position])]
                    guard value != 0xFF else { return nil }
                }
                group = group << 6 | UInt32(value)
            }
            let produced = count - 1
            // The bits past the last whole byte must be zero.
            guard group & ((1 << (8 * UInt32(3 - produced))) - 1) == 0 else { return nil }
            for position in 0..<produced {
                out.append(UInt8(truncatingIfNeeded: group >> (16 - 8 * UInt32(position))))
            }
            index += 4
        }
        return out
    }
}
