import TactileCore
import TactilePuzzle

/// What kind of puzzle to generate.
public struct PuzzleOptions: Hashable, Sendable {
    /// Accepted picture widths in pixels.
    public static let widthRange = 160...2048
    /// Accepted picture heights in pixels.
    public static let heightRange = 120...2048
    /// Accepted numbers of decoy holes.
    public static let decoyRange = 0...2
    /// The least share of the piece's square a shape must cover at the piece's size: a
    /// shape below it (an open line, windings that cancel, a sliver) cuts no usable piece.
    public static let minimumShapeCoverage = 0.2

    /// The picture's width in pixels.
    public var width: Int
    /// The picture's height in pixels.
    public var height: Int
    /// The piece's outline.
    public var shape: PuzzleShape
    /// How the piece may move.
    public var axis: PuzzleAxis
    /// Holes that are not the answer, 0…2 (their shape follows the treatment).
    public var decoyCount: Int
    /// How holes are cut.
    public var treatment: HoleTreatment
    /// The piece's side in pixels; by default 15 % of the width, at most 40 % of the height.
    public var pieceSide: Int?
    /// The background's file format; see ``PuzzleImageEncoder``.
    public var backgroundFormat: PuzzleImageFormat

    /// Creates options; every argument has a default (640 × 360, classic, horizontal, one decoy,
    /// the standard treatment, a JPEG background at quality 80).
    public init(
        width: Int = 640, height: Int = 360, shape: PuzzleShape = .classic(),
        axis: PuzzleAxis = .horizontal, decoyCount: Int = 1,
        treatment: HoleTreatment = .standard, pieceSide: Int? = nil,
        backgroundFormat: PuzzleImageFormat = .standard
    ) {
        self.width = width
        self.height = height
        self.shape = shape
        self.axis = axis
        self.decoyCount = decoyCount
        self.treatment = treatment
        self.pieceSide = pieceSide
        self.backgroundFormat = backgroundFormat
    }

    /// The piece's side in pixels.
    public var resolvedPieceSide: Int {
        pieceSide ?? max(24, min(Int((Double(width) * 0.15).rounded()), height * 2 / 5))
    }

    /// Checks every value and names the first that is out of range.
    public func validate() throws(PuzzleGenerationError) {
        guard Self.widthRange.contains(width) else {
            throw PuzzleGenerationError(
                "width must be \(Self.widthRange.lowerBound)…\(Self.widthRange.upperBound) pixels, got \(width)"
            )
        }
        guard Self.heightRange.contains(height) else {
            throw PuzzleGenerationError(
                "height must be \(Self.heightRange.lowerBound)…\(Self.heightRange.upperBound) pixels, got \(height)"
            )
        }
        if case .jpeg(let quality) = backgroundFormat,
            !JPEGEncoder.qualityRange.contains(quality)
        {
            throw PuzzleGenerationError("JPEG quality must be 1…100, got \(quality)")
        }
        guard Self.decoyRange.contains(decoyCount) else {
            throw PuzzleGenerationError("decoys must be 0…2, got \(decoyCount)")
        }
        let side = resolvedPieceSide
        let limit = min(width, height) / 2
        guard (16...max(16, limit)).contains(side) else {
            throw PuzzleGenerationError(
                "piece side must be 16…\(max(16, limit)) pixels for a \(width)×\(height) picture, got \(side)"
            )
        }
        try Self.validate(shape, side: side)
    }

    /// Checks that a shape cuts a usable piece of `side` pixels: its outline has finite
    /// bounds with some width and height, and its mask covers at least
    /// ``minimumShapeCoverage`` of the piece's square.
    ///
    /// The built-in shapes pass at every side from 16 pixels, so only a custom outline is
    /// measured: generating a puzzle need not cut a mask just to check its shape. (A test
    /// measures every edge combination at each side 16–48, where pixels are coarsest, and at
    /// sides up to 512, with 10 points to spare; larger masks only come closer to the
    /// outline's exact area.)
    public static func validate(_ shape: PuzzleShape, side: Int) throws(PuzzleGenerationError) {
        let frame = Rect(x: 0, y: 0, width: Double(side), height: Double(side))
        if case .custom(let path) = shape {
            let bounds = path.bounds
            guard bounds.width.isFinite, bounds.height.isFinite, bounds.width > 0,
                bounds.height > 0
            else {
                throw PuzzleGenerationError(
                    "the shape encloses no area (its outline is a line or a point)")
            }
        } else if side >= 16 {
            return
        }
        let outline = shape.path(in: frame)
        guard outline.bounds.width.isFinite, outline.bounds.height.isFinite else {
            throw PuzzleGenerationError(
                "the shape cannot be scaled to the piece (its outline is too small)")
        }
        let coverage = ShapeMask(path: outline, within: frame)
            .coverage(ofBoxWidth: side, height: side)
        guard coverage >= minimumShapeCoverage else {
            throw PuzzleGenerationError(
                "the shape covers \(Int((coverage * 100).rounded())) % of the piece's square at \(side)×\(side) pixels; at least \(Int(minimumShapeCoverage * 100)) % is needed (is it closed, with windings that do not cancel?)"
            )
        }
    }
}

/// Why a puzzle could not be generated.
public struct PuzzleGenerationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the value and the accepted range.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
