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
    // GtkNativeDialog::response is `void (*)(dialog, int response, data)`.
    let response: @convention(c) (gpointer?, Int32, gpointer?) -> Void = { dialog, answer, data in
        guard let dialog, let data else { return }
        let box = Unmanaged<FileChoiceBox>.fromOpaque(data).takeUnretainedValue()
        if answer == GTK_RESPONSE_ACCEPT.rawValue,
            let file = gtk_file_chooser_get_file(OpaquePointer(dialog))
        {
            if let path = g_file_get_path(file) {
                box.chosen(String(cString: path))
                g_free(path)
            }
            g_object_unref(UnsafeMutableRawPointer(file))
        }
        g_object_unref(dialog)
    }
    let box = Unmanaged.passRetained(FileChoiceBox(chosen)).toOpaque()
    let release: GClosureNotify = { data, _ in
        if let data { Unmanaged<FileChoiceBox>.fromOpaque(data).release() }
    }
    tactile_signal_connect(
        UnsafeMutableRawPointer(chooser), "response", unsafeBitCast(response, to: GCallback.self),
        box, release)
    gtk_native_dialog_show(dialog)
}

/// Holds the file chooser's callback for GTK.
private final class FileChoiceBox {
    let chosen: (String) -> Void
    init(_ chosen: @escaping (String) -> Void) { self.chosen = chosen }
}
