import TactileCore
import TactilePuzzle

/// ``GapFinder`` with eyes for colour: edge strength taken on the background's two
/// colour-difference channels (red less luma, blue less luma) rather than on its grey
/// levels, so that an outline drawn in colour alone, at constant brightness, shows.
///
/// Each channel is smoothed and goes through a Sobel operator; their magnitudes add up to
/// the edge strength. The piece's outline (the gradient of its alpha) is the template, and
/// the position along the axis with the best zero-mean normalised cross-correlation wins.
public struct ColourEdgeMatcher: PuzzleSolver {
    /// Creates the solver.
    public init() {}

    public var name: String { "colour edges + outline template" }

    public func locate(_ puzzle: ClientPuzzle) -> Point {
        var edges = GrayImage(colourDifference: 0, of: puzzle.background).smoothed()
            .sobelMagnitude()
        let blue = GrayImage(colourDifference: 2, of: puzzle.background).smoothed()
            .sobelMagnitude()
        for i in edges.values.indices { edges.values[i] += blue.values[i] }
        return GapFinder.bestOutlineMatch(edges: edges, in: puzzle)
    }
}
