import TactilePuzzleVerifier

/// One round trip instead of two: an operation on records this instance wrote last (or on a
/// token nothing is known of yet) runs on what it believes they hold, and writes only if
/// Redis still holds that.
extension RedisBackend {
    /// KEYS: a lock, the secret's key, ARGV[2] records, ARGV[3] keys to drop, ARGV[4] lists,
    /// then the keys to write; ARGV: the sealed secret, the three counts, what each of the
    /// ARGV[2] records must hold ("" for nothing), the last item each list must end with (""
    /// for none), then the writes in threes, as `commit` takes them. Writes and drops only if
    /// nobody holds the lock, the secret is ARGV[1], every record holds what it must and every
    /// list ends as it must: 1 if it did, else 0.
    static let commitIfUnchanged = RedisScript(
        name: "commitIfUnchanged",
        source: """
            if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
            if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
            local n, m, l = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
            for i = 1, n do
              if (redis.call('GET', KEYS[2 + i]) or '') ~= ARGV[4 + i] then return 0 end
            end
            for i = 1, l do
              local tail = redis.call('LRANGE', KEYS[2 + n + m + i], -1, -1)[1] or ''
              if tail ~= ARGV[4 + n + i] then return 0 end
            end
            for i = 3 + n, 2 + n + m do redis.call('UNLINK', KEYS[i]) end
            local first, base = 3 + n + m + l, 5 + n + l
            \(writes)
            return 1
            """)

    /// What this instance believes the records of `names` hold, for an operation in
    /// `scope` that takes `takes`: nothing, for a token verified for the first time (of
    /// which nothing is known yet); what it last wrote, when it wrote every one of them (a
    /// client and the puzzle it was given, most often by the instance now asked to check
    /// it); else `nil`, and the operation reads them under the lock.
    func knownRecords(
        _ names: [String], scope: VerifierScope, takes: [String], now: Double
    ) -> [String: [UInt8]]? {
        if scope.usuallyFindsNoRecords, takes.isEmpty { return [:] }
        var known: [String: [UInt8]] = [:]
        for name in names {
            guard let bytes = localRecords.get(name, now: now) else { return nil }
            known[name] = bytes
        }
        return known
    }

    /// Keeps what an operation wrote to the records a later one may find here instead of
    /// reading them: clients' and puzzles' (a token's are written once and seldom read).
    func remember(_ changes: [RedisWrite], now: Double) {
        for change in changes {
            switch change {
            case .record(.put(let name, let bytes, let expiresAt))
            where name.hasPrefix("client:") || name.hasPrefix("puzzle:"):
                localRecords.put(name, bytes, until: expiresAt, now: now)
            case .record(.remove(let name)):
                localRecords.remove(name)
            case .record(.put), .increment, .push:
                break
            }
        }
    }

    /// One round trip instead of two, when this instance believes it knows what the records
    /// of `names` hold (`known`; a name missing from it, that the record is absent): runs
    /// `body` on a verifier holding `known`, then writes what it changed and drops `drops`
    /// in one script, but only if, at that moment, every record of `names` holds what
    /// `known` says, nobody holds `lockName`, Redis holds `key` and each of `lists` ends as
    /// it was read (in a round trip of its own before `body` runs, when there are lists).
    /// That is the state `body` assumed, so its outcome is what it would have been under the
    /// lock. `nil` when the state was otherwise (nothing written or dropped): the caller runs
    /// the operation again, under the lock, with what Redis holds.
    func runOptimistically<R>(
        _ scope: VerifierScope, now: Double, key: [UInt8], keys: VerifierRecords.Keys,
        lockName: String, names: [String], known: [String: [UInt8]], drops: [String],
        lists: [String], on connection: any RedisConnection,
        alongside: (R) -> [RedisWrite],
        _ body: (inout PuzzleVerifier, [[UInt8]]) throws -> R
    ) throws -> R? {
        let items = try readLists(lists, on: connection)
        let (result, changes) = try apply(
            body, to: known, lists: items.flatMap { $0 }, scope: scope, now: now, keys: keys,
            alongside: alongside)
        var redisKeys: [[UInt8]] = [Array(lockName.utf8), Array(Self.keyName.utf8)]
        redisKeys += names.map { Array("tactile:\($0)".utf8) }
        redisKeys += drops.map { Array($0.utf8) }
        redisKeys += lists.map { Array($0.utf8) }
        var arguments: [[UInt8]] =
            [key] + [names.count, drops.count, lists.count].map { Array(String($0).utf8) }
        arguments += names.map { known[$0] ?? [] }
        arguments += Self.tails(of: items)
        Self.append(changes, now: now, keys: &redisKeys, arguments: &arguments)
        let reply = try connection.evaluate(
            Self.commitIfUnchanged, keys: redisKeys, arguments: arguments)
        guard reply == .integer(1) else { return nil }
        if let id = scope.checkedPuzzle { localImages.remove(id) }
        remember(changes, now: now)
        return result
    }

    /// The items of each of `lists`, in one round trip (none for no lists).
    func readLists(_ lists: [String], on connection: any RedisConnection) throws -> [[[UInt8]]] {
        guard !lists.isEmpty else { return [] }
        let replies = try connection.run(
            lists.map { [Array("LRANGE".utf8), Array($0.utf8), Array("0".utf8), Array("-1".utf8)] })
        return try replies.map { reply in
            switch reply {
            case .array(let items): return items.compactMap(\.bytes)
            case .none: return []
            default: throw Failure(description: "Redis answered a list with something else")
            }
        }
    }
}
