import CGtk

/// Calls `body` about once a second from the GTK main loop while it returns `true`.
///
/// For coarse countdowns shown as text; animation belongs in a component's frame-clock ticks.
public func repeatEverySecond(_ body: @escaping () -> Bool) {
    final class TimerBox {
        let body: () -> Bool
        init(_ body: @escaping () -> Bool) { self.body = body }
    }
    let tick: GSourceFunc = { data in
        Unmanaged<TimerBox>.fromOpaque(data!).takeUnretainedValue().body() ? 1 : 0
    }
    let release: GDestroyNotify = { data in
        if let data { Unmanaged<TimerBox>.fromOpaque(data).release() }
    }
    g_timeout_add_full(
        G_PRIORITY_DEFAULT, 1000, tick, Unmanaged.passRetained(TimerBox(body)).toOpaque(), release)
}
