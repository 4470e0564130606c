/// Light or dark: the style the person's desktop asks for. A component draws with its theme
/// for the appearance its host sets (under GTK, libadwaita's style manager says which).
public enum Appearance: String, Hashable, Sendable, CaseIterable {
    /// Dark content on a light background.
    case light
    /// Light content on a dark background.
    case dark
}

/// A component's theme for each ``Appearance``.
public struct Themes<Theme: Hashable & Sendable>: Hashable, Sendable {
    /// The theme on a light desktop.
    public var light: Theme
    /// The theme on a dark desktop.
    public var dark: Theme

    /// Creates the pair.
    public init(light: Theme, dark: Theme) {
        self.light = light
        self.dark = dark
    }

    /// The theme for `appearance`.
    public subscript(appearance: Appearance) -> Theme {
        get { appearance == .dark ? dark : light }
        set {
            if appearance == .dark { dark = newValue } else { light = newValue }
        }
    }
}
