import CGtk

/// A line (or, with ``wraps``, a paragraph) of read-only text, aligned to the leading edge.
public final class Label: Widget {
    /// Creates a label showing `text`.
    public init(_ text: String = "") {
        super.init(wrapping: gtk_label_new(text))
        gtk_label_set_xalign(tactile_label(widget), 0)
    }

    /// The text shown.
    public var text: String {
        get { String(cString: gtk_label_get_text(tactile_label(widget))) }
        set { gtk_label_set_text(tactile_label(widget), newValue) }
    }

    /// Whether long text wraps at word boundaries instead of widening the label.
    public var wraps: Bool {
        get { gtk_label_get_wrap(tactile_label(widget)) != 0 }
        set { gtk_label_set_wrap(tactile_label(widget), newValue ? 1 : 0) }
    }

    /// Whether the user can select (and copy) the text.
    public var isSelectable: Bool {
        get { gtk_label_get_selectable(tactile_label(widget)) != 0 }
        set { gtk_label_set_selectable(tactile_label(widget), newValue ? 1 : 0) }
    }
}
