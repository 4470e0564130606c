import Synchronization

/// Results kept for the inputs seen last, for work whose result depends on its input alone:
/// a puzzle's hole, its decoys and its piece share one shape, and so do most of the puzzles
/// one service hands out, so what is worked out from the shape's mask is worked out once.
///
/// At most ``limit`` results are kept; past that the cache starts afresh (a handful of
/// shapes at a time is the common case). Safe to use from many threads at once.
final class RecentResults<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The most results kept.
    let limit: Int
    private let kept = Mutex<[Key: Value]>([:])

    init(limit: Int) { self.limit = max(1, limit) }

    /// The result kept for `key`, else `make()`'s, kept from now on. `make` runs outside the
    /// lock: two threads asking for a new key at once may both make it.
    func value(for key: Key, making make: () -> Value) -> Value {
        if let known = kept.withLock({ $0[key] }) { return known }
        let made = make()
        kept.withLock { kept in
            if kept.count >= limit { kept.removeAll(keepingCapacity: true) }
            kept[key] = made
        }
        return made
    }

    /// How many results are kept.
    var count: Int { kept.withLock { $0.count } }
}

/// A shape's sample counts on a grid, with whatever else a result depends on.
struct MaskKey<Extra: Hashable & Sendable>: Hashable, Sendable {
    var counts: [UInt8]
    var width: Int
    var height: Int
    var extra: Extra

    func hash(into hasher: inout Hasher) {
        // The counts as one run of bytes: thousands of them, byte by byte, would cost a good
        // part of what keeping the result saves.
        counts.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(extra)
    }
}
