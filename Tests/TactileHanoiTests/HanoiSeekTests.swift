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
            #expect(model.status == "Move 31 of 31 — disk 1 from A to C", "at \(step)")
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
        #expect(
            model.status
                == "Move 18446744073709551615 of 18446744073709551615 — disk 1 from B to C")
        #expect(model.shownPosition == HanoiPosition(disks: 64, pegs: 3, allOn: 2))
    }
}
