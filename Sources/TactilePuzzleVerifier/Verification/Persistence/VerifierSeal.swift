import Foundation
import TactileCore
import TactileCrypto

/// The authenticated forms of a verifier's secret and state, for any store that keeps them
/// as bytes (a directory, Redis).
///
/// - The key (72 bytes): the magic `TPZKEY01`, the 32-byte secret, and the SHA-256 of both,
///   so a damaged key is told from a good one.
/// - The state: a header line `TPZSTATE1 <mac>` and the state as JSON; the MAC is
///   HMAC-SHA-256 under a key derived from the secret, over everything after the header.
///
/// Opening checks everything and fails closed: damage, a state under another key, or a
/// value no verifier writes is an error, never a fresh start.
public enum VerifierSeal {
    static let keyMagic = Array("TPZKEY01".utf8)
    static let stateMagic = "TPZSTATE1"
    /// The length of a sealed key.
    public static let keyLength = 8 + 32 + 32

    /// A new secret, sealed.
    public static func makeKey() -> [UInt8] {
        let secret = Sodium.randomBytes(32)
        return keyMagic + secret + Sodium.sha256(keyMagic + secret)
    }

    /// A fresh, empty verifier's state, sealed under `key`.
    public static func emptyState(key: [UInt8]) throws(VerifierStoreError) -> [UInt8] {
        try seal(VerifierState(), secret: try secret(of: key, name: "the key"))
    }

    /// The verifier a sealed key and state hold.
    ///
    /// - Parameters:
    ///   - key: The sealed key.
    ///   - state: The sealed state.
    ///   - policy: The limits the verifier applies.
    ///   - random: Where the verifier draws puzzle ids and token nonces.
    ///   - names: What messages call the two (file paths, Redis keys).
    public static func open(
        key: [UInt8], state: [UInt8], policy: VerifierPolicy,
        random: some RandomNumberGenerator & Sendable = SecureRandom(),
        names: (key: String, state: String)
    ) throws(VerifierStoreError) -> PuzzleVerifier {
        let secret = try secret(of: key, name: names.key)
        let decoded = try decodeState(state, secret: secret, name: names.state)
        guard
            let verifier = PuzzleVerifier(
                key: secret, policy: policy, state: decoded, random: random)
        else { throw VerifierStoreError("\(names.key) does not hold a 32-byte key") }
        return verifier
    }

    /// The verifier's state, sealed under `key`.
    public static func seal(_ verifier: PuzzleVerifier, key: [UInt8]) throws(VerifierStoreError)
        -> [UInt8]
    {
        try seal(verifier.state, secret: try secret(of: key, name: "the key"))
    }

    static func secret(of bytes: [UInt8], name: String) throws(VerifierStoreError) -> [UInt8] {
        guard bytes.count == keyLength, Array(bytes[0..<8]) == keyMagic else {
            throw VerifierStoreError(
                "\(name) is damaged: not a verifier key (\(bytes.count) bytes)")
        }
        let secret = Array(bytes[8..<40])
        guard Sodium.constantTimeEquals(Sodium.sha256(keyMagic + secret), Array(bytes[40...]))
        else { throw VerifierStoreError("\(name) is damaged: its checksum does not match") }
        return secret
    }

    static func decodeState(_ bytes: [UInt8], secret: [UInt8], name: String)
        throws(VerifierStoreError) -> VerifierState
    {
        let headerLength = stateMagic.utf8.count + 1 + 64 + 1
        guard bytes.count > headerLength,
            String(decoding: bytes[0..<stateMagic.utf8.count + 1], as: UTF8.self)
                == stateMagic + " ",
            bytes[headerLength - 1] == 10,
            let tag = Hex.decode(
                String(decoding: bytes[(headerLength - 65)..<(headerLength - 1)], as: UTF8.self))
        else { throw VerifierStoreError("\(name) is damaged: its header is not TPZSTATE1 <mac>") }
        let body = Array(bytes[headerLength...])
        guard Sodium.verifyHMACSHA256(tag, message: body, key: stateKey(secret)) else {
            throw VerifierStoreError("\(name) failed its authentication check (altered or damaged)")
        }
        let json: JSONValue
        do { json = try JSONValue.parse(body) } catch {
            throw VerifierStoreError("\(name) is authentic but cannot be decoded: \(error)")
        }
        guard let state = VerifierState(json: json) else {
            throw VerifierStoreError(
                "\(name) is authentic but cannot be decoded: a field is missing or of the wrong type"
            )
        }
        if let problem = state.implausibility() {
            throw VerifierStoreError("\(name) holds values no verifier writes: \(problem)")
        }
        return state
    }

    static func seal(_ state: VerifierState, secret: [UInt8]) throws(VerifierStoreError) -> [UInt8]
    {
        let body = state.json.serialized()
        let tag = Sodium.hmacSHA256(body, key: stateKey(secret))
        return Array("\(stateMagic) \(Hex.encode(tag))\n".utf8) + body
    }

    private static func stateKey(_ secret: [UInt8]) -> [UInt8] {
        PuzzleVerifier.derive(secret, purpose: "state")
    }
}
