import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzle
@_spi(AnswerReveal) import TactilePuzzleDesk
import TactilePuzzleImaging
import TactilePuzzleVerifier
import Testing

/// The round trip in one process as a host's `CaptchaClient`: puzzles cut off the host's
/// loop, a request made while one is cut served with the options of then, verdicts as a
/// service would give them.
@Suite struct LocalCaptchaClientTests {
    /// A host loop: cutting waits in `jobs` until the test lets it finish.
    final class Loop {
        var jobs: [() -> Void] = []
        func finishAll() {
            while !jobs.isEmpty { jobs.removeFirst()() }
        }
    }

    func client(_ loop: Loop, now: Double = 100) -> LocalCaptchaClient {
        LocalCaptchaClient(
            LocalCaptcha(options: PuzzleOptions(width: 640, height: 360), policy: plumbingPolicy),
            background: { work, then in loop.jobs.append { then(work()) } }, clock: { now },
            log: { _ in })
    }

    @Test func aPuzzleThenAHandsDragPassesWithTheHolesPlace() throws {
        let loop = Loop()
        let client = client(loop)
        var shown: [ShownPuzzle] = []
        client.nextPuzzle { shown.append(try! $0.get()) }
        #expect(shown.isEmpty, "cut off the loop, not at once")
        loop.finishAll()
        let puzzle = try #require(shown.first)
        #expect(puzzle.lifetime == plumbingPolicy.puzzleLifetime && puzzle.id == nil)
        let hole = try #require(client.captcha.testingAnswer())
        let end = Point(x: hole.x, y: puzzle.startPosition.y)
        let track = humanTrack(from: puzzle.startPosition, to: end)
        let result = PuzzleResult(
            position: end, areaSize: Size(width: 640, height: 360), offset: nil, elapsedTime: 1,
            dragDistance: 0, track: track, inputMethod: .pointer)
        var verdicts: [PuzzleVerdict] = []
        client.submit(result) { verdicts.append(try! $0.get()) }
        guard case .passed(let snap, let token?, _) = verdicts.first else {
            Issue.record("a hand's drag into the hole: \(verdicts)")
            return
        }
        #expect(snap == hole)
        #expect(try client.captcha.redeem(token, now: 101).get().puzzleID.count == 32)
        #expect(client.passedPicture?.width == 640)
        // Answered once: the same drag again is told the puzzle is gone.
        client.submit(result) { verdicts.append(try! $0.get()) }
        #expect(verdicts.last == .expired)
    }

    /// A request made while a puzzle is being cut gets one cut with the options of then (a
    /// circle asked for after a square); the older request gets nothing.
    @Test func aRequestWhileCuttingIsServedOnceWithTheNewestOptions() throws {
        let loop = Loop()
        let client = client(loop)
        client.captcha.options.shape = .square
        var first: [ShownPuzzle] = []
        var second: [ShownPuzzle] = []
        client.nextPuzzle { first.append(try! $0.get()) }
        client.captcha.options.shape = .circle
        client.nextPuzzle { second.append(try! $0.get()) }
        #expect(loop.jobs.count == 1, "one cut at a time")
        loop.finishAll()
        #expect(first.isEmpty)
        #expect(second.count == 1)
        #expect(second.first?.shape == .circle)
    }

    /// A picture that cannot be read says so, with the reason for whoever looks further, and
    /// is let go: the next puzzle is drawn.
    @Test func anUnreadablePictureIsSaidAndLetGo() throws {
        let loop = Loop()
        let client = client(loop)
        client.captcha.picture = .file("/nonexistent/picture.png")
        var results: [Result<ShownPuzzle, CaptchaClientError>] = []
        client.nextPuzzle { results.append($0) }
        loop.finishAll()
        guard case .failure(let error) = results.first else {
            Issue.record("an unreadable picture gave a puzzle")
            return
        }
        #expect(error.description == "Cannot open the image")
        #expect(error.detail?.contains("/nonexistent/picture.png") == true)
        #expect(error.retryAfter == nil)
        #expect(client.captcha.picture == nil)
        client.nextPuzzle { results.append($0) }
        loop.finishAll()
        #expect((try? results.last?.get()) != nil)
    }

    /// A priced page (as the showcase's is) pays before each check. A drag the rules doubt
    /// (a straight line at a steady 16 ms timer), dropped in the hole, passes as the proof of
    /// work alone when the client pays that price too; a client that pays nothing is refused
    /// (a priced answer must carry its price); a page without a price refuses the drag.
    @Test(arguments: [(true, true), (false, true), (true, false)])
    func aDoubtedDragInTheHolePassesOnlyWithTheAlonePricePaid(priced: Bool, pays: Bool) throws {
        let loop = Loop()
        var policy = VerifierPolicy()
        policy.proofOfWorkDifficulty = priced ? 10 : nil
        var paid: [(Int, Int)] = []
        let client = LocalCaptchaClient(
            LocalCaptcha(options: PuzzleOptions(width: 640, height: 360), policy: policy),
            background: { work, then in loop.jobs.append { then(work()) } },
            solveWork: pays
                ? { salt, difficulty, parts, done in
                    paid.append((difficulty, parts))
                    let work = ProofOfWorkChallenge(
                        salt: salt, difficulty: difficulty, parts: parts)
                    loop.jobs.append {
                        done(work.solveInParts(extraBits: ProofOfWorkChallenge.aloneSurcharge))
                    }
                } : nil,
            clock: { 100 }, log: { _ in })
        var shown: [ShownPuzzle] = []
        client.nextPuzzle { shown.append(try! $0.get()) }
        loop.finishAll()
        let puzzle = try #require(shown.first)
        let hole = try #require(client.captcha.testingAnswer())
        #expect((client.captcha.waitingPrice != nil) == priced)
        let start = puzzle.startPosition
        let end = Point(x: hole.x, y: start.y)
        let track = (0...30).map { step in
            PuzzleTrackPoint(
                x: start.x + (end.x - start.x) * Double(step) / 30, y: start.y,
                time: Double(step) * 0.016)
        }
        let result = PuzzleResult(
            position: end, areaSize: Size(width: 640, height: 360), offset: nil,
            elapsedTime: 0.48, dragDistance: end.x - start.x, track: track, inputMethod: .pointer)
        var verdicts: [PuzzleVerdict] = []
        client.submit(result) { verdicts.append(try! $0.get()) }
        loop.finishAll()
        #expect(paid.count == (priced && pays ? 1 : 0))
        let verdict = try #require(verdicts.first)
        guard priced && pays else {
            #expect(verdict == .notPassed, "\(verdict)")
            return
        }
        guard case .passed(_, let token?, _) = verdict else {
            Issue.record("a doubted drag in the hole, the price paid: \(verdict)")
            return
        }
        #expect(try client.captcha.redeem(token, now: 101).get().mode == .proofOfWork)
    }

}
