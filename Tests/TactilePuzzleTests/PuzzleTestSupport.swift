import Foundation
import TactileCore
import TactilePuzzle
import TactilePuzzleVerifier
import Testing

/// A drag a hand could make: eases in and out (minimum jerk) over `duration` seconds,
/// sampled about every 16 ms with jitter, wobbling across the slider.
func humanTrack(
    from start: Point, to end: Point, duration: Double = 0.9, seed: UInt64 = 1
) -> [PuzzleTrackPoint] {
    var random = SeededRandom(seed: seed)
    var points: [PuzzleTrackPoint] = []
    var time = 0.0
    let count = Int(duration / 0.016)
    for i in 0...count {
        let u = Double(i) / Double(count)
        let s = u * u * u * (10 - 15 * u + 6 * u * u)
        let wobble = 1.5 * sin(Double(i) * 0.4) + Double.random(in: -0.5...0.5, using: &random)
        points.append(
            PuzzleTrackPoint(
                x: start.x + (end.x - start.x) * s, y: start.y + (end.y - start.y) * s + wobble,
                time: time))
        time += 0.016 + Double.random(in: -0.003...0.003, using: &random)
    }
    points[points.count - 1].x = end.x
    return points
}

/// A 640×360 classic puzzle from a drawn picture, positions from a seed.
func makePuzzle(
    seed: UInt64, axis: PuzzleAxis = .horizontal, shape: PuzzleShape = .classic(),
    treatment: HoleTreatment = .standard, decoys: Int = 1
) throws -> GeneratedPuzzle {
    var random = SeededRandom(seed: seed)
    let picture = ProceduralPicture.make(width: 640, height: 360, seed: seed)
    return try PuzzleGenerator.generate(
        picture: picture,
        options: PuzzleOptions(shape: shape, axis: axis, decoyCount: decoys, treatment: treatment),
        using: &random)
}

/// A verifier with a fixed key.
func makeVerifier(policy: VerifierPolicy = VerifierPolicy()) -> PuzzleVerifier {
    PuzzleVerifier(key: [UInt8](repeating: 42, count: 32), policy: policy)!
}

/// Records an issue unless the outcome is a pass.
func expectPassed(
    _ outcome: CheckOutcome, _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if case .passed = outcome { return }
    Issue.record("expected a pass \(comment): \(outcome)", sourceLocation: sourceLocation)
}
