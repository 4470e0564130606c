import Foundation
import TactileCrypto
import TactilePuzzleVerifier

/// An operation under its record's lock: the lock taken and the records read in one script,
/// the operation run on a verifier holding them, and what it changed written with the lock's
/// release in another.
extension RedisBackend {
    /// KEYS: the lock (or "" for none), the key, the records to read, those to take, then
    /// keys to drop; ARGV: holder, lease in ms, how many records are read, how many taken,
    /// whether to lock. Nil when the lock is held by another (and nothing is dropped); else
    /// the key and every record read or taken (false: none).
    static let lockAndRead = RedisScript(
        name: "lockAndRead",
        source: """
            if ARGV[5] == '1' then
              if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return false end
            end
            local out = {redis.call('GET', KEYS[2])}
            local reads = 2 + tonumber(ARGV[3])
            local takes = reads + tonumber(ARGV[4])
            for i = 3, #KEYS do
              if i <= reads then
                out[#out + 1] = redis.call('GET', KEYS[i])
              elseif i <= takes then
                out[#out + 1] = redis.call('GETDEL', KEYS[i])
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

    /// Writes KEYS[2…] (ARGV in threes after the holder: "set", value, milliseconds, or "del")
    /// and releases KEYS[1], only if ARGV[1] still holds it; 1 if it did, else 0.
    static let commit = RedisScript(
        name: "commit",
        source: """
            if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
            local first, base = 2, 2
            \(writes)
            redis.call('DEL', KEYS[1])
            return 1
            """)

    /// The writes both commit scripts end with, in Lua: KEYS[first…] in order, each with three
    /// ARGV from ARGV[base] on ("set", value, milliseconds, or "del"), as `append` made them.
    static let writes = """
        for i = first, #KEYS do
          local a = base + 3 * (i - first)
          if ARGV[a] == 'set' then
            redis.call('SET', KEYS[i], ARGV[a + 1], 'PX', ARGV[a + 2])
          else
            redis.call('DEL', KEYS[i])
          end
        end
        """

    /// One operation under `key` (whose keys are `keys`); `nil` when Redis holds another key
    /// (or none).
    func run<R>(
        _ scope: VerifierScope, now: Double, key: [UInt8], keys: VerifierRecords.Keys,
        on connection: any RedisConnection,
        alongside: (R) -> [VerifierRecords.Change],
        _ body: (inout PuzzleVerifier) throws -> R
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
                known: known, drops: drops, on: connection, alongside: alongside, body)
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
        let readKeys = [lockName ?? "", Self.keyName] + names.map { "tactile:" + $0 } + drops
        let readArguments = [
            holder, String(Int(lockLease * 1000)), String(plan.reads.count),
            String(plan.takes.count), lockName == nil ? "0" : "1",
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
        guard read.count == names.count + 1 else {
            throw Failure(description: "Redis answered a read with something else")
        }
        guard read[0].bytes == key else { return nil }
        let values = read.dropFirst()
        var records: [String: [UInt8]] = [:]
        for (name, value) in zip(names, values) { records[name] = value.bytes }

        let (result, changes) = try apply(
            body, to: records, scope: scope, now: now, keys: keys, alongside: alongside)
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
        var keys: [[UInt8]] = [Array(lockName.utf8)]
        var arguments: [[UInt8]] = [Array(holder.utf8)]
        Self.append(changes, now: now, keys: &keys, arguments: &arguments)
        let reply = try connection.evaluate(Self.commit, keys: keys, arguments: arguments)
        released = true
        guard reply == .integer(1) else {
            throw Failure(
                description:
                    "the operation outlived its lock on \(lockName); nothing was written")
        }
        remember(changes, now: now)
        return result
    }

    /// Runs `body` on a verifier holding `records` (by name, as read); its result and the
    /// records to write.
    func apply<R>(
        _ body: (inout PuzzleVerifier) throws -> R, to records: [String: [UInt8]],
        scope: VerifierScope, now: Double, keys: VerifierRecords.Keys,
        alongside: (R) -> [VerifierRecords.Change]
    ) throws -> (R, [VerifierRecords.Change]) {
        let opened = try VerifierRecords.open(
            keys: keys, scope: scope, records: records, policy: policy)
        var verifier = opened
        verifier.policy = policy
        let result = try body(&verifier)
        let changes =
            try VerifierRecords.changes(from: opened, to: verifier, keys: keys, now: now)
            + alongside(result)
        return (result, changes)
    }

    /// Appends each change as a key (under `tactile:`) and three arguments: "set", the value
    /// and its time to live in milliseconds from `now`, or "del" and two empty ones.
    static func append(
        _ changes: [VerifierRecords.Change], now: Double, keys: inout [[UInt8]],
        arguments: inout [[UInt8]]
    ) {
        for change in changes {
            switch change {
            case .put(let name, let bytes, let expiresAt):
                let milliseconds = max(1, Int(((expiresAt - now) * 1000).rounded(.up)))
                keys.append(Array("tactile:\(name)".utf8))
                arguments += [Array("set".utf8), bytes, Array(String(milliseconds).utf8)]
            case .remove(let name):
                keys.append(Array("tactile:\(name)".utf8))
                arguments += [Array("del".utf8), [], []]
            }
        }
    }
}
