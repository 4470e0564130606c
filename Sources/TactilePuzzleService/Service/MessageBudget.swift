import Foundation

/// At most so many of something a second (a ``WindowCounters`` window of one second), and
/// how many were refused since the last one let through.
final class MessageBudget: @unchecked Sendable {
    private let perSecond: Int
    private let counters = WindowCounters()
    private let lock = NSLock()
    private var refused = 0

    init(perSecond: Int) { self.perSecond = perSecond }

    /// `nil` when this second's budget is spent; else how many were refused before this one.
    func take(now: Double) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        // Counted under the lock, so that the count and `refused` move together.
        let (count, _) = counters.increment("taken", window: 1, now: now)
        guard count <= perSecond else {
            refused += 1
            return nil
        }
        defer { refused = 0 }
        return refused
    }
}
