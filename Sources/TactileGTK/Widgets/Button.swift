import CGtk

/// A push button with a text label that runs an action when clicked.
public final class Button: Widget {
    /// Creates a button titled `title` that calls `action` on each click.
    public init(_ title: String, action: @escaping () -> Void) {
        super.init(wrapping: gtk_button_new_with_label(title))
        connect(widget, signal: "clicked", action)
    }

    /// The text on the button.
    public var title: String {
        get { gtk_button_get_label(tactile_button(widget)).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(tactile_button(widget), newValue) }
    }
}
