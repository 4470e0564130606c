import TactileCore

/// The colours of the Hanoi view.
public struct HanoiTheme: Hashable, Sendable {
    public var background = Color(hex: "#F6F4EF")!
    public var wood = Color(hex: "#8A6A4F")!
    public var rod = Color(hex: "#6B5240")!
    public var label = Color(hex: "#5A5048")!
    public var highlight = Color(hex: "#2F80ED")!
    public var refusal = Color(hex: "#D64545")!

    /// The default theme.
    public init() {}

    /// The colour of a disk: hues from red (smallest) towards violet (largest).
    public func color(ofDisk disk: Int, of count: Int) -> Color {
        let t = count > 1 ? Double(disk - 1) / Double(count - 1) : 0
        return Color(hue: 0.02 + 0.75 * t, saturation: 0.62, value: 0.9)
    }
}
