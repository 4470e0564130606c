import Foundation

/// The images of the challenges handed out, until they are answered or expire, bounded in
/// bytes (the oldest go first when a flood of challenges would pass the budget).
public final class ImageCache: @unchecked Sendable {
    private struct Entry {
        var images: ChallengeImages
        var until: Double
        var bytes: Int
    }
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    private var bytes = 0
    /// The most bytes kept.
    let budget: Int

    /// Creates an empty cache keeping at most `budget` bytes of images (256 MiB by default:
    /// at about 30 KB a challenge, two minutes of 70 challenges a second).
    public init(budget: Int = 256 << 20) { self.budget = budget }

    /// Keeps a challenge's images until `until`, first forgetting those expired by `now`
    /// (seconds since 1970).
    func put(id: String, images: ChallengeImages, until: Double, now: Double) {
        lock.lock()
        defer { lock.unlock() }
        removeExpired(now: now)
        let size = images.background.count + images.piece.count
        if let old = entries[id] { bytes -= old.bytes }
        entries[id] = Entry(images: images, until: until, bytes: size)
        bytes += size
        order.append(id)
        // Oldest first; they also expire first, as every challenge lives equally long.
        while bytes > budget, !order.isEmpty {
            if let gone = entries.removeValue(forKey: order.removeFirst()) { bytes -= gone.bytes }
        }
        if order.count > 2 * entries.count + 64 { order = order.filter { entries[$0] != nil } }
    }

    /// Forgets a challenge's images (it was answered: nobody needs them any more).
    func remove(id: String) {
        lock.lock()
        defer { lock.unlock() }
        if let gone = entries.removeValue(forKey: id) { bytes -= gone.bytes }
    }

    /// Forgets the images of challenges that expired by `now`; the caller holds `lock`.
    private func removeExpired(now: Double) {
        var dropped = 0
        for id in order {
            if let entry = entries[id] {
                guard entry.until <= now else { break }
                entries[id] = nil
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

    func get(id: String, now: Double) -> ChallengeImages? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[id] else { return nil }
        guard entry.until > now else {
            entries[id] = nil
            bytes -= entry.bytes
            return nil
        }
        return entry.images
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
