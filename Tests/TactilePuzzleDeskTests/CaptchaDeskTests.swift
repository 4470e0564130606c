import Foundation
import PuzzleTestSupport
import Synchronization
import TactileCore
import TactilePuzzle
@_spi(AnswerReveal) import TactilePuzzleDesk
import TactilePuzzleImaging
import TactilePuzzleStores
import TactilePuzzleVerifier
import Testing

/// The captcha's flow written once: the same steps give the same verdicts over a store in
/// memory and over a state directory; the memory of accepted drags, the site's policy and
/// its budget are the desk's, whoever calls it.
@Suite struct CaptchaDeskTests {
    static let none = ChallengeImages(background: [], backgroundType: "", piece: [])

    /// A desk over memory, or over a fresh state directory.
    func desk(onDisk: Bool, policy: VerifierPolicy = plumbingPolicy) throws -> CaptchaDesk {
        let store: any VerifierBackend =
            onDisk
            ? try DirectoryBackend(
                directory: FileManager.default.temporaryDirectory
                    .appendingPathComponent("desk-\(UUID())").path, policy: policy)
            : MemoryBackend(policy: policy)
        return CaptchaDesk(configuration: .init(policy: policy), store: store)
    }

    /// Registers `puzzle` for client "a" (no site, no surcharge).
    func issue(_ puzzle: GeneratedPuzzle, on desk: CaptchaDesk, site: DeskSite? = nil, now: Double)
        throws -> String
    {
        try desk.register(
            puzzle, client: "a", site: site, surcharge: 0, images: Self.none, now: now
        ).get().challenge.id
    }

    /// A hand's drag from the piece's start onto `x`, in background pixels.
    func drag(_ puzzle: GeneratedPuzzle, to x: Double, seed: UInt64 = 1) -> DeskAnswer {
        let end = Point(x: x, y: puzzle.startPosition.y)
        return DeskAnswer(
            position: end, track: humanTrack(from: puzzle.startPosition, to: end, seed: seed))
    }

    @Test(arguments: [false, true])
    func aPassRedeemsOnceAndItsDragCannotPassAgain(onDisk: Bool) throws {
        let desk = try desk(onDisk: onDisk)
        let puzzle = try makePuzzle(seed: 1)
        let answer = drag(puzzle, to: puzzle.holePosition.x)
        let first = try desk.answer(
            answer, to: issue(puzzle, on: desk, now: 10), client: "a", now: 12)
        guard case .passed(let receipt) = first.outcome else {
            Issue.record("a hand's drag into the hole failed: \(first.outcome)")
            return
        }
        #expect(first.siteKey == nil)
        #expect(first.clientDigest != "a", "the log gets a digest, never the name")
        #expect(try desk.redeem(receipt.token, now: 13).get().mode == .slider)
        #expect(try desk.redeem(receipt.token, now: 14) == .failure(.alreadyUsed))
        // The same drag into the same hole of a new puzzle: a replay.
        let again = try desk.answer(
            answer, to: issue(puzzle, on: desk, now: 20), client: "a", now: 22)
        #expect(again.outcome == .failed(.machineLike(.replayed)))
        // Another hand's drag passes.
        let other = try desk.answer(
            drag(puzzle, to: puzzle.holePosition.x, seed: 2), to: issue(puzzle, on: desk, now: 30),
            client: "a", now: 32)
        #expect(other.outcome.isPassed, "\(other.outcome)")
        // Answered once, whatever the verdict.
        let id = try issue(puzzle, on: desk, now: 40)
        _ = try desk.answer(drag(puzzle, to: 5, seed: 3), to: id, client: "a", now: 41)
        #expect(try desk.pendingPuzzle(id: id, now: 42) == nil)
        #expect(
            try desk.answer(
                drag(puzzle, to: puzzle.holePosition.x, seed: 4), to: id, client: "a", now: 43
            )
            .outcome == .failed(.unknownPuzzle))
    }

    /// The same drag sent to eight puzzles at once, by eight clients: over a store in memory
    /// the memory's read, the check and the memory's write are one step, so exactly one of
    /// them finds the drag new.
    @Test func aDragSentManyTimesAtOncePassesOnce() throws {
        let desk = try desk(onDisk: false)
        let puzzle = try makePuzzle(seed: 5)
        let answer = drag(puzzle, to: puzzle.holePosition.x, seed: 5)
        let ids = try (0..<8).map { index in
            try desk.register(
                puzzle, client: "c\(index)", site: nil, surcharge: 0, images: Self.none, now: 10
            ).get().challenge.id
        }
        let passes = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: ids.count) { index in
            let answered = try? desk.answer(answer, to: ids[index], client: "c\(index)", now: 11)
            if answered?.outcome.isPassed == true { passes.withLock { $0 += 1 } }
        }
        #expect(passes.withLock { $0 } == 1)
    }

    /// A puzzle is judged by the policy of the site it was issued for, given by the caller at
    /// the answer, not by the desk's own.
    @Test func anAnswerIsJudgedByItsPuzzlesSite() throws {
        let desk = try desk(onDisk: false)
        var strict = plumbingPolicy
        strict.allowsKeyboard = false
        let site = DeskSite(
            binding: SiteBinding(siteKey: "strict", hostname: "example.com"), policy: strict,
            puzzlesPerMinute: 100)
        let puzzle = try makePuzzle(seed: 2)
        let y = puzzle.startPosition.y
        // Three presses of 4 px from the start, where the piece was left.
        let keys = DeskAnswer(
            position: Point(x: puzzle.startPosition.x + 12, y: y),
            track: [0.0, 0.21, 0.45, 0.62].enumerated().map {
                PuzzleTrackPoint(
                    x: puzzle.startPosition.x + Double($0.offset) * 4, y: y, time: $0.element)
            }, inputMethod: .keyboard)
        let strictID = try issue(puzzle, on: desk, site: site, now: 0)
        let judged = try desk.answer(keys, to: strictID, client: "a", now: 1) {
            $0 == "strict" ? strict : nil
        }
        #expect(judged.siteKey == "strict")
        #expect(judged.outcome == .failed(.keyboardRefused))
        // The same keys for a puzzle of no site: judged on where they left the piece.
        let plain = try desk.answer(keys, to: issue(puzzle, on: desk, now: 2), client: "a", now: 3)
        guard case .failed(.wrongPosition) = plain.outcome else {
            Issue.record("keys for a puzzle of no site: \(plain.outcome)")
            return
        }
    }

    /// A site's budget counts every client; a client over its own limit does not spend it.
    @Test func aSitesBudgetIsForAllItsClientsTogether() throws {
        var policy = plumbingPolicy
        policy.puzzlesPerWindow = 2
        let desk = try desk(onDisk: false, policy: policy)
        let site = DeskSite(
            binding: SiteBinding(siteKey: "small", hostname: "example.com"), policy: policy,
            puzzlesPerMinute: 3)
        let now = 600.0
        func admit(_ client: String) throws -> Result<CaptchaDesk.Price, IssueLimit> {
            let admitted = try desk.admit(client: client, address: nil, site: site, now: now)
            if case .success = admitted {
                _ = try desk.register(
                    try makePuzzle(seed: 3), client: client, site: site, surcharge: 0,
                    images: Self.none, now: now)
            }
            return admitted
        }
        #expect(try admit("a").map(\.surcharge) == .success(0))
        #expect(try admit("a").map(\.surcharge) == .success(0))
        // "a" has had its two: refused for itself, the site's budget untouched.
        #expect(try admit("a") == .failure(IssueLimit(scope: .client, until: now + 60)))
        #expect(try admit("b").map(\.surcharge) == .success(0))
        // The site's third went to "b": a fourth client is refused until the minute ends.
        #expect(try admit("c") == .failure(IssueLimit(scope: .site, until: 660)))
    }

    /// An address is priced by its network: the 31st puzzle of a /24 in an hour costs a bit
    /// more, and the surcharge stops at four bits.
    @Test func aBusyNetworkPaysMoreUpToFourBits() throws {
        var policy = plumbingPolicy
        policy.puzzlesPerWindow = 1000
        let desk = try desk(onDisk: false, policy: policy)
        var surcharges: [Int] = []
        for index in 0..<100 {
            let price = try desk.admit(
                client: "c\(index)", address: "198.51.100.\(index)", site: nil, now: 7200)
            surcharges.append(try price.get().surcharge)
        }
        #expect(surcharges[..<30].allSatisfy { $0 == 0 })
        // Over by 1…8: one bit; by 9…16: two; from 25 over: four.
        let steps: [Int] = [30, 37, 38, 53].map { surcharges[$0] }
        #expect(steps == [1, 1, 2, 3])
        #expect(surcharges[54...].allSatisfy { $0 == CaptchaDesk.mostExtraBits })
        // Another network pays the base price.
        let elsewhere = try desk.admit(client: "d", address: "203.0.113.9", site: nil, now: 7200)
        #expect(try elsewhere.get().surcharge == 0)
    }
}
