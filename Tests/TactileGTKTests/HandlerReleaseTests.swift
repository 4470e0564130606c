import CGtk
import TactileGTK
import Testing

/// A closure handed to GTK lives as long as what holds it, and no longer: GTK's destroy
/// notify releases its box when the handler's instance goes away or the handler is
/// disconnected, and when a main-loop source has run for the last time.
@Suite(.enabled(if: Display.isExpected, "needs a display (DISPLAY or WAYLAND_DISPLAY)"))
struct HandlerReleaseTests {
    /// How a connected handler comes to its end.
    enum Ending: String, CaseIterable, Sendable {
        case windowDestroyed, objectUnreferenced, handlerDisconnected
    }

    /// What became of a handler and of an object only its closure held.
    struct Observation: Sendable {
        var calls = 0
        var isHeldWhileConnected = false
        var isReleased = false
    }

    @Test(arguments: Ending.allCases)
    func aSignalHandlersBoxIsReleasedByGTK(ending: Ending) async throws {
        let seen = try await GTKThread.shared.run { Self.connectAndEnd(ending) }
        #expect(seen.calls == 1, "the handler ran for the one emission")
        #expect(seen.isHeldWhileConnected, "the box keeps what the closure captured")
        #expect(seen.isReleased, "GTK released the box (and so the closure's capture)")
    }

    @Test func aMainLoopSourcesBoxIsReleasedOnceItHasRun() async throws {
        let seen = try await GTKThread.shared.run {
            var seen = Observation()
            weak var witness: Witness?
            do {
                let held = Witness()
                witness = held
                runAfter(0) {
                    seen.calls += 1
                    withExtendedLifetime(held) {}
                }
            }
            seen.isHeldWhileConnected = witness != nil
            seen.isReleased = runMainLoop { seen.calls == 1 && witness == nil }
            return seen
        }
        #expect(seen.calls == 1, "the source ran once")
        #expect(seen.isHeldWhileConnected, "the box keeps what the closure captured until it runs")
        #expect(seen.isReleased, "GTK released the box once the source was done")
    }

    /// Connects a handler whose closure alone holds a witness, emits the signal once, ends
    /// the handler as `ending` says, and sees what became of the witness. On the GTK thread.
    private static func connectAndEnd(_ ending: Ending) -> Observation {
        var seen = Observation()
        weak var witness: Witness?
        let instance: gpointer
        let signal: String
        let emit: () -> Void
        let end: (_ handler: gulong) -> Void
        switch ending {
        case .windowDestroyed:
            let window = tactile_window(gtk_window_new())!
            instance = UnsafeMutableRawPointer(window)
            signal = "notify::title"
            emit = { gtk_window_set_title(window, "Emitted") }
            end = { _ in gtk_window_destroy(window) }
        case .objectUnreferenced, .handlerDisconnected:
            let adjustment = gtk_adjustment_new(0, 0, 10, 1, 1, 0)!
            instance = UnsafeMutableRawPointer(adjustment)
            g_object_ref_sink(instance)
            signal = "value-changed"
            emit = { gtk_adjustment_set_value(adjustment, 5) }
            end =
                ending == .objectUnreferenced
                ? { _ in g_object_unref(instance) }
                : { handler in g_signal_handler_disconnect(instance, handler) }
        }
        let handler: gulong
        do {
            let held = Witness()
            witness = held
            handler = connect(instance, signal: signal) {
                seen.calls += 1
                withExtendedLifetime(held) {}
            }
        }
        emit()
        seen.isHeldWhileConnected = witness != nil
        end(handler)
        seen.isReleased = runMainLoop { witness == nil }
        if ending == .handlerDisconnected { g_object_unref(instance) }
        return seen
    }
}
