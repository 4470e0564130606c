/// The times of one client's recent events of a kind (checks, or puzzle requests), for a
/// limit of so many a window: what decides whether the next one is allowed, and until when
/// it is not.
///
/// While there are at most ``capacity`` events each has its own entry, and a limit is
/// applied exactly. Past that, the two entries closest in time are merged into one that
/// counts both and carries the later time, so a record stays the same size however high a
/// site sets its limit. A merged event then counts until the later one expires: the limit
/// errs on the strict side, never letting more through in a window than it allows.
struct RecentEvents: Hashable, Sendable {
    /// The most entries kept.
    static let capacity = 64
    /// The most events one entry may stand for.
    static let maximumCount = 1 << 30

    /// Each entry's time (the latest event it stands for), oldest first.
    private(set) var times: [Double]
    /// The events each entry stands for, in step with `times`; empty while each is one.
    private(set) var counts: [Int]

    /// No events.
    init() {
        times = []
        counts = []
    }

    /// One event at each time (oldest first).
    init(times: [Double]) {
        self.times = times
        counts = []
    }

    /// Entries as stored; `nil` unless the counts (when given) match the times one for one,
    /// each from 1 to ``maximumCount``.
    init?(times: [Double], counts: [Int]?) {
        let counts = counts ?? []
        guard counts.isEmpty || counts.count == times.count,
            counts.allSatisfy({ (1...Self.maximumCount).contains($0) })
        else { return nil }
        self.times = times
        // Counts that are all one say nothing the times do not.
        self.counts = counts.allSatisfy { $0 == 1 } ? [] : counts
    }

    /// How many events the entries stand for.
    var total: Int { counts.isEmpty ? times.count : counts.reduce(0, +) }

    /// Adds an event at `time` (no earlier than the newest entry's).
    mutating func record(_ time: Double) {
        times.append(time)
        if !counts.isEmpty { counts.append(1) }
        guard times.count > Self.capacity else { return }
        if counts.isEmpty { counts = Array(repeating: 1, count: times.count) }
        // Merge the closest pair; of equally close pairs, the oldest.
        var closest = 0
        for index in 1..<(times.count - 1)
        where times[index + 1] - times[index] < times[closest + 1] - times[closest] {
            closest = index
        }
        counts[closest + 1] = min(counts[closest] + counts[closest + 1], Self.maximumCount)
        times.remove(at: closest)
        counts.remove(at: closest)
    }

    /// Forgets the entries no later than `since`, and counts a time after `now` (a clock
    /// set back) as `now`.
    mutating func forget(through since: Double, now: Double) {
        let kept = times.firstIndex { $0 > since } ?? times.count
        if kept > 0 {
            times.removeFirst(kept)
            if !counts.isEmpty { counts.removeFirst(kept) }
        }
        if let last = times.last, last > now {
            for index in times.indices where times[index] > now { times[index] = now }
        }
        if counts.allSatisfy({ $0 == 1 }) { counts = [] }
    }

    /// When the next event is allowed again under a limit of `limit` a `window` (a limit
    /// below 1 counts as 1), or `nil` when it is allowed now: once enough of the oldest
    /// entries have expired to leave fewer than `limit` events.
    func blockedUntil(limit: Int, window: Double) -> Double? {
        let limit = max(1, limit)
        var remaining = total
        guard remaining >= limit else { return nil }
        for index in times.indices {
            remaining -= counts.isEmpty ? 1 : counts[index]
            if remaining < limit { return times[index] + window }
        }
        return times.last.map { $0 + window }
    }
}
