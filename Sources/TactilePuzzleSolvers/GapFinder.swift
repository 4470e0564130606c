import TactileCore
import TactilePuzzle

/// An edge + template solver: edge strength on the background, the piece's outline as the
/// template, normalised cross-correlation along the axis.
///
/// Both images are smoothed (Canny's first step) and go through a Sobel operator; the
/// piece's template is the gradient of its alpha channel, so its outline. Every position
/// along the axis (a grid of every 4th pixel, then the five best refined, for a free
/// puzzle) is scored by the zero-mean normalised cross-correlation of the outline with the
/// background's edge strengths, and the best wins.
public struct GapFinder: PuzzleSolver {
    /// Creates the solver.
    public init() {}

    public var name: String { "Sobel edges + outline template" }

    public func locate(_ puzzle: ClientPuzzle) -> Point {
        Self.bestOutlineMatch(
            edges: GrayImage(luma: puzzle.background).smoothed().sobelMagnitude(), in: puzzle)
    }

    /// Where the piece's outline (the smoothed Sobel magnitude of its alpha) best matches
    /// `edges`, the background's edge strengths, along the puzzle's axis.
    static func bestOutlineMatch(edges: GrayImage, in puzzle: ClientPuzzle) -> Point {
        let outline = GrayImage(channel: 3, of: puzzle.piece).smoothed().sobelMagnitude()
        let matcher = TemplateMatcher(image: edges, template: outline)
        let best = matcher.best(
            among: puzzle.candidates(), refine: puzzle.axis == .free ? 3 : 0)
        return Point(x: Double(best.x), y: Double(best.y))
    }

    /// The estimated top-left corner of the hole, in background pixels.
    ///
    /// - Parameters:
    ///   - background: The background with the hole.
    ///   - piece: The piece image (alpha marks the shape).
    ///   - axis: The puzzle's axis.
    ///   - fixed: The piece's row for a horizontal puzzle or column for a vertical one.
    public static func locate(
        background: Bitmap, piece: Bitmap, axis: PuzzleAxis, fixed: Int?
    ) -> Point {
        GapFinder().locate(
            ClientPuzzle(background: background, piece: piece, axis: axis, fixed: fixed))
    }
}
