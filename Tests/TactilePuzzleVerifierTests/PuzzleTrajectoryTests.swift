import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TestSupport
import Testing

@testable import TactilePuzzleVerifier

/// The rules every drag must meet whatever the model says, and the drag model on tracks
/// written here: the naive scripts it must refuse, and the training script's own numbers for
/// its fixture tracks (the Swift features and scores must be the Python ones).
@Suite struct PuzzleTrajectoryTests {
    let rules = TrajectoryRules()
    let start = Point(x: 0, y: 120)

    func violation(
        _ track: [PuzzleTrackPoint], rules: TrajectoryRules? = nil, release: Point? = nil,
        from origin: Point? = nil
    ) -> TrajectoryViolation? {
        (rules ?? self.rules).violation(
            in: track, release: release ?? Point(x: track.last!.x, y: (origin ?? start).y),
            start: origin ?? start, displayWidth: 640, axis: .horizontal, inputMethod: .pointer)
    }

    /// A track of `count` samples at 60 Hz whose progress follows `progress` (0…1 → 0…1)
    /// over 400 px, with `wobble(i)` added across.
    func track(
        count: Int = 60, _ progress: (Double) -> Double, wobble: (Int) -> Double = { _ in 0 }
    ) -> [PuzzleTrackPoint] {
        (0..<count).map {
            let u = Double($0) / Double(count - 1)
            // 60 Hz events, as a browser stamps them: 16 or 17 whole milliseconds apart.
            return PuzzleTrackPoint(
                x: 400 * progress(u), y: 120 + wobble($0),
                time: (Double($0) * 1000 / 60).rounded(.down) / 1000)
        }
    }

    /// The structural rules alone (the model's judgement off).
    var structural: TrajectoryRules {
        var rules = TrajectoryRules()
        rules.maximumScriptScore = 1
        return rules
    }

    @Test func naiveScriptsAreRefused() {
        let scripts: [(String, [PuzzleTrackPoint])] = [
            ("linear", track { $0 }),
            ("ease-out", track { 1 - (1 - $0) * (1 - $0) * (1 - $0) }),
            ("ease-in-out", track({ $0 * $0 * (3 - 2 * $0) }, wobble: { $0 % 2 == 0 ? 1 : -1 })),
            ("minimum jerk", track { $0 * $0 * $0 * (10 - 15 * $0 + 6 * $0 * $0) }),
            (
                "sine, a pixel of noise",
                track({ sin(Double.pi / 2 * $0) }, wobble: { ($0 * 7) % 3 == 0 ? 1 : 0 })
            ),
        ]
        for (name, samples) in scripts {
            #expect(violation(samples) != nil, "\(name) passed")
            // Even with the exact timer's intervals made uneven, the curve or the model tells.
            let uneven = samples.enumerated().map { i, p in
                PuzzleTrackPoint(x: p.x, y: p.y, time: p.time + (i % 3 == 1 ? 0.002 : 0))
            }
            #expect(violation(uneven) != nil, "\(name), unevenly timed, passed")
        }
    }

    @Test func tooFewSamplesCannotBeJudged() {
        let track = (0..<2).map {
            PuzzleTrackPoint(x: 400 * Double($0), y: 120, time: 0.5 * Double($0))
        }
        #expect(violation(track) == .tooFewSamples(count: 2, minimum: 3))
    }

    @Test func tooQuickAndTooSlowAreRejected() {
        let quick = track { $0 }.map { PuzzleTrackPoint(x: $0.x, y: $0.y, time: $0.time / 8) }
        guard case .tooQuick = violation(quick, rules: structural) else {
            return #expect(Bool(false), "\(String(describing: violation(quick)))")
        }
        let slow = track { $0 }.map { PuzzleTrackPoint(x: $0.x, y: $0.y, time: $0.time * 200) }
        guard case .tooSlow = violation(slow, rules: structural) else {
            return #expect(Bool(false), "\(String(describing: violation(slow)))")
        }
    }

    @Test func trackMustStartAtThePieceAndEndAtTheRelease() {
        // Progress on no easing curve: a pause in the middle.
        let samples = track { $0 < 0.4 ? $0 * 1.5 : $0 < 0.6 ? 0.6 : 0.6 + ($0 - 0.6) }
        #expect(violation(samples, rules: structural) == nil)
        #expect(
            violation(samples, rules: structural, release: Point(x: 460, y: 120))
                == .endsElsewhere)
        guard
            case .startsElsewhere = violation(
                samples, rules: structural, from: Point(x: 60, y: 120))
        else { return #expect(Bool(false)) }
    }

    /// A person who carries the pointer past the end of the slider releases the piece at the
    /// end: the track (the pointer's) ends beyond it, the release at it.
    @Test func aDragCarriedPastTheEndOfTheSliderEndsAtTheEnd() {
        let samples = track { $0 < 0.4 ? $0 * 1.5 : $0 < 0.6 ? 0.6 : 0.6 + ($0 - 0.6) }
        let end = samples.last!.x - 30
        func judged(release x: Double, farEdge: Double?) -> TrajectoryViolation? {
            structural.violation(
                in: samples, release: Point(x: x, y: start.y), start: start, displayWidth: 640,
                axis: .horizontal, inputMethod: .pointer, farEdge: farEdge)
        }
        #expect(judged(release: end, farEdge: end) == nil)
        #expect(judged(release: end - 20, farEdge: end) == .endsElsewhere)
        #expect(judged(release: end, farEdge: nil) == .endsElsewhere, "the end not known")
        let vertical = samples.map { PuzzleTrackPoint(x: start.y, y: $0.x, time: $0.time) }
        #expect(
            structural.violation(
                in: vertical, release: Point(x: start.y, y: end), start: Point(x: 120, y: 0),
                displayWidth: 640, axis: .vertical, inputMethod: .pointer, farEdge: end) == nil)
    }

    @Test func backwardsOrRepeatedTimesAreMalformed() {
        var samples = track { $0 }
        samples[5].time = -1
        #expect(violation(samples) == .malformed)
        samples = track { $0 }
        samples[6].time = samples[5].time
        #expect(violation(samples) == .malformed)
        samples = track { $0 }
        samples[7].x = .nan
        #expect(violation(samples) == .malformed)
    }

    @Test func theModelReadsTheSameAtAnyDisplayScale() throws {
        let fixtures = try DragModelFixtures.load("drag-model-fixtures")
        for fixture in fixtures.tracks {
            let scaled = fixture.track.map {
                PuzzleTrackPoint(x: $0.x / 2, y: $0.y / 2, time: $0.time)
            }
            let a = try #require(DragFeatures(fixture.track, axis: .horizontal))
            let b = try #require(DragFeatures(scaled, axis: .horizontal))
            // Every feature but the ones in pixels (none) or seconds is a share.
            expectClose(
                DragModel.trained.score(a), DragModel.trained.score(b), within: 1e-9,
                "\(fixture.name)")
        }
    }

    @Test func swiftFeaturesAndScoresAreTheTrainingScripts() throws {
        let fixtures = try DragModelFixtures.load("drag-model-fixtures")
        #expect(fixtures.names == DragFeatures.names)
        #expect(fixtures.threshold == DragModel.trained.threshold)
        for fixture in fixtures.tracks {
            let features = try #require(DragFeatures(fixture.track, axis: .horizontal))
            for (index, (swift, python)) in zip(features.values, fixture.features).enumerated() {
                expectClose(swift, python, within: 1e-9, "\(fixture.name) \(fixtures.names[index])")
            }
            expectClose(DragModel.trained.score(features), fixture.score, within: 1e-9)
        }
    }

    @Test func theTouchModelsFeaturesAndScoresAreTheTrainingScripts() throws {
        let fixtures = try DragModelFixtures.load("drag-model-touch-fixtures")
        #expect(fixtures.names == DragFeatures.names)
        #expect(fixtures.threshold == DragModel.touch.threshold)
        for fixture in fixtures.tracks {
            let frames = DragFeatures.steadyFrames(fixture.track)
            let features = try #require(DragFeatures(frames, axis: .horizontal))
            for (index, (swift, python)) in zip(features.values, fixture.features).enumerated() {
                expectClose(swift, python, within: 1e-9, "\(fixture.name) \(fixtures.names[index])")
            }
            expectClose(DragModel.touch.score(features), fixture.score, within: 1e-9)
        }
    }

    /// A touchscreen's track is read one frame in 60: by linear interpolation between the
    /// samples either side of each frame, from the first sample, and the last sample kept.
    @Test func aFingersTrackIsReadAtSixtyFramesASecond() {
        let track = [
            PuzzleTrackPoint(x: 0, y: 10, time: 2), PuzzleTrackPoint(x: 30, y: 13, time: 2.03),
            PuzzleTrackPoint(x: 40, y: 13, time: 2.055),
        ]
        let frames = DragFeatures.steadyFrames(track)
        // Frames at 0, 1/60, 2/60 and 3/60 s (all before 0.055 s), then the last sample.
        #expect(frames.count == 5)
        expectClose(frames[1].time, 2 + 1 / 60.0, within: 1e-12)
        expectClose(frames[1].x, 30 * (1 / 60.0) / 0.03, within: 1e-9)
        expectClose(frames[1].y, 10 + 3 * (1 / 60.0) / 0.03, within: 1e-9)
        expectClose(frames[2].x, 30 + 10 * (2 / 60.0 - 0.03) / 0.025, within: 1e-9)
        #expect(frames.first == track.first && frames.last == track.last)
        // The same motion reported at 120 Hz reads the same.
        let line = (0...24).map {
            PuzzleTrackPoint(x: 8 * Double($0), y: 0, time: Double($0) / 120)
        }
        let halves = DragFeatures.steadyFrames(line)
        #expect(halves.count == 13)
        for (index, frame) in halves.enumerated() {
            expectClose(frame.x, 16 * Double(index), within: 1e-9)
        }
    }

    /// The features of how motion changes from frame to frame, on tracks whose values follow
    /// by hand: a steady straight line, a zigzag across it, and a pace that alternates.
    @Test func frameMotionFeaturesMeasureWhatTheySay() throws {
        func value(_ name: String, _ track: [PuzzleTrackPoint]) throws -> Double {
            let features = try #require(DragFeatures(track, axis: .horizontal))
            return features.values[try #require(DragFeatures.names.firstIndex(of: name))]
        }
        // 31 samples a frame apart; the last (the release) is left out, so 30 are read.
        func track(_ position: (Int) -> (x: Double, y: Double)) -> [PuzzleTrackPoint] {
            (0...30).map {
                PuzzleTrackPoint(x: position($0).x, y: position($0).y, time: Double($0) / 60)
            }
        }
        let line = track { (5 * Double($0), 100) }
        #expect(try value("straight_frames", line) == 1)
        #expect(try value("speed_roughness", line) == 0)
        #expect(try value("acceleration_flips", line) == 0)
        #expect(try value("speed_change_correlation", line) == 0)
        // Across: ±0.5 about the line, so 29 first differences of ±1 and 28 second ones of ±2.
        let zigzag = track { (5 * Double($0), 100 + ($0 % 2 == 0 ? -0.5 : 0.5)) }
        expectClose(
            try value("across_high_frequency", zigzag), log((28 * 4 + 1e-3) / (29 + 1e-3)),
            within: 1e-12)
        #expect(try value("straight_frames", zigzag) == 0)
        // Along: 5 px a frame with every other sample 0.5 px ahead, so the speed alternates
        // 5.5, 4.5: every acceleration flips and each change of speed undoes the one before.
        let pace = track { (5 * Double($0) + ($0 % 2 == 1 ? 0.5 : 0), 100) }
        #expect(try value("acceleration_flips", pace) == 1)
        expectClose(try value("speed_change_correlation", pace), -1, within: 1e-12)
        // Mean speed: 15 steps of 5.5 and 14 of 4.5 over 29.
        expectClose(
            try value("speed_roughness", pace), 1 / (145.5 / 29 + 1e-9), within: 1e-9)
    }

    /// A finger flicks faster than a mouse is dragged: a tenth of a second is too quick for a
    /// mouse and not for a finger or a pen; under 50 ms is too quick for any.
    @Test func aFingersStrokeIsTooQuickOnlyUnderFiftyMilliseconds() {
        let samples = track(count: 10) { $0 < 0.5 ? $0 * 0.4 : 0.2 + ($0 - 0.5) * 1.6 }
        func judged(_ seconds: Double, _ device: PointerDevice) -> TrajectoryViolation? {
            let scale = seconds / samples.last!.time
            let timed = samples.map { PuzzleTrackPoint(x: $0.x, y: $0.y, time: $0.time * scale) }
            return structural.violation(
                in: timed, release: Point(x: timed.last!.x, y: start.y), start: start,
                displayWidth: 640, axis: .horizontal, inputMethod: .pointer, device: device)
        }
        #expect(judged(0.1, .mouse) == .tooQuick(seconds: 0.1, minimum: 0.2))
        #expect(judged(0.1, .touch) == nil)
        #expect(judged(0.1, .pen) == nil)
        #expect(judged(0.04, .touch) == .tooQuick(seconds: 0.04, minimum: 0.05))
    }

    /// A touchscreen reports one sample a frame, as evenly as a timer: that is no sign of a
    /// script for a finger, as it is for a mouse.
    @Test func aTouchscreensEvenStreamIsNotATimers() {
        let even = (0..<30).map {
            let u = Double($0) / 29
            return PuzzleTrackPoint(
                x: 400 * (u < 0.4 ? u * 1.5 : u < 0.6 ? 0.6 : 0.6 + (u - 0.6)), y: 120,
                time: Double($0) / 60)
        }
        func judged(_ device: PointerDevice) -> TrajectoryViolation? {
            structural.violation(
                in: even, release: Point(x: even.last!.x, y: 120), start: start,
                displayWidth: 640, axis: .horizontal, inputMethod: .pointer, device: device)
        }
        #expect(judged(.mouse) == .evenlyTimed)
        #expect(judged(.touch) == nil)
    }

    /// A browser hands a script's timer to the service a tenth of a millisecond off its beat
    /// either way (coarsened, jittered event times): still a timer's. Intervals a millisecond
    /// apart or more are not judged by this rule.
    @Test func aTimerJitteredByTheBrowserIsStillATimer() {
        func judged(jitter: Double) -> TrajectoryViolation? {
            let samples = (0..<20).map {
                let u = Double($0) / 19
                let offset = [0, jitter, -jitter, jitter / 2][$0 % 4]
                return PuzzleTrackPoint(
                    x: 400 * (u < 0.5 ? u * 1.4 : 0.7 + (u - 0.5) * 0.6), y: 120,
                    time: Double($0) * 0.016 + offset)
            }
            return structural.violation(
                in: samples, release: Point(x: samples.last!.x, y: 120), start: start,
                displayWidth: 640, axis: .horizontal, inputMethod: .pointer, device: .mouse)
        }
        // The intervals move by +j, -2j, +1.5j, -0.5j: spreads of 0, 0.35 ms and 1.05 ms
        // between the shortest and the longest.
        #expect(judged(jitter: 0) == .evenlyTimed)
        #expect(judged(jitter: 0.0001) == .evenlyTimed)
        #expect(judged(jitter: 0.0003) == nil)
    }

    /// The share of steps across the slider that turn back, against closed forms: 2/3 for
    /// independent noise (of three values in a row, the middle one is the highest or the
    /// lowest two times in three), ω/π for a sine of angular step ω (it turns twice a
    /// period), 0 for a steady drift, and as little for a drift with a jump in it.
    @Test func theShareOfStepsThatTurnBack() throws {
        func samples(_ across: (Int) -> Double, count: Int) -> [PuzzleTrackPoint] {
            (0..<count).map {
                PuzzleTrackPoint(x: Double($0), y: across($0), time: Double($0) / 60)
            }
        }
        // Independent noise, redrawn where it would keep its place (under 0.005 from the one
        // before): about one draw in 600, too few to move the share.
        var random = SeededRandom(seed: 39)
        var noise = [0.0]
        while noise.count < 20_000 {
            let value = Double.random(in: -3...3, using: &random)
            if abs(value - noise[noise.count - 1]) >= 0.005 { noise.append(value) }
        }
        let noiseTurns = try #require(
            TrajectoryRules.crossTurns(samples({ noise[$0] }, count: 20_000), axis: .horizontal))
        expectClose(noiseTurns, 2.0 / 3, within: 0.02)
        let step = 2 * Double.pi / 40
        let sine = try #require(
            TrajectoryRules.crossTurns(
                samples({ 5 * sin(step * Double($0) + 0.3) }, count: 4_001), axis: .horizontal))
        expectClose(sine, step / Double.pi, within: 0.001)
        let drift = try #require(
            TrajectoryRules.crossTurns(samples({ 0.5 * Double($0) }, count: 30), axis: .horizontal))
        #expect(drift == 0)
        let jump = try #require(
            TrajectoryRules.crossTurns(
                samples({ 0.5 * Double($0) + ($0 >= 15 ? 20 : 0) }, count: 30), axis: .horizontal))
        #expect(jump == 0)
        // Read across the slider whichever way it runs.
        let vertical = samples({ noise[$0] }, count: 2_000).map {
            PuzzleTrackPoint(x: $0.y, y: $0.x, time: $0.time)
        }
        #expect(
            TrajectoryRules.crossTurns(vertical, axis: .vertical)
                == TrajectoryRules.crossTurns(
                    samples({ noise[$0] }, count: 2_000), axis: .horizontal))
        // Not judged: under six samples, a sample that keeps its place across, a free axis.
        #expect(
            TrajectoryRules.crossTurns(samples({ noise[$0] }, count: 5), axis: .horizontal) == nil)
        var still = samples({ noise[$0] }, count: 60)
        still[30].y = still[29].y
        #expect(TrajectoryRules.crossTurns(still, axis: .horizontal) == nil)
        #expect(TrajectoryRules.crossTurns(samples({ noise[$0] }, count: 60), axis: .free) == nil)
    }

    /// A drag whose wobble across the slider drifts passes; the same drag with every sample
    /// moved up to ±3 px (a replay tool's noise) is refused for it, and so is one laid flat
    /// and moved so.
    @Test func perSampleNoiseAcrossTheSliderIsRefused() {
        let progress: (Double) -> Double = { $0 < 0.5 ? $0 * 0.4 : 0.2 + ($0 - 0.5) * 1.6 }
        let drifting = track(count: 40, progress) { 4 * sin(Double($0) / 7) + 0.05 * Double($0) }
        var random = SeededRandom(seed: 3)
        let noisy = drifting.map {
            PuzzleTrackPoint(
                x: $0.x, y: $0.y + Double.random(in: -3...3, using: &random), time: $0.time)
        }
        let flat = drifting.map {
            PuzzleTrackPoint(
                x: $0.x, y: 120 + Double.random(in: -3...3, using: &random), time: $0.time)
        }
        #expect(TrajectoryRules.crossTurns(drifting, axis: .horizontal)! < 0.1)
        #expect(violation(drifting, rules: structural) == nil)
        for (name, samples) in [("moved", noisy), ("laid flat and moved", flat)] {
            guard case .perSampleNoise(let turns) = violation(samples, rules: structural) else {
                Issue.record(
                    "\(name): \(String(describing: violation(samples, rules: structural)))")
                continue
            }
            #expect(turns > rules.maximumCrossTurns)
        }
    }

    @Test func aDamagedModelTextDoesNotParse() {
        #expect(DragModel(text: "base 0\nrate 0.1\nthreshold 0.5\n0 0 0.5 7 8 0") == nil)
        #expect(DragModel(text: "base 0\nrate 0.1\n0 -1 0 -1 -1 1") == nil)
        #expect(DragModel(text: "base 0\nrate 0.1\nthreshold 0.5\n0 99 0.5 1 2 0") == nil)
        let leaf = DragModel(text: "base 0\nrate 1\nthreshold 0.5\n0 -1 0 -1 -1 2")
        let features = DragFeatures(track { $0 }, axis: .horizontal)!
        expectClose(leaf?.score(features) ?? 0, 1 / (1 + exp(-2.0)), within: 1e-12)
    }

    @Test func keyboardAttemptsNeedTheKeysStepsAndHumanTiming() {
        func keys(_ intervals: [Double], steps: [Double]? = nil) -> [PuzzleTrackPoint] {
            var time = 0.0
            var x = 0.0
            var points = [PuzzleTrackPoint(x: 0, y: 120, time: 0)]
            for (index, interval) in intervals.enumerated() {
                time += interval
                x += steps?[index] ?? PuzzleKeySteps.step(repeats: index)
                points.append(PuzzleTrackPoint(x: x, y: 120, time: time))
            }
            return points
        }
        func verdict(_ points: [PuzzleTrackPoint], farEdge: Double? = nil) -> TrajectoryViolation? {
            rules.violation(
                in: points, release: Point(x: points.last!.x, y: 120), displayWidth: 640,
                axis: .horizontal, inputMethod: .keyboard, farEdge: farEdge)
        }
        let human = keys([0.18, 0.22, 0.15, 0.3, 0.25])
        #expect(verdict(human) == nil)
        #expect(verdict(keys(Array(repeating: 0.1, count: 5))) == .regularKeys)
        // A script's three jumps to the hole are no key's steps.
        #expect(
            verdict(keys([0.2, 0.25, 0.3], steps: [150, 200, 150]))
                == .impossibleKeyStep(distance: 150))
        // Faster than any key repeats.
        guard case .keysTooFast = verdict(keys([0.2, 0.005, 0.3, 0.2])) else {
            return #expect(Bool(false))
        }
        // End lands on the far edge (known to the caller), then the person steps back.
        let end = [
            PuzzleTrackPoint(x: 0, y: 120, time: 0), PuzzleTrackPoint(x: 544, y: 120, time: 0.3),
            PuzzleTrackPoint(x: 540, y: 120, time: 0.62),
            PuzzleTrackPoint(x: 536, y: 120, time: 0.8),
        ]
        #expect(verdict(end, farEdge: 544) == nil)
        #expect(verdict(end) == .impossibleKeyStep(distance: 544))
    }

    @Test func aHeldKeyCrossesThePictureInThirtyPresses() {
        var x = 0.0
        var presses = 0
        while x < 544 {
            x += PuzzleKeySteps.step(repeats: presses)
            presses += 1
        }
        #expect(presses <= 30, "\(presses) presses")
        #expect(Set((0..<40).map(PuzzleKeySteps.step)).isSubset(of: Set(PuzzleKeySteps.all)))
    }
}

/// The tracks `scripts/drag-model/train.py` writes with its own features and scores.
struct DragModelFixtures: Decodable {
    struct Sample: Decodable {
        var x: Double
        var y: Double
        var t: Double
    }
    struct Fixture: Decodable {
        var name: String
        var track: [Sample]
        var features: [Double]
        var score: Double
    }
    var names: [String]
    var threshold: Double
    var tracks: [Fixture]

    /// Reads `Fixtures/NAME.json`.
    static func load(_ name: String) throws -> (
        names: [String], threshold: Double,
        tracks: [(name: String, track: [PuzzleTrackPoint], features: [Double], score: Double)]
    ) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(name).json")
        let decoded = try JSONDecoder().decode(Self.self, from: Data(contentsOf: url))
        return (
            decoded.names, decoded.threshold,
            decoded.tracks.map { fixture in
                (
                    fixture.name,
                    fixture.track.map { PuzzleTrackPoint(x: $0.x, y: $0.y, time: $0.t / 1000) },
                    fixture.features, fixture.score
                )
            }
        )
    }
}
