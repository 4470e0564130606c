import Foundation
import PuzzleTestSupport
import TactileCore
import TactileCrypto
import TactilePuzzle
import Testing

@testable import TactilePuzzleVerifier

/// The sealed state of a verifier directory keeps its format: a state written by an earlier
/// release (`Fixtures/verifier-state-v1.tpz`, sealed with the secret below) opens to the same
/// state, and what is written now opens again to it.
@Suite struct VerifierStateFormatTests {
    static let secret = [UInt8](repeating: 7, count: 32)
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/verifier-state-v1.tpz").path

    /// A state with every kind of entry: puzzles with and without a site and a price,
    /// clients with merged history and lockouts, redemptions, remembered verifications.
    static func sample() -> VerifierState {
        var state = VerifierState()
        let first = VerifierState.Pending(
            id: String(repeating: "ab", count: 16), answerX: 321.25, answerY: 40, startX: 0,
            startY: 40, imageWidth: 640, imageHeight: 360, axis: .horizontal,
            client: "0123456789abcdef", issuedAt: 1_764_600_000.125, expiresAt: 1_764_600_120)
        var second = first
        second.id = String(repeating: "cd", count: 16)
        second.axis = .free
        second.site = SiteBinding(siteKey: "site", hostname: "example.com", action: "sign/up")
        second.proofOfWork = ProofOfWorkChallenge(salt: "c2FsdA", difficulty: 18)
        state.pending = [first.id: first, second.id: second]
        state.issueOrder = [first.id, String(repeating: "ef", count: 16), second.id]
        var checks = RecentEvents()
        for k in 0..<200 { checks.record(1_764_600_000 + Double(k * k) / 50) }
        state.clients = [
            "0123456789abcdef": VerifierState.Client(
                checks: checks, requests: RecentEvents(times: [1.5, 2]), failures: 3,
                lockedUntil: 1_764_600_060, lockouts: 2, lastSeen: 1_764_600_001),
            "fedcba9876543210": VerifierState.Client(),
        ]
        state.redeemed = [String(repeating: "12", count: 16): 1_764_600_300.5]
        let claims = TokenClaims(
            puzzleID: String(repeating: "c", count: 32), clientDigest: "0123456789abcdef",
            issuedAt: 10, expiresAt: 190.5, nonce: String(repeating: "d", count: 32),
            siteKey: "s", hostname: "h", action: "", mode: .keyboard)
        state.verifications = [
            "a": VerifierState.RememberedVerification(claims: claims, error: nil, until: 190.5),
            "b": VerifierState.RememberedVerification(claims: nil, error: .alreadyUsed, until: 5),
        ]
        return state
    }

    @Test func aStateWrittenByAnEarlierReleaseOpensToTheSameState() throws {
        if ProcessInfo.processInfo.environment["TACTILE_RECORD_FIXTURES"] == "1" {
            try Data(try VerifierSeal.seal(Self.sample(), secret: Self.secret))
                .write(to: URL(fileURLWithPath: Self.fixture))
        }
        let bytes = try #require(FileManager.default.contents(atPath: Self.fixture))
        let state = try VerifierSeal.decodeState(Array(bytes), secret: Self.secret, name: "fixture")
        #expect(state == Self.sample())
    }

    @Test func aStateWrittenNowOpensAgainToItself() throws {
        let sealed = try VerifierSeal.seal(Self.sample(), secret: Self.secret)
        #expect(
            try VerifierSeal.decodeState(sealed, secret: Self.secret, name: "new") == Self.sample())
        #expect(
            try VerifierSeal.decodeState(
                VerifierSeal.seal(VerifierState(), secret: Self.secret), secret: Self.secret,
                name: "empty") == VerifierState())
    }

    @Test func aFieldOfTheWrongTypeIsRefusedThoughAuthentic() throws {
        let body = Array(
            #"{"pending":{},"issueOrder":[],"clients":{},"redeemed":{"x":"soon"},"verifications":{}}"#
                .utf8)
        let tag = Sodium.hmacSHA256(body, key: PuzzleVerifier.derive(Self.secret, purpose: "state"))
        let sealed = Array("TPZSTATE1 \(Hex.encode(tag))\n".utf8) + body
        #expect(throws: VerifierStoreError.self) {
            try VerifierSeal.decodeState(sealed, secret: Self.secret, name: "typed")
        }
    }
}
