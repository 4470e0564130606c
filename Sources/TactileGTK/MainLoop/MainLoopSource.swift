import CGtk

/// Adds `body` to the GTK main loop as a source: it runs once the loop is idle, or `seconds`
/// from now, and again each time (when next idle, or that much later) while it returns
/// `true`.
///
/// GTK holds `body` in a ``ClosureBox`` and releases it when the source goes away: after
/// `body` returns `false`, or on `g_source_remove` with the returned id. Safe to call from any
/// thread; `body` runs on the thread that runs the main loop.
///
/// - Parameters:
///   - priority: The source's priority, such as `G_PRIORITY_DEFAULT` or
///     `G_PRIORITY_DEFAULT_IDLE` (after the frame being laid out).
///   - seconds: The delay of a timer, in whole milliseconds rounded up (so it never comes
///     early), at least 0 and at most a day; `nil` for idle work.
///   - body: What to run; returns whether to run again.
/// - Returns: The source id, for `g_source_remove`.
@discardableResult
func addMainLoopSource(
    priority: Int32 = G_PRIORITY_DEFAULT, after seconds: Double? = nil,
    _ body: @escaping () -> Bool
) -> guint {
    let box = ClosureBox(body).retainedPointer()
    guard let seconds else { return g_idle_add_full(priority, runSource, box, releaseBox) }
    let delay = seconds.isNaN ? 0 : min(max(seconds, 0), 86_400)
    let milliseconds = guint((delay * 1000).rounded(.up))
    return g_timeout_add_full(priority, milliseconds, runSource, box, releaseBox)
}

/// The C function GTK calls every source of ``addMainLoopSource(priority:after:_:)``
/// through (a `GSourceFunc`).
private let runSource: GSourceFunc = { data in
    ClosureBox<() -> Bool>.value(at: data)() ? 1 : 0
}
