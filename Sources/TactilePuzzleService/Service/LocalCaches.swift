import Foundation

/// Values kept by name until they expire, bounded in bytes: the oldest go first when more
/// would pass the budget.
///
/// Expired values go when read, and from the oldest on when something is put; one that
/// expires behind an older, longer-lived one waits until it is read or the budget needs its
/// room.
public final class ExpiringCache<Value: Sendable>: @unchecked Sendable {
    private struct Entry {
        var value: Value
        var until: Double
        var bytes: Int
        /// When it was put: `order` may still hold the name from an earlier put.
        var serial: Int
    }
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// Every put, oldest first; one whose serial is not its entry's is stale.
    private var order: [(name: String, serial: Int)] = []
    private var serial = 0
    private var bytes = 0
    private let cost: @Sendable (Value) -> Int
    /// The most bytes kept.
    let budget: Int

    /// Creates an empty cache keeping at most `budget` bytes, a value counting `cost` bytes.
    public init(budget: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.budget = budget
        self.cost = cost
    }

    /// Keeps `value` under `name` until `until`, first forgetting what expired by `now`
    /// (seconds since 1970).
    func put(_ name: String, _ value: Value, until: Double, now: Double) {
        lock.lock()
        defer { lock.unlock() }
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
    func remove(_ name: String) {
        lock.lock()
        defer { lock.unlock() }
        if let gone = entries.removeValue(forKey: name) { bytes -= gone.bytes }
    }

    /// Forgets every value.
    func removeAll() {
        lock.lock()
        defer { lock.unlock() }
        entries = [:]
        order = []
        bytes = 0
    }

    /// Forgets the values that expired by `now`, oldest first, up to the first that has
    /// not; the caller holds `lock`.
    private func removeExpired(now: Double) {
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

    /// The bytes kept now.
    var size: Int {
        lock.lock()
        defer { lock.unlock() }
        return bytes
    }

    /// The value under `name`, unless it expired by `now`.
    func get(_ name: String, now: Double) -> Value? {
        lock.lock()
        defer { lock.unlock() }
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
public final class WindowCounters: @unchecked Sendable {
    private struct Entry {
        var window: Int
        var count: Int
    }
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    let limit = 4096

    /// Creates empty counters.
    public init() {}

    func increment(_ name: String, window: Double, now: Double) -> (count: Int, windowEnds: Double)
    {
        let index = Int((now / window).rounded(.down))
        lock.lock()
        defer { lock.unlock() }
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
