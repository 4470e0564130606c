import CGtk

/// A push button that stays pressed in until clicked again, such as Pause.
public final class ToggleButton: Widget {
    private var toggleHandler: gulong = 0

    /// Creates a toggle button titled `title`; `onToggle` gets the new state after each click.
    public init(_ title: String, isOn: Bool = false, onToggle: ((Bool) -> Void)? = nil) {
        super.init(wrapping: gtk_toggle_button_new_with_label(title))
        gtk_toggle_button_set_active(tactile_toggle_button(widget), isOn ? 1 : 0)
        if let onToggle {
            toggleHandler = connect(widget, signal: "toggled") { [unowned self] in
                onToggle(self.isOn)
            }
        }
    }

    /// Whether the button is pressed in. Setting it does not call `onToggle`.
    public var isOn: Bool {
        get { gtk_toggle_button_get_active(tactile_toggle_button(widget)) != 0 }
        set {
            let button = tactile_toggle_button(widget)
            guard toggleHandler != 0 else {
                return gtk_toggle_button_set_active(button, newValue ? 1 : 0)
            }
            withHandlerBlocked(widget, toggleHandler) {
                gtk_toggle_button_set_active(button, newValue ? 1 : 0)
            }
        }
    }

    /// The text on the button.
    public var title: String {
        get { gtk_button_get_label(tactile_button(widget)).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(tactile_button(widget), newValue) }
    }
}
