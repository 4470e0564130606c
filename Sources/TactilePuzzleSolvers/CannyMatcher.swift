import TactileCore

/// The textbook slider-captcha attack: Canny edges of the background and of the piece,
/// then OpenCV-style template matching (`TM_CCOEFF_NORMED`) along the axis.
///
/// The piece is read as a script reads a PNG into a black canvas: its colours weighted by
/// alpha, so its outline and its inner detail both give edges. Thresholds adapt to each
/// image: the strongest fifth of the smoothed gradients are strong edges, and weak ones at
/// 40 % of that join them when connected.
public struct CannyMatcher: PuzzleSolver {
    /// Creates the solver.
    public init() {}

    public var name: String { "Canny edges + template" }

    public func locate(_ puzzle: ClientPuzzle) -> Point {
        let edges = GrayImage(luma: puzzle.background).canny(low: 0.4, high: 0.8, relative: true)
        let template = GrayImage(lumaOverBlack: puzzle.piece).canny(
            low: 0.4, high: 0.8, relative: true)
        let matcher = TemplateMatcher(image: edges, template: template)
        let best = matcher.best(
            among: puzzle.candidates(), refine: puzzle.axis == .free ? 3 : 0)
        return Point(x: Double(best.x), y: Double(best.y))
    }
}
