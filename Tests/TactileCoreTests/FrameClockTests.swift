import TactileCore
import Testing

/// The one clock every component keeps, and the frame times hosts and tests drive them with.
@Suite struct FrameClockTests {
    @Test func itFollowsTheHostNeverBackwardsAndMotionResumesAfterAStall() {
        var clock = FrameClock()
        #expect(clock.advance(to: 10) == 0)
        #expect(clock.now == 10 && clock.motionTime == 10)
        #expect(clock.advance(to: 10.1) == 0.09999999999999964)
        #expect(clock.advance(to: 9) == 0, "an earlier time moves nothing")
        #expect(clock.advance(to: .nan) == 0 && clock.advance(to: .infinity) == 0)
        #expect(clock.now == 10.1)
        #expect(abs(clock.motionTime - 10.1) < 1e-12)
        // A ten-second stall: host time follows, motion adds only a quarter of a second.
        #expect(clock.advance(to: 20.1) == FrameClock.stallLimit)
        #expect(clock.now == 20.1)
        #expect(abs(clock.motionTime - 10.35) < 1e-12)
        // After the stall, steps are whole again.
        #expect(abs(clock.advance(to: 20.2) - 0.1) < 1e-12)
        #expect(abs(clock.motionTime - 10.45) < 1e-12)
        #expect(clock.now == 20.2)
    }

    @Test func pausedMotionStandsStillAndSkipsThePauseWhileHostTimeGoesOn() {
        var clock = FrameClock()
        clock.advance(to: 1)
        clock.advance(to: 1.2)
        clock.pause()
        #expect(clock.isPaused)
        #expect(clock.advance(to: 5) == 0)
        #expect(clock.now == 5, "deadlines still see the time pass")
        clock.resume()
        // The paused seconds are skipped, not caught up.
        #expect(clock.advance(to: 5.1) == 5.1 - 5)
        #expect(abs(clock.motionTime - 1.3) < 1e-12)
        #expect(clock.now == 5.1)
    }

    @Test(arguments: [
        (0.0, 2.0, 60.0, 121), (0.5, 2.5, 60.0, 121), (0, 1.0 / 60 * 59.6, 60, 60), (1, 0, 60, 0),
        (0, 1, 0, 0),
    ])
    func frameTimesAreExactAndNeverPassTheEnd(start: Double, end: Double, rate: Double, count: Int)
    {
        let times = Array(FrameTimes(from: start, to: end, rate: rate))
        #expect(times.count == count)
        #expect(FrameTimes(from: start, to: end, rate: rate).count == count)
        guard let last = times.last else { return }
        #expect(times[0] == start)
        #expect(last <= end + 1e-9)
        // By multiplication: frame k is start + k / rate exactly.
        for (k, t) in times.enumerated() { #expect(t == start + Double(k) / rate) }
    }
}
