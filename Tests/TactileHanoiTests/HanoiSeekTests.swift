import TactileCore
import Testing

@testable import TactileHanoi

/// A seek bar's position picks the nearest move, so its end is the solved position and its
/// start the first. Truth: integer rounding of position × moves, and the recursion's last move.
@Suite struct HanoiSeekTests {
    @Test(arguments: [1, 2, 5, 10])
    func everyPositionOfAThousandStepSeekBarPicksTheNearestMove(disks: Int) throws {
        var model = try HanoiModel(disks: disks)
        let total = (1 << disks) - 1
        for step in 0...1000 {
            _ = model.seek(toFraction: Double(step) / 1000)
            // step/1000 × total, rounded half up, in integers.
            let nearest = (2 * step * total + 1000) / 2000
            #expect(model.playback.completedMoves == UInt64(nearest), "at \(step)")
        }
    }

    @Test func theSeekBarsLastStretchShowsTheSolvedPosition() throws {
        var model = try HanoiModel(disks: 5)
        for step in [985, 990, 999, 1000] {
            _ = model.seek(toFraction: Double(step) / 1000)
            #expect(model.status == "Solved: 31 moves, the fewest possible", "at \(step)")
            #expect(model.shownPosition == HanoiPosition(disks: 5, pegs: 3, allOn: 2))
            #expect(model.playback.state == .finished)
        }
        _ = model.seek(toFraction: 0.01)
        #expect(model.status == "Move 0 of 31 — press Start")
    }

    @Test func sixtyFourDisksSeekToTheirEnd() throws {
        var model = try HanoiModel(disks: 64)
        #expect(model.seek(toFraction: 0.9999999) == [.playbackChanged(.paused)])
        #expect(model.seek(toFraction: 1) == [.playbackChanged(.finished)])
        #expect(model.status == "Solved: 18446744073709551615 moves, the fewest possible")
        #expect(model.shownPosition == HanoiPosition(disks: 64, pegs: 3, allOn: 2))
        // One back: the last move but one was disk 2's (disk 1 waits on B for the last).
        _ = model.stepBackward()
        #expect(
            model.status
                == "Move 18446744073709551614 of 18446744073709551615 — disk 2 from A to C")
    }
}
