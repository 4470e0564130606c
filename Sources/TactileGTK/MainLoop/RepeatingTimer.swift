import CGtk

/// Calls `body` about once a second from the GTK main loop while it returns `true`.
///
/// For coarse countdowns shown as text; animation belongs in a component's frame-clock ticks.
public func repeatEverySecond(_ body: @escaping () -> Bool) {
    repeatAfter(1, body)
}

/// Calls `body` once from the GTK main loop, `seconds` from now (at once when not positive).
public func runAfter(_ seconds: Double, _ body: @escaping () -> Void) {
    repeatAfter(max(0, seconds)) {
        body()
        return false
    }
}

/// Calls `body` from the GTK main loop every `seconds` while it returns `true`.
private func repeatAfter(_ seconds: Double, _ body: @escaping () -> Bool) {
    let milliseconds = UInt32(min(seconds * 1000, Double(UInt32.max)).rounded(.up))
    addMainLoopSource(afterMilliseconds: milliseconds, body)
}
