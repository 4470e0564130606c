import TactileCore
import TactilePuzzleDesk

/// A site's price under attack (``CaptchaDesk`` counts its answers and prices its puzzles):
/// a change of its surge is logged and shown in the metrics.
extension CaptchaService {
    /// Logs and shows `surge` when its bits differ from those this instance last priced
    /// `site`'s puzzles with.
    func noteSurge(_ surge: CaptchaDesk.Surge, site: String, now: Double) {
        let changed = surgeLevels.withLock { levels in
            defer { levels[site] = surge.bits }
            return levels[site, default: 0] != surge.bits
        }
        guard changed else { return }
        metrics.set(
            "tactile_price_surge_doublings", labels: [("site", site)], to: Double(surge.bits))
        log(
            "\(UTCTimestamp.string(now)) surge site=\(site) bits=\(surge.bits) answers-per-minute=\(Int(surge.answersPerMinute.rounded())) normal=\(Int(surge.normal.rounded()))"
        )
    }
}
