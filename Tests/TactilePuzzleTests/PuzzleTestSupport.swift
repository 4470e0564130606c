import Foundation
import TactileCore
import TactilePuzzle
import TactilePuzzleSolvers
import TactilePuzzleVerifier
import Testing

/// A drag a hand could make (`HumanDrag`): from rest, a primary reach, corrections until the
/// piece is within a few pixels of `end`, a sideways drift, events at 60–144 Hz.
func humanTrack(
    from start: Point, to end: Point, axis: PuzzleAxis = .horizontal, seed: UInt64 = 1
) -> [PuzzleTrackPoint] {
    var random = SeededRandom(seed: seed)
    return HumanDrag.track(from: start, to: end, axis: axis, using: &random)
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

/// A verifier with a fixed key and seeded ids and nonces.
func makeVerifier(policy: VerifierPolicy = VerifierPolicy()) -> PuzzleVerifier {
    PuzzleVerifier(
        key: [UInt8](repeating: 42, count: 32), policy: policy, random: SeededRandom(seed: 7))!
}

/// Records an issue unless the outcome is a pass.
func expectPassed(
    _ outcome: CheckOutcome, _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if case .passed = outcome { return }
    Issue.record("expected a pass \(comment): \(outcome)", sourceLocation: sourceLocation)
}
