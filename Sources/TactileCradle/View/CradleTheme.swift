import TactileCore

/// The colours of the cradle.
public struct CradleTheme: Hashable, Sendable {
    /// Behind the cradle.
    public var background = Color(red: 0.95, green: 0.96, blue: 0.98)
    /// The bar the strings hang from.
    public var frame = Color(red: 0.25, green: 0.27, blue: 0.31)
    /// The strings.
    public var string = Color(red: 0.3, green: 0.3, blue: 0.34)
    /// A ball's shading at its lit corner…
    public var ballLight = Color(white: 0.96)
    /// …its middle…
    public var ballMiddle = Color(white: 0.66)
    /// …and its shadowed corner.
    public var ballShadow = Color(white: 0.32)
    /// The lit corner of the ball being dragged…
    public var draggedBallLight = Color(white: 1)
    /// …and the middle of its shading.
    public var draggedBall = Color(red: 0.55, green: 0.68, blue: 0.9)
    /// A ball's rim.
    public var rim = Color(white: 0.25)
    /// The energy readout.
    public var text = Color(white: 0.2)

    /// The light theme.
    public init() {}

    /// For a light desktop: steel on a pale panel.
    public static let light = CradleTheme()

    /// For a dark desktop: the same steel on a dark panel, a light frame and strings.
    public static let dark: CradleTheme = {
        var theme = CradleTheme()
        theme.background = Color(red: 0.16, green: 0.17, blue: 0.19)
        theme.frame = Color(red: 0.62, green: 0.64, blue: 0.68)
        theme.string = Color(red: 0.68, green: 0.68, blue: 0.72)
        theme.rim = Color(white: 0.08)
        theme.text = Color(white: 0.86)
        return theme
    }()
}
