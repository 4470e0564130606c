import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier
import Testing

/// The hole stays plain to see for a person: clearly darker than the picture around it,
/// and outlined in colour where darkening cannot show (a dark picture).
@Suite struct PuzzleHoleVisibilityTests {
    static func luma(_ b: Bitmap, _ x: Int, _ y: Int) -> Double {
        let i = (y * b.width + x) * 4
        return 0.299 * Double(b.pixels[i]) + 0.587 * Double(b.pixels[i + 1]) + 0.114
            * Double(b.pixels[i + 2])
    }

    /// Mean luma of the background inside the hole (fully covered pixels) and in a ring 3…8
    /// px outside it, and the same for the untouched picture.
    static func contrast(_ puzzle: GeneratedPuzzle, background: Bitmap) -> (
        inside: Double, ring: Double, pictureInside: Double, pictureRing: Double
    ) {
        let frame = puzzle.holeFrame
        let mask = ShapeMask(path: puzzle.shape.path(in: frame), within: frame)
        let grown = ShapeMask(
            path: puzzle.shape.path(in: frame.insetBy(dx: -8, dy: -8)),
            within: frame.insetBy(dx: -8, dy: -8))
        let near = ShapeMask(
            path: puzzle.shape.path(in: frame.insetBy(dx: -3, dy: -3)),
            within: frame.insetBy(dx: -3, dy: -3))
        var sums = (inside: 0.0, ring: 0.0, pictureInside: 0.0, pictureRing: 0.0)
        var counts = (inside: 0, ring: 0)
        for y in max(0, grown.originY)..<min(360, grown.originY + grown.height) {
            for x in max(0, grown.originX)..<min(640, grown.originX + grown.width) {
                if mask.count(x: x, y: y) == ShapeMask.samplesPerPixel {
                    sums.inside += luma(background, x, y)
                    sums.pictureInside += luma(puzzle.picture, x, y)
                    counts.inside += 1
                } else if grown.count(x: x, y: y) > 0, near.count(x: x, y: y) == 0 {
                    sums.ring += luma(background, x, y)
                    sums.pictureRing += luma(puzzle.picture, x, y)
                    counts.ring += 1
                }
            }
        }
        return (
            sums.inside / Double(counts.inside), sums.ring / Double(counts.ring),
            sums.pictureInside / Double(counts.inside), sums.pictureRing / Double(counts.ring)
        )
    }

    @Test func theHoleIsClearlyDarkerThanAroundIt() throws {
        // Mean darkening inside against the same place in the picture, and the hole against
        // its surroundings as a person compares them (relative to what the picture had there,
        // so a hole cut in a darker part of the picture does not count as contrast), over 20
        // puzzles: every hole at most 75 % as bright as around it, and 70 % on average.
        var relatives: [Double] = []
        for seed in 90..<110 as Range<UInt64> {
            let puzzle = try makePuzzle(seed: seed)
            let view = try clientView(of: puzzle)
            let c = Self.contrast(puzzle, background: view.background)
            let darkening = 1 - c.inside / c.pictureInside
            let relative = (c.inside / c.ring) / (c.pictureInside / c.pictureRing)
            #expect(darkening > 0.25, "seed \(seed): \(c)")
            #expect(relative < 0.75, "seed \(seed): \(c)")
            relatives.append(relative)
        }
        #expect(relatives.reduce(0, +) / Double(relatives.count) < 0.7, "\(relatives)")
    }

    @Test func theOutlineShowsInColourOnADarkPicture() throws {
        // Darkening a near-black picture shows little; the tint marks the shape there.
        let dark = Bitmap(width: 640, height: 360, fill: Color(red: 0.08, green: 0.08, blue: 0.08))
        var random = SeededRandom(seed: 5)
        let puzzle = try PuzzleGenerator.generate(
            picture: dark, options: PuzzleOptions(), using: &random)
        let view = try clientView(of: puzzle)
        let frame = puzzle.holeFrame
        let mask = ShapeMask(path: puzzle.shape.path(in: frame), within: frame)
        var change = 0.0
        var inside = 0
        for y in mask.originY..<(mask.originY + mask.height) {
            for x in mask.originX..<(mask.originX + mask.width)
            where mask.count(x: x, y: y) == ShapeMask.samplesPerPixel {
                let i = (y * 640 + x) * 4
                change +=
                    (0..<3).map {
                        abs(Double(view.background.pixels[i + $0]) - Double(dark.pixels[i + $0]))
                    }.max()!
                inside += 1
            }
        }
        // 64 levels of tint at full strength, less where a channel would drop below 0 (the
        // tint keeps brightness); JPEG's half-resolution colour softens it.
        #expect(change / Double(inside) > 15)
    }

    /// Whether the piece is opaque everywhere within 4 px of (u, v): past its drawn edge.
    func isDeepInside(_ piece: Bitmap, _ u: Int, _ v: Int) -> Bool {
        for dv in -4...4 {
            for du in -4...4 where du * du + dv * dv <= 16 {
                let x = u + du
                let y = v + dv
                guard x >= 0, y >= 0, x < piece.width, y < piece.height,
                    piece.pixels[(y * piece.width + x) * 4 + 3] == 255
                else { return false }
            }
        }
        return true
    }

    @Test(arguments: [95, 96] as [UInt64])
    func thePieceLooksLikeThePictureItCameFrom(seed: UInt64) throws {
        // Lifted a little and outlined, but the same picture: inside its edge, each channel
        // of the piece is the picture's under one gain and offset, give or take its fine
        // grain (±3 levels), wherever it is not clipped at white or black.
        let puzzle = try makePuzzle(seed: seed)
        let frame = puzzle.holeFrame
        for channel in 0..<3 {
            var pairs: [(piece: Double, picture: Double)] = []
            for v in 0..<puzzle.piece.height {
                for u in 0..<puzzle.piece.width where isDeepInside(puzzle.piece, u, v) {
                    let i = (v * puzzle.piece.width + u) * 4
                    let value = puzzle.piece.pixels[i + channel]
                    guard value > 0, value < 255 else { continue }
                    let j = ((Int(frame.minY) + v) * 640 + Int(frame.minX) + u) * 4
                    pairs.append((Double(value), Double(puzzle.picture.pixels[j + channel])))
                }
            }
            let n = Double(pairs.count)
            #expect(n > 1000)
            let mx = pairs.reduce(0) { $0 + $1.picture } / n
            let my = pairs.reduce(0) { $0 + $1.piece } / n
            let sxx = pairs.reduce(0) { $0 + ($1.picture - mx) * ($1.picture - mx) }
            let sxy = pairs.reduce(0) { $0 + ($1.picture - mx) * ($1.piece - my) }
            let gain = sxx > 0 ? sxy / sxx : 1
            let residual =
                pairs.reduce(0) { $0 + abs($1.piece - my - gain * ($1.picture - mx)) } / n
            #expect(residual < 2.5, "channel \(channel): mean residual \(residual) levels")
        }
    }
}
