import CGtk

/// Tells the person a message in the window holding `parent`: as a toast (libadwaita's
/// `AdwToast`) when the window has a toast overlay, which is how GNOME apps say things that
/// need no decision; otherwise as a small modal window with an OK button.
///
/// Returns at once. A toast stays 8 seconds (long enough to read a detail) or until
/// dismissed; the modal window closes on OK, Enter or Escape.
///
/// - Parameters:
///   - message: The headline.
///   - detail: Optional explanatory text after the headline.
///   - parent: Any widget in the window the message belongs to.
public func showMessage(_ message: String, detail: String = "", over parent: Widget) {
    if let overlay = gtk_widget_get_ancestor(parent.widget, tactile_toast_overlay_type()) {
        let text = detail.isEmpty ? message : "\(message): \(detail)"
        let escaped = g_markup_escape_text(text, -1)!
        let toast = adw_toast_new(escaped)!
        g_free(escaped)
        adw_toast_set_timeout(toast, 8)
        adw_toast_overlay_add_toast(tactile_toast_overlay(overlay), toast)
        return
    }
    showDialog(message, detail: detail, over: parent)
}

/// The modal window ``showMessage(_:detail:over:)`` falls back to. GTK 4.8 has no
/// `GtkAlertDialog` and deprecates `GtkMessageDialog` from 4.10, so this is a plain modal
/// `GtkWindow`.
private func showDialog(_ message: String, detail: String, over parent: Widget) {
    let window = gtk_window_new()!
    let gtkWindow = tactile_window(window)
    gtk_window_set_modal(gtkWindow, 1)
    gtk_window_set_resizable(gtkWindow, 0)
    gtk_window_set_title(gtkWindow, message)
    if let root = gtk_widget_get_root(parent.widget) {
        gtk_window_set_transient_for(gtkWindow, tactile_window(UnsafeMutableRawPointer(root)))
    }

    let headline = Label()
    let escaped = g_markup_escape_text(message, -1)!
    gtk_label_set_markup(tactile_label(headline.widget), "<b>\(String(cString: escaped))</b>")
    g_free(escaped)
    let body = Label(detail)
    body.wraps = true
    body.isVisible = !detail.isEmpty
    gtk_label_set_max_width_chars(tactile_label(body.widget), 50)
    let ok = Button("OK") { gtk_window_destroy(gtkWindow) }
    gtk_widget_set_halign(ok.widget, GTK_ALIGN_END)

    let content = Box(.vertical, spacing: 12, [headline, body, ok])
    content.setMargins(18)
    gtk_window_set_child(gtkWindow, content.widget)
    gtk_window_set_default_widget(gtkWindow, ok.widget)

    let keys = gtk_event_controller_key_new()!
    connectKeyPressed(UnsafeMutableRawPointer(keys)) { keyval, _ in
        guard Int32(bitPattern: keyval) == GDK_KEY_Escape else { return false }
        gtk_window_destroy(gtkWindow)
        return true
    }
    gtk_widget_add_controller(window, keys)
    gtk_window_present(gtkWindow)
    ok.grabFocus()
}
