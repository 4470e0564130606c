import Foundation
import Synchronization

/// Closes connections past their deadline every quarter second, and says every ten seconds
/// how many connections were refused or closed for being slow, if any.
final class Reaper: Sendable {
    private let connectionGuard: ConnectionGuard
    private let messages: @Sendable (String) -> Void
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Connections refused at accepting, and closed at their deadline, since the last report.
    let refused = Atomic<Int>(0)
    let closedSlow = Atomic<Int>(0)

    init(guard connectionGuard: ConnectionGuard, messages: @escaping @Sendable (String) -> Void) {
        self.connectionGuard = connectionGuard
        self.messages = messages
    }

    func start() {
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            var ticks = 0
            while running.load(ordering: .acquiring) {
                usleep(250_000)
                connectionGuard.expired(at: uptime()) { socket in
                    // The network thread sees the end of the stream and closes it.
                    shutdown(socket, Int32(SHUT_RDWR))
                    closedSlow.add(1, ordering: .relaxed)
                }
                ticks += 1
                if ticks % 40 == 0 { report() }
            }
            finished.signal()
        }
        thread.name = "http-deadlines"
        thread.start()
    }

    private func report() {
        let refused = refused.exchange(0, ordering: .relaxed)
        let slow = closedSlow.exchange(0, ordering: .relaxed)
        guard refused > 0 || slow > 0 else { return }
        let usage = connectionGuard.usage
        messages(
            "in the last 10 s: \(refused) connections refused (a client or network over its "
                + "limit, or the server full), \(slow) closed for being too slow; "
                + "\(usage.connections) open, \(usage.bodyBytes) body bytes held")
    }

    /// Stops the thread and waits for it; nothing when it never started.
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        finished.wait()
    }
}
