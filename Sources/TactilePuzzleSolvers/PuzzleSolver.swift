import TactileCairo
import TactileCore
import TactilePuzzle
import TactilePuzzleVerifier

/// What a client has of a puzzle, and so all a solver may use: the two images as decoded
/// from the files it was sent, and the challenge's axis and fixed coordinate.
public struct ClientPuzzle: Sendable {
    /// The background as the client decodes it.
    public var background: Bitmap
    /// The piece as the client decodes it, alpha included.
    public var piece: Bitmap
    /// How the piece may move.
    public var axis: PuzzleAxis
    /// The piece's row for a horizontal puzzle, its column for a vertical one; `nil` for a
    /// free one.
    public var fixed: Int?

    /// Creates a client's view from decoded images.
    public init(background: Bitmap, piece: Bitmap, axis: PuzzleAxis, fixed: Int?) {
        self.background = background
        self.piece = piece
        self.axis = axis
        self.fixed = fixed
    }

    /// Decodes the files a client is sent (PNG or JPEG) and takes the axis and the fixed
    /// coordinate from the challenge.
    ///
    /// - Throws: `ImageFileError` when either file does not decode.
    public init(
        backgroundFile: [UInt8], pieceFile: [UInt8], challenge: PuzzleChallenge
    ) throws(ImageFileError) {
        self.init(
            background: try ImageLoader.decode(backgroundFile, name: "background"),
            piece: try ImageLoader.decode(pieceFile, name: "piece"), axis: challenge.axis,
            fixed: challenge.axis == .horizontal ? challenge.pieceY : challenge.pieceX)
    }

    /// The piece's top-left positions a solver tries: every pixel along the axis for a
    /// horizontal or vertical puzzle, every `freeStep`-th pixel both ways for a free one.
    func candidates(freeStep: Int = 4) -> [(x: Int, y: Int)] {
        let maxX = background.width - piece.width
        let maxY = background.height - piece.height
        guard maxX >= 0, maxY >= 0 else { return [] }
        switch axis {
        case .horizontal:
            let y = min(max(fixed ?? 0, 0), maxY)
            return (0...maxX).map { ($0, y) }
        case .vertical:
            let x = min(max(fixed ?? 0, 0), maxX)
            return (0...maxY).map { (x, $0) }
        case .free:
            return stride(from: 0, through: maxY, by: freeStep).flatMap { y in
                stride(from: 0, through: maxX, by: freeStep).map { ($0, y) }
            }
        }
    }
}

/// An automated hole finder of the kind bots run against slider captchas.
///
/// Solvers exist to measure how well the generator resists them (`tactile bench puzzle`,
/// and the tests): each sees only a ``ClientPuzzle``.
public protocol PuzzleSolver: Sendable {
    /// A short name for tables.
    var name: String { get }
    /// The solver's guess at the hole's top-left corner, in background pixels.
    func locate(_ puzzle: ClientPuzzle) -> Point
}

extension PuzzleSolver {
    /// Whether a guess would pass the verifier's position rule: within the policy's
    /// tolerance (background pixels) of the answer along the axis, or both ways for a free
    /// puzzle — the rule `PuzzleVerifier` applies.
    public static func isHit(
        _ guess: Point, answer: Point, axis: PuzzleAxis, imageWidth: Int,
        policy: VerifierPolicy = VerifierPolicy()
    ) -> Bool {
        let dx = abs(guess.x - answer.x)
        let dy = abs(guess.y - answer.y)
        let tolerance = policy.verificationTolerance
        switch axis {
        case .horizontal: return dx <= tolerance
        case .vertical: return dy <= tolerance
        case .free: return dx <= tolerance && dy <= tolerance
        }
    }

    /// Whether this solver finds the hole of a puzzle whose answer is `answer`.
    public func finds(_ answer: Point, in puzzle: ClientPuzzle) -> Bool {
        Self.isHit(
            locate(puzzle), answer: answer, axis: puzzle.axis,
            imageWidth: puzzle.background.width)
    }
}
