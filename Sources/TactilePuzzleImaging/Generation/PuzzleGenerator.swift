import TactileCore
import TactilePuzzle
import TactilePuzzleVerifier

/// A generated puzzle: the images handed out, and the answer that must stay on the
/// verifying side.
public struct GeneratedPuzzle: Sendable {
    /// The picture with the hole and the decoys cut in.
    public var background: Bitmap
    /// The piece: the picture inside the shape as the treatment's ``HoleTreatment/piece``
    /// draws it, alpha its coverage, transparent outside; cropped to the piece's rectangle.
    public var piece: Bitmap
    /// The untouched picture (kept for tests and for a success view; never handed out
    /// before a pass).
    public var picture: Bitmap
    /// The answer: the hole's top-left corner, in background pixels.
    public var holePosition: Point
    /// Where the piece starts, in background pixels.
    public var startPosition: Point
    /// The piece's outline.
    public var shape: PuzzleShape
    /// How the piece may move.
    public var axis: PuzzleAxis
    /// The decoys' shapes and top-left corners.
    public var decoys: [(shape: PuzzleShape, frame: Rect)]
    /// The format the background is handed out in (``PuzzleImageEncoder`` writes it).
    public var backgroundFormat: PuzzleImageFormat = .png
    /// What the verifier keeps of it: the answer and the geometry, not the images.
    public var facts: PuzzleFacts {
        PuzzleFacts(
            holePosition: holePosition, startPosition: startPosition,
            imageWidth: background.width, imageHeight: background.height,
            pieceWidth: piece.width, pieceHeight: piece.height, axis: axis, shapeName: shape.name)
    }

    /// The hole's rectangle in background pixels.
    public var holeFrame: Rect {
        Rect(
            origin: holePosition,
            size: Size(width: Double(piece.width), height: Double(piece.height)))
    }
}

/// Cuts puzzles from pictures: picks the hole's place and the decoys', treats the holes,
/// and cuts and draws the piece.
public enum PuzzleGenerator {
    /// Generates a puzzle from a picture of exactly `options.width × options.height` pixels.
    ///
    /// - Parameters:
    ///   - picture: The picture; use ``PictureSource`` to load or draw one.
    ///   - options: Shape, axis, decoys, treatment.
    ///   - random: Chooses positions, decoys and grain. Use `SecureRandom` (TactileCrypto) when the
    ///     answer must be unpredictable.
    /// - Throws: ``PuzzleGenerationError`` for invalid options or a picture of the wrong size.
    public static func generate(
        picture: Bitmap, options: PuzzleOptions, using random: inout some RandomNumberGenerator
    ) throws(PuzzleGenerationError) -> GeneratedPuzzle {
        try options.validate()
        guard picture.width == options.width, picture.height == options.height else {
            throw PuzzleGenerationError(
                "picture is \(picture.width)×\(picture.height), expected \(options.width)×\(options.height)"
            )
        }
        let side = options.resolvedPieceSide
        let pieceSize = Size(width: Double(side), height: Double(side))
        let (hole, start) = placeHole(options: options, side: side, using: &random)
        let holeFrame = Rect(origin: hole, size: pieceSize)
        let mask = ShapeMask(path: options.shape.path(in: holeFrame), within: holeFrame)

        var background = picture
        let decoys = placeDecoys(
            in: picture, options: options, hole: holeFrame, start: start, holeMask: mask,
            using: &random)
        for decoy in decoys {
            options.treatment.apply(
                to: &background,
                mask: ShapeMask(path: decoy.shape.path(in: decoy.frame), within: decoy.frame),
                using: &random)
        }
        options.treatment.apply(to: &background, mask: mask, using: &random)

        var piece = cut(picture, mask: mask, frame: holeFrame)
        if !options.treatment.piece.isExact {
            let counts = (0..<(piece.width * piece.height)).map { k in
                UInt8(
                    mask.count(x: Int(hole.x) + k % piece.width, y: Int(hole.y) + k / piece.width))
            }
            options.treatment.piece.apply(to: &piece, counts: counts, using: &random)
        }
        return GeneratedPuzzle(
            background: background,
            piece: piece,
            picture: picture, holePosition: hole, startPosition: start, shape: options.shape,
            axis: options.axis, decoys: decoys, backgroundFormat: options.backgroundFormat)
    }

    /// The piece: `frame`'s pixels of the picture, alpha from the mask, clear outside.
    public static func cut(_ picture: Bitmap, mask: ShapeMask, frame: Rect) -> Bitmap {
        let x0 = Int(frame.minX)
        let y0 = Int(frame.minY)
        let width = Int(frame.width)
        let height = Int(frame.height)
        guard width > 0, height > 0 else {
            return Bitmap(width: max(width, 0), height: max(height, 0))
        }
        let alphas = (0...ShapeMask.samplesPerPixel).map { UInt32(ShapeMask.alpha(forCount: $0)) }
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
            let target = UnsafeMutableRawPointer(out.baseAddress!)
            target.initializeMemory(as: UInt8.self, repeating: 0, count: width * height * 4)
            picture.pixels.withUnsafeBytes { source in
                for v in 0..<height {
                    let y = y0 + v
                    guard y >= 0, y < picture.height else { continue }
                    for u in 0..<width {
                        let x = x0 + u
                        let alpha = alphas[mask.count(x: x, y: y)]
                        guard alpha > 0, x >= 0, x < picture.width else { continue }
                        let rgb =
                            source.loadUnaligned(
                                fromByteOffset: (y * picture.width + x) * 4, as: UInt32.self
                            ).littleEndian & 0x00FF_FFFF
                        target.storeBytes(
                            of: (rgb | alpha << 24).littleEndian,
                            toByteOffset: (v * width + u) * 4, as: UInt32.self)
                    }
                }
            }
            count = width * height * 4
        }
        return Bitmap(width: width, height: height, pixels: pixels)!
    }

    /// Whole-pixel hole and start positions for the axis, the hole well away from the start.
    static func placeHole(
        options: PuzzleOptions, side: Int, using random: inout some RandomNumberGenerator
    ) -> (hole: Point, start: Point) {
        let margin = max(2, side / 10)
        let maxX = options.width - side - margin
        let maxY = options.height - side - margin
        let clear = side + side / 4  // the hole starts this far from the start, at least
        switch options.axis {
        case .horizontal:
            let y = Int.random(in: margin...maxY, using: &random)
            let x = Int.random(in: min(clear, maxX)...maxX, using: &random)
            return (Point(x: Double(x), y: Double(y)), Point(x: 0, y: Double(y)))
        case .vertical:
            let x = Int.random(in: margin...maxX, using: &random)
            let y = Int.random(in: min(clear, maxY)...maxY, using: &random)
            return (Point(x: Double(x), y: Double(y)), Point(x: Double(x), y: 0))
        case .free:
            while true {
                let x = Int.random(in: margin...maxX, using: &random)
                let y = Int.random(in: margin...maxY, using: &random)
                if x >= clear || y >= clear || maxX < clear && maxY < clear {
                    return (Point(x: Double(x), y: Double(y)), .zero)
                }
            }
        }
    }

    /// The least mean difference, in 8-bit levels, between the picture inside the piece's
    /// outline and inside the same outline at a decoy's place: where the picture is flatter
    /// than that, piece and decoy would look alike, so no decoy goes there.
    static let leastDecoyDifference = 24.0

    /// Places tried for each decoy; the one whose picture differs most from the piece's wins.
    static let decoyPlacesTried = 12

    /// The decoys' outlines and rectangles: each clear of the hole, the start and the other
    /// decoys, on the hole's row (column) so that scanning along the axis meets it, and where
    /// the picture differs from the piece's by at least ``leastDecoyDifference``. Fewer
    /// decoys than asked for when the picture has no such place.
    static func placeDecoys(
        in picture: Bitmap, options: PuzzleOptions, hole: Rect, start: Point, holeMask: ShapeMask,
        using random: inout some RandomNumberGenerator
    ) -> [(shape: PuzzleShape, frame: Rect)] {
        guard options.decoyCount > 0 else { return [] }
        let matching = options.treatment.decoys == .matching
        let outlines = matching ? [] : distinctOutlines(for: options.shape)
        let holeBlocks = HoleBlocks(picture, mask: holeMask)
        var taken = [hole, Rect(origin: start, size: hole.size)]
        var decoys: [(shape: PuzzleShape, frame: Rect)] = []
        for _ in 0..<options.decoyCount {
            let outline = matching ? (options.shape, 1.0) : outlines.randomElement(using: &random)
            guard let (shape, scale) = outline else { break }
            let places = (0..<decoyPlacesTried).compactMap { _ in
                placeDecoy(
                    options: options, near: hole, scale: scale, avoiding: taken,
                    onTheRow: matching, using: &random)
            }
            let judged = places.map { ($0, holeBlocks.difference(picture, to: $0.origin)) }
            guard let best = judged.max(by: { $0.1 < $1.1 }), best.1 >= leastDecoyDifference
            else { continue }
            taken.append(best.0)
            decoys.append((shape, best.0))
        }
        return decoys
    }

    /// The outlines a decoy of `piece` may take, with their sizes as shares of the piece's
    /// side: every outline and size of ``DecoyOutlines/catalogue`` that overlaps the piece's
    /// by at most ``DecoyOutlines/largestOverlap``. Worked out once per piece outline.
    static func distinctOutlines(for piece: PuzzleShape) -> [(PuzzleShape, Double)] {
        distinctOutlineCache.value(for: piece) {
            DecoyOutlines.catalogue.flatMap { outline in
                decoyScales.compactMap { scale in
                    outline != piece
                        && DecoyOutlines.overlap(piece, outline, scale: scale)
                            <= DecoyOutlines.largestOverlap
                        ? DecoyOutline(shape: outline, scale: scale) : nil
                }
            }
        }.map { ($0.shape, $0.scale) }
    }

    /// The sizes a decoy of another outline may have, as shares of the piece's side.
    static let decoyScales = [0.8, 0.9, 1.0]

    private struct DecoyOutline: Sendable {
        var shape: PuzzleShape
        var scale: Double
    }

    private static let distinctOutlineCache = RecentResults<PuzzleShape, [DecoyOutline]>(limit: 32)

    /// A decoy's rectangle, `scale` times the hole's side, clear of everything taken, on the
    /// hole's row (or column) — exactly `onTheRow`, else up to 6 px off it.
    static func placeDecoy(
        options: PuzzleOptions, near hole: Rect, scale: Double, avoiding taken: [Rect],
        onTheRow: Bool, using random: inout some RandomNumberGenerator
    ) -> Rect? {
        let size = (hole.width * scale).rounded()
        let gap = 6.0
        let maxX = Double(options.width) - size - 2
        let maxY = Double(options.height) - size - 2
        guard maxX >= 2, maxY >= 2 else { return nil }
        for _ in 0..<64 {
            var x = Double(Int.random(in: 2...Int(maxX), using: &random))
            var y = Double(Int.random(in: 2...Int(maxY), using: &random))
            let wobble = onTheRow ? 0 : Double(Int.random(in: -6...6, using: &random))
            switch options.axis {
            case .horizontal: y = min(max(hole.minY + wobble, 2), maxY)
            case .vertical: x = min(max(hole.minX + wobble, 2), maxX)
            case .free: break
            }
            let frame = Rect(x: x, y: y, width: size, height: size)
            if !taken.contains(where: { $0.insetBy(dx: -gap, dy: -gap).intersects(frame) }) {
                return frame
            }
        }
        return nil
    }
}

extension PuzzleVerifier {
    /// Registers a generated puzzle: keeps its answer (``GeneratedPuzzle/facts``) and returns
    /// what the client is told. See `register(_:client:site:now:surcharge:)` of the facts.
    public mutating func register(
        _ puzzle: GeneratedPuzzle, client: String, site: SiteBinding? = nil, now: Double,
        surcharge: Int = 0
    ) throws(IssueRefusal) -> PuzzleChallenge {
        try register(puzzle.facts, client: client, site: site, now: now, surcharge: surcharge)
    }
}
