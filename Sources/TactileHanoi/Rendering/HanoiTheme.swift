import TactileCore

/// The colours of the Hanoi view.
public struct HanoiTheme: Hashable, Sendable {
    public var background = Color(hex: "#F6F4EF")!
    public var wood = Color(hex: "#8A6A4F")!
    public var rod = Color(hex: "#6B5240")!
    public var label = Color(hex: "#5A5048")!
    public var highlight = Color(hex: "#2F80ED")!
    public var refusal = Color(hex: "#D64545")!

    /// The light theme.
    public init() {}

    /// For a light desktop: warm wood on paper.
    public static let light = HanoiTheme()

    /// For a dark desktop: the same wood, lighter, on a dark panel.
    public static let dark: HanoiTheme = {
        var theme = HanoiTheme()
        theme.background = Color(hex: "#2B2A28")!
        theme.wood = Color(hex: "#A9825F")!
        theme.rod = Color(hex: "#C29A76")!
        theme.label = Color(hex: "#DDD6CC")!
        theme.highlight = Color(hex: "#62A0EA")!
        theme.refusal = Color(hex: "#F06A6A")!
        return theme
    }()

    /// The colour of a disk: hues from red (smallest) towards violet (largest).
    public func color(ofDisk disk: Int, of count: Int) -> Color {
        let t = count > 1 ? Double(disk - 1) / Double(count - 1) : 0
        return Color(hue: 0.02 + 0.75 * t, saturation: 0.62, value: 0.9)
    }
}
