import TactileCore
import TactilePuzzle
import TactilePuzzleVerifier
import Testing

/// Decoys are holes of the piece's own shape and size, on its row, treated like the real
/// hole: neither their outline nor their look rules them out.
@Suite struct PuzzleDecoyTests {
    @Test(arguments: [PuzzleShape.classic(), .circle, .square])
    func decoysHaveThePiecesShapeSizeAndRow(shape: PuzzleShape) throws {
        for seed in 0..<2 as Range<UInt64> {
            let puzzle = try makePuzzle(seed: 60 + seed, shape: shape, decoys: 2)
            #expect(!puzzle.decoys.isEmpty)
            for decoy in puzzle.decoys {
                #expect(decoy.shape == puzzle.shape)
                #expect(decoy.frame.size == puzzle.holeFrame.size)
                #expect(decoy.frame.minY == puzzle.holePosition.y)
                #expect(!decoy.frame.intersects(puzzle.holeFrame))
            }
        }
    }

    @Test func verticalDecoysShareThePiecesColumn() throws {
        let puzzle = try makePuzzle(seed: 70, axis: .vertical, decoys: 2)
        #expect(!puzzle.decoys.isEmpty)
        for decoy in puzzle.decoys { #expect(decoy.frame.minX == puzzle.holePosition.x) }
    }

    /// The darkening inside (fully covered pixels), as a share of the picture's luma, and the
    /// tint (the background's colour change less its luma change) near the outline.
    func look(of puzzle: GeneratedPuzzle, at frame: Rect) -> (darkening: Double, tint: Double) {
        let mask = ShapeMask(path: puzzle.shape.path(in: frame), within: frame)
        func luma(_ b: Bitmap, _ i: Int) -> Double {
            0.299 * Double(b.pixels[i]) + 0.587 * Double(b.pixels[i + 1]) + 0.114
                * Double(b.pixels[i + 2])
        }
        var before = 0.0
        var after = 0.0
        var tint = 0.0
        var edge = 0
        for y in mask.originY..<(mask.originY + mask.height) {
            for x in mask.originX..<(mask.originX + mask.width) {
                let i = (y * 640 + x) * 4
                let count = mask.count(x: x, y: y)
                if count == ShapeMask.samplesPerPixel {
                    before += luma(puzzle.picture, i)
                    after += luma(puzzle.background, i)
                }
                // Pixels the outline crosses and their inner neighbours.
                let nearEdge =
                    count > 0
                    && [(-2, 0), (2, 0), (0, -2), (0, 2)].contains {
                        mask.count(x: x + $0.0, y: y + $0.1) < ShapeMask.samplesPerPixel
                    }
                guard nearEdge else { continue }
                let change = luma(puzzle.background, i) - luma(puzzle.picture, i)
                tint +=
                    (0..<3).map {
                        abs(
                            Double(puzzle.background.pixels[i + $0])
                                - Double(puzzle.picture.pixels[i + $0]) - change)
                    }.max()!
                edge += 1
            }
        }
        return (1 - after / before, tint / Double(edge))
    }

    @Test func decoysAreTreatedLikeTheHole() throws {
        for seed in 0..<4 as Range<UInt64> {
            let puzzle = try makePuzzle(seed: 80 + seed, decoys: 1)
            let decoy = try #require(puzzle.decoys.first)
            let hole = look(of: puzzle, at: puzzle.holeFrame)
            let other = look(of: puzzle, at: decoy.frame)
            // Each is darkened and tinted; the random cast, light and picture under them make
            // the figures differ a little, never in kind.
            #expect(hole.darkening > 0.25 && other.darkening > 0.25, "\(hole) \(other)")
            #expect(abs(hole.darkening - other.darkening) < 0.15, "\(hole) \(other)")
            #expect(hole.tint > 10 && other.tint > 10, "\(hole) \(other)")
        }
    }
}
