import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import Testing

@testable import TactilePuzzleVerifier

/// Each record reads back what it writes; what earlier releases wrote (with Foundation's
/// coders) is opened in `VerifierStateFormatTests`, from a state they sealed.
@Suite struct RecordJSONTests {
    func agree<T: RecordJSON & Equatable>(_ value: T) throws {
        #expect(T(json: try JSONValue.parse(value.json.serialized())) == value)
    }

    @Test func pendingPuzzles() throws {
        var pending = VerifierState.Pending(
            id: String(repeating: "ab", count: 16), answerX: 321.25, answerY: 40, startX: 0,
            startY: 40, imageWidth: 640, imageHeight: 360, axis: .horizontal,
            client: "0123456789abcdef", issuedAt: 1_764_600_000.125, expiresAt: 1_764_600_120)
        try agree(pending)
        pending.site = SiteBinding(siteKey: "site", hostname: "example.com", action: "sign/up")
        pending.proofOfWork = ProofOfWorkChallenge(salt: "c2FsdA", difficulty: 18)
        pending.axis = .free
        try agree(pending)
        pending.proofOfWork = ProofOfWorkChallenge(salt: "c2FsdA", difficulty: 22, parts: 16)
        try agree(pending)
    }

    /// A price whose parts are not a split it can state (damaged, or written by hand) is no
    /// price: the record fails closed rather than ask for less work.
    @Test func aPriceWithImpossiblePartsIsNoRecord() throws {
        let good = try JSONValue.parse(Array(#"{"salt":"s","difficulty":22,"parts":16}"#.utf8))
        #expect(ProofOfWorkChallenge(json: good)?.parts == 16)
        #expect(
            ProofOfWorkChallenge(
                json: try JSONValue.parse(Array(#"{"salt":"s","difficulty":22}"#.utf8)))?.parts == 1
        )
        for parts in ["12", "0", "-16", "128", "16.5", "\"16\"", "null"] {
            let json = try JSONValue.parse(
                Array(#"{"salt":"s","difficulty":22,"parts":"#.utf8) + Array(parts.utf8) + [
                    UInt8(ascii: "}")
                ])
            #expect(ProofOfWorkChallenge(json: json) == nil, "parts \(parts)")
        }
        // 16 parts of a 4-bit price would leave each part no bit.
        let starved = try JSONValue.parse(Array(#"{"salt":"s","difficulty":4,"parts":16}"#.utf8))
        #expect(ProofOfWorkChallenge(json: starved) == nil)
    }

    @Test func clients() throws {
        try agree(VerifierState.Client())
        try agree(
            VerifierState.Client(
                checks: RecentEvents(times: (0..<300).map { 1_764_600_000 + Double($0) / 3 }),
                requests: RecentEvents(times: [1.5, 2]),
                failures: 3, lockedUntil: 1_764_600_060, lockouts: 2, lastSeen: 1_764_600_001))
    }

    @Test func clientsWithMergedEntries() throws {
        var checks = RecentEvents()
        for k in 0..<200 { checks.record(1_764_600_000 + Double(k * k) / 50) }
        #expect(checks.times.count == RecentEvents.capacity && checks.total == 200)
        try agree(
            VerifierState.Client(
                checks: checks, requests: RecentEvents(times: [3]), failures: 0, lockedUntil: 0,
                lockouts: nil, lastSeen: 1_764_600_800))
        let mismatched = try JSONValue.parse(
            Array(
                #"{"checks":[1,2],"checkCounts":[3],"requests":[],"failures":0,"lockedUntil":0,"lastSeen":0}"#
                    .utf8))
        #expect(VerifierState.Client(json: mismatched) == nil)
        let zero = try JSONValue.parse(
            Array(
                #"{"checks":[1],"checkCounts":[0],"requests":[],"failures":0,"lockedUntil":0,"lastSeen":0}"#
                    .utf8))
        #expect(VerifierState.Client(json: zero) == nil)
    }

    @Test func rememberedVerificationsAndRedemptions() throws {
        let claims = TokenClaims(
            puzzleID: String(repeating: "c", count: 32), clientDigest: "0123456789abcdef",
            issuedAt: 10, expiresAt: 190.5, nonce: String(repeating: "d", count: 32),
            siteKey: "s", hostname: "h", action: "", mode: .keyboard)
        try agree(VerifierState.RememberedVerification(claims: claims, error: nil, until: 190.5))
        for error in [TokenError.malformed, .badSignature, .expired, .notYetValid, .alreadyUsed] {
            try agree(VerifierState.RememberedVerification(claims: nil, error: error, until: 5))
        }
        try agree(VerifierRecords.RedeemedRecord(until: 1_764_600_300))
    }

    @Test func wrongTypesAreNoRecord() throws {
        let client = try JSONValue.parse(
            Array(#"{"checks":["1"],"requests":[],"failures":0,"lockedUntil":0,"lastSeen":0}"#.utf8)
        )
        #expect(VerifierState.Client(json: client) == nil)
        let fraction = try JSONValue.parse(
            Array(#"{"checks":[],"requests":[],"failures":0.5,"lockedUntil":0,"lastSeen":0}"#.utf8))
        #expect(VerifierState.Client(json: fraction) == nil)
        #expect(
            TokenError(json: try JSONValue.parse(Array(#"{"expired":{},"malformed":{}}"#.utf8)))
                == nil)
        #expect(TokenError(json: try JSONValue.parse(Array(#"{"stolen":{}}"#.utf8))) == nil)
    }
}
