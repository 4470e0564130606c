/// A key press delivered to the focused component.
public struct KeyEvent: Hashable, Sendable {
    /// The keys components react to.
    public enum Key: Hashable, Sendable {
        case left, right, up, down
        case space, enter, escape, tab, backspace, delete, home, end, pageUp, pageDown
        /// A printable character, such as a digit.
        case character(Character)
    }

    /// Modifier keys held during the press.
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1 << 0)
        public static let control = Modifiers(rawValue: 1 << 1)
        public static let alternate = Modifiers(rawValue: 1 << 2)
    }

    public var key: Key
    public var modifiers: Modifiers

    /// Creates a key event.
    public init(_ key: Key, modifiers: Modifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }
}
