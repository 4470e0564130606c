import TactileCore
import TactilePuzzle
import Testing

@testable import TactilePuzzleVerifier

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

    /// The block sums a decoy's place is judged by, summed once, give what summing every
    /// pixel of both shapes anew gives: for shapes partly outside the picture and places
    /// partly outside it too.
    @Test func blockDifferencesMatchAPixelByPixelSum() throws {
        var random = SeededRandom(seed: 5)
        let (width, height) = (120, 90)
        let pixels = (0..<(width * height * 4)).map { _ in UInt8.random(in: 0...255, using: &random)
        }
        let picture = try #require(Bitmap(width: width, height: height, pixels: pixels))
        func reference(_ mask: ShapeMask, to origin: Point) -> Double {
            let (dx, dy) = (Int(origin.x) - mask.originX, Int(origin.y) - mask.originY)
            var (total, blocks) = (0, 0)
            for v in stride(from: 0, to: mask.height - 3, by: 4) {
                for u in stride(from: 0, to: mask.width - 3, by: 4) {
                    let corners = [v * mask.width + u, (v + 3) * mask.width + u + 3]
                    guard corners.allSatisfy({ mask.counts[$0] == ShapeMask.samplesPerPixel })
                    else { continue }
                    let (x, y) = (mask.originX + u, mask.originY + v)
                    let inside = { (x: Int, y: Int) in
                        x >= 0 && y >= 0 && x + 4 <= width && y + 4 <= height
                    }
                    guard inside(x, y), inside(x + dx, y + dy) else { continue }
                    for c in 0..<3 {
                        var difference = 0
                        for j in 0..<4 {
                            for i in 0..<4 {
                                difference += Int(pixels[((y + j) * width + x + i) * 4 + c])
                                difference -= Int(
                                    pixels[((y + dy + j) * width + x + dx + i) * 4 + c])
                            }
                        }
                        total += abs(difference)
                    }
                    blocks += 1
                }
            }
            return blocks > 0 ? Double(total) / Double(blocks * 48) : 0
        }
        for shape in [PuzzleShape.classic(), .circle, .square] {
            for _ in 0..<40 {
                let frame = Rect(
                    x: Double(Int.random(in: -20...100, using: &random)),
                    y: Double(Int.random(in: -20...70, using: &random)),
                    width: 36, height: 36)
                let mask = ShapeMask(path: shape.path(in: frame), within: frame)
                let blocks = HoleBlocks(picture, mask: mask)
                for _ in 0..<10 {
                    let origin = Point(
                        x: Double(Int.random(in: -30...110, using: &random)),
                        y: Double(Int.random(in: -30...80, using: &random)))
                    #expect(
                        blocks.difference(picture, to: origin) == reference(mask, to: origin),
                        "\(shape) \(frame) \(origin)")
                }
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
