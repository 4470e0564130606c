import CGtk

/// Asks for a file with GTK's file chooser and calls `chosen` with its path (not at all when
/// the user cancels).
///
/// - Parameters:
///   - title: The dialog's title.
///   - mimeTypes: The file types offered; empty offers every file.
///   - filterName: How the chooser names those types.
///   - parent: A widget in the window the dialog belongs to.
///   - chosen: Called with the chosen file's path.
public func chooseFile(
    title: String, mimeTypes: [String] = [], filterName: String = "Supported files",
    over parent: Widget,
    _ chosen: @escaping (String) -> Void
) {
    let window = gtk_widget_get_root(parent.widget).flatMap {
        tactile_window(UnsafeMutableRawPointer($0))
    }
    guard
        let chooser = gtk_file_chooser_native_new(
            title, window, GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel")
    else { return }
    if !mimeTypes.isEmpty {
        let filter = gtk_file_filter_new()!
        gtk_file_filter_set_name(filter, filterName)
        for type in mimeTypes { gtk_file_filter_add_mime_type(filter, type) }
        // The native chooser is a GtkFileChooser and a GtkNativeDialog.
        gtk_file_chooser_add_filter(chooser, filter)
    }
    let dialog = UnsafeMutablePointer<GtkNativeDialog>(chooser)
    gtk_native_dialog_set_modal(dialog, 1)
    // GtkNativeDialog::response gives the answer as an int.
    connect(UnsafeMutableRawPointer(chooser), signal: "response") { emission in
        if emission.int32(at: 1) == GTK_RESPONSE_ACCEPT.rawValue,
            let file = gtk_file_chooser_get_file(chooser)
        {
            if let path = g_file_get_path(file) {
                chosen(String(cString: path))
                g_free(path)
            }
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        g_object_unref(UnsafeMutableRawPointer(chooser))
    }
    gtk_native_dialog_show(dialog)
}
