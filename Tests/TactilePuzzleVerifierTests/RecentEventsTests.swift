import PuzzleTestSupport
import Testing

@testable import TactilePuzzleVerifier

/// A limit of so many events a window, decided by `RecentEvents` as the verifier does
/// (forget what left the window, ask, record), against the exact sliding window: every
/// admitted time kept, counted by brute force.
@Suite struct RecentEventsTests {
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    /// Attempts at random times (bursts and pauses); the decisions of both, in order.
    func run(limit: Int, window: Double, attempts: Int, seed: UInt64) -> (
        bucketed: [Double?], exact: [Double?], admitted: [Double], largest: Int, merged: Bool
    ) {
        var random = Seeded(state: seed)
        var events = RecentEvents()
        var exactTimes: [Double] = []
        var bucketed: [Double?] = []
        var exact: [Double?] = []
        var admitted: [Double] = []
        var largest = 0
        var merged = false
        var now = 1_000.0
        var burst = 0
        for _ in 0..<attempts {
            // Bursts of up to 400 attempts a few hundredths of a second apart, then a pause.
            if burst == 0 {
                burst = Int.random(in: 1...400, using: &random)
                now += Double.random(in: 0..<(2 * window), using: &random)
            }
            burst -= 1
            now += Double.random(in: 0..<0.05, using: &random)
            events.forget(through: now - window, now: now)
            let until = events.blockedUntil(limit: limit, window: window)
            bucketed.append(until)
            if until == nil {
                events.record(now)
                admitted.append(now)
            }
            largest = max(largest, events.times.count)
            merged = merged || !events.counts.isEmpty
            // The exact window: the times admitted by it, within (now - window, now].
            let live = exactTimes.filter { $0 > now - window }
            if live.count >= limit {
                exact.append(live[live.count - limit] + window)
            } else {
                exact.append(nil)
                exactTimes.append(now)
            }
        }
        return (bucketed, exact, admitted, largest, merged)
    }

    /// Up to its capacity, each event has its entry: the same decisions and the same
    /// Retry-After as the exact window.
    @Test(arguments: [1, 3, 10, 30, 64])
    func smallLimitsAreExact(limit: Int) {
        for seed in UInt64(1)...5 {
            let outcome = run(limit: limit, window: 60, attempts: 3000, seed: seed)
            #expect(outcome.bucketed == outcome.exact, "limit \(limit), seed \(seed)")
        }
    }

    /// Past the capacity the record stays at 64 entries, and no window of the limit's
    /// length ever holds more admitted events than the limit.
    @Test(arguments: [65, 200, 1000, 1_000_000])
    func largeLimitsStayBoundedAndNeverLetMoreThrough(limit: Int) {
        for seed in UInt64(1)...3 {
            let outcome = run(limit: limit, window: 60, attempts: 6000, seed: seed)
            #expect(outcome.largest <= RecentEvents.capacity && outcome.merged)
            let times = outcome.admitted
            var start = 0
            for end in times.indices {
                while times[start] <= times[end] - 60 { start += 1 }
                #expect(end - start + 1 <= limit, "limit \(limit), seed \(seed), at \(times[end])")
                if end - start + 1 > limit { return }
            }
            // Strict but not closed: it admits a fair share of what the exact window does.
            let exactAdmitted = outcome.exact.filter { $0 == nil }.count
            #expect(times.count * 2 >= min(exactAdmitted, 6000))
        }
    }

    @Test func aClockSetBackCountsAsNow() {
        var events = RecentEvents(times: [100, 200, 300])
        events.forget(through: 50, now: 150)
        #expect(events.times == [100, 150, 150])
        #expect(events.blockedUntil(limit: 3, window: 60) == 160)
        #expect(events.blockedUntil(limit: 4, window: 60) == nil)
        #expect(events.blockedUntil(limit: 0, window: 60) == 210)
    }
}
