/// What keeps a verifier's memory bounded: a client's record pruned to its window, the
/// longest-idle client forgotten past the limit, expired and surplus puzzles dropped.
extension PuzzleVerifier {
    /// Drops times outside the window and caps what a clock set back would stretch: a
    /// time in the future counts as now, and a lockout never lasts longer from now than the
    /// whole of that lockout.
    func prune(_ record: inout VerifierState.Client, now: Double) {
        let since = now - policy.window
        record.checks.forget(through: since, now: now)
        record.requests.forget(through: since, now: now)
        let current = lockout(after: max(0, (record.lockouts ?? 1) - 1))
        record.lockedUntil = min(record.lockedUntil, now + current)
        // An hour without any attempt forgives earlier lockouts and failures.
        if record.lastSeen + 3600 < now, record.lockedUntil <= now {
            record.lockouts = nil
            record.failures = 0
        }
        record.lastSeen = min(record.lastSeen, now)
    }

    /// Keeps a client's record; past the policy's limit of clients, forgets another.
    mutating func store(_ record: VerifierState.Client, for client: String, now: Double) {
        state.clients[client] = record
        guard state.clients.count > max(1, policy.maximumClients) else { return }
        // Forget the longest-idle client that is not locked out (or, failing that, any).
        let candidates = state.clients.filter { $0.key != client }
        let victim =
            candidates.filter { $0.value.lockedUntil <= now }.min {
                $0.value.lastSeen < $1.value.lastSeen
            }
            ?? candidates.min { $0.value.lastSeen < $1.value.lastSeen }
        if let victim { state.clients[victim.key] = nil }
    }

    /// Forgets the waiting puzzles that expired by `now`.
    mutating func removeExpired(now: Double) {
        // Puzzles share one lifetime, so the expired ones lead the issue order.
        var dropped = 0
        for id in state.issueOrder {
            if let puzzle = state.pending[id] {
                guard puzzle.expiresAt <= now else { break }
                state.pending[id] = nil
            }
            dropped += 1
        }
        state.issueOrder.removeFirst(dropped)
        // Checked ids linger in the order; compact once they outnumber the live ones.
        if state.issueOrder.count > 2 * state.pending.count + 64 {
            state.issueOrder = state.issueOrder.filter { state.pending[$0] != nil }
        }
    }

    /// Forgets the oldest waiting puzzle; with an issue order that lost track of it (a
    /// state from elsewhere), the one issued first.
    mutating func evictOldest() {
        var dropped = 0
        defer { state.issueOrder.removeFirst(dropped) }
        for id in state.issueOrder {
            dropped += 1
            if state.pending.removeValue(forKey: id) != nil { return }
        }
        if let oldest = state.pending.values.min(by: { $0.issuedAt < $1.issuedAt }) {
            state.pending[oldest.id] = nil
        }
    }
}
