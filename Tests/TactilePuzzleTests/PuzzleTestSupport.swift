import Foundation
import TactileCore
import TactilePuzzle
import TactilePuzzleSolvers
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

/// scikit-image's sample photos when Debian's `python3-skimage` is installed
/// (`scripts/setup.sh --with-photos`), read once; `nil` otherwise, and the photo tests are
/// skipped.
let scikitPhotos = PhotoSet.scikitImage()

/// A puzzle as a client gets it: its images encoded as handed out (the background as JPEG
/// by default) and decoded again, with the challenge's axis and fixed coordinate.
func clientView(of puzzle: GeneratedPuzzle) throws -> ClientPuzzle {
    try SolverTrial.clientView(of: puzzle, files: PuzzleImageEncoder().encode(puzzle))
}

/// The pixels of a piece with alpha above 0 whose colour is within `levels` in every
/// channel of the background pixel under it when the piece sits at `position`.
func matchingPixels(
    of piece: Bitmap, on background: Bitmap, at position: Point, levels: Int = 3,
    alphas: ClosedRange<UInt8> = 1...255
) -> (matching: Int, counted: Int) {
    var matching = 0
    var counted = 0
    let x0 = Int(position.x)
    let y0 = Int(position.y)
    for v in 0..<piece.height {
        for u in 0..<piece.width {
            let i = (v * piece.width + u) * 4
            guard alphas.contains(piece.pixels[i + 3]) else { continue }
            let j = ((y0 + v) * background.width + x0 + u) * 4
            counted += 1
            if (0..<3).allSatisfy({
                abs(Int(piece.pixels[i + $0]) - Int(background.pixels[j + $0])) <= levels
            }) {
                matching += 1
            }
        }
    }
    return (matching, counted)
}
