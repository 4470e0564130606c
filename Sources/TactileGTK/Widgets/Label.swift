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

    /// Whether wrapping may also break inside a word too long for a line (between words
    /// where it can): for long runs without spaces, such as tokens and identifiers.
    public var breaksLongWords: Bool {
        get { gtk_label_get_wrap_mode(tactile_label(widget)) == PANGO_WRAP_WORD_CHAR }
        set {
            gtk_label_set_wrap_mode(
                tactile_label(widget), newValue ? PANGO_WRAP_WORD_CHAR : PANGO_WRAP_WORD)
        }
    }

    /// The width, in characters, beyond which the label wraps rather than grows; `nil` for no
    /// such limit.
    public var maximumWidthInCharacters: Int? {
        get {
            let characters = gtk_label_get_max_width_chars(tactile_label(widget))
            return characters < 0 ? nil : Int(characters)
        }
        set { gtk_label_set_max_width_chars(tactile_label(widget), Int32(newValue ?? -1)) }
    }

    /// Whether the user can select (and copy) the text.
    public var isSelectable: Bool {
        get { gtk_label_get_selectable(tactile_label(widget)) != 0 }
        set { gtk_label_set_selectable(tactile_label(widget), newValue ? 1 : 0) }
    }
}
