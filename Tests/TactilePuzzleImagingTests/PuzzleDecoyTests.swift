import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import Testing

@testable import TactilePuzzleImaging
@testable import TactilePuzzleVerifier

/// Decoys are holes a person tells from the real one at a glance — another outline, where
/// the picture does not look like the piece — treated like the real hole.
@Suite struct PuzzleDecoyTests {
    /// The opt-in kind: the piece's own shape and size, on its row.
    static let matching: HoleTreatment = {
        var treatment = HoleTreatment.standard
        treatment.decoys = .matching
        return treatment
    }()

    @Test(arguments: [PuzzleShape.classic(), .circle, .square])
    func matchingDecoysHaveThePiecesShapeSizeAndRow(shape: PuzzleShape) throws {
        var checked = 0
        for seed in 0..<8 as Range<UInt64> {
            // Drawn pictures with a flat row (sky) have no place for a decoy.
            let puzzle = try makePuzzle(
                seed: 60 + seed, shape: shape, treatment: Self.matching, decoys: 2)
            checked += puzzle.decoys.count
            for decoy in puzzle.decoys {
                #expect(decoy.shape == puzzle.shape)
                #expect(decoy.frame.size == puzzle.holeFrame.size)
                #expect(decoy.frame.minY == puzzle.holePosition.y)
                #expect(!decoy.frame.intersects(puzzle.holeFrame))
            }
        }
        #expect(checked >= 4)
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
        let puzzle = try makePuzzle(
            seed: 70, axis: .vertical, treatment: Self.matching, decoys: 2)
        #expect(!puzzle.decoys.isEmpty)
        for decoy in puzzle.decoys { #expect(decoy.frame.minX == puzzle.holePosition.x) }
        // Decoys of other outlines stay within 6 px of the column.
        for seed in 0..<4 as Range<UInt64> {
            let other = try makePuzzle(seed: 70 + seed, axis: .vertical, decoys: 2)
            for decoy in other.decoys {
                #expect(abs(decoy.frame.minX - other.holePosition.x) <= 6)
            }
        }
    }

    /// The darkening inside (fully covered pixels), as a share of the picture's luma, and the
    /// tint (the background's colour change less its luma change) near the outline.
    func look(of puzzle: GeneratedPuzzle, shape: PuzzleShape, at frame: Rect) -> (
        darkening: Double, tint: Double
    ) {
        let mask = ShapeMask(path: shape.path(in: frame), within: frame)
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
        var checked = 0
        for seed in 0..<10 as Range<UInt64> {
            let puzzle = try makePuzzle(seed: 80 + seed, decoys: 1)
            guard let decoy = puzzle.decoys.first else { continue }
            checked += 1
            let hole = look(of: puzzle, shape: puzzle.shape, at: puzzle.holeFrame)
            let other = look(of: puzzle, shape: decoy.shape, at: decoy.frame)
            // Each is darkened and tinted; the random cast, light and picture under them make
            // the figures differ a little, never in kind (a star's narrow points are shallower).
            #expect(hole.darkening > 0.25 && other.darkening > 0.2, "\(hole) \(other) \(decoy)")
            #expect(abs(hole.darkening - other.darkening) < 0.15, "\(hole) \(other)")
            #expect(hole.tint > 10 && other.tint > 10, "\(hole) \(other)")
        }
        #expect(checked >= 4)
    }

    // MARK: Telling decoys apart

    /// Outlines drawn inside each other, centre on centre, overlap by the ratio of their
    /// areas: (s′/s)² for a circle or a rounded square `s′` px across inside one `s` across.
    @Test func overlapOfNestedSimilarShapesIsTheirAreaRatio() {
        let side = DecoyOutlines.comparisonSide
        for shape in [PuzzleShape.circle, .square] {
            #expect(DecoyOutlines.overlap(shape, shape) > 0.999)
            for scale in [0.5, 0.8, 0.9] {
                let ratio = (side * scale).rounded() / side
                let overlap = DecoyOutlines.overlap(shape, shape, scale: scale)
                #expect(abs(overlap - ratio * ratio) < 0.02, "\(shape) \(scale): \(overlap)")
            }
        }
    }

    /// The overlap is the best over offsets, so it is symmetric at equal sizes, and a shape
    /// moved within the offsets searched still overlaps itself wholly.
    @Test func overlapIsTheBestOverOffsets() throws {
        let star = try #require(DecoyOutlines.catalogue.last)
        for (a, b) in [(PuzzleShape.classic(), star), (.circle, .square), (.square, star)] {
            #expect(abs(DecoyOutlines.overlap(a, b) - DecoyOutlines.overlap(b, a)) < 1e-9)
        }
        let shifted = PuzzleShape.custom(
            Path(ellipseIn: Rect(x: 0, y: 0, width: 1, height: 1)).applying(
                Transform2D(translationX: 0.1, y: 0)))
        #expect(DecoyOutlines.overlap(.circle, shifted) > 0.999)
    }

    /// The outline of every decoy of 1,000 puzzles (half on drawn pictures, half on photos
    /// when they are installed; classic, circle and square pieces; both axes and free) overlaps
    /// the piece's by at most 60 %, and the picture inside it differs from the piece's by at
    /// least 20 levels a pixel on average (the generator asks 24 of 4 × 4-pixel block means):
    /// a person tells it from the hole by its outline and by what the piece shows.
    @Test func aThousandPuzzlesHaveDecoysAPersonTellsApart() throws {
        let shapes = [PuzzleShape.classic(), .circle, .square]
        let axes = [PuzzleAxis.horizontal, .vertical, .free]
        var decoys = 0
        var puzzles = 0
        var overlaps: [String: Double] = [:]
        for picture in 0..<50 {
            var random = SeededRandom(seed: UInt64(4_000 + picture))
            let bitmap: Bitmap
            if picture.isMultiple(of: 2), let photos = scikitPhotos {
                bitmap = photos.picture(picture, width: 640, height: 360, using: &random)
            } else {
                bitmap = ProceduralPicture.make(width: 640, height: 360, seed: random.next())
            }
            for k in 0..<20 {
                let options = PuzzleOptions(
                    shape: shapes[(picture + k) % 3], axis: axes[k % 3], decoyCount: 2)
                let side = options.resolvedPieceSide
                let (hole, start) = PuzzleGenerator.placeHole(
                    options: options, side: side, using: &random)
                let frame = Rect(
                    origin: hole, size: Size(width: Double(side), height: Double(side)))
                let mask = ShapeMask(path: options.shape.path(in: frame), within: frame)
                let placed = PuzzleGenerator.placeDecoys(
                    in: bitmap, options: options, hole: frame, start: start, holeMask: mask,
                    using: &random)
                puzzles += 1
                for decoy in placed {
                    decoys += 1
                    let scale = decoy.frame.width / frame.width
                    let key = "\(options.shape) \(decoy.shape) \(scale)"
                    let overlap =
                        overlaps[key]
                        ?? DecoyOutlines.overlap(options.shape, decoy.shape, scale: scale)
                    overlaps[key] = overlap
                    #expect(overlap <= 0.6, "\(options.shape) and \(decoy.shape): \(overlap)")
                    #expect(!decoy.frame.insetBy(dx: -6, dy: -6).intersects(frame))
                    let difference = meanDifference(bitmap, mask: mask, movedTo: decoy.frame.origin)
                    #expect(difference >= 20, "picture \(picture) puzzle \(k): \(difference)")
                }
            }
        }
        #expect(puzzles == 1_000)
        // Most puzzles keep a decoy: only flat pictures lose them.
        #expect(decoys >= 1_000, "\(decoys) decoys in \(puzzles) puzzles")
    }

    /// The mean absolute difference, over channels and the pixels `mask` covers wholly,
    /// between the picture there and at the same pixels moved to `origin`.
    func meanDifference(_ picture: Bitmap, mask: ShapeMask, movedTo origin: Point) -> Double {
        let (dx, dy) = (Int(origin.x) - mask.originX, Int(origin.y) - mask.originY)
        var (total, counted) = (0, 0)
        for v in 0..<mask.height {
            for u in 0..<mask.width where mask.counts[v * mask.width + u] == 16 {
                let (x, y) = (mask.originX + u, mask.originY + v)
                guard x + dx >= 0, y + dy >= 0, x + dx < picture.width, y + dy < picture.height,
                    x >= 0, y >= 0, x < picture.width, y < picture.height
                else { continue }
                for c in 0..<3 {
                    total += abs(
                        Int(picture.pixels[(y * picture.width + x) * 4 + c])
                            - Int(picture.pixels[((y + dy) * picture.width + x + dx) * 4 + c]))
                }
                counted += 3
            }
        }
        return counted > 0 ? Double(total) / Double(counted) : 0
    }

    @Test func generatedPuzzlesDecoysHaveOtherOutlines() throws {
        for seed in 0..<6 as Range<UInt64> {
            let puzzle = try makePuzzle(seed: 90 + seed, decoys: 2)
            for decoy in puzzle.decoys {
                #expect(decoy.shape != puzzle.shape)
                #expect(decoy.frame.width >= 0.79 * puzzle.holeFrame.width)
            }
        }
    }
}
