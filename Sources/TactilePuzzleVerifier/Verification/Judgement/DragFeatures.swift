import Foundation
import TactilePuzzle

/// The numbers the drag model reads from a track: how it is sampled, how it wavers across the
/// slider, and how its progress along the slider speeds up, pauses, overshoots and settles.
///
/// Distances are shares of the travel and times shares of the duration wherever a size or a
/// speed of the display would otherwise show, so a drag means the same on a phone and on a
/// wide screen. `scripts/drag-model/features.py` computes the same numbers for training, in the
/// same order and with the same arithmetic; `DragModelTests` holds the two together.
struct DragFeatures: Hashable, Sendable {
    /// The names, in the model's order.
    static let names = [
        "log_samples", "log_duration", "median_interval", "interval_variation",
        "regular_intervals", "long_intervals", "cross_range", "cross_moves", "cross_correlation",
        "backtrack", "overshoot", "start_speed", "end_speed", "easing_residual", "peak_at",
        "speed_peaks", "first_step", "largest_step", "still_steps", "lead_in", "settle",
        // How the motion changes from frame to frame, for a track read at a steady frame rate
        // (the touch model reads these too; the mouse model the names above only).
        "speed_roughness", "jerk", "across_high_frequency", "acceleration_flips",
        "speed_change_correlation", "straight_frames",
    ]

    /// The values, in the order of ``names``.
    var values: [Double]

    /// How far the progress is from the nearest textbook easing curve (root mean square, a
    /// share of the travel).
    var easingResidual: Double { values[Self.easingResidualIndex] }
    private static let easingResidualIndex = names.firstIndex(of: "easing_residual")!

    /// The features of a track of at least three samples with strictly increasing times
    /// (`nil` otherwise); positions in any unit, times in seconds.
    init?(_ track: [PuzzleTrackPoint], axis: PuzzleAxis) {
        let n = track.count
        guard n >= 3 else { return nil }
        let t = track.map(\.time)
        let rawAlong = track.map { axis == .vertical ? $0.y : $0.x }
        let across = track.map { axis == .vertical ? $0.x : $0.y }
        let duration = max(t[n - 1] - t[0], 0.001)
        let travel = rawAlong[n - 1] - rawAlong[0]
        let sign = travel >= 0 ? 1.0 : -1.0
        let span = max(abs(travel), 1)
        let x = rawAlong.map { ($0 - rawAlong[0]) * sign }
        let m = n - 1
        let dt = (0..<m).map { t[$0 + 1] - t[$0] }
        let dx = (0..<m).map { x[$0 + 1] - x[$0] }
        let dy = (0..<m).map { across[$0 + 1] - across[$0] }
        let count = Double(m)

        let median = Self.median(dt)
        let mean = dt.reduce(0, +) / count
        let variance = dt.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / count
        let energy = dy.reduce(0) { $0 + $1 * $1 }
        var lagged = 0.0
        for i in 0..<(m - 1) { lagged += dy[i] * dy[i + 1] }

        // Speeds over windows of a fifth of the time, against the fastest such window.
        let window = duration / 5
        func speed(from start: Double) -> Double {
            let ax = Self.interpolate(t, x, at: start)
            let ay = Self.interpolate(t, across, at: start)
            let bx = Self.interpolate(t, x, at: start + window)
            let by = Self.interpolate(t, across, at: start + window)
            return ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot() / window
        }
        let peak = (0...20).map { speed(from: t[0] + (duration - window) * Double($0) / 20) }
            .max()!

        var residual = 1.0
        if abs(travel) > 1e-9 {
            let u = t.map { ($0 - t[0]) / duration }
            let p = x.map { $0 / abs(travel) }
            residual = Self.easings.map { easing in
                var sum = 0.0
                for i in 0..<n {
                    let gap = p[i] - easing(u[i])
                    sum += gap * gap
                }
                return (sum / Double(n)).squareRoot()
            }.min()!
        }

        var fastest = 0
        for i in 1..<m where dx[i] / max(dt[i], 0.001) > dx[fastest] / max(dt[fastest], 0.001) {
            fastest = i
        }

        // Local maxima of the progress per 50 ms, above a fifth of the largest.
        let steps = Int(((t[n - 1] - t[0]) / 0.05).rounded(.down))
        let grid = (0...steps).map { Self.interpolate(t, x, at: t[0] + 0.05 * Double($0)) }
        let gains = (0..<steps).map { grid[$0 + 1] - grid[$0] }
        var peaks = 0
        if gains.count > 2 {
            let top = gains.max()!
            for k in 1..<(gains.count - 1)
            where gains[k] > gains[k - 1] && gains[k] >= gains[k + 1] && gains[k] > 0.2 * top {
                peaks += 1
            }
        }

        let leadIn = x.indices.first { abs(x[$0]) > 0.02 * span }.map { (t[$0] - t[0]) / duration }
        let settle = x.indices.last { abs(x[$0] - x[n - 1]) > 0.02 * span }
            .map { (t[n - 1] - t[$0]) / duration }

        values = [
            log(Double(n)),
            log(duration),
            median,
            variance.squareRoot() / mean,
            Double(dt.filter { abs($0 - median) < 0.0005 }.count) / count,
            Double(dt.filter { $0 > 0.05 }.count) / count,
            (across.max()! - across.min()!) / span,
            Double(dy.filter { $0 != 0 }.count) / count,
            energy > 0 ? lagged / energy : 0,
            dx.reduce(0) { $1 < 0 ? $0 - $1 : $0 } / span,
            (x.max()! - x[n - 1]) / span,
            peak > 0 ? speed(from: t[0]) / peak : 1,
            peak > 0 ? speed(from: t[0] + duration - window) / peak : 1,
            residual,
            (t[fastest + 1] - t[0]) / duration,
            Double(peaks),
            dx[0] / span,
            dx.map(abs).max()! / span,
            Double(dx.filter { $0 == 0 }.count) / count,
            leadIn ?? 1,
            settle ?? 1,
        ]
        values += Self.frameMotion(along: x, across: across)
    }

    /// How the motion changes from one sample to the next, for a track read at a steady frame
    /// rate: a generator's path is either as smooth as a formula (a tween) or noisy sample by
    /// sample (distortion added to each point), a sparse one runs straight between its points,
    /// and a finger's is neither.
    ///
    /// `along` is the progress along the slider and `across` the position across it; the last
    /// sample (the release, off the frames' beat) is left out when there are more than three.
    /// In order: the median change of speed from frame to frame, as a share of the mean speed;
    /// the log of the energy of the third differences along against the first; the log of the
    /// energy of the second differences across against the first; the share of the firm
    /// accelerations (over 0.05 a frame) whose sign differs from the one before; the correlation
    /// of each change of speed with the next; the share of the frames in motion that do not bend
    /// (a second difference under a twentieth of the mean speed). All zero under five frames.
    private static func frameMotion(along x: [Double], across: [Double]) -> [Double] {
        let n = x.count > 3 ? x.count - 1 : x.count
        guard n >= 5 else { return Array(repeating: 0, count: 6) }
        let dx: [Double] = (0..<(n - 1)).map { x[$0 + 1] - x[$0] }
        let dy: [Double] = (0..<(n - 1)).map { across[$0 + 1] - across[$0] }
        let speeds: [Double] = (0..<(n - 1)).map {
            (dx[$0] * dx[$0] + dy[$0] * dy[$0]).squareRoot()
        }
        let mean = speeds.reduce(0, +) / Double(speeds.count) + 1e-9
        let changes: [Double] = (0..<(speeds.count - 1)).map { speeds[$0 + 1] - speeds[$0] }
        let roughness = median(changes.map(abs)) / mean

        let acceleration: [Double] = (0..<(n - 2)).map { (i: Int) -> Double in
            x[i + 2] - 2 * x[i + 1] + x[i]
        }
        let bend: [Double] = (0..<(n - 2)).map { (i: Int) -> Double in
            across[i + 2] - 2 * across[i + 1] + across[i]
        }
        var alongFirst = 0.0
        var acrossFirst = 0.0
        for i in 0..<(n - 1) {
            alongFirst += dx[i] * dx[i]
            acrossFirst += dy[i] * dy[i]
        }
        var acrossSecond = 0.0
        for i in 0..<(n - 2) { acrossSecond += bend[i] * bend[i] }
        var alongThird = 0.0
        for i in 0..<(n - 3) {
            let third = acceleration[i + 1] - acceleration[i]
            alongThird += third * third
        }
        let jerk = log((alongThird + 1e-6) / (alongFirst + 1e-6))
        let highFrequency = log((acrossSecond + 1e-3) / (acrossFirst + 1e-3))

        let firm = acceleration.filter { abs($0) > 0.05 }
        var flips = 0.0
        if firm.count > 2 {
            let changed = (0..<(firm.count - 1)).filter { (firm[$0] > 0) != (firm[$0 + 1] > 0) }
            flips = Double(changed.count) / Double(firm.count - 1)
        }

        var correlation = 0.0
        if changes.count > 3 {
            let later = Array(changes[1...])
            let earlier = Array(changes[..<(changes.count - 1)])
            var laterMean = 0.0
            var earlierMean = 0.0
            for i in later.indices {
                laterMean += later[i]
                earlierMean += earlier[i]
            }
            laterMean /= Double(later.count)
            earlierMean /= Double(earlier.count)
            var both = 0.0
            var laterSquares = 0.0
            var earlierSquares = 0.0
            for i in later.indices {
                both += (later[i] - laterMean) * (earlier[i] - earlierMean)
                laterSquares += (later[i] - laterMean) * (later[i] - laterMean)
                earlierSquares += (earlier[i] - earlierMean) * (earlier[i] - earlierMean)
            }
            if laterSquares > 0 && earlierSquares > 0 {
                correlation = both / (laterSquares * earlierSquares).squareRoot()
            }
        }

        var moving = 0
        var straight = 0
        for i in 0..<(n - 2) where speeds[i] > 0.05 * mean || speeds[i + 1] > 0.05 * mean {
            moving += 1
            let bent = (acceleration[i] * acceleration[i] + bend[i] * bend[i]).squareRoot()
            if bent < 0.05 * mean { straight += 1 }
        }
        return [
            roughness, jerk, highFrequency, flips, correlation,
            moving > 0 ? Double(straight) / Double(moving) : 0,
        ]
    }

    /// The frames a second a touchscreen's or a pen's track is read at (``steadyFrames(_:)``).
    static let steadyRate = 60.0

    /// A touchscreen's or a pen's track read at ``steadyRate`` frames a second from the first
    /// sample, the last sample kept last, by linear interpolation.
    ///
    /// Such devices report in an even stream, one sample a frame (more with coalesced events),
    /// at 60, 90 or 120 a second: the stream says nothing of who moved, so the model for them
    /// reads only the motion, the same at any rate. `features.py`'s `steady_frames` mirrors it.
    static func steadyFrames(_ track: [PuzzleTrackPoint]) -> [PuzzleTrackPoint] {
        guard let first = track.first, let last = track.last else { return track }
        let times = track.map(\.time)
        let xs = track.map(\.x)
        let ys = track.map(\.y)
        let duration = last.time - first.time
        var frames: [PuzzleTrackPoint] = []
        var frame = 0
        while Double(frame) / steadyRate < duration {
            let time = first.time + Double(frame) / steadyRate
            frames.append(
                PuzzleTrackPoint(
                    x: interpolate(times, xs, at: time), y: interpolate(times, ys, at: time),
                    time: time))
            frame += 1
        }
        frames.append(last)
        return frames
    }

    /// The easing curves scripts move along (progress against time, both 0…1).
    private static let easings: [@Sendable (Double) -> Double] = [
        { $0 },
        { $0 * $0 * (3 - 2 * $0) },
        { $0 * $0 * $0 * (10 - 15 * $0 + 6 * $0 * $0) },
        { 1 - (1 - $0) * (1 - $0) },
        { 1 - (1 - $0) * (1 - $0) * (1 - $0) },
        { 1 - (1 - $0) * (1 - $0) * ((1 - $0) * (1 - $0)) },
        { (1 - cos(Double.pi * $0)) / 2 },
        { sin(Double.pi / 2 * $0) },
        { $0 < 0.5 ? 4 * $0 * $0 * $0 : 1 - (2 - 2 * $0) * (2 - 2 * $0) * (2 - 2 * $0) / 2 },
    ]

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    /// Linear interpolation of `values` over strictly increasing `times`, clamped at both ends.
    static func interpolate(_ times: [Double], _ values: [Double], at time: Double)
        -> Double
    {
        if time <= times[0] { return values[0] }
        if time >= times[times.count - 1] { return values[values.count - 1] }
        let (low, high, fraction) = segment(times, containing: time)
        return values[low] + (values[high] - values[low]) * fraction
    }

    /// The samples either side of `time` in strictly increasing `times` (by bisection), and
    /// how far between them it lies (0 at `low`, 1 at `high`).
    static func segment(_ times: [Double], containing time: Double) -> (
        low: Int, high: Int, fraction: Double
    ) {
        var low = 0
        var high = times.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if times[middle] <= time { low = middle } else { high = middle }
        }
        return (low, high, (time - times[low]) / (times[high] - times[low]))
    }
}
