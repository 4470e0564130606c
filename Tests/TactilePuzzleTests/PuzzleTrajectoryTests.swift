import Foundation
import TactileCore
import TactilePuzzle
import TactilePuzzleVerifier
import TestSupport
import Testing

/// The rules that tell a hand's drag from a script's.
@Suite struct PuzzleTrajectoryTests {
    let rules = TrajectoryRules()
    let start = Point(x: 0, y: 120)
    let end = Point(x: 400, y: 120)

    func violation(
        _ track: [PuzzleTrackPoint], axis: PuzzleAxis = .horizontal, release: Point? = nil,
        from origin: Point? = nil
    )
        -> TrajectoryViolation?
    {
        rules.violation(
            in: track, release: release ?? Point(x: track.last!.x, y: (origin ?? start).y),
            start: origin ?? start, displayWidth: 640, axis: axis, inputMethod: .pointer)
    }

    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func handLikeDragsPass(seed: UInt64) {
        #expect(violation(humanTrack(from: start, to: end, seed: seed)) == nil)
    }

    @Test func fewSamplesAreRejected() {
        let track = (0..<3).map {
            PuzzleTrackPoint(x: 200 * Double($0), y: 120, time: 0.5 * Double($0))
        }
        #expect(violation(track) == .tooFewSamples(count: 3, minimum: 12))
    }

    @Test func constantSpeedIsRejectedEvenWithManySamples() {
        let track = (0...60).map {
            PuzzleTrackPoint(
                x: 400 * Double($0) / 60, y: 120 + sin(Double($0)), time: Double($0) / 60)
        }
        guard case .noSpeedingUp(let ratio) = violation(track) else {
            return #expect(
                Bool(false), "constant speed passed: \(String(describing: violation(track)))")
        }
        expectClose(ratio, 1, within: 0.05)
    }

    @Test func steadyYIsRejected() {
        var track = humanTrack(from: start, to: end)
        for i in track.indices { track[i].y = 120 }
        #expect(violation(track) == .perfectlySteady)
        // A free drag along a perfect straight line, likewise.
        let diagonal = humanTrack(from: .zero, to: Point(x: 300, y: 150), axis: .free).map {
            PuzzleTrackPoint(x: $0.x, y: $0.x / 2, time: $0.time)
        }
        #expect(
            violation(diagonal, axis: .free, release: diagonal.last!.position, from: .zero)
                == .perfectlySteady)
    }

    @Test func tooQuickIsRejected() {
        let track = humanTrack(from: start, to: end).map {
            PuzzleTrackPoint(x: $0.x, y: $0.y, time: $0.time / 8)
        }
        guard case .tooQuick = violation(track) else {
            return #expect(Bool(false), "\(String(describing: violation(track)))")
        }
    }

    @Test func largeJumpsAreRejected() {
        var track = humanTrack(from: start, to: end)
        let middle = track.count / 3
        track.removeSubrange((middle - 8)..<(middle + 8))
        guard case .largeJump = violation(track) else {
            return #expect(Bool(false), "\(String(describing: violation(track)))")
        }
    }

    @Test func trackMustEndAtTheRelease() {
        #expect(
            violation(humanTrack(from: start, to: end), release: Point(x: 460, y: 120))
                == .endsElsewhere)
    }

    @Test func backwardsOrRepeatedTimesAreMalformed() {
        var track = humanTrack(from: start, to: end)
        track[5].time = -1
        #expect(violation(track) == .malformed)
        track = humanTrack(from: start, to: end)
        track[6].time = track[5].time
        #expect(violation(track) == .malformed)
    }

    @Test func dragsMustStartAtThePieceAndKeepToTheRow() {
        let track = humanTrack(from: start, to: end)
        let moved = violation(
            track, release: Point(x: track.last!.x, y: 120), from: Point(x: 60, y: 120))
        guard case .startsElsewhere = moved else {
            return #expect(Bool(false), "\(String(describing: moved))")
        }
        // Starts at the piece, then strays 100 px from the row.
        let lifted = track.enumerated().map { i, p in
            PuzzleTrackPoint(x: p.x, y: p.y + (i < 5 ? 0 : 100), time: p.time)
        }
        guard case .offAxis = violation(lifted) else { return #expect(Bool(false)) }
    }

    @Test func rulesAreTheSameAtAnyDisplayScale() {
        let scale = 0.5
        let track = humanTrack(from: start, to: end).map {
            PuzzleTrackPoint(x: $0.x * scale, y: $0.y * scale, time: $0.time)
        }
        #expect(
            rules.violation(
                in: track, release: Point(x: track.last!.x, y: start.y * scale),
                start: Point(x: start.x * scale, y: start.y * scale),
                displayWidth: 640 * scale, axis: .horizontal, inputMethod: .pointer) == nil)
    }

    @Test func keyboardAttemptsNeedHumanTiming() {
        func keys(_ intervals: [Double]) -> [PuzzleTrackPoint] {
            var time = 0.0
            var x = 0.0
            var points = [PuzzleTrackPoint(x: 0, y: 120, time: 0)]
            for interval in intervals {
                time += interval
                x += 20
                points.append(PuzzleTrackPoint(x: x, y: 120, time: time))
            }
            return points
        }
        let human = keys([0.18, 0.22, 0.15, 0.3, 0.25])
        #expect(
            rules.violation(
                in: human, release: Point(x: 100, y: 120), displayWidth: 640, axis: .horizontal,
                inputMethod: .keyboard) == nil)
        let robot = keys(Array(repeating: 0.1, count: 5))
        #expect(
            rules.violation(
                in: robot, release: Point(x: 100, y: 120), displayWidth: 640, axis: .horizontal,
                inputMethod: .keyboard) == .regularKeys)
    }
}
