// Helpers the captcha's test targets share: puzzles cut from drawn pictures, a simulated
// hand's drags, verifiers with fixed keys, and the checks built on them.
import Foundation
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleSolvers
import TactilePuzzleVerifier
import TestSupport
import Testing

/// A drag a hand could make (`HumanDrag`): from rest, a primary reach, corrections until the
/// piece is within a few pixels of `end`, a sideways drift, events at 60–144 Hz.
public func humanTrack(
    from start: Point, to end: Point, axis: PuzzleAxis = .horizontal, seed: UInt64 = 1
) -> [PuzzleTrackPoint] {
    var random = SeededRandom(seed: seed)
    return HumanDrag.track(from: start, to: end, axis: axis, using: &random)
}

/// A 640×360 classic puzzle from a drawn picture, positions from a seed.
public func makePuzzle(
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

/// The verifier's default policy with the drag model off, for tests about answers, tokens,
/// stores and limits whose drags come from a simulated hand (which says nothing about people).
public let plumbingPolicy: VerifierPolicy = {
    var policy = VerifierPolicy()
    policy.trajectory.maximumScriptScore = 1
    return policy
}()

/// A verifier with a fixed key and seeded ids and nonces. Its drag model is off unless the
/// policy sets a limit: these tests are about answers, tokens and limits, and their drags come
/// from a simulated hand, which says nothing about people (the model's tests are
/// `PuzzleTrajectoryTests` and `PuzzleDragRulesTests`).
public func makeVerifier(policy: VerifierPolicy = VerifierPolicy()) -> PuzzleVerifier {
    var policy = policy
    policy.trajectory.maximumScriptScore = policy.trajectory.maximumScriptScore ?? 1
    return PuzzleVerifier(
        key: [UInt8](repeating: 42, count: 32), policy: policy, random: SeededRandom(seed: 7))!
}

/// Records an issue unless the outcome is a pass.
public func expectPassed(
    _ outcome: CheckOutcome, _ comment: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) {
    if case .passed = outcome { return }
    Issue.record("expected a pass \(comment): \(outcome)", sourceLocation: sourceLocation)
}

/// scikit-image's sample photos when Debian's `python3-skimage` is installed
/// (`scripts/setup.sh --with-photos`), read once; `nil` otherwise, and the photo tests are
/// skipped.
public let scikitPhotos = PhotoSet.scikitImage()

/// A puzzle as a client gets it: its images encoded as handed out (the background as JPEG
/// by default) and decoded again, with the challenge's axis and fixed coordinate.
public func clientView(of puzzle: GeneratedPuzzle) throws -> ClientPuzzle {
    try SolverTrial.clientView(of: puzzle, files: PuzzleImageEncoder().encode(puzzle))
}

/// The pixels of a piece with alpha above 0 whose colour is within `levels` in every
/// channel of the background pixel under it when the piece sits at `position`.
public func matchingPixels(
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

/// Registers a puzzle cut from `seed`, checks a hand's drag onto its hole at `now + 1`, and
/// returns the pass; a test that meant to pass fails with the outcome otherwise.
public func passedReceipt(
    _ verifier: inout PuzzleVerifier, seed: UInt64, client: String = "a",
    site: SiteBinding? = nil, now: Double = 100, checkedAfter delay: Double = 1
) throws -> PassReceipt {
    struct NotPassed: Error, CustomStringConvertible { var description: String }
    let puzzle = try makePuzzle(seed: seed)
    let id = try verifier.register(puzzle, client: client, site: site, now: now).id
    let outcome = verifier.check(
        id: id,
        attempt: PuzzleAttempt(
            position: puzzle.holePosition, displayWidth: 640,
            track: humanTrack(from: puzzle.startPosition, to: puzzle.holePosition)),
        client: client, now: now + delay)
    guard case .passed(let receipt) = outcome else {
        throw NotPassed(description: "a hand's drag onto the hole did not pass: \(outcome)")
    }
    return receipt
}

extension ProofOfWorkChallenge {
    /// The first nonce that pays the price and not the deeper price of the proof of work
    /// alone (which would let a drag the rules doubt pass anyway): what the widget sends
    /// when it has found no more by the release.
    public func priceOnlyNonce() -> String {
        var k = 0
        while !isSolved(by: String(k)) || isSolved(by: String(k), extraBits: Self.aloneSurcharge) {
            k += 1
        }
        return String(k)
    }
}

/// A small generated puzzle (320×180, a procedural picture) for store tests.
public enum GeneratedPuzzleFixture {
    public static func make() throws -> GeneratedPuzzle {
        var random = SeededRandom(seed: 9)
        let picture = try PictureSource.procedural(seed: 9).picture(width: 320, height: 180)
        return try PuzzleGenerator.generate(
            picture: picture, options: PuzzleOptions(width: 320, height: 180), using: &random)
    }
}
