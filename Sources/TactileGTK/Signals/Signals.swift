import CGtk

/// Calls `handler` whenever `instance` emits `signal`, whatever arguments the signal has.
///
/// Fits `clicked`, `activate`, `toggled`, `value-changed`, `changed`, `destroy` and other
/// notifications. The closure is retained until the handler is disconnected or the instance
/// is destroyed. Capture the instance's own handle weakly only if it owns state.
///
/// - Returns: The handler id, for `g_signal_handler_disconnect` or `…_block`.
@discardableResult
public func connect(
    _ instance: gpointer, signal: String, _ handler: @escaping () -> Void
) -> gulong {
    connect(instance, signal: signal) { _ in handler() }
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
    connect(instance, signal: "notify::\(property)", handler)
}

/// Calls `handler` with each emission of `signal` by `instance`, which gives the signal's
/// arguments and takes its answer: the one way Tactile connects to a signal.
///
/// The handler is boxed in a `GClosure` that GTK calls through one C function whatever the
/// signal's shape, and releases (with the box) when the handler is disconnected or the
/// instance is destroyed.
///
/// - Returns: The handler id, or 0 when `instance` has no such signal (GLib says so on
///   standard error).
@discardableResult
package func connect(
    _ instance: gpointer, signal: String, _ handler: @escaping (SignalEmission) -> Void
) -> gulong {
    let box = ClosureBox(handler).retainedPointer()
    let closure = g_closure_new_simple(guint(MemoryLayout<GClosure>.size), box)!
    g_closure_set_marshal(closure, callHandler)
    g_closure_add_finalize_notifier(closure, box, releaseHandlerBox)
    // Held here until connected, so that a signal that does not exist releases it too.
    g_closure_ref(closure)
    g_closure_sink(closure)
    defer { g_closure_unref(closure) }
    return g_signal_connect_closure(instance, signal, closure, 0)
}

/// One emission of a signal, as a handler connected with `connect(_:signal:_:)` sees it: the
/// values the signal was emitted with, and the place for the handler's answer.
///
/// Value 0 is the instance; the signal's own arguments follow from 1. Read each with the
/// getter of its GLib type, as GTK's documentation of the signal gives it (a getter of
/// another type reads nothing, and GLib says so on standard error).
package struct SignalEmission {
    /// The instance and the signal's arguments.
    private let values: UnsafeBufferPointer<GValue>
    /// Where the handler's answer goes; `nil` for a signal that returns nothing.
    private let answerValue: UnsafeMutablePointer<GValue>?

    fileprivate init(values: UnsafeBufferPointer<GValue>, answer: UnsafeMutablePointer<GValue>?) {
        self.values = values
        self.answerValue = answer
    }

    private func value(_ index: Int) -> UnsafePointer<GValue> {
        precondition(values.indices.contains(index), "the signal has no value \(index)")
        return values.baseAddress! + index
    }

    /// The `gdouble` argument at `index`.
    package func double(at index: Int) -> Double { g_value_get_double(value(index)) }

    /// The `gint` argument at `index`.
    package func int32(at index: Int) -> Int32 { g_value_get_int(value(index)) }

    /// The `guint` argument at `index`.
    package func uint32(at index: Int) -> guint { g_value_get_uint(value(index)) }

    /// The flags argument (such as a `GdkModifierType`) at `index`.
    package func flags(at index: Int) -> guint { g_value_get_flags(value(index)) }

    /// The string argument at `index`; `nil` for a null string.
    package func string(at index: Int) -> String? {
        g_value_get_string(value(index)).map { String(cString: $0) }
    }

    /// The untyped pointer argument (`G_TYPE_POINTER`) at `index`.
    package func pointer(at index: Int) -> gpointer? { g_value_get_pointer(value(index)) }

    /// The boxed argument (such as a `GVariantDict *`) at `index`.
    package func boxed(at index: Int) -> gpointer? { g_value_get_boxed(value(index)) }

    /// Answers a signal that returns `gboolean`.
    package func answer(_ answer: Bool) {
        if let answerValue { g_value_set_boolean(answerValue, answer ? 1 : 0) }
    }

    /// Answers a signal that returns `gint`.
    package func answer(_ answer: Int32) {
        if let answerValue { g_value_set_int(answerValue, answer) }
    }
}

/// The C function GTK calls every connected handler through (a `GClosureMarshal`): it finds
/// the handler in the closure's box and hands it the emission.
private let callHandler: GClosureMarshal = { closure, answer, count, values, _, _ in
    guard let closure, let values else { return }
    ClosureBox<(SignalEmission) -> Void>.value(at: closure.pointee.data)(
        SignalEmission(
            values: UnsafeBufferPointer(start: values, count: Int(count)), answer: answer)
    )
}

/// Releases a handler's box once GTK finalizes its closure (a `GClosureNotify`).
private let releaseHandlerBox: GClosureNotify = { data, _ in releaseBox(data) }

// MARK: - Signals of common shapes

/// Connects a signal with two `gdouble` arguments, such as `GtkGestureDrag::drag-begin`,
/// `drag-update` and `drag-end`.
@discardableResult
func connectPoint(
    _ instance: gpointer, signal: String, _ handler: @escaping (Double, Double) -> Void
) -> gulong {
    connect(instance, signal: signal) { emission in
        handler(emission.double(at: 1), emission.double(at: 2))
    }
}

/// Connects a signal with two `gint` arguments, such as `GtkDrawingArea::resize`.
@discardableResult
func connectSize(
    _ instance: gpointer, signal: String, _ handler: @escaping (Int32, Int32) -> Void
) -> gulong {
    connect(instance, signal: signal) { emission in
        handler(emission.int32(at: 1), emission.int32(at: 2))
    }
}

/// Connects `GtkEventControllerKey::key-pressed` (key value, key code, modifiers; returns
/// whether the key was used); `handler` gets the key value and the modifiers.
@discardableResult
func connectKeyPressed(
    _ controller: gpointer, _ handler: @escaping (guint, GdkModifierType) -> Bool
) -> gulong {
    connect(controller, signal: "key-pressed") { emission in
        emission.answer(
            handler(emission.uint32(at: 1), GdkModifierType(rawValue: emission.flags(at: 3))))
    }
}

/// Runs `body` with the handler `id` of `instance` blocked, so programmatic changes made in
/// `body` do not call the handler (as UIKit controls do not send actions when set in code).
func withHandlerBlocked(_ instance: gpointer, _ id: gulong, _ body: () -> Void) {
    g_signal_handler_block(instance, id)
    body()
    g_signal_handler_unblock(instance, id)
}

/// Connects `GApplication::handle-local-options`: `handler` gets the parsed options and
/// returns an exit status, or -1 to continue.
@discardableResult
public func connectLocalOptions(
    _ application: gpointer, _ handler: @escaping (UnsafeMutablePointer<GVariantDict>?) -> Int32
) -> gulong {
    connect(application, signal: "handle-local-options") { emission in
        emission.answer(
            handler(emission.boxed(at: 1)?.assumingMemoryBound(to: GVariantDict.self)))
    }
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
    connect(UnsafeMutableRawPointer(action), signal: "activate", handler)
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
    addKeyHandler(to: widget, in: GTK_PHASE_CAPTURE, handler)
}

/// Calls `handler` for each key pressed while the focus is in `widget` or inside it that
/// the focused widget (and every widget between) left unused (the bubble phase); the
/// handler returns whether it used the key.
///
/// - Parameters:
///   - widget: The widget whose unused keys to see.
///   - handler: Given the key value and modifiers; returns `true` to stop the key there.
public func handleUnusedKeys(
    of widget: UnsafeMutablePointer<GtkWidget>,
    _ handler: @escaping (_ keyval: guint, _ modifiers: GdkModifierType) -> Bool
) {
    addKeyHandler(to: widget, in: GTK_PHASE_BUBBLE, handler)
}

/// Adds a key controller calling `handler` in `phase` to `widget`.
private func addKeyHandler(
    to widget: UnsafeMutablePointer<GtkWidget>, in phase: GtkPropagationPhase,
    _ handler: @escaping (guint, GdkModifierType) -> Bool
) {
    let keys = gtk_event_controller_key_new()!
    gtk_event_controller_set_propagation_phase(keys, phase)
    connectKeyPressed(UnsafeMutableRawPointer(keys), handler)
    gtk_widget_add_controller(widget, keys)
}
