import Testing

@testable import TactileHanoi

/// Playback driven by a hand-moved clock: exact state at chosen times.
@Suite struct HanoiPlaybackTimingTests {
    func playback(disks: Int = 3, speed: HanoiSpeed = .movesPerSecond(2)) throws -> HanoiPlayback {
        HanoiPlayback(plan: try HanoiSolver.plan(disks: disks), speed: speed)
    }

    @Test func timeMovesTheSolutionAtTheChosenRate() throws {
        var p = try playback()
        #expect(p.state == .paused)
        p.advance(by: 1)
        #expect(p.completedMoves == 0, "paused playback ignores time")
        p.play()
        p.advance(by: 0.25)
        #expect(p.completedMoves == 0)
        #expect(p.progress == 0.5)
        #expect(p.currentMove == HanoiMove(disk: 1, from: 0, to: 2))
        p.advance(by: 0.75)
        #expect(p.completedMoves == 2)
        #expect(p.progress == 0)
        #expect(p.currentMove == nil)
        #expect(p.position == (try HanoiPosition(state: "CBA", pegCount: 3)))
        p.advance(by: 10)
        #expect(p.state == .finished)
        #expect(p.completedMoves == 7)
        #expect(p.fractionComplete == 1)
    }

    @Test func pauseHoldsAndStepsAreExact() throws {
        var p = try playback()
        p.play()
        p.advance(by: 0.6)  // 1.2 moves
        p.pause()
        // Move 2 lands 0.4 s later (0.8 of a move at 2 a second), then nothing moves.
        #expect(p.isLanding && !p.isPlaying && p.isMoving)
        p.advance(by: 0.3)
        #expect(p.completedMoves == 1)
        #expect(abs(p.progress - 0.8) < 1e-12)
        p.advance(by: 0.15)
        #expect(p.completedMoves == 2 && p.progress == 0 && p.state == .paused)
        #expect(!p.isMoving)
        p.advance(by: 5)
        #expect(p.completedMoves == 2 && p.progress == 0)
        p.stepBackward()  // undoes move 2
        #expect(p.completedMoves == 1 && p.progress == 0)
        // Paused again mid-move, a step back returns the disk to the start of its move.
        p.play()
        p.advance(by: 0.1)
        p.pause()
        p.stepBackward()
        #expect(p.completedMoves == 1 && p.progress == 0 && !p.isMoving)
        p.stepBackward()
        #expect(p.completedMoves == 0)
        p.stepBackward()
        #expect(p.completedMoves == 0, "cannot step before the start")
        p.stepForward()
        p.stepForward()
        #expect(p.completedMoves == 2)
        #expect(p.state == .paused)
    }

    @Test func instantSpeedJumpsToTheEnd() throws {
        var p = try playback(disks: 20, speed: .instant)
        p.play()
        #expect(p.state == .finished)
        #expect(p.position == HanoiPosition(disks: 20, pegs: 3, allOn: 2))
    }

    @Test func speedIsClampedAndNaNIsSafe() throws {
        var p = try playback()
        p.speed = .movesPerSecond(5000)
        #expect(p.speed == .movesPerSecond(1000))
        p.speed = .movesPerSecond(.nan)
        #expect(p.speed == .movesPerSecond(0.5))
        p.play()
        p.advance(by: .nan)
        p.advance(by: -3)
        #expect(p.completedMoves == 0 && p.progress == 0)
    }

    @Test func seekingWorksOnSixtyFourDisks() throws {
        var p = try playback(disks: 64)
        p.seek(to: UInt64.max / 2)  // just before the one move of disk 64
        #expect(p.completedMoves == (UInt64(1) << 63) - 1)
        #expect(p.position.peg(of: 64) == 0)
        p.stepForward()
        #expect(p.position.peg(of: 64) == 2)
        p.seek(toFraction: 0.25)
        #expect(p.completedMoves == UInt64(1) << 62)
        p.seek(toFraction: 1)
        #expect(p.state == .finished)
        p.play()  // from the end, starts over
        #expect(p.completedMoves == 0 && p.state == .playing)
        p.seek(toFraction: .nan)
        #expect(p.completedMoves == 0)
    }

    @Test func restartingMidMoveIsSafe() throws {
        var p = try playback()
        p.play()
        p.advance(by: 0.3)
        #expect(p.currentMove != nil)
        p.seek(to: 0)
        #expect(p.currentMove == nil)
        #expect(p.position == HanoiPosition(disks: 3, pegs: 3, allOn: 0))
        #expect(p.state == .playing)
    }
}
