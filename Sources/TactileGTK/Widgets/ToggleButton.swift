import CGtk

/// A push button that stays pressed in until clicked again, such as Pause.
public final class ToggleButton: ToggleControl {
    /// Creates a toggle button titled `title`; `onToggle` gets the new state after each click.
    public init(_ title: String, isOn: Bool = false, onToggle: ((Bool) -> Void)? = nil) {
        super.init(
            wrapping: gtk_toggle_button_new_with_label(title), isOn: isOn, onToggle: onToggle)
    }

    /// The text on the button.
    public var title: String {
        get { gtk_button_get_label(tactile_button(widget)).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(tactile_button(widget), newValue) }
    }
}
