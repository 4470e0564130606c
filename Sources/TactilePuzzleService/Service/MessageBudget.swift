import Synchronization
import TactilePuzzleStores

/// At most so many of something a second (a ``WindowCounts`` window of one second), and
/// how many were refused since the last one let through.
final class MessageBudget: Sendable {
    private let perSecond: Int
    /// This second's count and the refusals since the last one let through, moving together.
    private let state = Mutex((counts: WindowCounts(), refused: 0))

    init(perSecond: Int) { self.perSecond = perSecond }

    /// `nil` when this second's budget is spent; else how many were refused before this one.
    func take(now: Double) -> Int? {
        state.withLock { state in
            let (count, _) = state.counts.increment("taken", window: 1, now: now)
            guard count <= perSecond else {
                state.refused += 1
                return nil
            }
            defer { state.refused = 0 }
            return state.refused
        }
    }
}
