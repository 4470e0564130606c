import TactileCore

/// Template matching on the picture itself: the piece's grey levels against the
/// background's, by normalised cross-correlation along the axis, over the piece's opaque
/// inside only.
///
/// The correlation ignores gain and offset, so darkening a hole uniformly, or lifting the
/// piece's brightness, hides nothing from it: where a hole still shows the picture under
/// it, this finds it. Both images are blurred a little first, as a hole's inside may be,
/// and the piece's outermost pixels (where a drawn edge would be) are left out.
public struct IntensityMatcher: PuzzleSolver {
    /// Creates the solver.
    public init() {}

    public var name: String { "intensity template (grey NCC)" }

    public func locate(_ puzzle: ClientPuzzle) -> Point {
        let background = GrayImage(luma: puzzle.background).boxBlurred(radius: 2)
        let piece = GrayImage(luma: puzzle.piece).boxBlurred(radius: 2)
        let inside = GrayImage(channel: 3, of: puzzle.piece).mask(
            above: 254, grownBy: -4, margin: 0)
        let matcher = TemplateMatcher(image: background, template: piece, mask: inside)
        let best = matcher.best(
            among: puzzle.candidates(), refine: puzzle.axis == .free ? 3 : 0)
        return Point(x: Double(best.x), y: Double(best.y))
    }
}
