import Foundation
import TactileCore
import TactilePuzzle

/// Drags that scripts send to slider captchas, each a kind the trajectory rules must turn
/// away: made by a formula, not a hand.
public enum ScriptedDrag: String, CaseIterable, Sendable {
    /// 16 samples easing out (fast at once, slowing into the hole) over 0.6 s.
    case easeOut
    /// 8 samples over 0.3 s, the cross coordinate alternating by 0.4 px.
    case alternating
    /// 40 samples at 60 Hz easing in and out, with independent Gaussian jitter on both
    /// coordinates.
    case easeInOutWithJitter
    /// A textbook minimum-jerk reach at 60 Hz with a smooth sideways sway.
    case textbook
    /// Constant speed at 60 Hz with a little sway.
    case constantSpeed
    /// A hand-like track 5,000 px away from the slider's row.
    case farFromTheRow
    /// A hand-like track that starts 120 px from the piece.
    case startsAwayFromThePiece
    /// A hand-like track whose samples come in pairs with the same time stamp.
    case repeatedTimes

    /// The track from `start` to `target`.
    public func track(
        from start: Point, to target: Point, axis: PuzzleAxis,
        using random: inout some RandomNumberGenerator
    ) -> [PuzzleTrackPoint] {
        func along(_ s: Double) -> Point { start.interpolated(to: target, fraction: s) }
        func normal(_ sigma: Double) -> Double {
            let u = max(Double.random(in: 0..<1, using: &random), 1e-12)
            let v = Double.random(in: 0..<1, using: &random)
            return sigma * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        func formula(samples: Int, seconds: Double, _ shape: (Double) -> Double, sway: Double = 0)
            -> [PuzzleTrackPoint]
        {
            (0..<samples).map { i in
                let u = Double(i) / Double(samples - 1)
                var p = along(shape(u))
                p.y += sway * sin(.pi * u * 3)
                return PuzzleTrackPoint(x: p.x, y: p.y, time: seconds * u)
            }
        }
        switch self {
        case .easeOut:
            return formula(samples: 16, seconds: 0.6, { 1 - pow(1 - $0, 3) }, sway: 1.5)
        case .alternating:
            return (0..<8).map { i in
                let u = Double(i) / 7
                var p = along(Easing.minimumJerk(u))
                p.y += i % 2 == 0 ? 0.4 : -0.4
                return PuzzleTrackPoint(x: p.x, y: p.y, time: 0.3 * u)
            }
        case .easeInOutWithJitter:
            let points = formula(samples: 40, seconds: 40.0 / 60, { $0 * $0 * (3 - 2 * $0) })
            return points.enumerated().map { i, p in
                i == 0 || i == points.count - 1
                    ? p : PuzzleTrackPoint(x: p.x + normal(1), y: p.y + normal(1), time: p.time)
            }
        case .textbook:
            return formula(samples: 50, seconds: 50.0 / 60, Easing.minimumJerk, sway: 2)
        case .constantSpeed:
            return formula(samples: 45, seconds: 0.75, { $0 }, sway: 2)
        case .farFromTheRow:
            return HumanDrag.track(from: start, to: target, axis: axis, using: &random).map {
                PuzzleTrackPoint(x: $0.x, y: $0.y + 5000, time: $0.time)
            }
        case .startsAwayFromThePiece:
            let offset = 120.0
            return HumanDrag.track(
                from: Point(x: start.x + offset, y: start.y), to: target, axis: axis,
                using: &random)
        case .repeatedTimes:
            let human = HumanDrag.track(from: start, to: target, axis: axis, using: &random)
            return human.enumerated().map { i, p in
                PuzzleTrackPoint(x: p.x, y: p.y, time: human[i - i % 2].time)
            }
        }
    }
}
