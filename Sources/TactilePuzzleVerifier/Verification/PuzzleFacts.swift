import TactileCore
import TactilePuzzle

/// What the verifier keeps of a puzzle it issues: its answer and its geometry, without its
/// images (those are the imaging side's, and the client's).
public struct PuzzleFacts: Hashable, Sendable {
    /// The answer: the hole's top-left corner, in background pixels.
    public var holePosition: Point
    /// Where the piece starts, in background pixels.
    public var startPosition: Point
    /// The background's width in pixels.
    public var imageWidth: Int
    /// The background's height in pixels.
    public var imageHeight: Int
    /// The piece's width in pixels.
    public var pieceWidth: Int
    /// The piece's height in pixels.
    public var pieceHeight: Int
    /// How the piece may move.
    public var axis: PuzzleAxis
    /// The name of the piece's outline, as the challenge tells it.
    public var shapeName: String

    /// Creates the facts of a puzzle.
    public init(
        holePosition: Point, startPosition: Point, imageWidth: Int, imageHeight: Int,
        pieceWidth: Int, pieceHeight: Int, axis: PuzzleAxis, shapeName: String
    ) {
        self.holePosition = holePosition
        self.startPosition = startPosition
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.pieceWidth = pieceWidth
        self.pieceHeight = pieceHeight
        self.axis = axis
        self.shapeName = shapeName
    }
}
