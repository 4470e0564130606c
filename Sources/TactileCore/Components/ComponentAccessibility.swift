/// What a component tells assistive technologies about itself: the kind of control it is, a
/// name, a description that follows its state, and whether it takes input now.
///
/// Hosts map it onto their platform's accessibility API (GTK's `GtkAccessible`, UIKit's
/// `accessibilityLabel`/`accessibilityValue`). The description is what a screen reader reads
/// after the name, so it says what a sighted person sees at a glance — never a secret (a
/// pattern lock counts its dots, it does not name them).
public struct ComponentAccessibility: Hashable, Sendable {
    /// The kind of control, as assistive technologies classify it.
    public enum Role: Hashable, Sendable {
        /// A composite control with parts of its own (pegs and disks, a grid of dots).
        case group
        /// A picture that moves by itself or when pulled (the cradle).
        case image
        /// A control with one value in a range (the captcha piece along its track).
        case slider
    }

    /// The kind of control; hosts set it when they create the view.
    public var role: Role
    /// The control's name, e.g. "Tower of Hanoi".
    public var label: String
    /// What the control shows now, e.g. "Move 4 of 31 — disk 3 from A to C".
    public var description: String
    /// Whether the control refuses input now (a lockout).
    public var isDisabled: Bool

    /// Creates a description for assistive technologies.
    ///
    /// - Parameters:
    ///   - role: The kind of control.
    ///   - label: The control's name.
    ///   - description: What it shows now.
    ///   - isDisabled: Whether it refuses input now.
    public init(role: Role, label: String, description: String, isDisabled: Bool = false) {
        self.role = role
        self.label = label
        self.description = description
        self.isDisabled = isDisabled
    }
}
