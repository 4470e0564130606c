import PuzzleTestSupport
import TactileCore
import TactilePuzzle
import TactilePuzzleImaging
import TactilePuzzleVerifier
import Testing

/// The hole shows the piece's whole shape, knobs included: a knob changes the picture across
/// its width about as plainly as the body does, instead of along a stalk down its middle.
@Suite struct PuzzleHoleShapeTests {
    /// How far a pixel of the background a client sees differs from the untouched picture:
    /// the distance between their colours, in 8-bit levels.
    static func change(_ background: Bitmap, _ picture: Bitmap, _ x: Int, _ y: Int) -> Double {
        let i = (y * background.width + x) * 4
        let squares = (0..<3).map { c in
            let d = Double(background.pixels[i + c]) - Double(picture.pixels[i + c])
            return d * d
        }
        return squares.reduce(0, +).squareRoot()
    }

    /// How much darker a pixel of the background a client sees is than the untouched
    /// picture: the drop in brightness (Rec. 601 luma), in 8-bit levels, negative where
    /// lighter. What the eye reads as the recess, whatever its tint.
    static func darkening(_ background: Bitmap, _ picture: Bitmap, _ x: Int, _ y: Int) -> Double {
        let i = (y * background.width + x) * 4
        func luma(_ p: [UInt8]) -> Double {
            0.299 * Double(p[i]) + 0.587 * Double(p[i + 1]) + 0.114 * Double(p[i + 2])
        }
        return luma(picture.pixels) - luma(background.pixels)
    }

    /// The value below which `share` of the values lie.
    static func quantile(_ values: [Double], _ share: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(Int(Double(sorted.count) * share), sorted.count - 1)]
    }

    /// The changes over the classic piece's knobs (the shape beyond its body's rectangle, at
    /// least 2 px inside the outline) and over the middle of its body (20 px in from the
    /// body's sides), from the mask and the images alone.
    static func changes(
        _ puzzle: GeneratedPuzzle, background: Bitmap,
        measure: (Bitmap, Bitmap, Int, Int) -> Double = change
    ) -> (knobs: [Double], body: [Double]) {
        let frame = puzzle.holeFrame
        let mask = ShapeMask(path: puzzle.shape.path(in: frame), within: frame)
        let body = JigsawEdges.standard.body(in: frame)
        let full = ShapeMask.samplesPerPixel
        func isDeepInside(_ x: Int, _ y: Int) -> Bool {
            for dy in -2...2 {
                for dx in -2...2 where dx * dx + dy * dy <= 4 {
                    guard mask.count(x: x + dx, y: y + dy) == full else { return false }
                }
            }
            return true
        }
        var knobs: [Double] = []
        var middle: [Double] = []
        for y in mask.originY..<(mask.originY + mask.height) {
            for x in mask.originX..<(mask.originX + mask.width) where isDeepInside(x, y) {
                let centre = Point(x: Double(x) + 0.5, y: Double(y) + 0.5)
                let value = measure(background, puzzle.picture, x, y)
                if centre.x > body.maxX || centre.y < body.minY {
                    knobs.append(value)
                } else if body.insetBy(dx: 20, dy: 20).contains(centre) {
                    middle.append(value)
                }
            }
        }
        return (knobs, middle)
    }

    /// Over 20 drawn pictures: how plainly three quarters of the knobs' pixels change (the
    /// quarter quantile), as a share of how the middle of the body changes (its median).
    static func knobShares(
        treatment: HoleTreatment, measure: (Bitmap, Bitmap, Int, Int) -> Double = change
    ) throws -> [Double] {
        try (90..<110 as Range<UInt64>).map { seed in
            let puzzle = try makePuzzle(seed: seed, treatment: treatment)
            let view = try clientView(of: puzzle)
            let c = changes(puzzle, background: view.background, measure: measure)
            #expect(c.knobs.count > 300 && c.body.count > 500, "seed \(seed)")
            return quantile(c.knobs, 0.25) / quantile(c.body, 0.5)
        }
    }

    @Test func theKnobsChangeAcrossTheirWidthLikeTheBody() throws {
        // Three quarters of a knob's pixels change at least half as much as the middle of
        // the body, on average over the pictures, and a fifth as much on the worst of them:
        // the tint fills each knob to its outline.
        let shares = try Self.knobShares(treatment: .standard)
        let mean = shares.reduce(0, +) / Double(shares.count)
        #expect(mean >= 0.5, "\(shares)")
        #expect(shares.allSatisfy { $0 >= 0.2 }, "\(shares)")
        // The measure sees stalks: tinted at 30 levels and darkened by distance from the
        // outline alone, the knobs show little more than the darkening along their middles,
        // and they fall short.
        var faint = HoleTreatment.standard
        faint.tint = 30
        faint.deepensThinParts = false
        let faintShares = try Self.knobShares(treatment: faint)
        #expect(faintShares.reduce(0, +) / Double(faintShares.count) < 0.45, "\(faintShares)")
    }

    @Test func theKnobsAreDarkenedAcrossTheirWidthNotAlongAStalk() throws {
        // Brightness alone, as a recess is seen whatever its tint: three quarters of a
        // knob's pixels are darkened at least 0.3 as much as the middle of the body, on
        // average over the pictures, and a fifth as much on the worst of them.
        let shares = try Self.knobShares(treatment: .standard, measure: Self.darkening)
        let mean = shares.reduce(0, +) / Double(shares.count)
        #expect(mean >= 0.3, "\(shares)")
        #expect(shares.allSatisfy { $0 >= 0.2 }, "\(shares)")
        // Darkened only by their distance from the outline, as the body is, the knobs are
        // dark only along their middles (stalks), and the measure sees it.
        var stalks = HoleTreatment.standard
        stalks.deepensThinParts = false
        let stalkShares = try Self.knobShares(treatment: stalks, measure: Self.darkening)
        #expect(stalkShares.reduce(0, +) / Double(stalkShares.count) < 0.22, "\(stalkShares)")
    }

    @Test(arguments: [
        Color(red8: 250, green8: 250, blue8: 250), Color(red8: 6, green8: 6, blue8: 6),
        Color(red8: 230, green8: 236, blue8: 255),
    ])
    func theTintLeavesBrightnessAloneWhereAChannelWouldClip(colour: Color) throws {
        // On a near-white, a near-black and a pale blue picture the tint drives a channel past
        // 255 or below 0 along the outline; every pixel keeps the brightness (Rec. 601 luma)
        // it has untinted, give or take rounding. The tint draws nothing at random, so the
        // same seed cuts the same holes with and without it.
        let picture = Bitmap(width: 640, height: 360, fill: colour)
        var untinted = HoleTreatment.standard
        untinted.tint = 0
        func background(_ treatment: HoleTreatment) throws -> [UInt8] {
            var random = SeededRandom(seed: 11)
            return try PuzzleGenerator.generate(
                picture: picture, options: PuzzleOptions(treatment: treatment), using: &random
            ).background.pixels
        }
        let tinted = try background(.standard)
        let plain = try background(untinted)
        func luma(_ p: [UInt8], _ i: Int) -> Double {
            0.299 * Double(p[i]) + 0.587 * Double(p[i + 1]) + 0.114 * Double(p[i + 2])
        }
        var largest = 0.0
        var coloured = 0
        for i in stride(from: 0, to: tinted.count, by: 4) {
            largest = max(largest, abs(luma(tinted, i) - luma(plain, i)))
            if (0..<3).contains(where: { abs(Int(tinted[i + $0]) - Int(plain[i + $0])) >= 8 }) {
                coloured += 1
            }
        }
        #expect(largest <= 1, "largest change of brightness: \(largest) levels")
        // And the tint is there: thousands of pixels change colour by 8 levels or more.
        #expect(coloured > 2000)
    }
}
