import CGtk

/// Calls `body` about once a second from the GTK main loop while it returns `true`.
///
/// For coarse countdowns shown as text; animation belongs in a component's frame-clock ticks.
public func repeatEverySecond(_ body: @escaping () -> Bool) {
    addMainLoopSource(after: 1, body)
}

/// Calls `body` once from the GTK main loop, `seconds` from now (at once when not positive,
/// and a day from now at the latest).
public func runAfter(_ seconds: Double, _ body: @escaping () -> Void) {
    addMainLoopSource(after: seconds) {
        body()
        return false
    }
}
