import CGtk
import Foundation
import Synchronization

/// The one thread GTK runs on in these tests.
///
/// GTK is driven from a single thread, and swift-testing runs tests on a pool of threads, so
/// GTK is initialised on a thread of its own, which then runs the tests' GTK work one piece
/// at a time (each piece whole, its own main-loop iterations included) and, between pieces,
/// GLib's main loop. That it is not the process's first thread does not matter: GTK 4 wants
/// one thread, and does not ask which.
final class GTKThread: Sendable {
    /// The thread, started (and GTK initialised on it) on first use.
    static let shared = GTKThread()

    /// Why a test could not reach GTK.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Work waiting for the thread, oldest first; each piece is told whether GTK opened a
    /// display.
    private let jobs = Mutex<[@Sendable (_ hasDisplay: Bool) -> Void]>([])

    private init() {
        let thread = Thread { self.serve() }
        thread.name = "GTK"
        thread.start()
    }

    /// Initialises GTK, then runs each piece of work as it comes and the main loop between.
    private func serve() -> Never {
        let hasDisplay = gtk_init_check() != 0
        if hasDisplay { adw_init() }
        while true {
            if let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                job(hasDisplay)
            } else {
                g_main_context_iteration(nil, 1)
            }
        }
    }

    /// Runs `body` on the GTK thread and returns what it returns.
    ///
    /// - Throws: ``Unavailable`` when GTK could not open a display; whatever `body` throws.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            jobs.withLock {
                $0.append { hasDisplay in
                    guard hasDisplay else {
                        let environment = ProcessInfo.processInfo.environment
                        let names = ["DISPLAY", "WAYLAND_DISPLAY"].map {
                            "\($0)=\(environment[$0] ?? "(unset)")"
                        }
                        return continuation.resume(
                            throwing: Unavailable(
                                description:
                                    "GTK could not open a display (\(names.joined(separator: ", ")))"
                            ))
                    }
                    continuation.resume(with: Result(catching: body))
                }
            }
            // Ends the thread's wait in the main loop (or its next wait, at once).
            g_main_context_wakeup(nil)
        }
    }
}

/// Whether the display tests run: when the environment names a display, or when the test
/// script requires them (`TACTILE_REQUIRE_DISPLAY=1`), so that there they fail without one
/// rather than skip.
enum Display {
    static var isExpected: Bool {
        let environment = ProcessInfo.processInfo.environment
        let named = ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
        return named || environment["TACTILE_REQUIRE_DISPLAY"] == "1"
    }
}

/// Runs GLib's main loop until `condition` holds, for at most `seconds`; returns whether it
/// came to hold. Call on the GTK thread.
///
/// The limit only ends a wait that would otherwise hang; it is generous, and no test asserts
/// how long anything took.
func runMainLoop(forAtMost seconds: Double = 30, until condition: () -> Bool) -> Bool {
    let deadline = g_get_monotonic_time() + gint64(seconds * 1_000_000)
    while !condition() {
        guard g_get_monotonic_time() < deadline else { return false }
        // Nothing was ready: wait a little rather than spin.
        if g_main_context_iteration(nil, 0) == 0 { g_usleep(1000) }
    }
    return true
}
