import Foundation
import TactileCrypto
import TactilePuzzleVerifier

/// An operation under its record's lock: the lock taken and the records read in one script,
/// the operation run on a verifier holding them, and what it changed written with the lock's
/// release in another.
extension RedisBackend {
    /// KEYS: the lock (or "" for none), the key, the records to read, those to take, the
    /// lists to read, then keys to drop; ARGV: holder, lease in ms, how many records are read,
    /// how many taken, whether to lock, how many lists. Nil when the lock is held by another
    /// (and nothing is dropped); else the key, every record read or taken (false: none) and
    /// every list's items.
    static let lockAndRead = RedisScript(
        name: "lockAndRead",
        source: """
            if ARGV[5] == '1' then
              if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
            end
            local out = {redis.call('GET', KEYS[2])}
            local reads = 2 + tonumber(ARGV[3])
            local takes = reads + tonumber(ARGV[4])
            local lists = takes + tonumber(ARGV[6])
            for i = 3, #KEYS do
              if i <= reads then
                out[#out + 1] = redis.call('GET', KEYS[i])
              elseif i <= takes then
                out[#out + 1] = redis.call('GETDEL', KEYS[i])
              elseif i <= lists then
                out[#out + 1] = redis.call('LRANGE', KEYS[i], 0, -1)
              else
                redis.call('UNLINK', KEYS[i])
              end
            end
            return out
            """)

    /// KEYS: a lock; ARGV: its holder. Releases the lock if the holder still holds it.
    static let release = RedisScript(
        name: "release",
        source: """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end
            """)

    /// KEYS: a lock, ARGV[2] lists, then the keys to write; ARGV: the lock's holder, the
    /// number of lists, the last item each list must end with ("" for none), then the writes
    /// in threes (see ``writes``). Writes and releases the lock only if ARGV[1] still holds it
    /// and every list ends as it must: 1 if it did; 2 if a list changed (nothing written, the
    /// lock still held: the operation runs again on the lists as they are now); else 0.
    static let commit = RedisScript(
        name: "commit",
        source: """
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
            local l = tonumber(ARGV[2])
            for i = 1, l do
              if (redis.call('LRANGE', KEYS[1 + i], -1, -1)[1] or '') ~= ARGV[2 + i] then
                return 2
              end
            end
            local first, base = 2 + l, 3 + l
            \(writes)
            redis.call('DEL', KEYS[1])
            return 1
            """)

    /// The writes both commit scripts end with, in Lua: KEYS[first…] in order, each with three
    /// ARGV from ARGV[base] on, as `append` made them: "set", value, milliseconds; "incr", "",
    /// milliseconds (a counter, its time to live set again); "push", value, milliseconds (an
    /// item appended to a list kept to its newest `DragMemory.perBucket`); or "del".
    static let writes = """
        for i = first, #KEYS do
          local a = base + 3 * (i - first)
          if ARGV[a] == 'set' then
            redis.call('SET', KEYS[i], ARGV[a + 1], 'PX', ARGV[a + 2])
          elseif ARGV[a] == 'incr' then
            redis.call('INCR', KEYS[i])
            redis.call('PEXPIRE', KEYS[i], ARGV[a + 2])
          elseif ARGV[a] == 'push' then
            redis.call('RPUSH', KEYS[i], ARGV[a + 1])
            redis.call('LTRIM', KEYS[i], -\(DragMemory.perBucket), -1)
            redis.call('PEXPIRE', KEYS[i], ARGV[a + 2])
          else
            redis.call('DEL', KEYS[i])
          end
        end
        """

    /// What one operation writes beside the verifier's records.
    enum RedisWrite {
        /// A record (under `tactile:`), or its removal.
        case record(VerifierRecords.Change)
        /// A counter counted, living `milliseconds` more (its key whole).
        case increment(key: String, milliseconds: Int)
        /// An item appended to a list, which lives `milliseconds` more (its key whole).
        case push(key: String, item: [UInt8], milliseconds: Int)
    }

    /// An answer's writes as Redis writes them.
    static func redisWrites(of writes: AnswerWrites, now: Double) -> [RedisWrite] {
        var out = writes.counters.map { name, window, at in
            let (key, milliseconds, _) = counterKey(name, window: window, now: at)
            return RedisWrite.increment(key: key, milliseconds: Int(milliseconds) ?? 1)
        }
        if let drag = writes.acceptedDrag {
            out.append(
                .push(
                    key: dragName(drag.bucket), item: drag.fingerprint,
                    milliseconds: max(1, Int((drag.lifetime * 1000).rounded(.up)))))
        }
        return out
    }

    /// The last item of each list, as the commit scripts compare it ("" for an empty list).
    static func tails(of lists: [[[UInt8]]]) -> [[UInt8]] { lists.map { $0.last ?? [] } }

    /// One operation under `key` (whose keys are `keys`); `nil` when Redis holds another key
    /// (or none).
    func run<R>(
        _ scope: VerifierScope, now: Double, key: [UInt8], keys: VerifierRecords.Keys,
        lists: [String] = [], on connection: any RedisConnection,
        alongside: (R) -> [RedisWrite],
        _ body: (inout PuzzleVerifier, [[UInt8]]) throws -> R
    ) throws -> R? {
        let plan = VerifierRecords.plan(for: scope, keys: keys)
        let lockName = plan.lock.map { "tactile:lock:" + $0 }
        let names = plan.reads + plan.takes
        // A checked puzzle's images, dropped in the step that takes the puzzle.
        let drops = scope.checkedPuzzle.map { ["tactile:" + Self.imageName($0)] } ?? []
        if let lockName, let known = knownRecords(names, scope: scope, takes: plan.takes, now: now)
        {
            if let result = try runOptimistically(
                scope, now: now, key: key, keys: keys, lockName: lockName, names: names,
                known: known, drops: drops, lists: lists, on: connection, alongside: alongside,
                body)
            {
                return result
            }
            // Not what this instance last wrote: read them under the lock from now on.
            for name in names { localRecords.remove(name) }
        }
        let holder = Hex.encode(Sodium.randomBytes(16))
        // One round trip: take the lock and, only if it was free, read the records (taking
        // those the plan takes, dropping the images). Busy: wait up to two seconds; a lock
        // expires by itself after its lease.
        let readKeys =
            [lockName ?? "", Self.keyName] + names.map { "tactile:" + $0 } + lists + drops
        let readArguments = [
            holder, String(Int(lockLease * 1000)), String(plan.reads.count),
            String(plan.takes.count), lockName == nil ? "0" : "1", String(lists.count),
        ]
        var read: [Reply]?
        for attempt in 0..<400 {
            let reply = try connection.evaluate(
                Self.lockAndRead, keys: readKeys, arguments: readArguments)
            if case .array(let values) = reply {
                read = values
                break
            }
            pause(min(5000, 100 * (attempt + 1)))
        }
        guard let read else {
            // The connection is sound: the record is busy elsewhere.
            throw VerifierStoreError("a verifier record stayed locked by another process")
        }
        // Redis took the checked puzzle and dropped its images: so does this instance's cache.
        // A check that never got here (Redis away, the record busy) keeps them, as the puzzle
        // may still be answered.
        if let id = scope.checkedPuzzle { localImages.remove(id) }
        var released = false
        defer {
            if let lockName, !released {
                _ = try? connection.evaluate(Self.release, keys: [lockName], arguments: [holder])
            }
        }
        guard read.count == names.count + 1 + lists.count else {
            throw Failure(description: "Redis answered a read with something else")
        }
        guard read[0].bytes == key else { return nil }
        let values = read.dropFirst()
        var records: [String: [UInt8]] = [:]
        for (name, value) in zip(names, values) { records[name] = value.bytes }
        var items = try values.dropFirst(names.count).map { reply -> [[UInt8]] in
            guard case .array(let items) = reply else {
                throw Failure(description: "Redis answered a list with something else")
            }
            return items.compactMap(\.bytes)
        }

        // A list that gains an item between its read and the commit (another instance kept
        // an answer): the operation runs again on the same records, still under the lock
        // (the puzzle it took stays its own), with the lists read again. A few times at most:
        // each time, another answer was kept.
        for _ in 0..<8 {
            let (result, changes) = try apply(
                body, to: records, lists: items.flatMap { $0 }, scope: scope, now: now,
                keys: keys, alongside: alongside)
            guard let lockName else {
                // Only reading operations go without a lock, and they change nothing.
                guard changes.isEmpty else {
                    throw Failure(description: "an unlocked operation tried to write")
                }
                return result
            }
            // Every write and the release in one script that first checks the lock is still
            // ours: an operation that outlived its lock (a stall past five seconds) writes
            // nothing and fails, rather than undo what the lock's next holder did.
            var redisKeys: [[UInt8]] = [Array(lockName.utf8)] + lists.map { Array($0.utf8) }
            var arguments: [[UInt8]] =
                [Array(holder.utf8), Array(String(lists.count).utf8)] + Self.tails(of: items)
            Self.append(changes, now: now, keys: &redisKeys, arguments: &arguments)
            let reply = try connection.evaluate(
                Self.commit, keys: redisKeys, arguments: arguments)
            if reply == .integer(2) {
                items = try readLists(lists, on: connection)
                continue
            }
            released = true
            guard reply == .integer(1) else {
                throw Failure(
                    description:
                        "the operation outlived its lock on \(lockName); nothing was written")
            }
            remember(changes, now: now)
            return result
        }
        throw VerifierStoreError("the accepted drags kept changing under an answer")
    }

    /// Runs `body` on a verifier holding `records` (by name, as read), given the items of
    /// the lists; its result and what to write.
    func apply<R>(
        _ body: (inout PuzzleVerifier, [[UInt8]]) throws -> R, to records: [String: [UInt8]],
        lists: [[UInt8]], scope: VerifierScope, now: Double, keys: VerifierRecords.Keys,
        alongside: (R) -> [RedisWrite]
    ) throws -> (R, [RedisWrite]) {
        let opened = try VerifierRecords.open(
            keys: keys, scope: scope, records: records, policy: policy)
        var verifier = opened
        verifier.policy = policy
        let result = try body(&verifier, lists)
        let changes =
            try VerifierRecords.changes(from: opened, to: verifier, keys: keys, now: now).map {
                RedisWrite.record($0)
            } + alongside(result)
        return (result, changes)
    }

    /// Appends each write as a key and three arguments (see ``writes``): a record's (under
    /// `tactile:`) "set", the value and its time to live in milliseconds from `now`, or "del"
    /// and two empty ones; a counter's "incr"; a list's "push".
    static func append(
        _ changes: [RedisWrite], now: Double, keys: inout [[UInt8]], arguments: inout [[UInt8]]
    ) {
        for change in changes {
            switch change {
            case .record(.put(let name, let bytes, let expiresAt)):
                let milliseconds = max(1, Int(((expiresAt - now) * 1000).rounded(.up)))
                keys.append(Array("tactile:\(name)".utf8))
                arguments += [Array("set".utf8), bytes, Array(String(milliseconds).utf8)]
            case .record(.remove(let name)):
                keys.append(Array("tactile:\(name)".utf8))
                arguments += [Array("del".utf8), [], []]
            case .increment(let key, let milliseconds):
                keys.append(Array(key.utf8))
                arguments += [Array("incr".utf8), [], Array(String(milliseconds).utf8)]
            case .push(let key, let item, let milliseconds):
                keys.append(Array(key.utf8))
                arguments += [Array("push".utf8), item, Array(String(milliseconds).utf8)]
            }
        }
    }
}
