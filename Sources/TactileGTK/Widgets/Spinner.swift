import CGtk

/// A turning wheel (`GtkSpinner`) that says "working, wait a moment", for work that takes
/// too long to pass unnoticed but has no progress to show, such as a slow password hash.
///
/// Shown only while it spins, so it takes no room otherwise. When the desktop turns
/// animations off, GTK shows it still.
public final class Spinner: Widget {
    /// Creates a spinner, hidden and still.
    public init() {
        super.init(wrapping: gtk_spinner_new())
        isVisible = false
    }

    /// Whether the spinner is shown and turning.
    public var isSpinning: Bool {
        get { gtk_spinner_get_spinning(OpaquePointer(widget)) != 0 }
        set {
            gtk_spinner_set_spinning(OpaquePointer(widget), newValue ? 1 : 0)
            isVisible = newValue
        }
    }
}
