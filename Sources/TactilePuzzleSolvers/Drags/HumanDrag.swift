import Foundation
import TactileCore
import TactilePuzzle

/// Drags of the kind a person makes with a mouse, touchpad or finger, for measuring how
/// often the trajectory rules turn a person away.
///
/// The model follows what studies of aimed movements report: a primary movement whose
/// speed rises from rest and falls again, with its peak a little before or after the middle
/// and a duration that grows with the logarithm of distance over target size (Fitts' law);
/// an end point that misses by a few per cent of the distance, mostly short; shorter
/// corrective movements after a short dwell until the piece is within a few pixels; a smooth sideways drift (the hand
/// pivots) with slow tremor; pointer positions in whole pixels; and events at 60–144 Hz
/// with jitter and the odd dropped frame. Every parameter is drawn per drag, so a batch is
/// varied the way different people and devices are.
public enum HumanDrag {
    /// A track from `start` to near `target` (piece positions, seconds from the first sample).
    ///
    /// - Parameters:
    ///   - start: Where the piece starts.
    ///   - target: The hole; the drag ends within a few pixels of it.
    ///   - axis: How the piece may move; for a slider the cross coordinate is the hand's.
    ///   - random: The source of every choice.
    public static func track(
        from start: Point, to target: Point, axis: PuzzleAxis,
        using random: inout some RandomNumberGenerator
    ) -> [PuzzleTrackPoint] {
        func uniform(_ range: ClosedRange<Double>) -> Double {
            Double.random(in: range, using: &random)
        }
        func normal(_ sigma: Double) -> Double {
            let u = max(Double.random(in: 0..<1, using: &random), 1e-12)
            let v = Double.random(in: 0..<1, using: &random)
            return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        let distance = max(1, start.distance(to: target))
        let rate = [60.0, 60, 60, 75, 120, 125, 144].randomElement(using: &random)!
        let quantizes = uniform(0...1) < 0.8

        // Sideways: an arc over the movement, a slow drift and slow tremor.
        let arc = normal(0.012 * distance)
        let drift = normal(2.5)
        let tremor = (0..<3).map { _ in
            (amplitude: uniform(0.2...1.4), frequency: uniform(0.6...4), phase: uniform(0...6.3))
        }

        // Movements: the primary one, then corrections towards the target.
        var movements: [(from: Point, to: Point, duration: Double, skew: Double, pause: Double)] =
            []
        let fitts = log2(distance / 8 + 1)
        let primaryError = normal(0.05 * distance) - 0.02 * distance
        var aim = Point(
            x: target.x + (axis == .vertical ? 0 : primaryError * (target.x - start.x) / distance),
            y: target.y + (axis == .horizontal ? 0 : primaryError * (target.y - start.y) / distance)
        )
        movements.append(
            (start, aim, (0.18 + 0.11 * fitts) * uniform(0.75...1.5), uniform(0.75...1.3), 0))
        // Corrections until the piece is within a few pixels of the hole (a person aims
        // for the middle of an 8-pixel tolerance), and now and then one more nudge.
        var extra = uniform(0...1) < 0.3
        while movements.count < 5, aim.distance(to: target) > 3 || extra {
            if aim.distance(to: target) <= 3 { extra = false }
            let miss = aim.distance(to: target)
            let next = Point(
                x: target.x + (axis == .vertical ? 0 : normal(1.2)),
                y: target.y + (axis == .horizontal ? 0 : normal(1.2)))
            movements.append(
                (
                    aim, next, uniform(0.1...0.28) + 0.004 * miss, uniform(0.8...1.2),
                    uniform(0.03...0.25)
                ))
            aim = next
        }

        let wobble = uniform(0.005...0.03)
        let wobblePhase = uniform(0...6.3)
        var points: [PuzzleTrackPoint] = []
        var time = 0.0
        var elapsed = 0.0
        let total = movements.reduce(0) { $0 + $1.duration + $1.pause }
        func emit(_ along: Point, at t: Double) {
            let progress = min(1, t / total)
            var sideways = arc * sin(.pi * progress) + drift * progress
            for wave in tremor {
                sideways += wave.amplitude * sin(2 * .pi * wave.frequency * t + wave.phase)
            }
            var p = along
            switch axis {
            case .horizontal: p.y += sideways
            case .vertical: p.x += sideways
            case .free:
                let normalX = -(target.y - start.y) / distance
                let normalY = (target.x - start.x) / distance
                p.x += sideways * normalX
                p.y += sideways * normalY
            }
            if quantizes {
                p = Point(
                    x: start.x + (p.x - start.x).rounded(), y: start.y + (p.y - start.y).rounded())
            }
            if let last = points.last, last.x == p.x, last.y == p.y, t > 0 { return }
            points.append(PuzzleTrackPoint(x: p.x, y: p.y, time: t))
        }
        emit(start, at: 0)
        for movement in movements {
            // A dwell before a correction: the hand is nearly still, events come slowly.
            if movement.pause > 0 {
                let end = elapsed + movement.pause
                while time < end {
                    time += uniform(0.02...0.09)
                    emit(movement.from, at: min(time, end))
                }
                elapsed = end
                time = end
            }
            let begin = elapsed
            while time < begin + movement.duration {
                var step = 1 / rate + normal(0.0012)
                if uniform(0...1) < 0.04 { step *= 2 }  // a dropped frame
                time += max(0.002, step)
                let u = min(1, (time - begin) / movement.duration)
                // No hand follows the textbook curve exactly: a slow wave in the progress.
                let s =
                    Easing.minimumJerk(pow(u, movement.skew)) + wobble * sin(.pi * u)
                    * sin(3 * .pi * u + wobblePhase)
                emit(movement.from.interpolated(to: movement.to, fraction: s), at: time)
            }
            elapsed = begin + movement.duration
            time = max(time, elapsed)
        }
        return points
    }
}
