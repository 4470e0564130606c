import Foundation

/// One sample of a cradle run: time since release, each ball's angle, and the energy.
public struct CradleSample: Hashable, Sendable {
    /// Seconds since the release.
    public var time: Double
    /// Each ball's angle from the vertical in degrees, positive to the right.
    public var angles: [Double]
    /// Energy as a fraction of the energy at the release.
    public var energy: Double
}

extension NewtonsCradle {
    /// Pulls `count` balls to `degrees` and releases them, then samples the run every
    /// `interval` seconds from the release (time 0) to `seconds`, inclusive.
    ///
    /// - Throws: ``CradleError`` for a pull out of range.
    public func record(
        pull count: Int, degrees: Double, seconds: Double, interval: Double = 1.0 / 60,
        _ body: (CradleSample) -> Void
    ) throws(CradleError) {
        try pull(count, angle: degrees * .pi / 180)
        let frames = Int((seconds / interval + 1e-9).rounded(.down))
        for frame in 0...max(0, frames) {
            let t = Double(frame) * interval
            advance(to: t)
            body(
                CradleSample(time: t, angles: angles.map { $0 * 180 / .pi }, energy: energyFraction)
            )
        }
    }
}
