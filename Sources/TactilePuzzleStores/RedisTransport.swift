/// What ``RedisBackend`` needs of Redis: a connection of its own for each operation, on which
/// it sends commands in pipelines and runs its scripts. ``RedisClient`` is the real one
/// (pooled hiredis connections, scripts by digest, Sentinel); the store's records, locks,
/// commits and epochs are written against this alone.
@_spi(Testing) public protocol RedisTransport: Sendable {
    /// The server's host, as messages name it.
    var host: String { get }
    /// The server's port, as messages name it.
    var port: Int { get }
    /// The Sentinels to ask where the primary is; empty for a server named directly.
    var sentinels: [(host: String, port: Int)] { get }
    /// The name the Sentinels monitor the primary under.
    var primaryName: String? { get }
    /// The database number, 0…15.
    var database: Int { get }

    /// Runs `body` with a connection of its own. A connection that failed (`body` threw a
    /// ``RedisBackend/Failure``) is not lent again.
    func withConnection<R>(_ body: (any RedisConnection) throws -> R) throws -> R
}

extension RedisTransport {
    @_spi(Testing) public var sentinels: [(host: String, port: Int)] { [] }
    @_spi(Testing) public var primaryName: String? { nil }
    @_spi(Testing) public var database: Int { 0 }
}

/// One connection to Redis, lent to one operation at a time.
@_spi(Testing) public protocol RedisConnection {
    /// Sends the commands in one pipeline and reads every reply; an error reply is thrown
    /// after all replies are read, unless `throwsErrorReplies` is off and the caller looks
    /// at it.
    func run(_ commands: [[[UInt8]]], throwsErrorReplies: Bool) throws(RedisBackend.Failure)
        -> [RedisReply]
    /// Runs a script, atomically, with `keys` (`KEYS`) and `arguments` (`ARGV`); an error
    /// reply is thrown.
    func evaluate(_ script: RedisScript, keys: [[UInt8]], arguments: [[UInt8]])
        throws(RedisBackend.Failure) -> RedisReply
    /// Makes sure what was written on this connection cannot be forgotten by a failover
    /// before its outcome is told (with Sentinel: a replica has it); throws otherwise.
    func awaitReplica() throws
}

extension RedisConnection {
    /// Sends the commands in one pipeline; an error reply is thrown.
    func run(_ commands: [[[UInt8]]]) throws(RedisBackend.Failure) -> [RedisReply] {
        try run(commands, throwsErrorReplies: true)
    }

    /// Sends the commands, each written as words, in one pipeline; an error reply is thrown.
    func run(_ words: [String]...) throws(RedisBackend.Failure) -> [RedisReply] {
        try run(words.map { $0.map { Array($0.utf8) } }, throwsErrorReplies: true)
    }

    /// Runs a script with keys and arguments written as text.
    func evaluate(_ script: RedisScript, keys: [String], arguments: [String])
        throws(RedisBackend.Failure) -> RedisReply
    {
        try evaluate(
            script, keys: keys.map { Array($0.utf8) }, arguments: arguments.map { Array($0.utf8) })
    }
}

/// What a command answered.
@_spi(Testing) public enum RedisReply: Equatable, Sendable {
    case string([UInt8])
    case integer(Int)
    case status(String)
    case none
    case array([RedisReply])
    case error(String)

    /// The bytes of a string reply; `nil` for any other.
    @_spi(Testing) public var bytes: [UInt8]? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// A Lua script the store runs in Redis, with a name to tell it by.
@_spi(Testing) public struct RedisScript: Hashable, Sendable {
    /// What the store calls it.
    public let name: String
    /// Its Lua source.
    let source: String
}
