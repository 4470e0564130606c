import TactileCore
import TactilePuzzleVerifier

/// A site's price under attack: its answers counted per minute and per day in the store (so
/// every instance sees the same rate), and the bits its puzzles cost more while the minute's
/// rate is far above the site's normal.
extension CaptchaService {
    /// Counts one answer to a puzzle of `site`.
    func countAnswer(site: String, now: Double) throws {
        // The second day window starts half a day later: its clock is shifted.
        try backend.count([
            ("site-answers:\(site)", 60, now), ("site-answers-day0:\(site)", 86_400, now),
            ("site-answers-day1:\(site)", 86_400, now + 43_200),
        ])
    }

    /// The bits a surge of answers adds to `site`'s price now; a change is logged and shown
    /// in the metrics.
    func surgeBits(site: String, now: Double) throws -> Int {
        let counts = try backend.counts([
            ("site-answers:\(site)", 60, now), ("site-answers:\(site)", 60, now - 60),
            ("site-answers-day0:\(site)", 86_400, now),
            ("site-answers-day1:\(site)", 86_400, now + 43_200),
        ])
        let rate = SurgePricing.rate(current: counts[0], previous: counts[1], now: now)
        let normal = SurgePricing.normal(counts: (counts[2], counts[3]), now: now)
        let bits = configuration.surge.bits(rate: rate, normal: normal)
        let changed = surgeLevels.withLock { levels in
            defer { levels[site] = bits }
            return levels[site, default: 0] != bits
        }
        if changed {
            metrics.set("tactile_price_surge_doublings", labels: [("site", site)], to: Double(bits))
            log(
                "\(UTCTimestamp.string(now)) surge site=\(site) bits=\(bits) answers-per-minute=\(Int(rate.rounded())) normal=\(Int(normal.rounded()))"
            )
        }
        return bits
    }
}
