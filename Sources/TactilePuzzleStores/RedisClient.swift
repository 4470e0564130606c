internal import CHiredis
import Foundation
import Synchronization
import TactilePuzzleVerifier

/// A connection to Redis, for ``RedisBackend``: a pool of hiredis connections (one per
/// concurrent request), pipelined commands, Lua scripts by digest, and, with Sentinel, the
/// way to the primary.
///
/// A server named directly (`redis://`) is connected to as it is. With Sentinel
/// (`redis-sentinel://`), every new connection asks the Sentinels (in turn, until one
/// answers) where the primary is and checks with `ROLE` that the server there is it; a
/// connection that fails drops the idle ones, and the next asks again, so the client
/// follows a failover. ``awaitReplica(on:)`` holds a spending write until no failover can
/// forget it.
final class RedisClient: RedisTransport {
    /// The server's host: the one named, or with Sentinel, the primary it last named.
    var host: String { state.withLock { $0.address.host } }
    /// The server's port, as ``host``.
    var port: Int { state.withLock { $0.address.port } }
    /// The Sentinels to ask where the primary is; empty for a server named directly.
    let sentinels: [(host: String, port: Int)]
    /// The name the Sentinels monitor the primary under.
    let primaryName: String?
    /// How long a spending write waits for a replica to have it, in milliseconds.
    let replicaWait = 1000
    /// The database number, 0…15.
    let database: Int
    private let state: Mutex<State>

    /// What the client learns as it goes.
    private struct State {
        /// Where the server is.
        var address: (host: String, port: Int)
        /// Idle connections.
        var idle: [Context] = []
        /// The Sentinel that answered last.
        var lastSentinel = 0
        /// How many replicas a server had, and when that was asked.
        var knownReplicas: (server: String, count: Int, at: UInt64)?
        /// The server a majority of the Sentinels last named the primary, and when.
        var confirmedPrimary: (server: String, at: UInt64)?
        /// The SHA-1 digests Redis gave the scripts (`SCRIPT LOAD`), by source: a call then
        /// sends 40 hex digits rather than the script.
        var scriptDigests: [String: [UInt8]] = [:]
    }

    /// A hiredis connection, idle in the pool or lent to one operation: unchecked, as Swift
    /// cannot see that a C pointer is used by one thread at a time.
    private struct Context: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<redisContext>
    }

    typealias Failure = RedisBackend.Failure
    typealias Reply = RedisReply

    /// Parses `redis://HOST:PORT[/DB]`, or `redis-sentinel://HOST:PORT[,HOST:PORT…]/NAME[/DB]`
    /// (IPv6 in brackets); nothing is connected yet.
    public init(url: String) throws(ServiceConfigurationError) {
        let accepted =
            "--store must be redis://HOST:PORT[/DB] or redis-sentinel://HOST:PORT[,HOST:PORT…]/NAME[/DB], got \"\(url)\""
        var database = 0
        let address: (host: String, port: Int)
        func endpoint(_ text: Substring) throws(ServiceConfigurationError) -> (String, Int) {
            guard let colon = text.lastIndex(of: ":"),
                let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port)
            else { throw ServiceConfigurationError("\(accepted): \"\(text)\" is not HOST:PORT") }
            var host = String(text[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") {
                host = String(host.dropFirst().dropLast())
            }
            guard !host.isEmpty else { throw ServiceConfigurationError(accepted) }
            return (host, port)
        }
        func number(_ text: Substring) throws(ServiceConfigurationError) -> Int {
            guard let db = Int(text), (0...15).contains(db) else {
                throw ServiceConfigurationError("\(accepted): the database must be 0…15")
            }
            return db
        }
        if url.hasPrefix("redis-sentinel://") {
            let parts = url.dropFirst("redis-sentinel://".count).split(
                separator: "/", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), !parts[1].isEmpty,
                parts[1].allSatisfy({ $0.isASCII && !$0.isWhitespace })
            else { throw ServiceConfigurationError("\(accepted): name the primary after a /") }
            var found: [(host: String, port: Int)] = []
            for text in parts[0].split(separator: ",", omittingEmptySubsequences: false) {
                let (host, port) = try endpoint(text)
                found.append((host, port))
            }
            if parts.count == 3 { database = try number(parts[2]) }
            sentinels = found
            primaryName = String(parts[1])
            address = found[0]
        } else if url.hasPrefix("redis://") {
            var rest = url.dropFirst("redis://".count)
            if let slash = rest.firstIndex(of: "/") {
                database = try number(rest[rest.index(after: slash)...])
                rest = rest[..<slash]
            }
            address = try endpoint(rest)
            sentinels = []
            primaryName = nil
        } else {
            throw ServiceConfigurationError(accepted)
        }
        self.database = database
        state = Mutex(State(address: address))
    }

    deinit { for context in state.withLock({ $0.idle }) { redisFree(context.pointer) } }

    // MARK: - Replies

    /// What a command answered, copied out of hiredis's reply.
    static func copy(_ reply: UnsafeMutablePointer<redisReply>) -> Reply {
        let r = reply.pointee
        switch Int32(r.type) {
        case tactile_redis_reply_string:
            return .string(Array(UnsafeRawBufferPointer(start: r.str, count: Int(r.len))))
        case tactile_redis_reply_integer:
            return .integer(Int(r.integer))
        case tactile_redis_reply_status:
            return .status(String(cString: r.str))
        case tactile_redis_reply_error:
            return .error(String(cString: r.str))
        case tactile_redis_reply_array:
            return .array((0..<Int(r.elements)).map { copy(r.element[$0]!) })
        default:
            return .none
        }
    }

    /// Runs `body` with a connection of its own: an idle one still open, or a new one. A
    /// connection that failed is closed rather than put back.
    func withConnection<R>(_ body: (any RedisConnection) throws -> R) throws -> R {
        try withContext { try body(Connection(client: self, context: $0)) }
    }

    /// A connection of ``RedisClient``: its hiredis context, and the client it came from.
    struct Connection: RedisConnection {
        let client: RedisClient
        let context: UnsafeMutablePointer<redisContext>

        func run(_ commands: [[[UInt8]]], throwsErrorReplies: Bool) throws(Failure) -> [Reply] {
            try client.run(commands, on: context, throwsErrorReplies: throwsErrorReplies)
        }

        func evaluate(_ script: RedisScript, keys: [[UInt8]], arguments: [[UInt8]])
            throws(Failure) -> Reply
        {
            try client.evaluate(script.source, keys: keys, arguments: arguments, on: context)
        }

        func awaitReplica() throws { try client.awaitReplica(on: context) }
    }

    /// ``withConnection(_:)`` with the hiredis context itself.
    func withContext<R>(_ body: (UnsafeMutablePointer<redisContext>) throws -> R) throws -> R {
        var reused: UnsafeMutablePointer<redisContext>?
        while reused == nil {
            guard let candidate = state.withLock({ $0.idle.popLast() })?.pointer else { break }
            // A server that restarted closed its end: that connection would fail the request.
            if Self.isClosed(candidate) { redisFree(candidate) } else { reused = candidate }
        }
        let context = try reused ?? connect()
        let result: R
        do { result = try body(context) } catch {
            if error is Failure {
                redisFree(context)
                // The primary may have changed: the connections to the old one go too.
                if primaryName != nil { dropIdleConnections() }
            } else {
                checkIn(context)
            }
            throw error
        }
        checkIn(context)
        return result
    }

    /// Whether an idle connection has anything to read — the server's end of file, or bytes
    /// nobody asked for — so must not be used again. Costs a system call, no round trip.
    private static func isClosed(_ context: UnsafeMutablePointer<redisContext>) -> Bool {
        var descriptor = pollfd(fd: context.pointee.fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) != 0
    }

    private func dropIdleConnections() {
        let dropped = state.withLock { state in
            defer { state.idle = [] }
            return state.idle
        }
        for context in dropped { redisFree(context.pointer) }
    }

    private func checkIn(_ context: UnsafeMutablePointer<redisContext>) {
        // A connection hiredis marked broken is closed, not kept.
        guard context.pointee.err == 0 else { return redisFree(context) }
        state.withLock { $0.idle.append(Context(pointer: context)) }
    }

    /// Sends the commands in one pipeline and reads every reply; an error reply is thrown
    /// after all replies are read, unless `throwsErrorReplies` is off and the caller looks at
    /// it.
    func run(
        _ commands: [[[UInt8]]], on context: UnsafeMutablePointer<redisContext>,
        throwsErrorReplies: Bool = true
    ) throws(Failure) -> [Reply] {
        for arguments in commands {
            let status = arguments.withCStrings { argv, lengths in
                redisAppendCommandArgv(context, Int32(arguments.count), argv, lengths)
            }
            guard status == 0 else {
                throw Failure(description: "Redis at \(host):\(port): \(Self.errorText(context))")
            }
        }
        var replies: [Reply] = []
        for _ in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == 0, let raw else {
                let reason = context.pointee.err != 0 ? Self.errorText(context) : "no reply"
                throw Failure(description: "Redis at \(host):\(port): \(reason)")
            }
            replies.append(Self.copy(raw.assumingMemoryBound(to: redisReply.self)))
            freeReplyObject(raw)
        }
        for case .error(let message) in replies where throwsErrorReplies {
            throw answered(message)
        }
        return replies
    }

    /// Redis answered `message`, an error.
    func answered(_ message: String) -> Failure {
        Failure(description: "Redis at \(host):\(port) answered: \(message)")
    }

    func run(_ words: [String]..., on context: UnsafeMutablePointer<redisContext>)
        throws(Failure) -> [Reply]
    {
        try run(words.map { $0.map { Array($0.utf8) } }, on: context)
    }

    /// Runs a Lua script by its digest (`EVALSHA`), loading it first when this instance has
    /// not yet, or when Redis has forgotten it (it restarted, or its scripts were flushed).
    func evaluate(
        _ script: String, keys: [[UInt8]], arguments: [[UInt8]],
        on context: UnsafeMutablePointer<redisContext>
    ) throws(Failure) -> Reply {
        let tail = [Array(String(keys.count).utf8)] + keys + arguments
        let known = state.withLock { $0.scriptDigests[script] }
        if let known {
            let reply = try run(
                [[Array("EVALSHA".utf8), known] + tail], on: context, throwsErrorReplies: false)[0]
            switch reply {
            case .error(let message) where message.hasPrefix("NOSCRIPT"):
                break  // forgotten: loaded again below
            case .error(let message):
                throw answered(message)
            default:
                return reply
            }
        }
        guard case .string(let digest) = try run(["SCRIPT", "LOAD", script], on: context)[0]
        else { throw answered("SCRIPT LOAD with something else than a digest") }
        state.withLock { $0.scriptDigests[script] = digest }
        return try run([[Array("EVALSHA".utf8), digest] + tail], on: context)[0]
    }

    func connect() throws(Failure) -> UnsafeMutablePointer<redisContext> {
        if let primaryName {
            let primary = try askSentinels(for: primaryName)
            state.withLock { $0.address = primary }
        }
        let (host, port) = state.withLock { $0.address }
        let made = try Self.open(host, port)
        if primaryName != nil {
            // A Sentinel may name a server that has not yet taken the role (or just lost it).
            let role = try? run(["ROLE"], on: made)
            guard case .array(let parts)? = role?.first,
                parts.first == .string(Array("master".utf8))
            else {
                redisFree(made)
                throw Failure(description: "Redis at \(host):\(port) is not the primary (yet)")
            }
        }
        if database != 0 {
            do { _ = try run(["SELECT", String(database)], on: made) } catch {
                redisFree(made)
                throw error
            }
        }
        return made
    }

    /// A connection to `host`:`port`, its replies awaited at most two seconds.
    private static func open(_ host: String, _ port: Int, seconds: Int = 1) throws(Failure)
        -> UnsafeMutablePointer<redisContext>
    {
        let made = redisConnectWithTimeout(host, Int32(port), timeval(tv_sec: seconds, tv_usec: 0))
        guard let made, made.pointee.err == 0 else {
            let reason = made.map { Self.errorText($0) } ?? "cannot connect"
            if let made { redisFree(made) }
            throw Failure(description: "Redis at \(host):\(port): \(reason)")
        }
        redisSetTimeout(made, timeval(tv_sec: 2, tv_usec: 0))
        return made
    }

    /// Where the Sentinels say the primary `name` is: the first that answers, asked in turn
    /// from the one that answered last.
    func askSentinels(for name: String) throws(Failure) -> (host: String, port: Int) {
        let first = state.withLock { $0.lastSentinel }
        var reasons: [String] = []
        for step in 0..<sentinels.count {
            let index = (first + step) % sentinels.count
            let sentinel = sentinels[index]
            do {
                let context = try Self.open(sentinel.host, sentinel.port)
                defer { redisFree(context) }
                let reply = try run(["SENTINEL", "get-master-addr-by-name", name], on: context)
                guard case .array(let parts) = reply.first, parts.count == 2,
                    case .string(let host) = parts[0], case .string(let portText) = parts[1],
                    let port = Int(String(decoding: portText, as: UTF8.self))
                else {
                    reasons.append("\(sentinel.host):\(sentinel.port) knows no primary \(name)")
                    continue
                }
                state.withLock { $0.lastSentinel = index }
                return (String(decoding: host, as: UTF8.self), port)
            } catch {
                reasons.append(error.description)
            }
        }
        throw Failure(
            description: "no Sentinel named the primary \(name): \(reasons.joined(separator: "; "))"
        )
    }

    static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// With Sentinel, makes sure what was written on `context` (a check, a redemption)
    /// cannot be forgotten by a failover before its outcome is told: a replica
    /// has it (`WAIT`), or, when the primary has no replica connected, a majority of the
    /// Sentinels still name this server the primary (an old primary cut off from its
    /// replica and its Sentinels is not believed). Throws otherwise; the write may then be
    /// lost, but nothing was told of it.
    func awaitReplica(on context: UnsafeMutablePointer<redisContext>) throws {
        guard let primaryName else { return }
        if try replicaCount(on: context, fresh: false) > 0 {
            let reply = try run(["WAIT", "1", String(replicaWait)], on: context)
            if case .integer(let count) = reply.first, count >= 1 { return }
            // None had it in time. A slow replica is not a broken connection: the connection
            // stays, and the operation fails.
            guard try replicaCount(on: context, fresh: true) == 0 else {
                throw VerifierStoreError(
                    "Redis at \(host):\(port): no replica acknowledged a write within \(replicaWait) ms; nothing is told until one does"
                )
            }
        }
        try confirmPrimary(named: primaryName)
    }

    /// How many replicas are connected to the primary, those still copying its data
    /// included (`INFO replication`, whose `connected_slaves` counts them; `ROLE` leaves them
    /// out, yet Sentinel may promote one), looked up at most once a second per server unless
    /// `fresh`.
    func replicaCount(
        on context: UnsafeMutablePointer<redisContext>, fresh: Bool
    ) throws(Failure) -> Int {
        let now = DispatchTime.now().uptimeNanoseconds
        let server = state.withLock { "\($0.address.host):\($0.address.port)" }
        if !fresh, let known = state.withLock({ $0.knownReplicas }), known.server == server,
            now - known.at < 1_000_000_000
        {
            return known.count
        }
        guard case .string(let info) = try run(["INFO", "replication"], on: context).first,
            let count = Self.fields(of: info)["connected_slaves"].flatMap({ Int($0) })
        else { throw answered("INFO replication without connected_slaves") }
        state.withLock { $0.knownReplicas = (server, count, now) }
        return count
    }

    /// Throws unless a majority of the Sentinels name the server this instance writes to as
    /// the primary `name`; a confirmation holds for a second.
    func confirmPrimary(named name: String) throws {
        let now = DispatchTime.now().uptimeNanoseconds
        let current = state.withLock { $0.address }
        let server = "\(current.host):\(current.port)"
        if let confirmed = state.withLock({ $0.confirmedPrimary }), confirmed.server == server,
            now - confirmed.at < 1_000_000_000
        {
            return
        }
        var agreeing = 0
        for sentinel in sentinels {
            guard let context = try? Self.open(sentinel.host, sentinel.port) else { continue }
            defer { redisFree(context) }
            guard
                let reply = try? run(["SENTINEL", "get-master-addr-by-name", name], on: context),
                case .array(let parts) = reply.first, parts.count == 2,
                case .string(let host) = parts[0], case .string(let port) = parts[1]
            else { continue }
            if String(decoding: host, as: UTF8.self) == current.host,
                Int(String(decoding: port, as: UTF8.self)) == current.port
            {
                agreeing += 1
            }
        }
        guard agreeing * 2 > sentinels.count else {
            throw Failure(
                description:
                    "Redis at \(server) has no replica and only \(agreeing) of \(sentinels.count) Sentinels name it the primary \(name); nothing is told until a majority does"
            )
        }
        state.withLock { $0.confirmedPrimary = (server, now) }
    }

    /// The fields of an `INFO` reply, by name.
    static func fields(of info: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for line in String(decoding: info, as: UTF8.self).split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...])
                .trimmingCharacters(in: .whitespaces)
        }
        return fields
    }
}

extension [[UInt8]] {
    /// Calls `body` with C views of the byte strings (pointers and lengths), valid only
    /// inside it.
    fileprivate func withCStrings<R>(
        _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafeMutablePointer<Int>) -> R
    ) -> R {
        let pointers = map { bytes -> UnsafeMutablePointer<CChar> in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: Swift.max(1, bytes.count))
            bytes.withUnsafeBufferPointer {
                if let base = $0.baseAddress {
                    UnsafeMutableRawPointer(p).copyMemory(from: base, byteCount: bytes.count)
                }
            }
            return p
        }
        defer { for pointer in pointers { pointer.deallocate() } }
        var argv = pointers.map { UnsafePointer<CChar>?($0) }
        var lengths = map(\.count)
        return body(&argv, &lengths)
    }
}
