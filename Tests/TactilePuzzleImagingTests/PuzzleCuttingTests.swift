import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier
import TestSupport
import Testing

/// The piece is exactly the picture inside the shape; the hole is darkened exactly there.
/// The truth is the shape's own `Path.contains` at the mask's sample points.
@Suite struct PuzzleCuttingTests {
    /// Every built-in shape — each of the 81 jigsaw edge combinations, the circle, the
    /// square — covers enough of its piece's square at every side a puzzle can have, measured
    /// on its mask: why `PuzzleOptions.validate` measures only custom outlines.
    @Test func builtInShapesAlwaysCoverEnough() {
        let edges = JigsawEdges.Edge.allCases
        var shapes: [PuzzleShape] = [.circle, .square]
        for top in edges {
            for right in edges {
                for bottom in edges {
                    for left in edges {
                        shapes.append(
                            .classic(
                                JigsawEdges(top: top, right: right, bottom: bottom, left: left)))
                    }
                }
            }
        }
        for side in Array(16...48) + [61, 96, 128, 181, 256, 512] {
            let frame = Rect(x: 0, y: 0, width: Double(side), height: Double(side))
            for shape in shapes {
                let coverage = ShapeMask(path: shape.path(in: frame), within: frame)
                    .coverage(ofBoxWidth: side, height: side)
                #expect(coverage >= PuzzleOptions.minimumShapeCoverage + 0.1, "\(shape) at \(side)")
            }
        }
        // Below the smallest side, and for custom outlines, the mask is still measured.
        #expect(throws: PuzzleGenerationError.self) {
            try PuzzleOptions.validate(
                .custom(Path(rect: Rect(x: 0, y: 0, width: 100, height: 1))), side: 64)
        }
    }

    /// The sample points of a pixel, as the mask places them.
    func samples(x: Int, y: Int) -> [Point] {
        let n = ShapeMask.samplesPerAxis
        return (0..<(n * n)).map { k in
            Point(
                x: Double(x) + (Double(k % n) + 0.5) / Double(n),
                y: Double(y) + (Double(k / n) + 0.5) / Double(n))
        }
    }

    /// How many of a pixel's samples `Path.contains` puts inside.
    func insideCount(_ path: Path, x: Int, y: Int) -> Int {
        samples(x: x, y: y).filter { path.contains($0) }.count
    }

    /// How many of a pixel's samples lie within `margin` of the outline, where flattening may
    /// decide differently from the exact curve.
    func nearCount(_ outline: [[Point]], x: Int, y: Int, margin: Double = 0.02) -> Int {
        samples(x: x, y: y).filter { distance(from: $0, to: outline) < margin }.count
    }

    func distance(from p: Point, to polylines: [[Point]]) -> Double {
        var best = Double.infinity
        for line in polylines {
            for (a, b) in zip(line, line.dropFirst()) {
                let ab = b - a
                let t =
                    ab.lengthSquared > 0 ? max(0, min(1, (p - a).dot(ab) / ab.lengthSquared)) : 0
                best = min(best, p.distance(to: a + ab * t))
            }
        }
        return best
    }

    @Test(arguments: [PuzzleShape.classic(), .circle, .square])
    func maskCountsAgreeWithContainment(shape: PuzzleShape) {
        let path = shape.path(in: Rect(x: 3.25, y: 5.5, width: 37, height: 33))
        let outline = path.flattened(tolerance: 0.002)
        let mask = ShapeMask(path: path)
        var mismatches = 0
        for y in (mask.originY - 1)...(mask.originY + mask.height) {
            for x in (mask.originX - 1)...(mask.originX + mask.width) {
                let inside = insideCount(path, x: x, y: y)
                let count = mask.count(x: x, y: y)
                guard count != inside else { continue }
                mismatches += 1
                let near = nearCount(outline, x: x, y: y)
                #expect(
                    abs(count - inside) <= near,
                    "pixel (\(x), \(y)): mask \(count), contains \(inside), near the edge \(near)")
            }
        }
        // Disagreements are rare: only samples a hair from the outline.
        #expect(mismatches * 50 < mask.width * mask.height)
    }

    @Test(arguments: [PuzzleShape.classic(), .circle])
    func pieceIsThePictureInsideTheShape(shape: PuzzleShape) throws {
        let puzzle = try makePuzzle(seed: 11, shape: shape, treatment: .plain, decoys: 0)
        let frame = puzzle.holeFrame
        let path = shape.path(in: frame)
        let outline = path.flattened(tolerance: 0.002)
        let x0 = Int(frame.minX)
        let y0 = Int(frame.minY)
        var opaque = 0
        for v in 0..<puzzle.piece.height {
            for u in 0..<puzzle.piece.width {
                let x = x0 + u
                let y = y0 + v
                let i = (v * puzzle.piece.width + u) * 4
                let alpha = Int(puzzle.piece.pixels[i + 3])
                let expected = Int(ShapeMask.alpha(forCount: insideCount(path, x: x, y: y)))
                if alpha != expected {
                    #expect(nearCount(outline, x: x, y: y) > 0, "alpha at (\(u), \(v))")
                }
                if alpha > 0 {
                    let j = (y * 640 + x) * 4
                    #expect(
                        Array(puzzle.piece.pixels[i..<i + 3])
                            == Array(puzzle.picture.pixels[j..<j + 3]))
                } else {
                    #expect(puzzle.piece.pixels[i..<i + 4].allSatisfy { $0 == 0 })
                }
                if alpha == 255 { opaque += 1 }
            }
        }
        #expect(opaque > puzzle.piece.width * puzzle.piece.height / 3)
    }

    @Test func plainHoleIsDarkenedByHalfTheCoverageAndNothingElseChanges() throws {
        let puzzle = try makePuzzle(seed: 12, treatment: .plain, decoys: 0)
        let mask = ShapeMask(path: puzzle.shape.path(in: puzzle.holeFrame))
        for y in 0..<360 {
            for x in 0..<640 {
                let i = (y * 640 + x) * 4
                let count = mask.count(x: x, y: y)
                let keep = 1 - 0.5 * Double(count) / Double(ShapeMask.samplesPerPixel)
                for c in 0..<3 {
                    let expected = UInt8(
                        (Double(puzzle.picture.pixels[i + c]) * keep + 0.5).rounded(.down))
                    #expect(puzzle.background.pixels[i + c] == expected, "(\(x), \(y))")
                }
                #expect(puzzle.background.pixels[i + 3] == 255)
            }
        }
    }

    @Test func treatedHolesChangeOnlyPixelsInsideTheirShapes() throws {
        // The first of a few puzzles with both decoys (a flat picture has room for fewer).
        let puzzle = try #require(
            (13..<23 as Range<UInt64>).lazy.map {
                try? makePuzzle(seed: $0, treatment: .softened, decoys: 2)
            }.first { $0?.decoys.count == 2 } ?? nil)
        let masks =
            [ShapeMask(path: puzzle.shape.path(in: puzzle.holeFrame))]
            + puzzle.decoys.map { ShapeMask(path: $0.shape.path(in: $0.frame)) }
        for decoy in puzzle.decoys {
            #expect(decoy.shape != puzzle.shape)
            // On the hole's row, give or take a few pixels, so a scan along the axis meets it.
            #expect(abs(decoy.frame.minY - puzzle.holePosition.y) <= 6)
        }
        var darker = 0.0
        var inside = 0
        for y in 0..<360 {
            for x in 0..<640 {
                let i = (y * 640 + x) * 4
                let covered = masks.contains { $0.count(x: x, y: y) > 0 }
                if !covered {
                    #expect(puzzle.background.pixels[i..<i + 4] == puzzle.picture.pixels[i..<i + 4])
                } else if masks[0].count(x: x, y: y) == ShapeMask.samplesPerPixel {
                    darker += Double(puzzle.picture.pixels[i]) - Double(puzzle.background.pixels[i])
                    inside += 1
                }
            }
        }
        // On average the hole is clearly darker inside.
        #expect(darker / Double(inside) > 10)
    }

    @Test func badOptionsNameTheValueAndRange() {
        var random = SeededRandom(seed: 1)
        let picture = Bitmap(width: 640, height: 360, fill: .white)
        for (options, message) in [
            (PuzzleOptions(decoyCount: 3), "decoys must be 0…2, got 3"),
            (PuzzleOptions(width: 100), "width must be 160…2048 pixels, got 100"),
            (PuzzleOptions(pieceSide: 500), "piece side must be 16…180"),
        ] {
            do {
                _ = try PuzzleGenerator.generate(picture: picture, options: options, using: &random)
                Issue.record("accepted \(options)")
            } catch {
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
    }

    @Test func holeIsPlacedAwayFromTheStartOnTheAxis() throws {
        for seed in 0..<30 as Range<UInt64> {
            for axis in PuzzleAxis.allCases {
                let p = try makePuzzle(seed: seed, axis: axis, decoys: 0)
                let side = Double(p.piece.width)
                #expect(
                    !p.holeFrame.intersects(
                        Rect(origin: p.startPosition, size: p.holeFrame.size).insetBy(
                            dx: side / 10, dy: side / 10)) || axis == .free)
                switch axis {
                case .horizontal: #expect(p.startPosition == Point(x: 0, y: p.holePosition.y))
                case .vertical: #expect(p.startPosition == Point(x: p.holePosition.x, y: 0))
                case .free: #expect(p.startPosition == .zero)
                }
                #expect(p.holeFrame.maxX <= 640 && p.holeFrame.maxY <= 360)
                #expect(p.holePosition.x == p.holePosition.x.rounded())
            }
        }
    }
}
