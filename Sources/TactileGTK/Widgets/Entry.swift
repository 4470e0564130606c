import CGtk

/// A single-line text field.
public final class Entry: Widget {
    private var changeHandler: gulong = 0

    /// Creates a text field.
    ///
    /// - Parameters:
    ///   - text: The initial text.
    ///   - placeholder: Grey hint text shown while the field is empty.
    ///   - widthInCharacters: The width the field asks for, in characters; -1 for the default.
    ///   - onChange: Called with the new text after each edit by the user.
    ///   - onActivate: Called with the text when the user presses Enter in the field.
    public init(
        text: String = "", placeholder: String = "", widthInCharacters: Int = -1,
        onChange: ((String) -> Void)? = nil, onActivate: ((String) -> Void)? = nil
    ) {
        super.init(wrapping: gtk_entry_new())
        gtk_editable_set_text(tactile_editable(widget), text)
        gtk_entry_set_placeholder_text(tactile_entry(widget), placeholder)
        gtk_editable_set_width_chars(tactile_editable(widget), Int32(widthInCharacters))
        // The natural width follows max-width-chars; without it a short field still asks for ~150 pt.
        gtk_editable_set_max_width_chars(tactile_editable(widget), Int32(widthInCharacters))
        if let onChange {
            changeHandler = connect(widget, signal: "changed") { [unowned self] in
                onChange(self.text)
            }
        }
        if let onActivate {
            connect(widget, signal: "activate") { [unowned self] in onActivate(self.text) }
        }
    }

    /// The text in the field. Setting it does not call `onChange`.
    public var text: String {
        get { String(cString: gtk_editable_get_text(tactile_editable(widget))) }
        set {
            guard changeHandler != 0 else {
                return gtk_editable_set_text(tactile_editable(widget), newValue)
            }
            withHandlerBlocked(widget, changeHandler) {
                gtk_editable_set_text(tactile_editable(widget), newValue)
            }
        }
    }
}
