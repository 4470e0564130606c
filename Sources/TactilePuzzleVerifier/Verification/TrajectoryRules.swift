import Foundation
import TactileCore
import TactilePuzzle

/// Why a drag looks machine-made. The descriptions carry the figures, for the operator.
public enum TrajectoryViolation: Hashable, Sendable, CustomStringConvertible {
    /// Fewer samples than a hand produces.
    case tooFewSamples(count: Int, minimum: Int)
    /// Over faster than a person can aim.
    case tooQuick(seconds: Double, minimum: Double)
    /// Longer than any drag of a person's.
    case tooSlow(seconds: Double, maximum: Double)
    /// Times that do not strictly increase, or values that are not finite.
    case malformed
    /// Samples spaced unlike any input device's events (median interval in seconds).
    case implausibleSampling(medianInterval: Double)
    /// The first sample is not where the piece starts.
    case startsElsewhere(fractionOfWidth: Double)
    /// A sample strays far from the slider's row or column.
    case offAxis(fractionOfWidth: Double)
    /// The coordinate across the slider never wavers (or a free drag is a perfect line).
    case perfectlySteady
    /// Two samples are implausibly far apart.
    case largeJump(fractionOfWidth: Double)
    /// The piece sets off at full speed: a hand starts from rest.
    case noSpeedingUp(ratio: Double)
    /// The piece arrives as fast as it travelled: a hand slows down to aim.
    case noSlowingDown(ratio: Double)
    /// The progress along the slider follows a textbook easing curve within a hair.
    case textbookCurve(residual: Double)
    /// The wobble is independent noise added per sample, not a hand's smooth drift.
    case whiteJitter(correlation: Double)
    /// The drag ends somewhere other than the reported position.
    case endsElsewhere
    /// Key presses at machine-regular intervals.
    case regularKeys

    /// A short stable name for metrics and logs.
    public var rule: String {
        switch self {
        case .tooFewSamples: "too-few-samples"
        case .tooQuick: "too-quick"
        case .tooSlow: "too-slow"
        case .malformed: "malformed"
        case .implausibleSampling: "implausible-sampling"
        case .startsElsewhere: "starts-elsewhere"
        case .offAxis: "off-axis"
        case .perfectlySteady: "perfectly-steady"
        case .largeJump: "large-jump"
        case .noSpeedingUp: "no-speeding-up"
        case .noSlowingDown: "no-slowing-down"
        case .textbookCurve: "textbook-curve"
        case .whiteJitter: "white-jitter"
        case .endsElsewhere: "ends-elsewhere"
        case .regularKeys: "regular-keys"
        }
    }

    public var description: String {
        func f(_ x: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", x) }
        return switch self {
        case .tooFewSamples(let count, let minimum):
            "too few samples (\(count), at least \(minimum) expected)"
        case .tooQuick(let seconds, let minimum):
            "too quick (\(f(seconds)) s, at least \(minimum) s expected)"
        case .tooSlow(let seconds, let maximum):
            "too slow (\(f(seconds, 1)) s, at most \(maximum) s expected)"
        case .malformed: "malformed track (times must be finite and strictly increase)"
        case .implausibleSampling(let median):
            "samples every \(f(median * 1000, 1)) ms (median), unlike any input device"
        case .startsElsewhere(let d): "the drag starts \(f(d)) of the width from the piece"
        case .offAxis(let d): "a sample strays \(f(d)) of the width from the slider"
        case .perfectlySteady: "the drag never wavers across the slider"
        case .largeJump(let d): "a jump of \(f(d)) of the width between samples"
        case .noSpeedingUp(let r):
            "no speeding up at the start (start speed \(f(r, 2)) of the peak)"
        case .noSlowingDown(let r):
            "no slowing down at the end (end speed \(f(r, 2)) of the peak)"
        case .textbookCurve(let r): "progress follows an easing formula (residual \(f(r, 4)))"
        case .whiteJitter(let c):
            "the wobble is per-sample noise (increment correlation \(f(c, 2)))"
        case .endsElsewhere: "the track does not end where the piece was released"
        case .regularKeys: "key presses at machine-regular intervals"
        }
    }
}

/// Checks a drag's samples for signs of a script. Distances are fractions of the displayed
/// width, so the rules mean the same on any display; times are seconds.
///
/// A pointer drag must: have strictly increasing times, spaced like an input device's
/// events; start where the piece starts and stay near the slider's row (or column); end
/// where the piece was released without jumps; waver a little across the slider; speed up
/// from rest and slow down to aim; not follow a textbook easing curve within a hair; and
/// wobble the way a hand drifts, not by noise added to each sample (on a slider). Each rule is measured
/// against varied simulated human drags (`HumanDrag` in the solvers) and scripted ones.
public struct TrajectoryRules: Hashable, Sendable {
    /// Fewest pointer samples.
    public var minimumSamples = 12
    /// Shortest drag, in seconds.
    public var minimumDuration = 0.3
    /// Longest drag, in seconds.
    public var maximumDuration = 120.0
    /// The accepted median interval between samples, in seconds (input devices report at
    /// 30–1,000 Hz; a dwell makes some intervals long, not the median).
    public var medianIntervals = 0.001...0.05
    /// How far the first sample may be from the piece's start.
    public var maximumStartGap = 0.02
    /// How far any sample may stray from the slider's row or column.
    public var maximumAxisDeviation = 0.12
    /// The least spread across the slider (or off the straight line for a free drag).
    public var minimumWaver = 0.0005
    /// The largest step between two samples.
    public var maximumJump = 0.12
    /// The start speed (first fifth of the time) must be below this share of the peak speed.
    public var maximumStartSpeedRatio = 0.9
    /// The end speed (last fifth of the time) must be below this share of the peak speed.
    public var maximumEndSpeedRatio = 0.6
    /// The least root-mean-square distance, as a share of the travel, between the progress
    /// along the slider and the nearest textbook easing curve.
    public var minimumCurveResidual = 0.005
    /// The lowest correlation of successive sideways increments: independent noise added per
    /// sample gives about −0.5, a hand's drift stays above.
    public var minimumIncrementCorrelation = -0.2
    /// How far the last sample may be from the reported release.
    public var maximumEndGap = 0.02
    /// Fewest key presses for a keyboard attempt.
    public var minimumKeyPresses = 3
    /// The least spread of intervals between key presses, in seconds.
    public var minimumKeyJitter = 0.004

    /// Creates the default rules.
    public init() {}

    /// The first rule the track breaks, or `nil` when it looks like a person's.
    ///
    /// - Parameters:
    ///   - track: The samples, in display units and seconds.
    ///   - release: The reported release position, display units.
    ///   - start: Where the piece started, display units; `nil` skips the start and axis
    ///     rules (a caller that does not know it).
    ///   - displayWidth: The display width the units refer to.
    ///   - axis: The puzzle's axis.
    ///   - inputMethod: Pointer or keyboard.
    public func violation(
        in track: [PuzzleTrackPoint], release: Point, start: Point? = nil, displayWidth: Double,
        axis: PuzzleAxis, inputMethod: PuzzleInputMethod
    ) -> TrajectoryViolation? {
        guard displayWidth > 0, displayWidth.isFinite else { return .malformed }
        let points = track.map {
            PuzzleTrackPoint(x: $0.x / displayWidth, y: $0.y / displayWidth, time: $0.time)
        }
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.time.isFinite }) else {
            return .malformed
        }
        // Times strictly increase. A keyboard attempt's first sample is where the piece
        // started, taken at the first press, so only the presses after it must be later.
        for (index, (a, b)) in zip(points, points.dropFirst()).enumerated()
        where !(b.time > a.time) && !(inputMethod == .keyboard && index == 0 && b.time == a.time) {
            return .malformed
        }
        guard let first = points.first, let last = points.last else {
            return .tooFewSamples(count: 0, minimum: minimumSamples)
        }
        let end = Point(x: release.x / displayWidth, y: release.y / displayWidth)
        if inputMethod == .keyboard { return keyboardViolation(points, end: end) }

        guard points.count >= minimumSamples else {
            return .tooFewSamples(count: points.count, minimum: minimumSamples)
        }
        let duration = last.time - first.time
        guard duration >= minimumDuration else {
            return .tooQuick(seconds: duration, minimum: minimumDuration)
        }
        guard duration <= maximumDuration else {
            return .tooSlow(seconds: duration, maximum: maximumDuration)
        }
        let intervals = zip(points, points.dropFirst()).map { $1.time - $0.time }.sorted()
        let median = intervals[intervals.count / 2]
        guard medianIntervals.contains(median) else {
            return .implausibleSampling(medianInterval: median)
        }
        if let start {
            let origin = Point(x: start.x / displayWidth, y: start.y / displayWidth)
            let startGap = first.position.distance(to: origin)
            if startGap > maximumStartGap { return .startsElsewhere(fractionOfWidth: startGap) }
            let stray: Double =
                switch axis {
                case .horizontal: points.map { abs($0.y - origin.y) }.max()!
                case .vertical: points.map { abs($0.x - origin.x) }.max()!
                case .free: 0
                }
            if stray > maximumAxisDeviation { return .offAxis(fractionOfWidth: stray) }
        }
        // Clamping may stop the piece short of the pointer on the slider's axis only.
        let gap =
            switch axis {
            case .horizontal: abs(last.x - end.x)
            case .vertical: abs(last.y - end.y)
            case .free: last.position.distance(to: end)
            }
        if gap > maximumEndGap { return .endsElsewhere }
        if let jump = zip(points, points.dropFirst()).map({ $0.position.distance(to: $1.position) })
            .max(), jump > maximumJump
        {
            return .largeJump(fractionOfWidth: jump)
        }
        if waver(points, axis: axis) < minimumWaver { return .perfectlySteady }
        let (startRatio, endRatio) = speedRatios(points)
        if startRatio > maximumStartSpeedRatio { return .noSpeedingUp(ratio: startRatio) }
        if endRatio > maximumEndSpeedRatio { return .noSlowingDown(ratio: endRatio) }
        if let residual = curveResidual(points, axis: axis), residual < minimumCurveResidual {
            return .textbookCurve(residual: residual)
        }
        // On a slider the cross coordinate is the hand's alone; in a free drag whole-pixel
        // positions alias against the diagonal, so the rule would misread them.
        if axis != .free, let correlation = incrementCorrelation(points, axis: axis),
            correlation < minimumIncrementCorrelation
        {
            return .whiteJitter(correlation: correlation)
        }
        return nil
    }

    private func keyboardViolation(_ points: [PuzzleTrackPoint], end: Point)
        -> TrajectoryViolation?
    {
        let presses = points.count - 1
        guard presses >= minimumKeyPresses else {
            return .tooFewSamples(count: presses, minimum: minimumKeyPresses)
        }
        let duration = points.last!.time - points.first!.time
        guard duration >= minimumDuration else {
            return .tooQuick(seconds: duration, minimum: minimumDuration)
        }
        if points.last!.position.distance(to: end) > maximumEndGap { return .endsElsewhere }
        let intervals = zip(points.dropFirst(), points.dropFirst(2)).map { $1.time - $0.time }
        if let low = intervals.min(), let high = intervals.max(), high - low < minimumKeyJitter {
            return .regularKeys
        }
        return nil
    }

    /// The spread across the slider's axis, or the largest distance from the chord for a
    /// free drag.
    private func waver(_ points: [PuzzleTrackPoint], axis: PuzzleAxis) -> Double {
        switch axis {
        case .horizontal:
            let ys = points.map(\.y)
            return ys.max()! - ys.min()!
        case .vertical:
            let xs = points.map(\.x)
            return xs.max()! - xs.min()!
        case .free:
            let a = points.first!.position
            let chord = points.last!.position - a
            let length = chord.length
            guard length > 0 else { return 0 }
            return points.map { abs(chord.cross($0.position - a)) / length }.max()!
        }
    }

    /// Mean speed over the first and over the last fifth of the drag's time, each divided by
    /// the peak speed measured over windows of a fifth of the time.
    private func speedRatios(_ points: [PuzzleTrackPoint]) -> (start: Double, end: Double) {
        let start = points.first!.time
        let duration = points.last!.time - start
        let window = duration / 5
        func position(at time: Double) -> Point {
            guard let upper = points.firstIndex(where: { $0.time >= time }) else {
                return points.last!.position
            }
            guard upper > 0 else { return points[0].position }
            let a = points[upper - 1]
            let b = points[upper]
            let span = b.time - a.time
            return a.position.interpolated(
                to: b.position, fraction: span > 0 ? (time - a.time) / span : 1)
        }
        func speed(from t: Double) -> Double {
            position(at: t).distance(to: position(at: t + window)) / window
        }
        let steps = 20
        let peak = (0...steps).map {
            speed(from: start + (duration - window) * Double($0) / Double(steps))
        }
        .max()!
        guard peak > 0 else { return (1, 1) }
        return (speed(from: start) / peak, speed(from: start + duration - window) / peak)
    }

    /// The root-mean-square gap between the progress along the slider (0 at the first
    /// sample, 1 at the last, against time scaled the same way) and the nearest of the
    /// easing curves scripts use, as a share of the travel; `nil` when the drag does not
    /// travel.
    private func curveResidual(_ points: [PuzzleTrackPoint], axis: PuzzleAxis) -> Double? {
        let first = points.first!
        let last = points.last!
        let travel: (PuzzleTrackPoint) -> Double =
            switch axis {
            case .horizontal: { $0.x - first.x }
            case .vertical: { $0.y - first.y }
            case .free: { $0.position.distance(to: first.position) }
            }
        let total = travel(last)
        let duration = last.time - first.time
        guard abs(total) > 1e-9, duration > 0 else { return nil }
        let samples = points.map { (u: ($0.time - first.time) / duration, p: travel($0) / total) }
        let curves: [(Double) -> Double] = [
            { $0 },
            Easing.easeInOut,
            Easing.minimumJerk,
            { 1 - (1 - $0) * (1 - $0) },
            { 1 - (1 - $0) * (1 - $0) * (1 - $0) },
            { 1 - (1 - $0) * (1 - $0) * ((1 - $0) * (1 - $0)) },
            { (1 - cos(.pi * $0)) / 2 },
            { sin(.pi / 2 * $0) },
            { $0 < 0.5 ? 4 * $0 * $0 * $0 : 1 - (2 - 2 * $0) * (2 - 2 * $0) * (2 - 2 * $0) / 2 },
        ]
        return curves.map { curve in
            let squares = samples.reduce(0) { sum, sample in
                let residual = sample.p - curve(sample.u)
                return sum + residual * residual
            }
            return (squares / Double(samples.count)).squareRoot()
        }.min()
    }

    /// The lag-one correlation of successive increments of the coordinate across the
    /// slider, over samples that moved it; `nil` when too few did.
    private func incrementCorrelation(_ points: [PuzzleTrackPoint], axis: PuzzleAxis) -> Double? {
        let across = points.map { axis == .vertical ? $0.x : $0.y }
        let increments = zip(across, across.dropFirst()).map { $1 - $0 }
        guard increments.filter({ $0 != 0 }).count >= 8 else { return nil }
        let energy = increments.reduce(0) { $0 + $1 * $1 }
        guard energy > 0 else { return nil }
        let lagged = zip(increments, increments.dropFirst()).reduce(0) { $0 + $1.0 * $1.1 }
        return lagged / energy
    }
}
