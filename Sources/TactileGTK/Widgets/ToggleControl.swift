import CGtk

/// A button that each click turns on or off: what ``CheckButton`` and ``ToggleButton`` share.
public class ToggleControl: Widget {
    private var toggleHandler: gulong = 0

    /// Wraps `widget`, a `GtkCheckButton` or `GtkToggleButton`, turned on if `isOn`;
    /// `onToggle` gets the new state after each click.
    init(wrapping widget: UnsafeMutablePointer<GtkWidget>, isOn: Bool, onToggle: ((Bool) -> Void)?)
    {
        super.init(wrapping: widget)
        self.isOn = isOn
        if let onToggle {
            toggleHandler = connect(widget, signal: "toggled") { [unowned self] in
                onToggle(self.isOn)
            }
        }
    }

    /// Whether the control is on (ticked, or pressed in). Setting it does not call `onToggle`.
    public var isOn: Bool {
        get { tactile_get_boolean(widget, "active") != 0 }
        set {
            let widget = widget
            let turn = { tactile_set_boolean(widget, "active", newValue ? 1 : 0) }
            if toggleHandler == 0 {
                turn()
            } else {
                withHandlerBlocked(widget, toggleHandler, turn)
            }
        }
    }
}
