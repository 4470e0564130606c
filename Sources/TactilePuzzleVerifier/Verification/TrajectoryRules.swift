import TactileCore
import TactilePuzzle

/// Why a drag looks machine-made.
public enum TrajectoryViolation: Hashable, Sendable, CustomStringConvertible {
    /// Fewer samples than a hand produces.
    case tooFewSamples(count: Int, minimum: Int)
    /// Over faster than a person can aim.
    case tooQuick(seconds: Double, minimum: Double)
    /// Times go backwards or values are not finite.
    case malformed
    /// The coordinate across the slider never wavers (or a free drag is a perfect line).
    case perfectlySteady
    /// Two samples are implausibly far apart.
    case largeJump(fractionOfWidth: Double)
    /// The piece arrives as fast as it travelled: a hand slows down to aim.
    case noSlowingDown(ratio: Double)
    /// The drag ends somewhere other than the reported position.
    case endsElsewhere
    /// Key presses at machine-regular intervals.
    case regularKeys

    public var description: String {
        switch self {
        case .tooFewSamples(let count, let minimum):
            "too few samples (\(count), at least \(minimum) expected)"
        case .tooQuick(let seconds, let minimum):
            "too quick (\(String(format: "%.3f", seconds)) s, at least \(minimum) s expected)"
        case .malformed: "malformed track (times must be finite and not decrease)"
        case .perfectlySteady: "the drag never wavers across the slider"
        case .largeJump(let f):
            "a jump of \(String(format: "%.3f", f)) of the width between samples"
        case .noSlowingDown(let r):
            "no slowing down at the end (end speed \(String(format: "%.2f", r)) of the peak)"
        case .endsElsewhere: "the track does not end where the piece was released"
        case .regularKeys: "key presses at machine-regular intervals"
        }
    }
}

/// Checks a drag's samples for signs of a script. Distances are fractions of the displayed
/// width, so the rules mean the same on any display; times are seconds.
public struct TrajectoryRules: Hashable, Sendable {
    /// Fewest pointer samples.
    public var minimumSamples = 8
    /// Shortest drag, in seconds.
    public var minimumDuration = 0.3
    /// The least spread across the slider (or off the straight line for a free drag).
    public var minimumWaver = 0.0005
    /// The largest step between two samples.
    public var maximumJump = 0.12
    /// The end speed (last fifth of the time) must be below this share of the peak speed.
    public var maximumEndSpeedRatio = 0.6
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
    ///   - displayWidth: The display width the units refer to.
    ///   - axis: The puzzle's axis.
    ///   - inputMethod: Pointer or keyboard.
    public func violation(
        in track: [PuzzleTrackPoint], release: Point, displayWidth: Double, axis: PuzzleAxis,
        inputMethod: PuzzleInputMethod
    ) -> TrajectoryViolation? {
        guard displayWidth > 0, displayWidth.isFinite else { return .malformed }
        let points = track.map {
            PuzzleTrackPoint(x: $0.x / displayWidth, y: $0.y / displayWidth, time: $0.time)
        }
        for (a, b) in zip(points, points.dropFirst())
        where !(b.time >= a.time) || !b.x.isFinite || !b.y.isFinite {
            return .malformed
        }
        guard let first = points.first, let last = points.last, first.x.isFinite,
            first.y.isFinite, first.time.isFinite
        else { return .tooFewSamples(count: 0, minimum: minimumSamples) }
        let end = Point(x: release.x / displayWidth, y: release.y / displayWidth)
        if inputMethod == .keyboard { return keyboardViolation(points, end: end) }

        guard points.count >= minimumSamples else {
            return .tooFewSamples(count: points.count, minimum: minimumSamples)
        }
        let duration = last.time - first.time
        guard duration >= minimumDuration else {
            return .tooQuick(seconds: duration, minimum: minimumDuration)
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
        let ratio = endSpeedRatio(points)
        if ratio > maximumEndSpeedRatio { return .noSlowingDown(ratio: ratio) }
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

    /// Mean speed over the last fifth of the drag's time divided by the peak speed measured
    /// over windows of a fifth of the time.
    private func endSpeedRatio(_ points: [PuzzleTrackPoint]) -> Double {
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
        guard peak > 0 else { return 1 }
        return speed(from: start + duration - window) / peak
    }
}
