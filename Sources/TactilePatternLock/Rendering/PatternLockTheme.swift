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

    /// The light theme.
    public init() {}

    /// For a light desktop.
    public static let light = PatternLockTheme()

    /// For a dark desktop: light dots and brighter states on a dark panel.
    public static let dark: PatternLockTheme = {
        var theme = PatternLockTheme()
        theme.background = Color(hex: "#2B2A28")!
        theme.dot = Color(hex: "#A4ABB5")!
        theme.drawing = Color(hex: "#62A0EA")!
        theme.correct = Color(hex: "#57C785")!
        theme.wrong = Color(hex: "#F06A6A")!
        theme.focus = Color(hex: "#B49AFB")!
        return theme
    }()

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
