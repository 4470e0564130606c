import TactileCore

/// The textbook slider-captcha attack: Canny edges of the background and of the piece,
/// then OpenCV-style template matching (`TM_CCOEFF_NORMED`) along the axis.
///
/// The piece is read as a script reads a PNG into a black canvas: its colours weighted by
/// alpha, so its outline and its inner detail both give edges. Both images are smoothed
/// (σ ≈ 1) before the Sobel gradient, as scripts blur before `cv2.Canny`.
public struct CannyMatcher: PuzzleSolver {
    /// How strong a gradient must be to count as an edge.
    public enum Thresholds: Hashable, Sendable {
        /// Fixed gradient magnitudes on the 8-bit scale, as in `cv2.Canny(image, 100, 200)`.
        case fixed(low: Float, high: Float)
        /// Fitted to each image: the strongest fifth of its gradients are strong edges, and
        /// weak ones at 40 % of that join them when connected.
        case adaptive
    }

    /// The thresholds.
    public var thresholds: Thresholds

    /// Creates the solver.
    public init(thresholds: Thresholds = .adaptive) {
        self.thresholds = thresholds
    }

    public var name: String {
        switch thresholds {
        case .adaptive: "Canny edges (adaptive) + template"
        case .fixed(let low, let high): "Canny edges (\(Int(low))/\(Int(high))) + template"
        }
    }

    func edges(_ image: GrayImage) -> GrayImage {
        switch thresholds {
        case .adaptive: image.canny(low: 0.4, high: 0.8, relative: true)
        case .fixed(let low, let high): image.canny(low: low, high: high, relative: false)
        }
    }

    public func locate(_ puzzle: ClientPuzzle) -> Point {
        let matcher = TemplateMatcher(
            image: edges(GrayImage(luma: puzzle.background)),
            template: edges(GrayImage(lumaOverBlack: puzzle.piece)))
        let best = matcher.best(
            among: puzzle.candidates(), refine: puzzle.axis == .free ? 3 : 0)
        return Point(x: Double(best.x), y: Double(best.y))
    }
}
