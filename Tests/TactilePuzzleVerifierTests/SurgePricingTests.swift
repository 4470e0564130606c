import PuzzleTestSupport
import TactilePuzzleVerifier
import Testing

/// The price that follows a surge of a site's answers, against hand-worked values: the
/// threshold, a bit per doubling, the bound, the minute's estimate across window edges, and
/// the normal from the fuller day window.
@Suite struct SurgePricingTests {
    let pricing = SurgePricing()

    @Test(arguments: [
        // A quiet site: the floor (30 a minute) times the threshold (4) is 120.
        (0.0, 0.0, 0), (120, 0, 0), (121, 0, 1), (240, 0, 1), (241, 0, 2), (100_000, 0, 2),
        // A busy site's own normal: 300 a minute makes 1,200 the threshold.
        (1_000, 300, 0), (1_200, 300, 0), (1_201, 300, 1), (2_401, 300, 2),
        // Nonsense measures price nothing extra, and a non-finite normal counts as none.
        (.nan, 0, 0), (.infinity, 0, 0), (121, .infinity, 1),
    ])
    func bitsForARateAgainstTheNormal(rate: Double, normal: Double, bits: Int) {
        #expect(pricing.bits(rate: rate, normal: normal) == bits)
    }

    @Test func theBoundIsTheSites() {
        var pricing = pricing
        pricing.mostBits = 4
        #expect(pricing.bits(rate: 120 * 16 + 1, normal: 0) == 4)
        #expect(pricing.bits(rate: 120 * 8 + 1, normal: 0) == 4)
        #expect(pricing.bits(rate: 120 * 8, normal: 0) == 3)
    }

    @Test func theMinutesRateCountsThePreviousMinutesTail() {
        // A quarter into a minute: all of this minute, three quarters of the last.
        let now = 1_800_000_000.0 - 1_800_000_000.0.truncatingRemainder(dividingBy: 60) + 15
        #expect(SurgePricing.rate(current: 10, previous: 60, now: now) == 55)
        #expect(SurgePricing.rate(current: 0, previous: 60, now: now - 15) == 60)
    }

    @Test func theNormalComesFromTheFullerDayWindow() {
        let midnight = 1_800_000_000.0 - 1_800_000_000.0.truncatingRemainder(dividingBy: 86_400)
        // 18 hours into the day: the day's window has 1,080 minutes, the other 360.
        #expect(SurgePricing.normal(counts: (2_160, 5), now: midnight + 64_800) == 2)
        // 6 hours into the day: the other window (since noon yesterday) has 1,080.
        #expect(SurgePricing.normal(counts: (5, 3_240), now: midnight + 21_600) == 3)
    }
}
