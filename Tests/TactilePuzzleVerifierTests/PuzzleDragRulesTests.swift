import Foundation
import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TactilePuzzleSolvers
import TestSupport
import Testing

@testable import TactilePuzzleVerifier

/// The trajectory rules against every kind of scripted drag seen in attacks (none may pass)
/// and against the project's own drag simulation (at most one in ten may pass). Whether
/// people pass is measured on people's recorded drags (`scripts/judge-drags.sh`), never on a
/// simulation.
@Suite struct PuzzleDragRulesTests {
    let rules = TrajectoryRules()

    /// A drag from a random start to a random hole along `axis`, at 640 px width, with the
    /// release where the drag ended (on the slider's axis) and the verdict of the rules.
    func judge(
        _ make: (Point, Point, inout SeededGenerator) -> [PuzzleTrackPoint], axis: PuzzleAxis,
        seed: UInt64, device: PointerDevice = .mouse, retimed: Bool = false
    ) -> TrajectoryViolation? {
        var random = SeededGenerator(seed: seed)
        // Vertical sliders run down a tall picture (640 wide, 480 high); the others across.
        let start =
            axis == .vertical
            ? Point(
                x: Double.random(in: 100...540, using: &random),
                y: Double.random(in: 0...30, using: &random))
            : Point(
                x: Double.random(in: 0...40, using: &random),
                y: Double.random(in: 20...260, using: &random))
        let target =
            switch axis {
            case .horizontal: Point(x: Double.random(in: 200...540, using: &random), y: start.y)
            case .vertical: Point(x: start.x, y: Double.random(in: 180...380, using: &random))
            case .free:
                Point(
                    x: Double.random(in: 200...540, using: &random),
                    y: Double.random(in: 20...260, using: &random))
            }
        var track = make(start, target, &random)
        if retimed { track = Self.atFrameCadence(track, seed: seed) }
        guard let last = track.last else { return .tooFewSamples(count: 0, minimum: 1) }
        let release =
            switch axis {
            case .horizontal: Point(x: last.x, y: start.y)
            case .vertical: Point(x: start.x, y: last.y)
            case .free: last.position
            }
        return rules.violation(
            in: track, release: release, start: start, displayWidth: 640, axis: axis,
            inputMethod: .pointer, device: device)
    }

    /// A script's path re-timed as a touchscreen reports: one sample a frame at 60 or 120 Hz,
    /// each within a millisecond of its frame, no gaps, the last at the path's end.
    static func atFrameCadence(_ track: [PuzzleTrackPoint], seed: UInt64) -> [PuzzleTrackPoint] {
        var random = SeededGenerator(seed: seed ^ 0x7A11)
        let period = seed % 2 == 0 ? 1 / 60.0 : 1 / 120.0
        let times = track.map(\.time)
        let duration = times.last! - times.first!
        var frames = [track[0]]
        var frame = 1.0
        while frame * period < duration {
            let time = times[0] + frame * period + Double.random(in: -0.001...0.001, using: &random)
            frames.append(
                PuzzleTrackPoint(
                    x: DragFeatures.interpolate(times, track.map(\.x), at: time),
                    y: DragFeatures.interpolate(times, track.map(\.y), at: time), time: time))
            frame += 1
        }
        frames.append(track[track.count - 1])
        return frames
    }

    /// The project's own simulated hand is a script too: the drag model was never shown it,
    /// and must not let it through (a generator in a public repository is a ready bypass).
    @Test(arguments: [PuzzleAxis.horizontal, .vertical])
    func theProjectsOwnSimulatedHandIsTurnedAway(axis: PuzzleAxis) {
        let count = 300
        var passed = 0
        for seed in 0..<UInt64(count) {
            if judge(
                { HumanDrag.track(from: $0, to: $1, axis: axis, using: &$2) }, axis: axis,
                seed: seed) == nil
            {
                passed += 1
            }
        }
        #expect(Double(passed) / Double(count) <= 0.1, "\(axis): \(passed) of \(count) passed")
    }

    @Test(arguments: ScriptedDrag.allCases)
    func everyScriptedDragIsTurnedAway(kind: ScriptedDrag) {
        var passed = 0
        var rules: [String: Int] = [:]
        for seed in 0..<200 as Range<UInt64> {
            if let violation = judge(
                { kind.track(from: $0, to: $1, axis: .horizontal, using: &$2) }, axis: .horizontal,
                seed: seed)
            {
                rules[violation.rule, default: 0] += 1
            } else {
                passed += 1
            }
        }
        #expect(passed == 0, "\(kind): \(passed) of 200 passed")
        print("scripted \(kind): \(rules)")
    }

    /// Claiming a finger opens no door: a script's path re-timed to a touchscreen's steady
    /// cadence and sent as a finger's (or a pen's) is refused as its drag is as a mouse's; a
    /// track malformed or out of place is refused whatever device it claims.
    @Test(arguments: ScriptedDrag.allCases)
    func everyScriptedDragIsTurnedAwayAsAFingers(kind: ScriptedDrag) {
        let formula: Set<ScriptedDrag> = [
            .easeOut, .alternating, .easeInOutWithJitter, .textbook, .constantSpeed,
        ]
        for device in [PointerDevice.touch, .pen] {
            let passed = (0..<200 as Range<UInt64>).filter { seed in
                judge(
                    { kind.track(from: $0, to: $1, axis: .horizontal, using: &$2) },
                    axis: .horizontal, seed: seed, device: device,
                    retimed: formula.contains(kind)) == nil
            }.count
            #expect(passed == 0, "\(kind) as \(device): \(passed) of 200 passed")
        }
    }

    @Test func theProjectsOwnSimulatedHandIsTurnedAwayAsAFingers() {
        let count = 300
        let passed = (0..<UInt64(count)).filter { seed in
            judge(
                { HumanDrag.track(from: $0, to: $1, axis: .horizontal, using: &$2) },
                axis: .horizontal, seed: seed, device: .touch, retimed: true) == nil
        }.count
        #expect(Double(passed) / Double(count) <= 0.1, "\(passed) of \(count) passed")
    }
}

/// Attempts as the control records them are well-formed for the rules: pointer events with
/// whole-millisecond time stamps (as GTK gives them, several to a millisecond with a fast
/// mouse) keep strictly increasing times, start at the piece and end at the release (the
/// drag model is left out: a simulated hand says nothing about people), and key presses pass.
@Suite struct PuzzleControlTrackTests {
    let start = Point(x: 0, y: 140)
    let hole = Point(x: 412, y: 140)

    func model() -> PuzzleModel {
        try! PuzzleModel(
            areaSize: Size(width: 640, height: 360), pieceSize: Size(width: 96, height: 96),
            holePosition: hole, startPosition: start, axis: .horizontal)
    }

    func verdict(_ result: PuzzleResult) -> TrajectoryViolation? {
        var rules = TrajectoryRules()
        rules.maximumScriptScore = 1
        return rules.violation(
            in: result.track, release: result.position, start: start, displayWidth: 640,
            axis: .horizontal, inputMethod: result.inputMethod)
    }

    @Test(arguments: 0..<20 as Range<UInt64>)
    func pointerDragsWithMillisecondStampsAreWellFormed(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let hand = HumanDrag.track(from: start, to: hole, axis: .horizontal, using: &random)
        var model = model()
        let grab = Point(x: 48, y: 48)
        func pointer(_ p: PuzzleTrackPoint) -> (Point, Double) {
            // Whole milliseconds, and every other event doubled in the same millisecond.
            (Point(x: p.x + grab.x, y: p.y + grab.y), (1000 * p.time).rounded(.down) / 1000)
        }
        let (first, t0) = pointer(hand[0])
        let began = model.beginDrag(at: first, time: 10 + t0)
        #expect(began)
        for (index, sample) in hand.dropFirst().enumerated() {
            let (location, time) = pointer(sample)
            model.moveDrag(to: location, time: 10 + time)
            if index % 2 == 0 { model.moveDrag(to: location, time: 10 + time) }
        }
        let (last, tEnd) = pointer(hand[hand.count - 1])
        let ended = model.endDrag(at: last, time: 10 + tEnd)
        let result = try #require(ended)
        #expect(verdict(result) == nil, "seed \(seed)")
    }

    @Test func keyPressesPass() throws {
        var model = model()
        var time = 5.0
        for (index, interval) in [0.0, 0.21, 0.17, 0.26, 0.19, 0.23].enumerated() {
            time += interval
            model.nudge(by: Vector(dx: PuzzleKeySteps.step(repeats: index), dy: 0), time: time)
        }
        let submitted = model.submit(time: time + 0.3)
        let result = try #require(submitted)
        #expect(result.inputMethod == .keyboard)
        #expect(verdict(result) == nil)
    }
}
