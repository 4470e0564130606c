import Foundation
import Synchronization

/// Values kept by name until they expire, bounded in bytes: the oldest go first when more
/// would pass the budget.
///
/// Expired values go when read, and from the oldest on when something is put; one that
/// expires behind an older, longer-lived one waits until it is read or the budget needs its
/// room.
public final class ExpiringCache<Value: Sendable>: Sendable {
    private let entries: Mutex<ExpiringEntries<Value>>
    /// The most bytes kept.
    let budget: Int

    /// Creates an empty cache keeping at most `budget` bytes, a value counting `cost` bytes.
    public init(budget: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.budget = budget
        entries = Mutex(ExpiringEntries(budget: budget, cost: cost))
    }

    /// Keeps `value` under `name` until `until`, first forgetting what expired by `now`
    /// (seconds since 1970).
    func put(_ name: String, _ value: Value, until: Double, now: Double) {
        entries.withLock { $0.put(name, value, until: until, now: now) }
    }

    /// Forgets the value under `name`.
    func remove(_ name: String) {
        entries.withLock { $0.remove(name) }
    }

    /// Forgets every value.
    func removeAll() {
        entries.withLock { $0.removeAll() }
    }

    /// The bytes kept now.
    var size: Int { entries.withLock { $0.bytes } }

    /// The value under `name`, unless it expired by `now`.
    func get(_ name: String, now: Double) -> Value? {
        entries.withLock { $0.get(name, now: now) }
    }
}

/// What an ``ExpiringCache`` keeps, as a value: whoever holds it behind a lock can put and get
/// in one critical section.
struct ExpiringEntries<Value> {
    private struct Entry {
        var value: Value
        var until: Double
        var bytes: Int
        /// When it was put: `order` may still hold the name from an earlier put.
        var serial: Int
    }
    private var entries: [String: Entry] = [:]
    /// Every put, oldest first; one whose serial is not its entry's is stale.
    private var order: [(name: String, serial: Int)] = []
    private var serial = 0
    /// The bytes kept now.
    private(set) var bytes = 0
    private let cost: @Sendable (Value) -> Int
    /// The most bytes kept.
    let budget: Int

    /// Nothing yet, keeping at most `budget` bytes, a value counting `cost` bytes.
    init(budget: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.budget = budget
        self.cost = cost
    }

    /// Keeps `value` under `name` until `until`, first forgetting what expired by `now`.
    mutating func put(_ name: String, _ value: Value, until: Double, now: Double) {
        removeExpired(now: now)
        let size = cost(value)
        if let old = entries[name] { bytes -= old.bytes }
        serial += 1
        entries[name] = Entry(value: value, until: until, bytes: size, serial: serial)
        bytes += size
        order.append((name, serial))
        while bytes > budget, !order.isEmpty {
            let (oldest, put) = order.removeFirst()
            if entries[oldest]?.serial == put, let gone = entries.removeValue(forKey: oldest) {
                bytes -= gone.bytes
            }
        }
        if order.count > 2 * entries.count + 64 {
            order = order.filter { entries[$0.name]?.serial == $0.serial }
        }
    }

    /// Forgets the value under `name`.
    mutating func remove(_ name: String) {
        if let gone = entries.removeValue(forKey: name) { bytes -= gone.bytes }
    }

    /// Forgets every value.
    mutating func removeAll() {
        entries = [:]
        order = []
        bytes = 0
    }

    /// Forgets the values that expired by `now`, oldest first, up to the first that has not.
    private mutating func removeExpired(now: Double) {
        var dropped = 0
        for (name, put) in order {
            if let entry = entries[name], entry.serial == put {
                guard entry.until <= now else { break }
                entries[name] = nil
                bytes -= entry.bytes
            }
            dropped += 1
        }
        order.removeFirst(dropped)
    }

    /// The value under `name`, unless it expired by `now`.
    mutating func get(_ name: String, now: Double) -> Value? {
        guard let entry = entries[name] else { return nil }
        guard entry.until > now else {
            entries[name] = nil
            bytes -= entry.bytes
            return nil
        }
        return entry.value
    }
}

/// The images of the challenges handed out, by challenge, until they are answered or
/// expire. Every challenge lives equally long, so the oldest also expire first.
public typealias ImageCache = ExpiringCache<ChallengeImages>

extension ExpiringCache where Value == ChallengeImages {
    /// Creates an empty image cache keeping at most `budget` bytes (256 MiB by default: at
    /// about 30 KB a challenge, two minutes of 70 challenges a second).
    public convenience init(budget: Int = 256 << 20) {
        self.init(budget: budget) { $0.background.count + $0.piece.count }
    }
}

/// Fixed-window counters kept in this process, bounded in number.
public final class WindowCounters: Sendable {
    private let counts = Mutex(WindowCounts())

    /// Creates empty counters.
    public init() {}

    /// Counts one event against `name` in the window of `window` seconds that holds `now`:
    /// the count so far in that window, and when it ends.
    package func increment(_ name: String, window: Double, now: Double) -> (
        count: Int, windowEnds: Double
    ) {
        counts.withLock { $0.increment(name, window: window, now: now) }
    }

    /// The count of `name` in the window of `window` seconds that holds `now`.
    package func count(_ name: String, window: Double, now: Double) -> Int {
        counts.withLock { $0.count(name, window: window, now: now) }
    }
}

/// What ``WindowCounters`` keeps, as a value: at most ``limit`` names, those of past windows
/// forgotten first.
package struct WindowCounts {
    package init() {}
    private struct Entry {
        var window: Int
        var count: Int
    }
    private var entries: [String: Entry] = [:]
    /// The most names kept.
    let limit = 4096

    package func count(_ name: String, window: Double, now: Double) -> Int {
        let index = Int((now / window).rounded(.down))
        guard let entry = entries[name], entry.window == index else { return 0 }
        return entry.count
    }

    package mutating func increment(_ name: String, window: Double, now: Double) -> (
        count: Int, windowEnds: Double
    ) {
        let index = Int((now / window).rounded(.down))
        var entry = entries[name] ?? Entry(window: index, count: 0)
        if entry.window != index { entry = Entry(window: index, count: 0) }
        entry.count += 1
        if entries[name] == nil, entries.count >= limit {
            entries = entries.filter { $0.value.window == index }
        }
        entries[name] = entry
        return (entry.count, Double(index + 1) * window)
    }
}
