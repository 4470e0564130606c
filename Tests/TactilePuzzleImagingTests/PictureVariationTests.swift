import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TactilePuzzleSolvers
import Testing

@testable import TactilePuzzleImaging
@testable import TactilePuzzleVerifier

/// A pool of photos handed out hundreds of times each cannot be recovered, nor its holes
/// found, by comparing the puzzles cut from it: the attack of a script that collects
/// backgrounds of one photo, takes their per-pixel median (the clean photo, were every
/// puzzle to show it unchanged) and looks for the hole where a new background differs from
/// it most; and the attack that differences two backgrounds.
///
/// Each attack is run twice on the same puzzles: against photos handed out unchanged (where
/// it must work, or the test proves nothing) and against varied ones.
@Suite struct PictureVariationTests {
    static let (width, height) = (320, 180)
    static let options = PuzzleOptions(width: width, height: height, decoyCount: 1)

    /// The photo: one of scikit-image's, kept at the size a pool keeps it. (A drawn landscape
    /// will not do: it is too plain for the variation to hide its holes, which both attacks
    /// then find in 11 or 12 puzzles of 30.)
    static let photo: Bitmap = {
        let source = scikitPhotos!.picture(0, width: 480, height: 270, using: &seeded)
        return PictureVariation.kept(source, width: width, height: height)
    }()
    nonisolated(unsafe) static var seeded = SeededRandom(seed: 1)

    /// `count` puzzles of the photo, varied or not.
    func puzzles(_ count: Int, varied: Bool, seed: UInt64) throws -> [GeneratedPuzzle] {
        var random = SeededRandom(seed: seed)
        let unchanged = PictureSource.filling(Self.photo, width: Self.width, height: Self.height)
        return try (0..<count).map { _ in
            let picture =
                varied
                ? PictureVariation.picture(
                    from: Self.photo, width: Self.width, height: Self.height, using: &random)
                : unchanged
            return try PuzzleGenerator.generate(
                picture: picture, options: Self.options, using: &random)
        }
    }

    /// The per-channel median of the backgrounds.
    func median(_ backgrounds: [Bitmap]) -> [UInt8] {
        let count = backgrounds[0].pixels.count
        var values = [UInt8](repeating: 0, count: backgrounds.count)
        return (0..<count).map { i in
            for (k, background) in backgrounds.enumerated() { values[k] = background.pixels[i] }
            values.sort()
            return values[values.count / 2]
        }
    }

    /// Where along the piece's row the background differs most from `reference`, summed over
    /// the piece's square: the attacker's guess at the hole's left edge.
    func guess(_ puzzle: GeneratedPuzzle, against reference: [UInt8]) -> Double {
        let side = puzzle.piece.width
        let top = Int(puzzle.startPosition.y)
        var columns = [Int](repeating: 0, count: Self.width)
        for x in 0..<Self.width {
            for y in top..<min(top + side, Self.height) {
                let i = (y * Self.width + x) * 4
                for c in 0..<3 {
                    columns[x] += abs(Int(puzzle.background.pixels[i + c]) - Int(reference[i + c]))
                }
            }
        }
        var best = (x: 0, total: -1)
        for x in 0...(Self.width - side) {
            let total = columns[x..<(x + side)].reduce(0, +)
            if total > best.total { best = (x, total) }
        }
        return Double(best.x)
    }

    /// Hits within the verifier's tolerance at this size (8 px on 640: 4 px here).
    func isHit(_ guess: Double, _ puzzle: GeneratedPuzzle) -> Bool {
        abs(guess - puzzle.holePosition.x) <= 4
    }

    @Test(.enabled(if: scikitPhotos != nil, "needs python3-skimage's photos"))
    func theMedianOfManyPuzzlesRevealsNeitherThePhotoNorTheHole() throws {
        let unchanged = PictureSource.filling(Self.photo, width: Self.width, height: Self.height)
        var hits: [Bool: Int] = [:]
        var error: [Bool: Double] = [:]
        for varied in [false, true] {
            let collected = try puzzles(99, varied: varied, seed: 20)
            let reference = median(collected.map(\.background))
            // How far the median is from the clean photo, in levels a channel.
            var total = 0
            for i in 0..<reference.count where i % 4 != 3 {
                total += abs(Int(reference[i]) - Int(unchanged.pixels[i]))
            }
            error[varied] = Double(total) / Double(reference.count / 4 * 3)
            let targets = try puzzles(30, varied: varied, seed: 900)
            hits[varied] = targets.filter { isHit(guess($0, against: reference), $0) }.count
        }
        // Unchanged photos: the median is the photo, and the hole (or the decoy on its row)
        // stands out against it.
        #expect(error[false]! < 3, "median error \(error[false]!)")
        #expect(hits[false]! >= 18, "\(hits[false]!) of 30 holes found")
        // Varied: the median is a blur far from the photo, and guesses are mostly misses.
        #expect(error[true]! > 10, "median error \(error[true]!)")
        #expect(hits[true]! <= 4, "\(hits[true]!) of 30 holes found")
    }

    @Test(.enabled(if: scikitPhotos != nil, "needs python3-skimage's photos"))
    func theDifferenceOfTwoPuzzlesRevealsNeitherHole() throws {
        var hits: [Bool: Int] = [:]
        for varied in [false, true] {
            let pairs = try puzzles(60, varied: varied, seed: 40)
            hits[varied] =
                stride(from: 0, to: 60, by: 2).filter { k in
                    let (first, second) = (pairs[k], pairs[k + 1])
                    let guessed = guess(first, against: second.background.pixels)
                    return isHit(guessed, first) || isHit(guessed, second)
                }.count
        }
        #expect(hits[false]! >= 18, "\(hits[false]!) of 30 unchanged pairs")
        #expect(hits[true]! <= 4, "\(hits[true]!) of 30 varied pairs")
    }

    @Test func keptPhotosAreLargeEnoughNotToBeEnlarged() {
        let photo = Bitmap(width: 2000, height: 1000, fill: .white)
        let kept = PictureVariation.keptSize(of: photo, width: 640, height: 360)
        // Covering 640 × 360 needs 720 × 360; the most zoomed crop, 1.5 times that.
        #expect(kept.width == 1080 && kept.height == 540)
        let small = Bitmap(width: 400, height: 300, fill: .white)
        let enlarged = PictureVariation.keptSize(of: small, width: 640, height: 360)
        #expect(enlarged.width == 640 && enlarged.height == 480)
    }
}
