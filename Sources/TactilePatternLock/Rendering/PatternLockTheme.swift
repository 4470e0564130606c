import TactileCore

/// The colours and proportions of the pattern lock.
public struct PatternLockTheme: Hashable, Sendable {
    /// Behind the grid; `.clear` leaves the host's background.
    public var background = Color(hex: "#F6F4EF")!
    /// Dots not selected.
    public var dot = Color(hex: "#5F6670")!
    /// Selected dots and the line while drawing.
    public var drawing = Color(hex: "#2F80ED")!
    /// Selected dots and the line of an accepted pattern.
    public var correct = Color(hex: "#1E9E5A")!
    /// Selected dots and the line of a refused pattern.
    public var wrong = Color(hex: "#D64545")!
    /// The keyboard focus ring.
    public var focus = Color(hex: "#8A5CF6")!
    /// The radius of an unselected dot, as a fraction of the cell.
    public var dotRadius = 0.075
    /// How much larger a selected dot grows (1.6 = 60 % larger).
    public var selectedDotScale = 1.6
    /// The radius of the halo around a selected dot, as a fraction of the cell.
    public var haloRadius = 0.3
    /// The line width, as a fraction of the cell.
    public var lineWidth = 0.085
    /// Pointer distance from the last dot, in cells, below which the line to the pointer is
    /// hidden; it fades in over ``trailFadeDistance`` beyond.
    public var trailStartDistance = 0.3
    /// The distance, in cells, over which the line to the pointer fades in.
    public var trailFadeDistance = 0.25

    /// The default theme.
    public init() {}

    /// The colour for a display state.
    public func color(for state: PatternDisplayState) -> Color {
        switch state {
        case .normal: dot
        case .drawing: drawing
        case .correct: correct
        case .wrong: wrong
        }
    }
}
