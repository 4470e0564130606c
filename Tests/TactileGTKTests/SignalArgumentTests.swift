import CGtk
import TactileGTK
import Testing

/// A connected handler gets the signal's arguments, of whatever type, and its answer is the
/// signal's.
@Suite(.enabled(if: Display.isExpected, "needs a display (DISPLAY or WAYLAND_DISPLAY)"))
struct SignalArgumentTests {
    @Test func aPointerArgumentAndAnIntegerAnswer() async throws {
        // GtkSpinButton::input hands a `gdouble *` to fill; answering TRUE says it was filled.
        let value = try await GTKThread.shared.run {
            let spin = gtk_spin_button_new_with_range(0, 100, 1)!
            g_object_ref_sink(UnsafeMutableRawPointer(spin))
            defer { g_object_unref(UnsafeMutableRawPointer(spin)) }
            connect(spin, signal: "input") { emission in
                emission.pointer(at: 1)?.assumingMemoryBound(to: Double.self).pointee = 42
                emission.answer(Int32(1))
            }
            gtk_editable_set_text(tactile_editable(spin), "forty-two")
            gtk_spin_button_update(tactile_spin_button(spin))
            return gtk_spin_button_get_value(tactile_spin_button(spin))
        }
        #expect(value == 42)
    }

    @Test func aStringArgument() async throws {
        let responses = try await GTKThread.shared.run {
            let dialog = adw_message_dialog_new(nil, "Heading", "Body")!
            defer { gtk_window_destroy(tactile_window(dialog)) }
            var responses: [String?] = []
            connect(dialog, signal: "response") { emission in
                responses.append(emission.string(at: 1))
            }
            let message = UnsafeMutableRawPointer(dialog).assumingMemoryBound(
                to: AdwMessageDialog.self)
            adw_message_dialog_add_response(message, "start-over", "Start over")
            adw_message_dialog_response(message, "start-over")
            return responses
        }
        #expect(responses == ["start-over"])
    }

    @Test func aBooleanAnswer() async throws {
        // GtkWindow::close-request: answering TRUE keeps the window open.
        let (keptOpen, closed) = try await GTKThread.shared.run {
            let widget = gtk_window_new()!
            let window = tactile_window(widget)!
            // Held past the window's destruction, to look at it then.
            g_object_ref(UnsafeMutableRawPointer(widget))
            defer { g_object_unref(UnsafeMutableRawPointer(widget)) }
            var refuses = true
            connect(widget, signal: "close-request") { emission in emission.answer(refuses) }
            gtk_window_present(window)
            gtk_window_close(window)
            let keptOpen = gtk_widget_get_visible(widget) != 0
            refuses = false
            gtk_window_close(window)
            return (keptOpen, gtk_widget_get_visible(widget) == 0)
        }
        #expect(keptOpen, "TRUE kept the window open")
        #expect(closed, "FALSE let it close")
    }
}
