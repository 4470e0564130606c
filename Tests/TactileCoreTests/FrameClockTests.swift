import TactileCore
import Testing

/// The one clock every component keeps, and the frame times hosts and tests drive them with.
@Suite struct FrameClockTests {
    @Test func itFollowsTheHostNeverBackwardsAndResumesAfterAStall() {
        var clock = FrameClock()
        #expect(clock.advance(to: 10) == 0)
        #expect(clock.now == 10)
        #expect(clock.advance(to: 10.1) == 0.09999999999999964)
        #expect(clock.advance(to: 9) == 0, "an earlier time moves nothing")
        #expect(clock.advance(to: .nan) == 0 && clock.advance(to: .infinity) == 0)
        #expect(abs(clock.now - 10.1) < 1e-12)
        // A ten-second stall adds only a quarter of a second.
        #expect(clock.advance(to: 20.1) == 0.25)
        #expect(abs(clock.now - 10.35) < 1e-12)
        // After the stall, steps are whole again.
        clock.advance(to: 20.2)
        #expect(abs(clock.now - 10.45) < 1e-12)
    }

    @Test func pausedItStandsStillAndSkipsThePause() {
        var clock = FrameClock(maximumStep: .infinity)
        clock.advance(to: 1)
        clock.advance(to: 2)
        clock.pause()
        #expect(clock.isPaused)
        #expect(clock.advance(to: 5) == 0)
        clock.resume()
        // The three paused seconds are skipped, not caught up.
        #expect(clock.advance(to: 5.5) == 0.5)
        #expect(clock.now == 2.5)
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
