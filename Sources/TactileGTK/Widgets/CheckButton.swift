import CGtk

/// A check box with a text label.
public final class CheckButton: Widget {
    private var toggleHandler: gulong = 0

    /// Creates a check box titled `title`; `onToggle` gets the new state after each click.
    public init(_ title: String, isOn: Bool = false, onToggle: ((Bool) -> Void)? = nil) {
        super.init(wrapping: gtk_check_button_new_with_label(title))
        gtk_check_button_set_active(tactile_check_button(widget), isOn ? 1 : 0)
        if let onToggle {
            toggleHandler = connect(widget, signal: "toggled") { [unowned self] in
                onToggle(self.isOn)
            }
        }
    }

    /// Whether the box is ticked. Setting it does not call `onToggle`.
    public var isOn: Bool {
        get { gtk_check_button_get_active(tactile_check_button(widget)) != 0 }
        set {
            let button = tactile_check_button(widget)
            guard toggleHandler != 0 else {
                return gtk_check_button_set_active(button, newValue ? 1 : 0)
            }
            withHandlerBlocked(widget, toggleHandler) {
                gtk_check_button_set_active(button, newValue ? 1 : 0)
            }
        }
    }
}
