import TactilePuzzleVerifier

/// What instances share beside the verifier: counters, accepted drags, and the challenges'
/// images.
extension RedisBackend {
    // MARK: - Counters

    /// KEYS: a counter; ARGV: its time to live in milliseconds, given when it is made. The
    /// count, this one included.
    static let count = RedisScript(
        name: "count",
        source: """
            local n = redis.call('INCR', KEYS[1])
            if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
            return n
            """)

    public func increment(_ name: String, window: Double, now: Double) throws -> (
        count: Int, windowEnds: Double
    ) {
        let (key, milliseconds, ends) = Self.counterKey(name, window: window, now: now)
        // Counted and given its TTL in one step, so no counter outlives its window.
        let reply = try client.withConnection {
            try $0.evaluate(Self.count, keys: [key], arguments: [milliseconds])
        }
        guard case .integer(let count) = reply else {
            throw Failure(description: "Redis answered a count with something else")
        }
        return (count, ends)
    }

    /// The key of counter `name` in its window that holds `now`, the milliseconds until that
    /// window ends, and when it ends.
    static func counterKey(_ name: String, window: Double, now: Double) -> (
        key: String, milliseconds: String, ends: Double
    ) {
        let index = Int((now / window).rounded(.down))
        let ends = Double(index + 1) * window
        return (
            "tactile:count:\(name):\(index)",
            String(max(1, Int(((ends - now) * 1000).rounded(.up)))), ends
        )
    }

    public func count(_ counters: [(name: String, window: Double, at: Double)]) throws {
        // Each counter's time to live set again to its window's end: the same end each time.
        let commands = counters.flatMap { name, window, at in
            let (key, milliseconds, _) = Self.counterKey(name, window: window, now: at)
            return [
                [Array("INCR".utf8), Array(key.utf8)],
                [Array("PEXPIRE".utf8), Array(key.utf8), Array(milliseconds.utf8)],
            ]
        }
        let replies = try client.withConnection { try $0.run(commands) }
        if let error = replies.first(where: { if case .error = $0 { true } else { false } }) {
            throw Failure(description: "Redis refused to count: \(error)")
        }
    }

    public func counts(_ counters: [(name: String, window: Double, at: Double)]) throws -> [Int] {
        let commands = counters.map { name, window, at in
            [Array("GET".utf8), Array(Self.counterKey(name, window: window, now: at).key.utf8)]
        }
        let replies = try client.withConnection { try $0.run(commands) }
        return try replies.map { reply in
            switch reply {
            case .none: return 0
            case .string(let bytes):
                guard let count = Int(String(decoding: bytes, as: UTF8.self)), count >= 0 else {
                    throw Failure(description: "Redis holds a count that is not a count")
                }
                return count
            default: throw Failure(description: "Redis answered a count with something else")
            }
        }
    }

    // MARK: - Accepted drags

    /// The list (under `tactile:drag:`) that holds a bucket's fingerprints.
    static func dragName(_ bucket: String) -> String { "tactile:drag:\(bucket)" }

    public func acceptedDrags(in buckets: [String], now: Double) throws -> [[UInt8]] {
        guard !buckets.isEmpty else { return [] }
        // Every bucket in one pipeline: one round trip.
        let replies = try client.withConnection { connection in
            try connection.run(
                buckets.map {
                    [Array("LRANGE".utf8), Array(Self.dragName($0).utf8)] + [
                        Array("0".utf8), Array("-1".utf8),
                    ]
                })
        }
        return replies.flatMap { reply -> [[UInt8]] in
            guard case .array(let items) = reply else { return [] }
            return items.compactMap(\.bytes)
        }
    }

    public func rememberAcceptedDrag(
        _ fingerprint: [UInt8], in bucket: String, lifetime: Double, now: Double
    ) throws {
        let name = Array(Self.dragName(bucket).utf8)
        let milliseconds = Array(String(max(1, Int((lifetime * 1000).rounded(.up)))).utf8)
        let keep = Array(String(-DragMemory.perBucket).utf8)
        // Appended, trimmed to the newest and given its lifetime in one transaction.
        _ = try client.withConnection { connection in
            try connection.run([
                [Array("MULTI".utf8)], [Array("RPUSH".utf8), name, fingerprint],
                [Array("LTRIM".utf8), name, keep, Array("-1".utf8)],
                [Array("PEXPIRE".utf8), name, milliseconds], [Array("EXEC".utf8)],
            ])
        }
    }

    // MARK: - Images

    /// The record (under `tactile:`) that holds a challenge's images.
    static func imageName(_ id: String) -> String { "image:\(id)" }

    /// How images are kept in Redis: `type \n length \n background piece`.
    static func record(of images: ChallengeImages) -> [UInt8] {
        Array(images.backgroundType.utf8) + [10] + Array(String(images.background.count).utf8)
            + [10] + images.background + images.piece
    }

    /// A challenge's images: this instance's own copy if it made them (another instance
    /// that checked the puzzle since cannot take that copy away, but it shows nothing the
    /// browser did not have), else Redis's.
    public func images(id: String, now: Double) throws -> ChallengeImages? {
        if let own = localImages.get(id, now: now) { return own }
        let replies = try client.withConnection {
            try $0.run(["GET", "tactile:" + Self.imageName(id)])
        }
        guard let value = replies[0].bytes else { return nil }
        // type \n length \n background piece
        guard let first = value.firstIndex(of: 10),
            let second = value[(first + 1)...].firstIndex(of: 10),
            let length = Int(String(decoding: value[(first + 1)..<second], as: UTF8.self)),
            second + 1 + length <= value.count
        else { return nil }
        let start = second + 1
        return ChallengeImages(
            background: Array(value[start..<start + length]),
            backgroundType: String(decoding: value[..<first], as: UTF8.self),
            piece: Array(value[(start + length)...]))
    }
}
