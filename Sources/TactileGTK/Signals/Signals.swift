import CGtk

/// Calls `handler` whenever `instance` emits a signal of the shape `void (*)(instance, data)`.
///
/// Fits `clicked`, `activate`, `toggled`, `value-changed`, `changed`, `destroy` and most
/// other notifications. The closure is retained until the handler is disconnected or the
/// instance is destroyed. Capture the instance's own handle weakly only if it owns state.
///
/// - Returns: The handler id, for `g_signal_handler_disconnect` or `…_block`.
@discardableResult
public func connect(
    _ instance: gpointer, signal: String, _ handler: @escaping () -> Void
) -> gulong {
    let trampoline: @convention(c) (gpointer?, gpointer?) -> Void = { _, data in
        ClosureBox<() -> Void>.value(at: data)()
    }
    return connect(instance, signal, through: trampoline, calling: handler)
}

/// Calls `handler` whenever the GObject property `property` of `instance` changes.
///
/// Connects to `notify::property`, for example `notify::selected` on a `GtkDropDown`.
///
/// - Returns: The handler id.
@discardableResult
public func connect(
    _ instance: gpointer, notify property: String, _ handler: @escaping () -> Void
) -> gulong {
    connect(instance, signal: "notify::\(property)") { (_: gpointer?) in handler() }
}

// MARK: - Internal shapes

/// Connects `trampoline`, a C function of the signal's shape that finds `handler` in a
/// ``ClosureBox`` passed as its last argument; the box lives as long as the connection.
private func connect<Trampoline, Handler>(
    _ instance: gpointer, _ signal: String, through trampoline: Trampoline,
    calling handler: Handler
) -> gulong {
    tactile_signal_connect(
        instance, signal, unsafeBitCast(trampoline, to: GCallback.self),
        ClosureBox(handler).retainedPointer(), releaseBox)
}

/// Connects a signal of the shape `void (*)(instance, gpointer argument, data)`, such as
/// `notify` (a `GParamSpec *`) or `GtkGesture::cancel` (a `GdkEventSequence *`).
@discardableResult
func connect(
    _ instance: gpointer, signal: String, _ handler: @escaping (gpointer?) -> Void
) -> gulong {
    let trampoline: @convention(c) (gpointer?, gpointer?, gpointer?) -> Void = {
        _, argument, data in
        ClosureBox<(gpointer?) -> Void>.value(at: data)(argument)
    }
    return connect(instance, signal, through: trampoline, calling: handler)
}

/// Connects a signal of the shape `void (*)(instance, double, double, data)`, such as
/// `GtkGestureDrag::drag-begin`, `drag-update` and `drag-end`.
@discardableResult
func connectPoint(
    _ instance: gpointer, signal: String, _ handler: @escaping (Double, Double) -> Void
) -> gulong {
    let trampoline: @convention(c) (gpointer?, Double, Double, gpointer?) -> Void = {
        _, x, y, data in
        ClosureBox<(Double, Double) -> Void>.value(at: data)(x, y)
    }
    return connect(instance, signal, through: trampoline, calling: handler)
}

/// Connects a signal of the shape `void (*)(instance, int, int, data)`, such as
/// `GtkDrawingArea::resize`.
@discardableResult
func connectSize(
    _ instance: gpointer, signal: String, _ handler: @escaping (Int32, Int32) -> Void
) -> gulong {
    let trampoline: @convention(c) (gpointer?, Int32, Int32, gpointer?) -> Void = {
        _, width, height, data in
        ClosureBox<(Int32, Int32) -> Void>.value(at: data)(width, height)
    }
    return connect(instance, signal, through: trampoline, calling: handler)
}

/// Connects `GtkEventControllerKey::key-pressed`:
/// `gboolean (*)(controller, guint keyval, guint keycode, GdkModifierType state, data)`.
@discardableResult
func connectKeyPressed(
    _ controller: gpointer, _ handler: @escaping (guint, GdkModifierType) -> Bool
) -> gulong {
    let trampoline:
        @convention(c) (gpointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
            _, keyval, _, state, data in
            ClosureBox<(guint, GdkModifierType) -> Bool>.value(at: data)(keyval, state) ? 1 : 0
        }
    return connect(controller, "key-pressed", through: trampoline, calling: handler)
}

/// Runs `body` with the handler `id` of `instance` blocked, so programmatic changes made in
/// `body` do not call the handler (as UIKit controls do not send actions when set in code).
func withHandlerBlocked(_ instance: gpointer, _ id: gulong, _ body: () -> Void) {
    g_signal_handler_block(instance, id)
    body()
    g_signal_handler_unblock(instance, id)
}

/// Connects `GApplication::handle-local-options`:
/// `gint (*)(application, GVariantDict *options, data)`; the handler returns -1 to continue.
@discardableResult
public func connectLocalOptions(
    _ application: gpointer, _ handler: @escaping (UnsafeMutablePointer<GVariantDict>?) -> Int32
) -> gulong {
    let trampoline:
        @convention(c) (gpointer?, UnsafeMutablePointer<GVariantDict>?, gpointer?) -> Int32 = {
            _, options, data in
            ClosureBox<(UnsafeMutablePointer<GVariantDict>?) -> Int32>.value(at: data)(options)
        }
    return connect(application, "handle-local-options", through: trampoline, calling: handler)
}

/// Adds an action called `name` to `map` (a `GApplication` or a `GtkApplicationWindow`),
/// which calls `handler` when activated — from a menu item, a shortcut or `g_action_activate`.
///
/// - Parameters:
///   - name: The action's name without its `app.`/`win.` prefix.
///   - map: The application or window that owns the action.
///   - handler: What the action does.
public func addAction(_ name: String, to map: gpointer, _ handler: @escaping () -> Void) {
    let action = g_simple_action_new(name, nil)!
    connect(UnsafeMutableRawPointer(action), signal: "activate") { (_: gpointer?) in handler() }
    g_action_map_add_action(tactile_action_map(map), action)
    g_object_unref(UnsafeMutableRawPointer(action))
}

/// Calls `handler` for each key pressed while the focus is in `widget` or inside it, before
/// the focused widget sees the key (the capture phase); the handler returns whether it used
/// the key.
///
/// - Parameters:
///   - widget: The widget whose keys to see first.
///   - handler: Given the key value and modifiers; returns `true` to stop the key there.
public func interceptKeys(
    of widget: UnsafeMutablePointer<GtkWidget>,
    _ handler: @escaping (_ keyval: guint, _ modifiers: GdkModifierType) -> Bool
) {
    let keys = gtk_event_controller_key_new()!
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
    connectKeyPressed(UnsafeMutableRawPointer(keys), handler)
    gtk_widget_add_controller(widget, keys)
}
