import Foundation
import PuzzleTestSupport
import TactileCore
import Testing

@testable import TactilePuzzleVerifier

/// The token's pieces against independent readers: base64url against Foundation's base64
/// (RFC 4648 §5 is §4 with `-_` for `+/` and no padding), claims against Foundation's JSON.
@Suite struct PassTokenEncodingTests {
    /// Foundation's base64, turned into unpadded base64url.
    func reference(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        text = String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    @Test func base64URLAgreesWithFoundation() {
        var random = SystemRandomNumberGenerator()
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect(Base64URL.encode(bytes) == reference(bytes))
            #expect(Base64URL.decode(reference(bytes)) == bytes)
        }
        // RFC 4648 §10's vectors.
        for (plain, encoded) in [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
        ] {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    @Test(arguments: ["Zg==", "Z", "Zm9vY", "Zh", "Zm9", "a+b/", "ab c", "ab\u{0}c", "é"])
    func base64URLRefusesOtherTexts(text: String) {
        // Padding, impossible lengths, non-zero unused bits ("Zh", "Zm9" differ from the
        // canonical "Zg", "Zm8"), and characters outside the alphabet.
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func claimsRoundTripAndReadAsFoundationDoes() throws {
        let claims = TokenClaims(
            puzzleID: String(repeating: "a", count: 32), clientDigest: "0123456789abcdef",
            issuedAt: 1_764_600_000.25, expiresAt: 1_764_600_120.5, nonce: "n", siteKey: "site",
            hostname: "example.com", action: "sign-up/é\"", mode: .proofOfWork)
        let text = claims.json.serialized()
        #expect(TokenClaims(json: text) == claims)
        // Foundation's decoder reads the same claims out of the same text.
        #expect(try JSONDecoder().decode(TokenClaims.self, from: Data(text)) == claims)
        // A missing field, a wrong type or an unknown mode is no claims.
        var object = try #require(JSONValue.parse(text).object)
        object["mode"] = "telepathy"
        #expect(TokenClaims(json: JSONValue.object(object).serialized()) == nil)
        object["mode"] = nil
        #expect(TokenClaims(json: JSONValue.object(object).serialized()) == nil)
        object["mode"] = "slider"
        object["issuedAt"] = "1764600000"
        #expect(TokenClaims(json: JSONValue.object(object).serialized()) == nil)
    }
}
