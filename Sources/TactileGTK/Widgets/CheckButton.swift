import CGtk

/// A check box with a text label.
public final class CheckButton: ToggleControl {
    /// Creates a check box titled `title`; `onToggle` gets the new state after each click.
    public init(_ title: String, isOn: Bool = false, onToggle: ((Bool) -> Void)? = nil) {
        super.init(
            wrapping: gtk_check_button_new_with_label(title), isOn: isOn, onToggle: onToggle)
    }
}
