import Foundation

/// The images of the challenges handed out, until they expire, bounded in number.
public final class ImageCache: @unchecked Sendable {
    private struct Entry {
        var images: ChallengeImages
        var until: Double
    }
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []
    let limit = 4096

    /// Creates an empty cache.
    public init() {}

    func put(id: String, images: ChallengeImages, until: Double) {
        lock.lock()
        defer { lock.unlock() }
        entries[id] = Entry(images: images, until: until)
        order.append(id)
        while entries.count > limit, !order.isEmpty { entries[order.removeFirst()] = nil }
        if order.count > 2 * limit { order = order.filter { entries[$0] != nil } }
    }

    func get(id: String, now: Double) -> ChallengeImages? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[id] else { return nil }
        guard entry.until > now else {
            entries[id] = nil
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
