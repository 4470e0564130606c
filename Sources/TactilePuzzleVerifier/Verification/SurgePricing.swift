/// The price that follows an attack on a site: when a site's answers per minute climb far
/// above its own normal, every puzzle of that site costs more, within a bound a person can
/// still pay, and the price falls back once the rate does.
///
/// A farm of scripts that pays the price at a site's own rate changes nothing for the site's
/// people; one that answers many times faster than the site's normal pays 2 or 4 times as much
/// per pass, all of it spent by the farm. The network surcharge and the failure surcharge
/// stay: they add to this one.
public struct SurgePricing: Hashable, Sendable {
    /// Answers per minute below which no rate is a surge, whatever the normal: a quiet site's
    /// busy minute (a newsletter sent, a class signing up) is not an attack.
    public var floor: Double = 30
    /// How many times the normal rate a minute must reach before the price rises.
    public var threshold: Double = 4
    /// The most bits a surge adds: 4 times the work. With the base price a phone pays in
    /// about 1.5 s at the median, a surge leaves it about 6 s.
    public var mostBits = 2

    /// Creates the default pricing.
    public init() {}

    /// The bits added to a site's price for `rate` answers in the last minute against a
    /// `normal` rate per minute: 0 up to ``threshold`` times the larger of `normal` and
    /// ``floor``, then one bit for each doubling beyond it, at most ``mostBits``.
    public func bits(rate: Double, normal: Double) -> Int {
        let base = threshold * max(normal.isFinite ? normal : 0, floor)
        guard rate.isFinite, rate > base else { return 0 }
        var bits = 1
        var level = base * 2
        while rate > level, bits < mostBits {
            bits += 1
            level *= 2
        }
        return bits
    }

    /// Answers in the last minute, estimated from fixed windows: the current minute's count,
    /// and the previous minute's weighted by the part of it still inside the last 60 s (so
    /// the estimate does not fall to nothing as each minute begins).
    public static func rate(current: Int, previous: Int, now: Double) -> Double {
        let into = now / 60 - (now / 60).rounded(.down)
        return Double(current) + Double(previous) * (1 - into)
    }

    /// A site's normal answers per minute, from the fuller of two day-long windows half a day
    /// apart: its count over the minutes it has covered so far (at least 12 hours' worth).
    ///
    /// - Parameters:
    ///   - counts: The two windows' counts, the first starting on whole days (UTC), the second
    ///     half a day later.
    ///   - now: The time, seconds since 1970.
    public static func normal(counts: (Int, Int), now: Double) -> Double {
        let day = 86_400.0
        let covered = [0.0, day / 2].map { shift in
            let start = ((now + shift) / day).rounded(.down) * day - shift
            return max(60, now - start) / 60
        }
        let first = Double(counts.0) / covered[0]
        let second = Double(counts.1) / covered[1]
        return covered[0] >= covered[1] ? first : second
    }
}
