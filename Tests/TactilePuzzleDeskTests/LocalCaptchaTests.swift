import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzle
@_spi(AnswerReveal) import TactilePuzzleDesk
import TactilePuzzleImaging
@_spi(AnswerReveal) import TactilePuzzleVerifier
import TestSupport
import Testing

/// The whole round trip in one process, as the showcase runs it: a puzzle, one check, a
/// lockout, a token redeemed once.
@Suite struct LocalCaptchaTests {
    func attempt(
        _ captcha: LocalCaptcha, _ puzzle: LocalCaptcha.Puzzle, dx: Double = 0, seed: UInt64 = 1
    ) throws -> PuzzleResult {
        let hole = try #require(captcha.testingAnswer())
        let target = Point(x: hole.x + dx, y: puzzle.startPosition.y)
        let track = humanTrack(from: puzzle.startPosition, to: target, seed: seed)
        return PuzzleResult(
            position: track.last!.position,
            areaSize: Size(
                width: Double(puzzle.background.width), height: Double(puzzle.background.height)),
            offset: nil, elapsedTime: 1, dragDistance: 0, track: track, inputMethod: .pointer)
    }

    @Test func aHandDragPassesOnceAndItsTokenRedeemsOnce() throws {
        var captcha = LocalCaptcha(
            options: PuzzleOptions(width: 640, height: 360), policy: plumbingPolicy)
        var random = SeededRandom(seed: 4)
        let puzzle = try captcha.newPuzzle(now: 100, using: &random).get()
        #expect(puzzle.background.width == 640 && puzzle.axis == .horizontal)
        let result = try attempt(captcha, puzzle)
        guard case .passed(let receipt) = captcha.check(result, now: 101) else {
            Issue.record("a hand drag onto the hole did not pass")
            return
        }
        #expect(abs(receipt.holePosition.x - result.position.x) <= 8)
        // Checked once: the same attempt again finds no puzzle, and is told it expired.
        let again = captcha.check(result, now: 102)
        #expect(again == .failed(.unknownPuzzle) && again.verdict(now: 102) == .expired)
        #expect((try? captcha.redeem(receipt.token, now: 103).get()) != nil)
        #expect(captcha.redeem(receipt.token, now: 104) == .failure(.alreadyUsed))
    }

    /// The control says which device made a drag, and the verifier judges the drag by it: a
    /// finger's stroke of an eighth of a second onto the hole, fed to the control as touch
    /// events, passes; the same events from a mouse are too quick for a mouse.
    @Test(arguments: [PointerDevice.touch, .mouse])
    func aQuickStrokeOnTheControlIsJudgedByItsDevice(device: PointerDevice) throws {
        var captcha = LocalCaptcha(
            options: PuzzleOptions(width: 640, height: 360), policy: plumbingPolicy)
        var random = SeededRandom(seed: 4)
        let puzzle = try captcha.newPuzzle(now: 100, using: &random).get()
        let hole = try #require(captcha.testingAnswer())
        let area = Size(
            width: Double(puzzle.background.width), height: Double(puzzle.background.height))
        let piece = Size(width: Double(puzzle.piece.width), height: Double(puzzle.piece.height))
        let layout = PuzzleLayout(viewSize: area, areaSize: area, showsTrack: false)
        var model = try PuzzleModel(
            areaSize: area, pieceSize: piece, holePosition: hole,
            startPosition: puzzle.startPosition, axis: puzzle.axis)
        let grab = puzzle.startPosition + Vector(dx: piece.width / 2, dy: piece.height / 2)
        let travel = hole.x - puzzle.startPosition.x
        // A finger's flick: slow for the first half, then fast, one sample a frame.
        var events: [PuzzleEvent] = []
        for frame in 0...8 {
            let u = Double(frame) / 8
            let progress = u < 0.5 ? 0.4 * u : 0.2 + 1.6 * (u - 0.5)
            let phase: PointerEvent.Phase = frame == 0 ? .began : frame == 8 ? .ended : .moved
            let location = grab + Vector(dx: travel * progress, dy: frame % 3 == 1 ? 1 : 0)
            events +=
                model.handle(
                    PointerEvent(
                        phase, at: location, time: 10 + Double(frame) / 60, device: device),
                    in: layout) ?? []
        }
        guard case .attemptMade(let result)? = events.last else {
            Issue.record("no attempt in \(events)")
            return
        }
        #expect(result.pointerDevice == device)
        let outcome = captcha.check(result, now: 101)
        switch device {
        case .mouse:
            guard case .failed(.machineLike(.tooQuick(let seconds, minimum: 0.2))) = outcome else {
                Issue.record("a mouse's stroke of an eighth of a second: \(outcome)")
                return
            }
            #expect(abs(seconds - 8 / 60.0) < 1e-9)
        default:
            guard case .passed = outcome else {
                Issue.record("a finger's stroke onto the hole did not pass: \(outcome)")
                return
            }
        }
    }

    /// The whole picture comes only after a pass: before, it would give the hole away.
    @Test func theWholePictureComesOnlyWithAPass() throws {
        var captcha = LocalCaptcha(
            options: PuzzleOptions(width: 640, height: 360), policy: plumbingPolicy)
        var random = SeededRandom(seed: 6)
        let missed = try captcha.newPuzzle(now: 100, using: &random).get()
        #expect(captcha.passedPicture == nil)
        _ = captcha.check(try attempt(captcha, missed, dx: 60), now: 101)
        #expect(captcha.passedPicture == nil)

        let puzzle = try captcha.newPuzzle(now: 110, using: &random).get()
        #expect(captcha.passedPicture == nil)
        guard case .passed = captcha.check(try attempt(captcha, puzzle), now: 111) else {
            Issue.record("a hand drag onto the hole did not pass")
            return
        }
        let picture = try #require(captcha.passedPicture)
        #expect(picture.width == 640 && picture.height == 360)
        // The background differs from it where the hole and the decoy were cut, and only a
        // little of the picture is that.
        var different = 0
        for y in 0..<360 {
            for x in 0..<640 where picture[x, y] != puzzle.background[x, y] { different += 1 }
        }
        #expect(different > 96 * 96 / 2, "\(different) pixels differ")
        #expect(different < 640 * 360 / 4, "\(different) pixels differ")
        // The next puzzle takes it back.
        _ = try captcha.newPuzzle(now: 120, using: &random)
        #expect(captcha.passedPicture == nil)
    }

    /// A person who carries the pointer past the end of the slider: the piece stops at the
    /// end, the track (the pointer's) goes on. The check judges where the piece stopped, not
    /// the track's end.
    @Test func aDragCarriedPastTheEndIsJudgedWhereThePieceStopped() throws {
        var captcha = LocalCaptcha(
            options: PuzzleOptions(width: 640, height: 360), policy: plumbingPolicy)
        var random = SeededRandom(seed: 8)
        let puzzle = try captcha.newPuzzle(now: 100, using: &random).get()
        let end = 640.0 - Double(captcha.options.resolvedPieceSide)
        let hole = try #require(captcha.testingAnswer())
        let track = humanTrack(
            from: puzzle.startPosition, to: Point(x: end + 40, y: puzzle.startPosition.y),
            seed: 3)
        let result = PuzzleResult(
            position: Point(x: end, y: puzzle.startPosition.y),
            areaSize: Size(width: 640, height: 360), offset: nil, elapsedTime: 1,
            dragDistance: 0, track: track, inputMethod: .pointer)
        switch captcha.check(result, now: 101) {
        case .passed: #expect(abs(hole.x - end) <= 8, "passed though the hole is not at the end")
        case .failed(.wrongPosition(let off)): #expect(abs(off - abs(hole.x - end)) < 1)
        case let other: Issue.record("judged by the track's end: \(other)")
        }
    }

    @Test func fiveMissesLockTheClientOutUntilTheLockoutEnds() throws {
        var captcha = LocalCaptcha(
            options: PuzzleOptions(width: 640, height: 360), policy: plumbingPolicy)
        var random = SeededRandom(seed: 5)
        var now = 1000.0
        var outcomes: [CheckOutcome] = []
        for k in 0..<5 {
            let puzzle = try captcha.newPuzzle(now: now, using: &random).get()
            outcomes.append(
                captcha.check(try attempt(captcha, puzzle, dx: 60, seed: UInt64(k)), now: now))
            now += 1
        }
        #expect(outcomes.allSatisfy { $0.verdict(now: now) == .notPassed })
        // Locked out: no puzzle until the minute is over, then one again.
        guard case .failure(let refusal) = try captcha.newPuzzle(now: now, using: &random) else {
            Issue.record("a locked-out client got a puzzle")
            return
        }
        #expect(refusal.until == 1004 + captcha.policy.lockoutDuration)
        #expect(captcha.puzzleID == nil)
        let later = try captcha.newPuzzle(now: refusal.until, using: &random)
        #expect((try? later.get()) != nil)
    }

    @Test func theToleranceIsThePolicys() throws {
        var captcha = LocalCaptcha(
            options: PuzzleOptions(width: 640, height: 360), policy: plumbingPolicy)
        captcha.policy.verificationTolerance = 20
        var random = SeededRandom(seed: 6)
        let puzzle = try captcha.newPuzzle(now: 10, using: &random).get()
        // 15 px off passes with a 20 px tolerance (the default 8 would refuse it).
        guard case .passed = captcha.check(try attempt(captcha, puzzle, dx: 15), now: 11) else {
            Issue.record("15 px off was refused under a 20 px tolerance")
            return
        }
    }
}
