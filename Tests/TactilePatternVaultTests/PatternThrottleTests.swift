import TactilePatternVault
import Testing

/// Android Gatekeeper's schedule, as the issue states it, value by value.
@Suite struct PatternThrottleTests {
    @Test func noWaitForTheFirstFourAndSixToNine() {
        for x in [0, 1, 2, 3, 4, 6, 7, 8, 9] {
            #expect(PatternThrottle.wait(afterFailures: x) == 0, "x = \(x)")
        }
    }

    @Test func thirtySecondsAtFiveAndFromTenToThirtyNine() {
        for x in [5] + Array(10...39) {
            #expect(PatternThrottle.wait(afterFailures: x) == 30, "x = \(x)")
        }
    }

    @Test func doublingEveryTenFromThirty() {
        #expect(PatternThrottle.wait(afterFailures: 40) == 60)
        #expect(PatternThrottle.wait(afterFailures: 49) == 60)
        #expect(PatternThrottle.wait(afterFailures: 50) == 120)
        #expect(PatternThrottle.wait(afterFailures: 100) == 30 * 128)
        #expect(PatternThrottle.wait(afterFailures: 139) == 30 * 1024)
    }

    @Test func oneDayFromOneHundredForty() {
        for x in [140, 141, 1000, Int(UInt32.max)] {
            #expect(PatternThrottle.wait(afterFailures: x) == 86_400, "x = \(x)")
        }
    }

    @Test func waitsNeverShrinkAfterTen() {
        for x in 10..<300 {
            #expect(
                PatternThrottle.wait(afterFailures: x + 1) >= PatternThrottle.wait(afterFailures: x)
            )
        }
    }

    @Test func attemptsBeforeAWait() {
        #expect(PatternThrottle.attemptsBeforeWait(afterFailures: 0) == 5)
        #expect(PatternThrottle.attemptsBeforeWait(afterFailures: 1) == 4)
        #expect(PatternThrottle.attemptsBeforeWait(afterFailures: 4) == 1)
        #expect(PatternThrottle.attemptsBeforeWait(afterFailures: 5) == 5)
        #expect(PatternThrottle.attemptsBeforeWait(afterFailures: 9) == 1)
        #expect(PatternThrottle.attemptsBeforeWait(afterFailures: 10) == 1)
        #expect(PatternThrottle.attemptsBeforeWait(afterFailures: 200) == 1)
    }
}
