import CHiredis
import Foundation
import TactileCrypto
import TactilePuzzleVerifier

/// The verifier in Redis, shared by every `serve` process that points at the same server:
/// any of them can answer a challenge another made, and a check or a redemption succeeds
/// once across all of them.
///
/// The sealed key and state (see `VerifierSeal`) live under `tactile:key` and
/// `tactile:state`; each operation takes a lock (`SET tactile:lock <random> NX PX`), loads,
/// changes and stores the state, and releases the lock only if it still holds it (a Lua
/// compare-and-delete). Images live under `tactile:image:<id>` with the challenge's
/// lifetime as their TTL. When Redis does not answer, every operation throws (the service
/// answers 503 and `/healthz` fails, so nothing passes); the next operation reconnects.
///
/// The whole state moves on every operation: this is correct and simple, and fast enough
/// for modest traffic; a state split into per-puzzle keys would scale further.
public final class RedisBackend: VerifierBackend, @unchecked Sendable {
    /// The server's host.
    public let host: String
    /// The server's port.
    public let port: Int
    /// The database number, 0…15.
    public let database: Int
    private let policy: VerifierPolicy
    private let lock = NSLock()
    private var context: UnsafeMutablePointer<redisContext>?

    /// A Redis operation failed: the server is gone, or answered an error.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What failed, naming the server.
        public var description: String
    }

    /// Parses `redis://HOST:PORT[/DB]` (IPv6 in brackets) and prepares a connection.
    public init(url: String, policy: VerifierPolicy) throws(ServiceConfigurationError) {
        let accepted = "--store must be redis://HOST:PORT[/DB], got \"\(url)\""
        guard url.hasPrefix("redis://") else { throw ServiceConfigurationError(accepted) }
        var rest = String(url.dropFirst("redis://".count))
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            guard let db = Int(rest[rest.index(after: slash)...]), (0...15).contains(db) else {
                throw ServiceConfigurationError("\(accepted): the database must be 0…15")
            }
            database = db
            rest = String(rest[..<slash])
        }
        guard let colon = rest.lastIndex(of: ":"),
            let port = Int(rest[rest.index(after: colon)...]),
            (1...65535).contains(port)
        else { throw ServiceConfigurationError(accepted) }
        var host = String(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ServiceConfigurationError(accepted) }
        self.host = host
        self.port = port
        self.database = database
        self.policy = policy
    }

    deinit { if let context { redisFree(context) } }

    // MARK: - Replies

    /// What a command answered, copied out of hiredis's reply.
    enum Reply: Equatable {
        case string([UInt8])
        case integer(Int)
        case status(String)
        case none
        case array([Reply])
        case error(String)
    }

    private static func copy(_ reply: UnsafeMutablePointer<redisReply>) -> Reply {
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

    /// Runs one command on the connection (reconnecting first if needed); the caller holds
    /// `lock`.
    private func command(_ arguments: [[UInt8]]) throws(Failure) -> Reply {
        if context == nil { try connect() }
        guard let context else {
            throw Failure(description: "Redis at \(host):\(port) is not connected")
        }
        let pointers = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, bytes.count))
            bytes.withUnsafeBufferPointer {
                if let base = $0.baseAddress {
                    UnsafeMutableRawPointer(p).copyMemory(from: base, byteCount: bytes.count)
                }
            }
            return p
        }
        defer { for pointer in pointers { pointer.deallocate() } }
        var argv = pointers.map { UnsafePointer<CChar>?($0) }
        var lengths = arguments.map { $0.count }
        let raw = redisCommandArgv(context, Int32(arguments.count), &argv, &lengths)
        guard let raw else {
            let reason = context.pointee.err != 0 ? Self.errorText(context) : "no reply"
            redisFree(context)
            self.context = nil
            throw Failure(description: "Redis at \(host):\(port): \(reason)")
        }
        let reply = raw.assumingMemoryBound(to: redisReply.self)
        defer { freeReplyObject(raw) }
        let copied = Self.copy(reply)
        if case .error(let message) = copied {
            throw Failure(description: "Redis at \(host):\(port) answered: \(message)")
        }
        return copied
    }

    private func command(_ words: String...) throws(Failure) -> Reply {
        try command(words.map { Array($0.utf8) })
    }

    private func connect() throws(Failure) {
        let made = redisConnectWithTimeout(host, Int32(port), timeval(tv_sec: 1, tv_usec: 0))
        guard let made, made.pointee.err == 0 else {
            let reason = made.map { Self.errorText($0) } ?? "cannot connect"
            if let made { redisFree(made) }
            throw Failure(description: "Redis at \(host):\(port): \(reason)")
        }
        redisSetTimeout(made, timeval(tv_sec: 2, tv_usec: 0))
        context = made
        if database != 0 { _ = try command("SELECT", String(database)) }
    }

    private static func errorText(_ context: UnsafeMutablePointer<redisContext>) -> String {
        withUnsafeBytes(of: context.pointee.errstr) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    // MARK: - The verifier

    static let keyName = "tactile:key"
    static let stateName = "tactile:state"
    static let lockName = "tactile:lock"
    static let release = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end
        """

    public func withVerifier<R>(_ body: (inout PuzzleVerifier) throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        let holder = Hex.encode(Sodium.randomBytes(16))
        // Wait up to two seconds for the lock; it expires by itself after five.
        var acquired = false
        for attempt in 0..<400 {
            if case .status = try command("SET", Self.lockName, holder, "NX", "PX", "5000") {
                acquired = true
                break
            }
            usleep(UInt32(min(5000, 200 * (attempt + 1))))
        }
        guard acquired else {
            throw Failure(description: "the verifier is locked by another process")
        }
        defer { _ = try? command("EVAL", Self.release, "1", Self.lockName, holder) }

        var key: [UInt8]
        var state: [UInt8]
        guard case .array(let values) = try command("MGET", Self.keyName, Self.stateName),
            values.count == 2
        else { throw Failure(description: "Redis answered MGET with something else") }
        func bytes(_ reply: Reply) -> [UInt8]? {
            if case .string(let value) = reply { return value }
            return nil
        }
        switch (bytes(values[0]), bytes(values[1])) {
        case (let k?, let s?):
            key = k
            state = s
        case (nil, nil):
            // A new server: make both. A server that lost one of them is refused.
            key = VerifierSeal.makeKey()
            state = try VerifierSeal.emptyState(key: key)
            _ = try command([
                Array("MSET".utf8), Array(Self.keyName.utf8), key, Array(Self.stateName.utf8),
                state,
            ])
        case (_?, nil):
            throw VerifierStoreError(
                "\(Self.stateName) is missing from Redis but \(Self.keyName) is there; refusing to start afresh (that would lift every limit)"
            )
        case (nil, _?):
            throw VerifierStoreError(
                "\(Self.keyName) is missing from Redis but \(Self.stateName) is there; refusing to start afresh"
            )
        }
        var verifier = try VerifierSeal.open(
            key: key, state: state, policy: policy,
            names: (key: "Redis \(Self.keyName)", state: "Redis \(Self.stateName)"))
        verifier.policy = policy
        let result = try body(&verifier)
        state = try VerifierSeal.seal(verifier, key: key)
        _ = try command([Array("SET".utf8), Array(Self.stateName.utf8), state])
        return result
    }

    public func isHealthy() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return (try? command("PING")) == .status("PONG")
    }

    // MARK: - Images

    public func putImages(_ images: ChallengeImages, id: String, until: Double) throws {
        let seconds = max(1, Int((until - Date().timeIntervalSince1970).rounded(.up)))
        let value =
            Array(images.backgroundType.utf8) + [10]
            + Array(String(images.background.count).utf8) + [10] + images.background + images.piece
        lock.lock()
        defer { lock.unlock() }
        _ = try command([
            Array("SET".utf8), Array("tactile:image:\(id)".utf8), value, Array("EX".utf8),
            Array(String(seconds).utf8),
        ])
    }

    public func images(id: String, now: Double) throws -> ChallengeImages? {
        let reply: Reply
        do {
            lock.lock()
            defer { lock.unlock() }
            reply = try command("GET", "tactile:image:\(id)")
        }
        guard case .string(let value) = reply else { return nil }
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
