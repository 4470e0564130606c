import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TestSupport
import Testing

@testable import TactilePuzzleImaging
@testable import TactilePuzzleVerifier

/// The verifying side: single checks, expiry, tolerance in width fractions, rate limits,
/// lockout, bounded memory and single-use tokens.
@Suite struct PuzzleVerifierTests {
    func attempt(_ puzzle: GeneratedPuzzle, dx: Double = 0, scale: Double = 1, seed: UInt64 = 1)
        -> PuzzleAttempt
    {
        let end = Point(x: (puzzle.holePosition.x + dx) * scale, y: puzzle.holePosition.y * scale)
        let start = Point(x: puzzle.startPosition.x * scale, y: puzzle.startPosition.y * scale)
        return PuzzleAttempt(
            position: end, displayWidth: 640 * scale,
            track: humanTrack(from: start, to: end, seed: seed))
    }

    @Test func trueAnswerPassesOnceOnly() throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 1)
        let challenge = try verifier.register(puzzle, client: "a", now: 1000)
        #expect(challenge.pieceY == Int(puzzle.holePosition.y))
        #expect(challenge.expiresAt == 1120)
        let first = verifier.check(
            id: challenge.id, attempt: attempt(puzzle), client: "a", now: 1010)
        guard case .passed(let receipt) = first else {
            Issue.record("true answer failed: \(first)")
            return
        }
        let token = receipt.token
        #expect(receipt.holePosition == puzzle.holePosition)
        #expect(try verifier.validateToken(token, now: 1011).puzzleID == challenge.id)
        let second = verifier.check(
            id: challenge.id, attempt: attempt(puzzle), client: "a", now: 1012)
        #expect(second == .failed(.unknownPuzzle))
    }

    @Test(arguments: [(-8.0, true), (8.0, true), (8.5, false), (14.0, false), (-14.0, false)])
    func toleranceIsEightPixelsOfSixHundredForty(dx: Double, passes: Bool) throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 2)
        let id = try verifier.register(puzzle, client: "a", now: 0).id
        let outcome = verifier.check(id: id, attempt: attempt(puzzle, dx: dx), client: "a", now: 5)
        if passes {
            expectPassed(outcome, "\(dx) px")
        } else {
            #expect(outcome == .failed(.wrongPosition(pixelsOff: abs(dx))))
        }
    }

    @Test(arguments: [0.5, 0.625, 2.0])
    func scaledDisplaysCompareInBackgroundPixels(scale: Double) throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 3)
        let id = try verifier.register(puzzle, client: "a", now: 0).id
        // 6 px off on the 640-pixel image, however large it was shown.
        let outcome = verifier.check(
            id: id, attempt: attempt(puzzle, dx: 6, scale: scale), client: "a", now: 5)
        expectPassed(outcome, "at scale \(scale)")
        let id2 = try verifier.register(puzzle, client: "a", now: 6).id
        #expect(
            verifier.check(
                id: id2, attempt: attempt(puzzle, dx: 10, scale: scale), client: "a", now: 7
            )
            .verdict(now: 0) == .notPassed)
    }

    /// End puts the piece at the far end of the slider: the picture less the piece, which the
    /// puzzle's record keeps, so no caller has to know how the puzzle was cut; shown at half
    /// size, the end is at half the pixels.
    @Test(arguments: [1.0, 0.5])
    func theFarEdgeComesFromThePuzzlesRecord(scale: Double) throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 4)
        #expect(puzzle.piece.width == PuzzleOptions().resolvedPieceSide)
        let far = Double(640 - puzzle.piece.width)
        let y = puzzle.startPosition.y * scale
        // From the start, End, then two steps back: 8 px short of the far end.
        let keys = [
            PuzzleTrackPoint(x: puzzle.startPosition.x * scale, y: y, time: 0),
            PuzzleTrackPoint(x: far * scale, y: y, time: 0.3),
            PuzzleTrackPoint(x: far * scale - 4, y: y, time: 0.62),
            PuzzleTrackPoint(x: far * scale - 8, y: y, time: 0.8),
        ]
        func check(_ forget: Bool) -> CheckOutcome {
            let id = try! verifier.register(puzzle, client: "a", now: 0).id
            if forget { verifier.state.pending[id]!.pieceSide = nil }
            let attempt = PuzzleAttempt(
                position: Point(x: far * scale - 8, y: y), displayWidth: 640 * scale,
                track: keys, inputMethod: .keyboard)
            return verifier.check(id: id, attempt: attempt, client: "a", now: 5)
        }
        // Judged on where it landed: the hole is elsewhere.
        let off = abs(far - 8 / scale - puzzle.holePosition.x)
        #expect(off > 20)
        #expect(check(false) == .failed(.wrongPosition(pixelsOff: off)))
        // A record written before the side was kept: End's jump is no key's step.
        guard case .failed(.machineLike(.impossibleKeyStep)) = check(true) else {
            return #expect(Bool(false), "a jump to an unknown end passed as a key's step")
        }
    }

    @Test func expiredPuzzlesFail() throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 4)
        let id = try verifier.register(puzzle, client: "a", now: 0).id
        #expect(
            verifier.check(id: id, attempt: attempt(puzzle), client: "a", now: 120)
                == .failed(.expired))
        let id2 = try verifier.register(puzzle, client: "a", now: 200).id
        expectPassed(
            verifier.check(id: id2, attempt: attempt(puzzle), client: "a", now: 319.9),
            "a puzzle failed inside its lifetime")
    }

    @Test func anotherClientCannotUseThePuzzle() throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 5)
        let id = try verifier.register(puzzle, client: "a", now: 0).id
        #expect(
            verifier.check(id: id, attempt: attempt(puzzle), client: "b", now: 1)
                == .failed(.wrongClient))
    }

    @Test func machineLikeTracksFailEvenAtTheRightPlace() throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 6)
        let id = try verifier.register(puzzle, client: "a", now: 0).id
        let end = puzzle.holePosition
        let straight = (0..<3).map { i in
            PuzzleTrackPoint(x: end.x * Double(i) / 2, y: end.y, time: 0.1 * Double(i))
        }
        let outcome = verifier.check(
            id: id, attempt: PuzzleAttempt(position: end, displayWidth: 640, track: straight),
            client: "a", now: 1)
        guard case .failed(.machineLike(.textbookCurve)) = outcome else {
            return #expect(Bool(false), "a straight 3-sample track: \(outcome)")
        }
        let id2 = try verifier.register(puzzle, client: "a", now: 2).id
        #expect(
            verifier.check(
                id: id2, attempt: PuzzleAttempt(position: end, displayWidth: 640, track: []),
                client: "a", now: 3) == .failed(.machineLike(.tooFewSamples(count: 0, minimum: 3)))
        )
    }

    @Test func checksAreRateLimitedPerClient() throws {
        var policy = VerifierPolicy()
        policy.failuresBeforeLockout = 100
        var verifier = makeVerifier(policy: policy)
        let puzzle = try makePuzzle(seed: 7)
        for k in 0..<10 {
            let id = try verifier.register(puzzle, client: "a", now: Double(k))
            _ = verifier.check(id: id.id, attempt: attempt(puzzle), client: "a", now: Double(k))
        }
        let id = try verifier.register(puzzle, client: "a", now: 20).id
        #expect(
            verifier.check(id: id, attempt: attempt(puzzle), client: "a", now: 20)
                == .locked(until: 60))
        #expect(verifier.limit(for: "a", now: 30) == 60)
        // Another client is not affected; the first is free again once the window moves on.
        let other = try verifier.register(puzzle, client: "b", now: 21).id
        expectPassed(
            verifier.check(id: other, attempt: attempt(puzzle), client: "b", now: 21),
            "client b was limited")
        #expect(verifier.limit(for: "a", now: 60.5) == nil)
    }

    @Test func repeatedFailuresLockTheClientOut() throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 8)
        for k in 0..<5 {
            let id = try verifier.register(puzzle, client: "a", now: Double(k))
            #expect(
                verifier.check(
                    id: id.id, attempt: attempt(puzzle, dx: 30), client: "a", now: Double(k))
                    == .failed(.wrongPosition(pixelsOff: 30)))
        }
        let id = try verifier.register(puzzle, client: "b", now: 5)
        _ = id
        #expect(throws: IssueRefusal(until: 64)) {
            try verifier.register(puzzle, client: "a", now: 10)
        }
        #expect(verifier.limit(for: "a", now: 10) == 64)
        let later = try verifier.register(puzzle, client: "a", now: 64).id
        expectPassed(
            verifier.check(id: later, attempt: attempt(puzzle), client: "a", now: 65),
            "still locked after the lockout")
    }

    /// By default no lockout lasts more than a minute, however often a client fails: a
    /// person sharing an address with a script can always wait it out.
    @Test func defaultLockoutsLastAMinute() throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 21)
        var now = 1000.0
        for _ in 0..<8 {
            for _ in 0..<5 {
                let id = try verifier.register(puzzle, client: "a", now: now).id
                _ = verifier.check(id: id, attempt: attempt(puzzle, dx: 30), client: "a", now: now)
            }
            let until = try #require(verifier.limit(for: "a", now: now))
            #expect(until - now == 60)
            now = until
        }
    }

    /// With a longer maximum, lockouts in a row double (60, 120, 240, 480, 960 s, then 960 s
    /// again); a pass starts again from a minute, and so does an hour without any attempt.
    @Test func lockoutsEscalateButNeverBecomePermanent() throws {
        var policy = VerifierPolicy()
        policy.maximumLockoutDuration = 960
        var verifier = makeVerifier(policy: policy)
        let puzzle = try makePuzzle(seed: 21)
        var now = 1000.0
        /// Fails five times in a row from `now`; the lockout's length.
        func lockOut() throws -> Double {
            for _ in 0..<5 {
                let id = try verifier.register(puzzle, client: "a", now: now).id
                _ = verifier.check(id: id, attempt: attempt(puzzle, dx: 30), client: "a", now: now)
            }
            let until = try #require(verifier.limit(for: "a", now: now))
            defer { now = until }
            return until - now
        }
        var lengths: [Double] = []
        for _ in 0..<6 { lengths.append(try lockOut()) }
        #expect(lengths == [60, 120, 240, 480, 960, 960])
        // A pass forgives them.
        let id = try verifier.register(puzzle, client: "a", now: now).id
        expectPassed(verifier.check(id: id, attempt: attempt(puzzle), client: "a", now: now), "")
        #expect(try lockOut() == 60)
        #expect(try lockOut() == 120)
        // So does an hour of quiet after the lockout ends.
        now += 3601
        #expect(try lockOut() == 60)
    }

    @Test func pendingPuzzlesAreBoundedOldestFirst() throws {
        var policy = VerifierPolicy()
        policy.maximumPending = 5
        policy.puzzlesPerWindow = 1000
        var verifier = makeVerifier(policy: policy)
        let puzzle = try makePuzzle(seed: 9)
        let ids = try (0..<8).map { try verifier.register(puzzle, client: "a", now: Double($0)).id }
        #expect(verifier.pendingCount == 5)
        #expect(
            verifier.check(id: ids[2], attempt: attempt(puzzle), client: "a", now: 9)
                == .failed(.unknownPuzzle))
        expectPassed(
            verifier.check(id: ids[3], attempt: attempt(puzzle), client: "a", now: 9),
            "a recent puzzle was evicted")
        // Expired ones are dropped when new ones come.
        _ = try verifier.register(puzzle, client: "a", now: 500)
        #expect(verifier.pendingCount == 1)
    }

    @Test func clientRecordsAreBounded() throws {
        var policy = VerifierPolicy()
        policy.maximumClients = 3
        var verifier = makeVerifier(policy: policy)
        let puzzle = try makePuzzle(seed: 10)
        for k in 0..<10 { _ = try verifier.register(puzzle, client: "c\(k)", now: Double(k)) }
        #expect(verifier.state.clients.count == 3)
        #expect(Set(verifier.state.clients.keys) == ["c7", "c8", "c9"])
    }

    @Test func challengeNeverCarriesTheAnswer() throws {
        var verifier = makeVerifier()
        let puzzle = try makePuzzle(seed: 14, axis: .free)
        let challenge = try verifier.register(puzzle, client: "a", now: 0)
        #expect(challenge.pieceX == nil && challenge.pieceY == nil)
        let fields = Set(challenge.clientFields(background: "b", piece: "p").keys)
        #expect(
            fields == [
                "id", "imageWidth", "imageHeight", "pieceWidth", "pieceHeight", "axis", "shape",
                "expiresAt", "background", "piece",
            ])
    }
}

/// Pass tokens: genuine ones verify; forged, altered, expired or reused ones do not.
@Suite struct PuzzleTokenTests {
    func passToken(_ verifier: inout PuzzleVerifier, now: Double = 100) throws -> String {
        try passedReceipt(&verifier, seed: 21, now: now, checkedAfter: 0).token
    }

    @Test func genuineTokenRedeemsOnceWithinItsLifetime() throws {
        var verifier = makeVerifier()
        let token = try passToken(&verifier)
        let claims = try verifier.validateToken(token, now: 101)
        #expect(claims.expiresAt == 280)
        #expect(claims.clientDigest == verifier.digest("a"))
        #expect(claims.clientDigest.count == 16)
        // Validating does not consume; redeeming does.
        _ = try verifier.validateToken(token, now: 102)
        _ = try verifier.redeemToken(token, now: 103)
        #expect(throws: TokenError.alreadyUsed) { try verifier.redeemToken(token, now: 104) }
        #expect(throws: TokenError.alreadyUsed) { try verifier.validateToken(token, now: 104) }
    }

    @Test func expiredTokenIsRejected() throws {
        var verifier = makeVerifier()
        let token = try passToken(&verifier)
        #expect(throws: TokenError.expired) { try verifier.redeemToken(token, now: 280) }
        _ = try verifier.validateToken(token, now: 279.9)
    }

    @Test func alteredTokensAreRejected() throws {
        var verifier = makeVerifier()
        let token = try passToken(&verifier)
        // Extend the expiry by a day, or claim another site: the MAC no longer matches.
        for (key, value) in [("expiresAt", 86_680.0 as Any), ("siteKey", "other" as Any)] {
            #expect(throws: TokenError.badSignature) {
                try verifier.redeemToken(alteringClaim(of: token, key, to: value), now: 101)
            }
        }
        // Flip one character of the MAC, and of the claims.
        for index in [2, 1] {
            var f = token.split(separator: ".").map(String.init)
            let first = f[index].first!
            f[index] = String(first == "0" ? "1" : "0") + f[index].dropFirst()
            #expect(throws: TokenError.badSignature) {
                try verifier.redeemToken(f.joined(separator: "."), now: 101)
            }
        }
    }

    @Test func forgedTokensAreRejected() throws {
        var verifier = makeVerifier()
        let genuine = try passToken(&verifier)
        // Signed with another key.
        var other = PuzzleVerifier(key: [UInt8](repeating: 1, count: 32), policy: plumbingPolicy)!
        let forged = try passToken(&other)
        #expect(throws: TokenError.badSignature) { try verifier.redeemToken(forged, now: 101) }
        // Made up.
        let fields = genuine.split(separator: ".")
        let madeUp =
            fields.dropLast().joined(separator: ".") + "." + String(repeating: "ab", count: 32)
        #expect(throws: TokenError.badSignature) { try verifier.redeemToken(madeUp, now: 101) }
        for junk in ["", "pt2", "pt2.a.b.c", "pt1" + genuine.dropFirst(3), genuine + "00"] {
            #expect(throws: TokenError.self) { try verifier.redeemToken(junk, now: 101) }
        }
    }
}

/// States found by fuzzing that once trapped or hung the verifier.
@Suite struct PuzzleVerifierStateBoundsTests {
    func pending(_ index: Int, client: String = "c") -> VerifierState.Pending {
        let id = String(repeating: "0", count: 31) + String(index)
        return VerifierState.Pending(
            id: id, answerX: 200, answerY: 40, startX: 4, startY: 40, imageWidth: 640,
            imageHeight: 360, axis: .horizontal, client: client, issuedAt: 1_699_999_990,
            expiresAt: 1_700_000_110)
    }

    @Test func aHugeFailureCountIsImplausibleAndCountingSaturates() throws {
        var state = VerifierState()
        var client = VerifierState.Client()
        client.failures = Int.max
        state.clients["c"] = client
        #expect(state.implausibility() == "a failure count is out of range")
        // Even handed such a state directly, a failed check counts without trapping.
        var verifier = try #require(
            PuzzleVerifier(
                key: [UInt8](repeating: 9, count: 32), policy: VerifierPolicy(), state: state))
        let puzzle = try makePuzzle(seed: 50)
        let id = try verifier.register(puzzle, client: "d", now: 1_700_000_000).id
        _ = verifier.check(
            id: id, attempt: PuzzleAttempt(position: .zero, displayWidth: 640, track: []),
            client: "c", now: 1_700_000_000)
    }

    @Test func puzzlesMissingFromTheIssueOrderAreStillEvicted() throws {
        var state = VerifierState()
        for k in 0..<3 { state.pending[pending(k).id] = pending(k) }
        #expect(state.implausibility() == "a pending puzzle is missing from the issue order")
        var policy = VerifierPolicy()
        policy.maximumPending = 2
        var verifier = try #require(
            PuzzleVerifier(key: [UInt8](repeating: 9, count: 32), policy: policy, state: state))
        let puzzle = try makePuzzle(seed: 51)
        _ = try verifier.register(puzzle, client: "e", now: 1_700_000_000)
        #expect(verifier.pendingCount == 2)
    }
}

/// What a service needs of the verifier: tokens bound to a site, the proof-of-work
/// alternative, and verifications that can be retried.
@Suite struct PuzzleServiceVerifierTests {
    let site = SiteBinding(siteKey: "site-a", hostname: "example.com", action: "signup")

    @Test func tokensCarryTheSiteHostActionAndMode() throws {
        var verifier = makeVerifier()
        let receipt = try passedReceipt(&verifier, seed: 60, site: site)
        let claims = try verifier.redeemToken(receipt.token, now: 102)
        #expect(
            [claims.siteKey, claims.hostname, claims.action] == ["site-a", "example.com", "signup"])
        #expect(claims.mode == .slider)
    }

    /// A drag the rules doubt is priced rather than refused: dropped in the hole, it passes
    /// when its nonce pays what the proof of work alone costs, and its token says
    /// `proof-of-work` (a site that refuses those refuses it). The price of a drag alone, a
    /// wrong drop, or a site without the alternative: refused as before.
    @Test func aDoubtedDragPassesWhenItPaysThePriceOfTheWorkAlone() throws {
        var policy = VerifierPolicy()
        policy.proofOfWorkDifficulty = 6
        let puzzle = try makePuzzle(seed: 63)
        // Two samples: too little to judge.
        let doubted = [
            PuzzleTrackPoint(x: puzzle.startPosition.x, y: puzzle.startPosition.y, time: 0),
            PuzzleTrackPoint(x: puzzle.holePosition.x, y: puzzle.holePosition.y, time: 0.8),
        ]
        func check(
            _ verifier: inout PuzzleVerifier, dx: Double = 0, extraBits: Int, now: Double
        ) throws -> CheckOutcome {
            let challenge = try verifier.register(puzzle, client: "a", site: site, now: now)
            let work = try #require(challenge.proofOfWork)
            let nonce =
                extraBits == 0 ? work.priceOnlyNonce() : work.solve(extraBits: extraBits)
            let position = Point(x: puzzle.holePosition.x + dx, y: puzzle.holePosition.y)
            return verifier.check(
                id: challenge.id,
                attempt: PuzzleAttempt(
                    position: position, displayWidth: 640, track: doubted,
                    proofOfWorkNonce: nonce),
                client: "a", now: now + 1)
        }
        var verifier = makeVerifier(policy: policy)
        let priced = try check(&verifier, extraBits: ProofOfWorkChallenge.aloneSurcharge, now: 100)
        guard case .passed(let receipt) = priced else {
            Issue.record("a doubted drag that paid more was refused: \(priced)")
            return
        }
        #expect(receipt.mode == .proofOfWork)
        #expect(try verifier.redeemToken(receipt.token, now: 110).mode == .proofOfWork)
        let cheap = try check(&verifier, extraBits: 0, now: 200)
        guard case .failed(.machineLike) = cheap else {
            Issue.record("a doubted drag that paid the drag's price passed: \(cheap)")
            return
        }
        let wrong = try check(
            &verifier, dx: 40, extraBits: ProofOfWorkChallenge.aloneSurcharge, now: 300)
        if case .passed = wrong { Issue.record("a doubted drag off the hole passed") }
        policy.allowsProofOfWorkAlone = false
        var strict = makeVerifier(policy: policy)
        let refused = try check(&strict, extraBits: ProofOfWorkChallenge.aloneSurcharge, now: 100)
        guard case .failed(.machineLike) = refused else {
            Issue.record("a site without the work alone passed a doubted drag: \(refused)")
            return
        }
    }

    /// A client that keeps failing is not locked out for longer but pays more: a bit per
    /// failure in a row, counting through lockouts, up to 8; an hour of quiet forgives it.
    @Test func thePriceKeepsRisingThroughLockoutsAndFallsAfterQuiet() throws {
        var policy = VerifierPolicy()
        policy.proofOfWorkDifficulty = 8
        var verifier = makeVerifier(policy: policy)
        let puzzle = try makePuzzle(seed: 62)
        var now = 1000.0
        var prices: [Int] = []
        for _ in 0..<12 {
            if let until = verifier.limit(for: "a", now: now) { now = until }
            let challenge = try verifier.register(puzzle, client: "a", site: site, now: now)
            prices.append(try #require(challenge.proofOfWork).difficulty)
            _ = verifier.check(
                id: challenge.id,
                attempt: PuzzleAttempt(position: .zero, displayWidth: 640, track: []),
                client: "a", now: now)
        }
        #expect(prices == [8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16])
        now += 3601 + 60
        let rested = try verifier.register(puzzle, client: "a", site: site, now: now)
        #expect(rested.proofOfWork?.difficulty == 8)
    }

    @Test func proofOfWorkPassesOnlyWhereAllowedAndGetsHarderWithFailures() throws {
        var policy = VerifierPolicy()
        policy.proofOfWorkDifficulty = 8
        var verifier = makeVerifier(policy: policy)
        let puzzle = try makePuzzle(seed: 61)
        let challenge = try verifier.register(puzzle, client: "a", site: site, now: 100)
        let work = try #require(challenge.proofOfWork)
        #expect(work.difficulty == 8)
        // A wrong nonce fails and counts; the next challenge asks for one more bit.
        var wrong = 0
        while work.isSolved(by: String(wrong), extraBits: ProofOfWorkChallenge.aloneSurcharge) {
            wrong += 1
        }
        let failed = verifier.check(
            id: challenge.id,
            attempt: PuzzleAttempt(
                position: .zero, displayWidth: 640, track: [], proofOfWorkNonce: String(wrong)),
            client: "a", now: 101)
        #expect(failed == .failed(.proofOfWorkUnsolved))
        let next = try verifier.register(puzzle, client: "a", site: site, now: 102)
        let harder = try #require(next.proofOfWork)
        #expect(harder.difficulty == 9)
        let passed = verifier.check(
            id: next.id,
            attempt: PuzzleAttempt(
                position: .zero, displayWidth: 640, track: [],
                proofOfWorkNonce: harder.solve(extraBits: ProofOfWorkChallenge.aloneSurcharge)),
            client: "a", now: 103)
        guard case .passed(let receipt) = passed else {
            Issue.record("\(passed)")
            return
        }
        #expect(try verifier.redeemToken(receipt.token, now: 104).mode == .proofOfWork)
        // Without the site's consent, a proof of work is refused.
        var strict = makeVerifier()
        let plain = try strict.register(puzzle, client: "a", site: site, now: 100)
        #expect(plain.proofOfWork == nil)
        #expect(
            strict.check(
                id: plain.id,
                attempt: PuzzleAttempt(
                    position: .zero, displayWidth: 640, track: [], proofOfWorkNonce: "1"),
                client: "a", now: 101) == .failed(.proofOfWorkRefused))
    }

    @Test func aPricedPuzzlesDragPassesOnlyWithItsPrice() throws {
        var policy = plumbingPolicy
        policy.proofOfWorkDifficulty = 8
        var verifier = makeVerifier(policy: policy)
        let puzzle = try makePuzzle(seed: 62)
        func drag(_ nonce: String?) -> PuzzleAttempt {
            PuzzleAttempt(
                position: puzzle.holePosition, displayWidth: 640,
                track: humanTrack(from: puzzle.startPosition, to: puzzle.holePosition),
                proofOfWorkNonce: nonce)
        }
        let unpaid = try verifier.register(puzzle, client: "a", site: site, now: 100)
        #expect(
            verifier.check(id: unpaid.id, attempt: drag(nil), client: "a", now: 101)
                == .failed(.proofOfWorkUnsolved))
        let paid = try verifier.register(puzzle, client: "b", site: site, now: 102)
        let work = try #require(paid.proofOfWork)
        guard
            case .passed(let receipt) = verifier.check(
                id: paid.id, attempt: drag(work.solve()), client: "b", now: 103)
        else { return #expect(Bool(false)) }
        #expect(try verifier.redeemToken(receipt.token, now: 104).mode == .slider)
        // The price of the drag is not enough alone: that needs 4 bits more.
        let alone = try verifier.register(puzzle, client: "c", site: site, now: 105)
        let base = try #require(alone.proofOfWork)
        var cheap = 0
        while !base.isSolved(by: String(cheap))
            || base.isSolved(by: String(cheap), extraBits: ProofOfWorkChallenge.aloneSurcharge)
        {
            cheap += 1
        }
        #expect(
            verifier.check(
                id: alone.id,
                attempt: PuzzleAttempt(
                    position: .zero, displayWidth: 640, track: [], proofOfWorkNonce: String(cheap)),
                client: "c", now: 106) == .failed(.proofOfWorkUnsolved))
        // A busy network's surcharge raises the price; a site may refuse the work alone.
        let busy = try verifier.register(puzzle, client: "d", site: site, now: 107, surcharge: 3)
        #expect(busy.proofOfWork?.difficulty == 11)
        verifier.policy.allowsProofOfWorkAlone = false
        let refused = try verifier.register(puzzle, client: "e", site: site, now: 108)
        let hard = try #require(refused.proofOfWork)
        #expect(
            verifier.check(
                id: refused.id,
                attempt: PuzzleAttempt(
                    position: .zero, displayWidth: 640, track: [],
                    proofOfWorkNonce: hard.solve(extraBits: ProofOfWorkChallenge.aloneSurcharge)),
                client: "e", now: 109) == .failed(.proofOfWorkRefused))
    }

    @Test func aRetriedVerificationWithItsKeyGetsTheSameAnswer() throws {
        var verifier = makeVerifier()
        let receipt = try passedReceipt(&verifier, seed: 62, site: site)
        let first = try verifier.redeemToken(receipt.token, now: 102, idempotencyKey: "k1")
        #expect(try verifier.redeemToken(receipt.token, now: 103, idempotencyKey: "k1") == first)
        #expect(throws: TokenError.alreadyUsed) {
            try verifier.redeemToken(receipt.token, now: 103, idempotencyKey: "k2")
        }
        #expect(throws: TokenError.alreadyUsed) {
            try verifier.redeemToken(receipt.token, now: 103)
        }
    }
}
