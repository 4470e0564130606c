import Foundation
import Synchronization
@_spi(Testing) import TactilePuzzleStores
import TactilePuzzleVerifier
import TestSupport

/// Redis in this process, for the store's tests: the commands and scripts ``RedisBackend``
/// sends, run one round trip at a time on a clock the test moves, and a connection lost on
/// demand. The test can read, change or drop any key, and read back the round trips made.
///
/// What it runs: `PING`, `GET`, `SET` (`NX`, `PX`), `GETDEL`, `DEL`, `UNLINK`, `EXISTS`,
/// `INCR`, `PEXPIRE`, `RPUSH`, `LTRIM`, `LRANGE`, `MULTI`…`EXEC` within one pipeline and
/// `INFO memory`; and the backend's five scripts, by name, each a line-by-line transcription
/// of its Lua into those commands. The Lua itself, scripts by digest, pooled connections and
/// Sentinel are the real client's, tested against a real `redis-server` only.
@_spi(Testing) public final class InMemoryRedis: RedisTransport {
    public let host = "in-memory"
    public let port = 6379
    /// Seconds since 1970, for times to live.
    private let clock: @Sendable () -> Double
    private let state = Mutex(State())

    /// A key's value, and when it expires (`nil`: never).
    public struct Entry: Equatable, Sendable {
        public enum Value: Equatable, Sendable {
            case string([UInt8])
            case list([[UInt8]])
        }
        public var value: Value
        public var expiresAt: Double?
    }

    /// One round trip as Redis saw it: a pipeline (its commands' names) or a script.
    public enum Trip: Hashable, Sendable, CustomStringConvertible {
        case commands([String])
        case script(String)

        public var description: String {
            switch self {
            case .commands(let names): names.joined(separator: "+")
            case .script(let name): "script \(name)"
            }
        }
    }

    /// When a lost connection is lost: before Redis has the round trip, or after it ran it and
    /// before its reply arrives.
    public enum Loss: Sendable {
        case before
        case after
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var trips: [Trip] = []
        var losses: [(trip: Trip, loss: Loss)] = []
        /// What runs before the next round trip of a kind, once.
        var interruptions: [(trip: Trip, run: @Sendable () -> Void)] = []
        var isDown = false
        var memory = (limit: 0, policy: "noeviction")
        var isFull = false
    }

    /// An empty Redis on `clock`.
    public init(clock: @escaping @Sendable () -> Double) {
        self.clock = clock
    }

    @_spi(Testing) public func withConnection<R>(_ body: (any RedisConnection) throws -> R) throws
        -> R
    {
        try body(Connection(redis: self))
    }

    // MARK: - What the test sees and does

    /// Every round trip so far, oldest first.
    public var trips: [Trip] { state.withLock { $0.trips } }

    /// The round trips since the last call (or since the start).
    public func takeTrips() -> [Trip] {
        state.withLock { state in
            defer { state.trips = [] }
            return state.trips
        }
    }

    /// Whether Redis is away: every round trip fails as a refused connection.
    public var isDown: Bool {
        get { state.withLock { $0.isDown } }
        set { state.withLock { $0.isDown = newValue } }
    }

    /// Whether Redis is full (`noeviction` at its limit): every write is refused.
    public var isFull: Bool {
        get { state.withLock { $0.isFull } }
        set { state.withLock { $0.isFull = newValue } }
    }

    /// The memory limit and policy `INFO memory` tells.
    public func setMemory(limit: Int, policy: String) {
        state.withLock { $0.memory = (limit, policy) }
    }

    /// Runs `interruption` just before the next round trip `trip` (another instance's
    /// operation slipping in between two of this one's).
    public func interrupt(before trip: Trip, with interruption: @escaping @Sendable () -> Void) {
        state.withLock { $0.interruptions.append((trip, interruption)) }
    }

    /// Loses the connection at the next round trip `trip`, as `loss` says.
    public func loseConnection(_ loss: Loss, at trip: Trip) {
        state.withLock { $0.losses.append((trip, loss)) }
    }

    /// The live keys that start with `prefix`, sorted.
    public func keys(_ prefix: String = "") -> [String] {
        let now = clock()
        return state.withLock { state in
            state.entries.filter { $0.key.hasPrefix(prefix) && $0.value.isLive(at: now) }.keys
                .sorted()
        }
    }

    /// A live key's entry.
    public func entry(_ key: String) -> Entry? {
        let now = clock()
        return state.withLock { state in
            state.entries[key].flatMap { $0.isLive(at: now) ? $0 : nil }
        }
    }

    /// Replaces a key's string value, keeping its time to live.
    public func overwrite(_ key: String, with bytes: [UInt8]) {
        state.withLock { $0.entries[key]?.value = .string(bytes) }
    }

    /// Drops a key, as if it had expired.
    public func remove(_ key: String) {
        state.withLock { $0.entries[key] = nil }
    }

    /// Drops every key, as a restart without persistence or `FLUSHALL` does.
    public func removeAll() {
        state.withLock { $0.entries = [:] }
    }

    // MARK: - Round trips

    /// A connection: every call is a round trip to the one store, until one is lost; from
    /// then on, every call on it fails too (as on a broken socket).
    final class Connection: RedisConnection {
        let redis: InMemoryRedis
        private var isLost = false

        init(redis: InMemoryRedis) { self.redis = redis }

        func run(_ commands: [[[UInt8]]], throwsErrorReplies: Bool) throws(RedisBackend.Failure)
            -> [RedisReply]
        {
            let names = commands.map {
                String(decoding: $0.first ?? [], as: UTF8.self).uppercased()
            }
            let replies = try roundTrip(.commands(names)) { store in store.pipeline(commands) }
            for case .error(let message) in replies where throwsErrorReplies {
                throw RedisBackend.Failure(description: "Redis at in-memory answered: \(message)")
            }
            return replies
        }

        func evaluate(_ script: RedisScript, keys: [[UInt8]], arguments: [[UInt8]])
            throws(RedisBackend.Failure) -> RedisReply
        {
            let reply = try roundTrip(.script(script.name)) { store in
                store.evaluate(script, keys: keys.map(Self.text), arguments: arguments)
            }
            if case .error(let message) = reply {
                throw RedisBackend.Failure(description: "Redis at in-memory answered: \(message)")
            }
            return reply
        }

        func awaitReplica() throws {}

        static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

        private func roundTrip<R>(_ trip: Trip, _ body: (inout Store) -> R)
            throws(RedisBackend.Failure) -> R
        {
            guard !isLost else {
                throw RedisBackend.Failure(description: "Redis at in-memory: connection lost")
            }
            do { return try redis.roundTrip(trip, body) } catch {
                isLost = true
                throw error
            }
        }
    }

    /// One round trip, alone: lost before or after `body` runs if the test asked for it.
    private func roundTrip<R>(_ trip: Trip, _ body: (inout Store) -> R) throws(RedisBackend.Failure)
        -> R
    {
        let interruption = state.withLock { state in
            state.interruptions.firstIndex { $0.trip == trip }.map {
                state.interruptions.remove(at: $0).run
            }
        }
        interruption?()
        let now = clock()
        let lost = RedisBackend.Failure(description: "Redis at in-memory: connection lost")
        let result: R? = state.withLock { state in
            guard !state.isDown else { return nil }
            let loss = state.losses.firstIndex { $0.trip == trip }.map {
                state.losses.remove(at: $0).loss
            }
            guard loss != .before else { return nil }
            var store = Store(
                entries: state.entries, now: now, memory: state.memory, isFull: state.isFull)
            let result = body(&store)
            state.entries = store.entries
            state.trips.append(trip)
            return loss == .after ? nil : result
        }
        guard let result else { throw lost }
        return result
    }
}

@_spi(Testing) extension InMemoryRedis {
    /// An empty Redis on a clock the test moves.
    public convenience init(clock: ManualClock) {
        self.init(clock: { [clock] in clock.now })
    }

    /// A backend on this Redis (one instance of the service) whose wait for a busy record
    /// moves `clock` instead of sleeping.
    public func backend(
        policy: VerifierPolicy = plumbingPolicy, lockLease: Double = 5, clock: ManualClock
    ) -> RedisBackend {
        RedisBackend(
            client: self, policy: policy, lockLease: lockLease,
            pause: { [clock] in clock.advance(by: Double($0) / 1_000_000) })
    }
}

@_spi(Testing) extension [InMemoryRedis.Trip] {
    /// The scripts among these round trips, by name.
    public var scripts: [String] {
        compactMap { if case .script(let name) = $0 { name } else { nil } }
    }
}

extension InMemoryRedis.Entry {
    /// Whether it has not expired by `now`.
    func isLive(at now: Double) -> Bool { expiresAt.map { $0 > now } ?? true }
}

/// The keys, as one round trip changes them: the commands, and the scripts written in them.
private struct Store {
    var entries: [String: InMemoryRedis.Entry]
    let now: Double
    let memory: (limit: Int, policy: String)
    let isFull: Bool

    /// Runs a pipeline's commands in order; `MULTI` queues the commands up to `EXEC`, which
    /// runs them.
    mutating func pipeline(_ commands: [[[UInt8]]]) -> [RedisReply] {
        var replies: [RedisReply] = []
        var queued: [[[UInt8]]]?
        for command in commands {
            let name = String(decoding: command.first ?? [], as: UTF8.self).uppercased()
            switch (name, queued) {
            case ("MULTI", nil):
                queued = []
                replies.append(.status("OK"))
            case ("EXEC", let transaction?):
                replies.append(.array(transaction.map { call($0) }))
                queued = nil
            case (_, var transaction?):
                transaction.append(command)
                queued = transaction
                replies.append(.status("QUEUED"))
            default:
                replies.append(call(command))
            }
        }
        return replies
    }

    /// One command.
    mutating func call(_ command: [[UInt8]]) -> RedisReply {
        let name = String(decoding: command.first ?? [], as: UTF8.self).uppercased()
        let arguments = command.dropFirst().map { String(decoding: $0, as: UTF8.self) }
        // The commands Redis refuses when full (those that may add memory).
        let writes: Set = ["SET", "INCR", "RPUSH"]
        if isFull, writes.contains(name) {
            return .error("OOM command not allowed when used memory > 'maxmemory'.")
        }
        switch (name, arguments.count) {
        case ("PING", 0):
            return .status("PONG")
        case ("GET", 1):
            return string(arguments[0]).map(RedisReply.string) ?? .none
        case ("GETDEL", 1):
            defer { entries[arguments[0]] = nil }
            return string(arguments[0]).map(RedisReply.string) ?? .none
        case ("SET", 2...):
            let options = arguments.dropFirst(2).map { $0.uppercased() }
            if options.contains("NX"), live(arguments[0]) != nil { return .none }
            var expiresAt: Double?
            if let px = options.firstIndex(of: "PX"), let ms = Double(arguments[2 + px + 1]) {
                expiresAt = now + ms / 1000
            }
            entries[arguments[0]] = .init(value: .string(command[2]), expiresAt: expiresAt)
            return .status("OK")
        case ("DEL", 1...), ("UNLINK", 1...):
            let gone = arguments.filter { live($0) != nil }
            for key in arguments { entries[key] = nil }
            return .integer(gone.count)
        case ("EXISTS", 1):
            return .integer(live(arguments[0]) == nil ? 0 : 1)
        case ("INCR", 1):
            let text = string(arguments[0]).map { String(decoding: $0, as: UTF8.self) } ?? "0"
            guard let count = Int(text) else {
                return .error("ERR value is not an integer or out of range")
            }
            let expiresAt = live(arguments[0])?.expiresAt
            entries[arguments[0]] = .init(
                value: .string(Array(String(count + 1).utf8)), expiresAt: expiresAt)
            return .integer(count + 1)
        case ("PEXPIRE", 2):
            guard live(arguments[0]) != nil, let ms = Double(arguments[1]) else {
                return .integer(0)
            }
            entries[arguments[0]]?.expiresAt = now + ms / 1000
            return .integer(1)
        case ("RPUSH", 2...):
            var items = list(arguments[0])
            items += command.dropFirst(2)
            entries[arguments[0]] = .init(
                value: .list(items), expiresAt: live(arguments[0])?.expiresAt)
            return .integer(items.count)
        case ("LTRIM", 3):
            guard let start = Int(arguments[1]), let stop = Int(arguments[2]) else {
                return .error("ERR value is not an integer or out of range")
            }
            let kept = Self.range(list(arguments[0]), start, stop)
            if kept.isEmpty {
                entries[arguments[0]] = nil
            } else {
                entries[arguments[0]]?.value = .list(kept)
            }
            return .status("OK")
        case ("LRANGE", 3):
            guard let start = Int(arguments[1]), let stop = Int(arguments[2]) else {
                return .error("ERR value is not an integer or out of range")
            }
            return .array(Self.range(list(arguments[0]), start, stop).map(RedisReply.string))
        case ("INFO", 1) where arguments[0] == "memory":
            let text =
                "# Memory\r\nused_memory:1048576\r\nmaxmemory:\(memory.limit)\r\n"
                + "maxmemory_policy:\(memory.policy)\r\n"
            return .string(Array(text.utf8))
        default:
            return .error("ERR unknown command or arguments '\(name)' in the in-memory Redis")
        }
    }

    /// A live entry; an expired one is dropped.
    mutating func live(_ key: String) -> InMemoryRedis.Entry? {
        guard let entry = entries[key] else { return nil }
        guard entry.isLive(at: now) else {
            entries[key] = nil
            return nil
        }
        return entry
    }

    mutating func string(_ key: String) -> [UInt8]? {
        guard case .string(let bytes)? = live(key)?.value else { return nil }
        return bytes
    }

    mutating func list(_ key: String) -> [[UInt8]] {
        guard case .list(let items)? = live(key)?.value else { return [] }
        return items
    }

    /// `items` from `start` through `stop`, negative counting from the end, as `LRANGE` and
    /// `LTRIM` take them.
    static func range(_ items: [[UInt8]], _ start: Int, _ stop: Int) -> [[UInt8]] {
        let count = items.count
        let first = max(0, start < 0 ? count + start : start)
        let last = min(count - 1, stop < 0 ? count + stop : stop)
        return first <= last ? Array(items[first...last]) : []
    }
}

// MARK: - The backend's scripts

extension Store {
    /// Runs one of the backend's scripts; an unknown one is an error, as in Redis.
    mutating func evaluate(_ script: RedisScript, keys: [String], arguments: [[UInt8]])
        -> RedisReply
    {
        let known = ["lockAndRead", "release", "commit", "commitIfUnchanged", "count"]
        guard known.contains(script.name) else {
            return .error("NOSCRIPT the in-memory Redis runs only the backend's scripts")
        }
        let lua = Lua(keys: keys, arguments: arguments)
        do {
            return try lua.run(script.name, on: &self)
        } catch {
            return .error(error.message)
        }
    }
}

/// A script's `KEYS` and `ARGV`, 1-based as in Lua, and the scripts written with them.
private struct Lua {
    let keys: [String]
    let arguments: [[UInt8]]

    struct Failure: Error { var message: String }

    func key(_ index: Int) -> String { keys[index - 1] }
    func argument(_ index: Int) -> [UInt8] { arguments[index - 1] }
    func text(_ index: Int) -> String { String(decoding: arguments[index - 1], as: UTF8.self) }
    func number(_ index: Int) -> Int { Int(text(index)) ?? 0 }

    /// `redis.call`: the reply, or the script fails with its error.
    func call(_ store: inout Store, _ words: [String], _ values: [Int: [UInt8]] = [:])
        throws(Failure)
        -> RedisReply
    {
        var command = words.map { Array($0.utf8) }
        for (index, bytes) in values { command[index] = bytes }
        let reply = store.call(command)
        if case .error(let message) = reply { throw Failure(message: message) }
        return reply
    }

    func run(_ name: String, on store: inout Store) throws(Failure) -> RedisReply {
        switch name {
        case "lockAndRead": try lockAndRead(&store)
        case "release": try release(&store)
        case "commit": try commit(&store)
        case "commitIfUnchanged": try commitIfUnchanged(&store)
        default: try count(&store)
        }
    }

    func lockAndRead(_ store: inout Store) throws(Failure) -> RedisReply {
        if text(5) == "1" {
            let set = try call(
                &store, ["SET", key(1), "", "NX", "PX", text(2)], [2: argument(1)])
            if set == .none { return .none }
        }
        var out = [try call(&store, ["GET", key(2)])]
        let reads = 2 + number(3)
        let takes = reads + number(4)
        let lists = takes + number(6)
        for index in stride(from: 3, through: keys.count, by: 1) {
            if index <= reads {
                out.append(try call(&store, ["GET", key(index)]))
            } else if index <= takes {
                out.append(try call(&store, ["GETDEL", key(index)]))
            } else if index <= lists {
                out.append(try call(&store, ["LRANGE", key(index), "0", "-1"]))
            } else {
                _ = try call(&store, ["UNLINK", key(index)])
            }
        }
        return .array(out)
    }

    func release(_ store: inout Store) throws(Failure) -> RedisReply {
        guard try call(&store, ["GET", key(1)]).bytes == argument(1) else { return .integer(0) }
        return try call(&store, ["DEL", key(1)])
    }

    func commit(_ store: inout Store) throws(Failure) -> RedisReply {
        guard try call(&store, ["GET", key(1)]).bytes == argument(1) else { return .integer(0) }
        let l = number(2)
        for index in stride(from: 1, through: l, by: 1)
        where try tail(&store, key(1 + index)) != argument(2 + index) {
            return .integer(2)
        }
        try writes(&store, first: 2 + l, base: 3 + l)
        _ = try call(&store, ["DEL", key(1)])
        return .integer(1)
    }

    /// `redis.call('LRANGE', list, -1, -1)[1] or ''`.
    func tail(_ store: inout Store, _ list: String) throws(Failure) -> [UInt8] {
        guard case .array(let items) = try call(&store, ["LRANGE", list, "-1", "-1"]) else {
            return []
        }
        return items.first?.bytes ?? []
    }

    func commitIfUnchanged(_ store: inout Store) throws(Failure) -> RedisReply {
        if try call(&store, ["EXISTS", key(1)]) == .integer(1) { return .integer(0) }
        guard try call(&store, ["GET", key(2)]).bytes == argument(1) else { return .integer(0) }
        let (n, m, l) = (number(2), number(3), number(4))
        for index in stride(from: 1, through: n, by: 1) {
            let held = try call(&store, ["GET", key(2 + index)]).bytes ?? []
            if held != argument(4 + index) { return .integer(0) }
        }
        for index in stride(from: 1, through: l, by: 1)
        where try tail(&store, key(2 + n + m + index)) != argument(4 + n + index) {
            return .integer(0)
        }
        for index in stride(from: 3 + n, through: 2 + n + m, by: 1) {
            _ = try call(&store, ["UNLINK", key(index)])
        }
        try writes(&store, first: 3 + n + m + l, base: 5 + n + l)
        return .integer(1)
    }

    /// The writes both commit scripts end with.
    func writes(_ store: inout Store, first: Int, base: Int) throws(Failure) {
        for index in stride(from: first, through: keys.count, by: 1) {
            let a = base + 3 * (index - first)
            switch text(a) {
            case "set":
                _ = try call(
                    &store, ["SET", key(index), "", "PX", text(a + 2)], [2: argument(a + 1)])
            case "incr":
                _ = try call(&store, ["INCR", key(index)])
                _ = try call(&store, ["PEXPIRE", key(index), text(a + 2)])
            case "push":
                _ = try call(&store, ["RPUSH", key(index), ""], [2: argument(a + 1)])
                _ = try call(&store, ["LTRIM", key(index), "-\(DragMemory.perBucket)", "-1"])
                _ = try call(&store, ["PEXPIRE", key(index), text(a + 2)])
            default:
                _ = try call(&store, ["DEL", key(index)])
            }
        }
    }

    func count(_ store: inout Store) throws(Failure) -> RedisReply {
        let n = try call(&store, ["INCR", key(1)])
        if n == .integer(1) { _ = try call(&store, ["PEXPIRE", key(1), text(1)]) }
        return n
    }
}
