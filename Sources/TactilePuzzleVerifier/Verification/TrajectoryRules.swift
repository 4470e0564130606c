import Foundation
import TactileCore
import TactilePuzzle

/// Why a drag looks machine-made. The descriptions carry the figures, for the operator.
public enum TrajectoryViolation: Hashable, Sendable, CustomStringConvertible {
    /// Fewer samples than the rules can judge.
    case tooFewSamples(count: Int, minimum: Int)
    /// Over faster than a person can aim.
    case tooQuick(seconds: Double, minimum: Double)
    /// Longer than any drag of a person's.
    case tooSlow(seconds: Double, maximum: Double)
    /// Times that do not strictly increase, or values that are not finite.
    case malformed
    /// The first sample is not where the piece starts.
    case startsElsewhere(fractionOfWidth: Double)
    /// A sample strays over a whole width from the slider's row or column.
    case offAxis(fractionOfWidth: Double)
    /// Every interval between samples is the same within ``TrajectoryRules/evenTimingTolerance``:
    /// a timer's.
    case evenlyTimed
    /// The progress along the slider follows a textbook easing curve within a hair.
    case textbookCurve(residual: Double)
    /// The wobble across the slider is noise added to each sample, not a hand's drift: the
    /// share of its steps across that turn back (2/3 for such noise).
    case perSampleNoise(turns: Double)
    /// The drag moves the way scripts' drags do: the drag model's score, from 0 (a person's)
    /// to 1 (a script's), and the score from which it refuses.
    case scriptLike(score: Double, threshold: Double)
    /// The drag ends somewhere other than the reported position.
    case endsElsewhere
    /// The drag repeats one accepted before (a replay of a recorded drag).
    case replayed
    /// Key presses at machine-regular intervals.
    case regularKeys
    /// A key press moved the piece by a step the keyboard does not make (the distance, in
    /// the track's units).
    case impossibleKeyStep(distance: Double)
    /// Key presses closer together than a key repeats (the interval, in seconds).
    case keysTooFast(interval: Double)

    /// A short stable name for metrics and logs.
    public var rule: String {
        switch self {
        case .tooFewSamples: "too-few-samples"
        case .tooQuick: "too-quick"
        case .tooSlow: "too-slow"
        case .malformed: "malformed"
        case .startsElsewhere: "starts-elsewhere"
        case .offAxis: "off-axis"
        case .evenlyTimed: "evenly-timed"
        case .textbookCurve: "textbook-curve"
        case .perSampleNoise: "per-sample-noise"
        case .scriptLike: "script-like"
        case .endsElsewhere: "ends-elsewhere"
        case .replayed: "replayed"
        case .regularKeys: "regular-keys"
        case .impossibleKeyStep: "impossible-key-step"
        case .keysTooFast: "keys-too-fast"
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
        case .startsElsewhere(let d): "the drag starts \(f(d)) of the width from the piece"
        case .offAxis(let d): "a sample strays \(f(d)) of the width from the slider"
        case .evenlyTimed: "every sample comes after the same interval, like a timer's"
        case .textbookCurve(let r): "progress follows an easing formula (residual \(f(r, 4)))"
        case .perSampleNoise(let share):
            "the wobble across the slider is per-sample noise (\(f(share, 2)) of its steps turn back)"
        case .scriptLike(let score, let threshold):
            "moves like a script (drag model score \(f(score)), refused from \(f(threshold)))"
        case .endsElsewhere: "the track does not end where the piece was released"
        case .replayed: "the drag repeats one accepted before"
        case .regularKeys: "key presses at machine-regular intervals"
        case .impossibleKeyStep(let d):
            "a key press moved the piece \(f(d, 2)), a step no key makes"
        case .keysTooFast(let t):
            "key presses \(f(t * 1000, 1)) ms apart, faster than a key repeats"
        }
    }
}

/// Checks a drag's samples for signs of a script. Distances are fractions of the displayed
/// width, so the rules mean the same on any display; times are seconds.
///
/// A pointer drag must have finite values and strictly increasing times, start where the
/// piece starts and end where it was released, last a humanly possible time, and move the
/// way people's drags move rather than scripts': that last judgement is the drag model's (`DragModel`),
/// trained on real people's recorded drags (at browser rates, over remote desktop and from
/// throttled loggers) and on human-like cursor libraries' drags. A drag with fewer samples
/// than the model can read is refused here; the verifier's policy decides whether such an
/// attempt may instead pay a proof of work.
///
/// Each pointer device is judged by what it produces. A mouse's track is read as sent: its
/// bursts and gaps are a person's, a timer's even beat a script's. A finger's or a pen's
/// track comes in a touchscreen's steady stream of one sample a frame, which says nothing of
/// who moved, so it is read at a steady frame rate by a model trained on finger strokes
/// (`DragModel.touch`): only the motion counts — a flick's slow start and late peak, an aimed
/// stroke's settling — and a script that re-times its path to a touchscreen's cadence gains
/// nothing by claiming a finger. A finger flicks faster than a mouse is dragged, so a stroke
/// is too quick for a finger only under ``minimumSteadyDuration``.
public struct TrajectoryRules: Hashable, Sendable {
    /// Fewest pointer samples the model can judge.
    public var minimumSamples = 3
    /// Shortest drag, in seconds (a mouse's, and a key attempt's).
    public var minimumDuration = 0.2
    /// Shortest drag of a finger or a pen, in seconds: 99 in 100 of people's recorded finger
    /// flicks take 77 ms or more, and their aimed finger strokes 100 ms or more.
    public var minimumSteadyDuration = 0.05
    /// Longest drag, in seconds.
    public var maximumDuration = 120.0
    /// The widest spread of a mouse drag's intervals, in seconds, that is still a timer's
    /// beat (six intervals or more). A browser coarsens event times to a tenth of a
    /// millisecond and jitters them, so a script's timer reaches the service up to ±0.2 ms
    /// off its beat; no recorded person's mouse drag of the dev split has its intervals within
    /// 1 ms of each other (0 of 2,229; the closest within 2 ms).
    public var evenTimingTolerance = 0.0005
    /// How far the first sample may be from the piece's start.
    public var maximumStartGap = 0.02
    /// How far the last sample may be from the reported release.
    public var maximumEndGap = 0.02
    /// How far any sample may stray from the slider's row or column, in widths.
    public var maximumAxisDeviation = 1.0
    /// The least root-mean-square gap, as a share of the travel, between the progress along
    /// the slider and the nearest textbook easing curve (no recorded person's drag came
    /// within 0.005; every naive script's does).
    public var minimumCurveResidual = 0.005
    /// The same for a finger's or a pen's drag, read at a steady frame rate
    /// (`DragFeatures.steadyFrames`): a formula's samples joined by straight lines between
    /// frames stay within 0.01 of their curve, as 0.4 % of people's recorded finger flicks and
    /// 0.1 % of their aimed finger strokes do (those pay the price instead).
    public var minimumSteadyCurveResidual = 0.01
    /// The largest share of a drag's steps across the slider that may turn back (see
    /// ``crossTurns(_:axis:)``): noise added to each sample turns back at 2/3 of them, a
    /// hand's drift seldom. A copy of a person's drag moved up to ±3 px a sample turns back
    /// at over half its steps about half the time (85 % when laid flat first); 2 of the 4,784
    /// recorded people's drags of the dev split do (they pay the price instead), and 6 of
    /// 7,629 finger strokes with frames lost as a slow phone loses them. Judged on drags of
    /// six samples or more none of which keeps its place across the slider: a mouse's whole
    /// pixels do, noise never.
    public var maximumCrossTurns = 0.5
    /// The drag model's score from which a drag is refused; `nil` uses the trained
    /// threshold (the score that keeps 99.5 % of people's recorded drags), 1 or more refuses
    /// no drag for its shape.
    public var maximumScriptScore: Double? = nil
    /// Fewest key presses for a keyboard attempt.
    public var minimumKeyPresses = 3
    /// The steps an arrow key moves the piece, in the track's units (picture pixels): 1 with
    /// Shift, else 4, doubling while the key is held, up to 32 (`PuzzleKeySteps`).
    public var keySteps: [Double] = PuzzleKeySteps.all
    /// The shortest interval between two key presses, in seconds (keys repeat at most about
    /// 30 times a second).
    public var minimumKeyInterval = 0.02
    /// The least spread of intervals between key presses, in seconds.
    public var minimumKeyJitter = 0.004

    /// Creates the default rules.
    public init() {}

    /// The first rule the track breaks, or `nil` when it looks like a person's.
    ///
    /// - Parameters:
    ///   - track: The samples, in display units and seconds.
    ///   - release: The reported release position, display units.
    ///   - start: Where the piece started, display units; `nil` skips the start rule (a
    ///     caller that does not know it).
    ///   - displayWidth: The display width the units refer to.
    ///   - axis: The puzzle's axis.
    ///   - inputMethod: Pointer or keyboard.
    ///   - device: The device of a pointer drag, which decides how it is read.
    ///   - farEdge: The furthest the piece goes along the slider, in the track's units, when
    ///     known: a key press may land there (End), and a drag carried past it releases the
    ///     piece there.
    public func violation(
        in track: [PuzzleTrackPoint], release: Point, start: Point? = nil, displayWidth: Double,
        axis: PuzzleAxis, inputMethod: PuzzleInputMethod, device: PointerDevice = .mouse,
        farEdge: Double? = nil
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
        if inputMethod == .keyboard {
            return keyboardViolation(points, track: track, end: end, axis: axis, farEdge: farEdge)
        }

        guard points.count >= max(3, minimumSamples) else {
            return .tooFewSamples(count: points.count, minimum: max(3, minimumSamples))
        }
        let duration = last.time - first.time
        let shortest = device == .mouse ? minimumDuration : minimumSteadyDuration
        guard duration >= shortest else {
            return .tooQuick(seconds: duration, minimum: shortest)
        }
        guard duration <= maximumDuration else {
            return .tooSlow(seconds: duration, maximum: maximumDuration)
        }
        if let start {
            let origin = Point(x: start.x / displayWidth, y: start.y / displayWidth)
            let startGap =
                switch axis {
                case .horizontal: abs(first.x - origin.x)
                case .vertical: abs(first.y - origin.y)
                case .free: first.position.distance(to: origin)
                }
            if startGap > maximumStartGap { return .startsElsewhere(fractionOfWidth: startGap) }
            let stray: Double =
                switch axis {
                case .horizontal: points.map { abs($0.y - origin.y) }.max()!
                case .vertical: points.map { abs($0.x - origin.x) }.max()!
                case .free: 0
                }
            if stray > maximumAxisDeviation { return .offAxis(fractionOfWidth: stray) }
        }
        // The track follows the pointer, and the piece stops at the ends of the slider: a
        // pointer carried past an end releases the piece at that end.
        let reach = farEdge.map { 0...max(0, $0 / displayWidth) }
        let gap =
            switch axis {
            case .horizontal: abs((reach.map { last.x.clamped(to: $0) } ?? last.x) - end.x)
            case .vertical: abs((reach.map { last.y.clamped(to: $0) } ?? last.y) - end.y)
            case .free: last.position.distance(to: end)
            }
        if gap > maximumEndGap { return .endsElsewhere }
        // The model reads the track in the units it was recorded in (background pixels,
        // seconds): its features are shares of the travel and of the time. A finger's or a
        // pen's is read at a steady frame rate.
        let read = device == .mouse ? track : DragFeatures.steadyFrames(track)
        guard let features = DragFeatures(read, axis: axis) else {
            return .tooFewSamples(count: points.count, minimum: 3)
        }
        // What no person's recorded mouse drag does, whatever the model would say: a timer's
        // even intervals (six or more; a touchscreen's stream may be that even), or progress
        // on a textbook easing curve.
        let intervals = zip(points, points.dropFirst()).map { $1.time - $0.time }
        if device == .mouse, intervals.count >= 6, let low = intervals.min(),
            let high = intervals.max(), high - low < evenTimingTolerance
        {
            return .evenlyTimed
        }
        let closest = device == .mouse ? minimumCurveResidual : minimumSteadyCurveResidual
        if features.easingResidual < closest {
            return .textbookCurve(residual: features.easingResidual)
        }
        if let turns = Self.crossTurns(track, axis: axis), turns > maximumCrossTurns {
            return .perSampleNoise(turns: turns)
        }
        let model = DragModel.judging(device)
        let threshold = maximumScriptScore ?? model.threshold
        let score = model.score(features)
        if threshold < 1, score >= threshold {
            return .scriptLike(score: score, threshold: threshold)
        }
        return nil
    }

    /// The share of a track's steps across the slider that turn back (each pair of steps in
    /// a row that go opposite ways). Independent noise turns back at 2/3 of them; a drift, or
    /// a jump where frames were lost, seldom. `nil` for fewer than six samples, a free axis,
    /// or a track with a sample that keeps its place across the slider (less than a
    /// two-hundredth of a unit from the one before: the widget sends hundredths).
    public static func crossTurns(_ track: [PuzzleTrackPoint], axis: PuzzleAxis) -> Double? {
        guard track.count >= 6, axis != .free else { return nil }
        let across = track.map { axis == .horizontal ? $0.y : $0.x }
        let steps = zip(across, across.dropFirst()).map { $1 - $0 }
        guard steps.allSatisfy({ abs($0) >= 0.005 }) else { return nil }
        let turns = zip(steps, steps.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(turns) / Double(steps.count - 1)
    }

    private func keyboardViolation(
        _ points: [PuzzleTrackPoint], track: [PuzzleTrackPoint], end: Point, axis: PuzzleAxis,
        farEdge: Double?
    ) -> TrajectoryViolation? {
        let presses = points.count - 1
        guard presses >= minimumKeyPresses else {
            return .tooFewSamples(count: presses, minimum: minimumKeyPresses)
        }
        let duration = points.last!.time - points.first!.time
        guard duration >= minimumDuration else {
            return .tooQuick(seconds: duration, minimum: minimumDuration)
        }
        if points.last!.position.distance(to: end) > maximumEndGap { return .endsElsewhere }
        // Each press moves one coordinate by a step a key makes, or to an edge (Home, End,
        // or a step cut short there).
        for (a, b) in zip(track, track.dropFirst()) {
            let moves = [b.x - a.x, b.y - a.y]
            let along = axis == .vertical ? [1] : axis == .horizontal ? [0] : [0, 1]
            let position = [b.x, b.y]
            let ok =
                (0..<2).filter { moves[$0] != 0 }.count <= 1
                && (0..<2).allSatisfy { index in
                    guard moves[index] != 0 else { return true }
                    guard along.contains(index) else { return false }
                    let atEdge =
                        abs(position[index]) <= 0.02
                        || farEdge.map { abs(position[index] - $0) <= 0.02 } == true
                    return atEdge || keySteps.contains { abs(abs(moves[index]) - $0) <= 0.02 }
                }
            if !ok {
                return .impossibleKeyStep(distance: max(abs(moves[0]), abs(moves[1])))
            }
        }
        let intervals = zip(points.dropFirst(), points.dropFirst(2)).map { $1.time - $0.time }
        if let shortest = intervals.min(), shortest < minimumKeyInterval {
            return .keysTooFast(interval: shortest)
        }
        if let low = intervals.min(), let high = intervals.max(), high - low < minimumKeyJitter {
            return .regularKeys
        }
        return nil
    }
}
