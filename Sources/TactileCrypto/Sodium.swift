internal import CSodium

/// Thin, safe wrappers around the libsodium primitives Tactile uses: secure random bytes,
/// Argon2id, HMAC-SHA-256, SHA-256 and constant-time comparison.
public enum Sodium {
    private static let initialized: Bool = sodium_init() >= 0

    /// Makes sure libsodium is initialised; every wrapper calls it.
    static func ready() {
        precondition(initialized, "libsodium could not be initialised")
    }

    /// `count` bytes from the operating system's secure random source.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        ready()
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) }
        return bytes
    }

    /// Whether two byte strings are equal, in time that depends only on their length.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        ready()
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in sodium_memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 }
        }
    }

    /// The SHA-256 digest (32 bytes).
    public static func sha256(_ data: [UInt8]) -> [UInt8] {
        ready()
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        digest.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBufferPointer {
                _ = crypto_hash_sha256(out.baseAddress!, $0.baseAddress, UInt64($0.count))
            }
        }
        return digest
    }

    /// Writes the SHA-256 digest of the bytes in `message` into the first 32 bytes of
    /// `digest`, allocating nothing: for a loop that hashes many messages.
    ///
    /// - Parameters:
    ///   - message: The bytes to hash.
    ///   - digest: Where the digest goes; at least 32 bytes.
    public static func sha256(
        _ message: UnsafeRawBufferPointer, into digest: UnsafeMutableRawBufferPointer
    ) {
        ready()
        precondition(digest.count >= Int(crypto_hash_sha256_BYTES), "a digest needs 32 bytes")
        _ = crypto_hash_sha256(
            digest.baseAddress!.assumingMemoryBound(to: UInt8.self),
            message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count))
    }

    /// HMAC-SHA-256 of `message` under a 32-byte key (32 bytes).
    public static func hmacSHA256(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        ready()
        precondition(key.count == Int(crypto_auth_hmacsha256_KEYBYTES), "HMAC key must be 32 bytes")
        var tag = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        tag.withUnsafeMutableBufferPointer { out in
            message.withUnsafeBufferPointer { m in
                key.withUnsafeBufferPointer { k in
                    _ = crypto_auth_hmacsha256(
                        out.baseAddress!, m.baseAddress, UInt64(m.count), k.baseAddress!)
                }
            }
        }
        return tag
    }

    /// Whether `tag` is the HMAC-SHA-256 of `message` under `key`, compared in constant time.
    public static func verifyHMACSHA256(_ tag: [UInt8], message: [UInt8], key: [UInt8]) -> Bool {
        constantTimeEquals(tag, hmacSHA256(message, key: key))
    }
}

/// An HMAC-SHA-256 key made ready once: libsodium's state after the key's padded blocks, so
/// a message costs only its own blocks and the outer one, not the key's two as well. For a
/// key that signs many short messages (tokens, record names, records).
public struct HMACKey: Sendable {
    /// `crypto_auth_hmacsha256_state` right after `crypto_auth_hmacsha256_init`, as bytes.
    private let prepared: [UInt8]

    /// Makes `key` (32 bytes) ready.
    public init(_ key: [UInt8]) {
        Sodium.ready()
        precondition(key.count == Int(crypto_auth_hmacsha256_KEYBYTES), "HMAC key must be 32 bytes")
        var state = crypto_auth_hmacsha256_state()
        key.withUnsafeBufferPointer { _ = crypto_auth_hmacsha256_init(&state, $0.baseAddress!, 32) }
        prepared = withUnsafeBytes(of: &state) { Array($0) }
        withUnsafeMutableBytes(of: &state) { sodium_memzero($0.baseAddress, $0.count) }
    }

    /// HMAC-SHA-256 of `message` (32 bytes): the same as ``Sodium/hmacSHA256(_:key:)``.
    public func authenticate(_ message: [UInt8]) -> [UInt8] {
        var state = crypto_auth_hmacsha256_state()
        withUnsafeMutableBytes(of: &state) { $0.copyBytes(from: prepared) }
        message.withUnsafeBufferPointer {
            _ = crypto_auth_hmacsha256_update(&state, $0.baseAddress, UInt64($0.count))
        }
        var tag = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        tag.withUnsafeMutableBufferPointer {
            _ = crypto_auth_hmacsha256_final(&state, $0.baseAddress!)
        }
        withUnsafeMutableBytes(of: &state) { sodium_memzero($0.baseAddress, $0.count) }
        return tag
    }

    /// Whether `tag` is the HMAC-SHA-256 of `message`, compared in constant time.
    public func verify(_ tag: [UInt8], message: [UInt8]) -> Bool {
        Sodium.constantTimeEquals(tag, authenticate(message))
    }
}

/// The cost of an Argon2id derivation: passes over memory and memory in bytes.
public struct Argon2idCost: Hashable, Sendable, Codable {
    /// Passes (libsodium's `opslimit`), at least 1.
    public var passes: UInt64
    /// Memory in bytes (libsodium's `memlimit`), at least 8 KiB.
    public var memoryBytes: Int

    /// Creates a cost.
    public init(passes: UInt64, memoryBytes: Int) {
        self.passes = passes
        self.memoryBytes = memoryBytes
    }

    /// libsodium's interactive preset: 2 passes over 64 MiB.
    public static let interactive = Argon2idCost(
        passes: UInt64(crypto_pwhash_argon2id_OPSLIMIT_INTERACTIVE),
        memoryBytes: Int(crypto_pwhash_argon2id_MEMLIMIT_INTERACTIVE))

    /// The cheapest cost libsodium accepts, for tests only.
    @_spi(Testing) public static let minimum = Argon2idCost(
        passes: UInt64(crypto_pwhash_argon2id_OPSLIMIT_MIN),
        memoryBytes: Int(crypto_pwhash_argon2id_MEMLIMIT_MIN))

    /// Whether libsodium accepts this cost.
    public var isValid: Bool {
        passes >= UInt64(crypto_pwhash_argon2id_OPSLIMIT_MIN)
            && passes <= UInt64(crypto_pwhash_argon2id_OPSLIMIT_MAX)
            && memoryBytes >= Int(crypto_pwhash_argon2id_MEMLIMIT_MIN)
            && UInt64(memoryBytes) <= UInt64(crypto_pwhash_argon2id_memlimit_max())
    }
}

extension Sodium {
    /// Bytes of salt Argon2id takes.
    public static let argon2idSaltLength = Int(crypto_pwhash_argon2id_SALTBYTES)

    /// Derives `length` bytes from a secret and a 16-byte salt with Argon2id (version 1.3).
    ///
    /// - Returns: `nil` when the cost is invalid or libsodium runs out of memory.
    public static func argon2id(
        _ secret: [UInt8], salt: [UInt8], cost: Argon2idCost, length: Int = 32
    ) -> [UInt8]? {
        ready()
        guard salt.count == argon2idSaltLength, cost.isValid, length >= 16 else { return nil }
        var out = [UInt8](repeating: 0, count: length)
        let status = out.withUnsafeMutableBufferPointer { o in
            // A non-empty buffer, so the pointer is never nil; the length passed is the secret's.
            (secret.isEmpty ? [0] : secret).withUnsafeBytes { s in
                salt.withUnsafeBufferPointer { t in
                    crypto_pwhash(
                        o.baseAddress!, UInt64(length), s.bindMemory(to: CChar.self).baseAddress!,
                        UInt64(secret.count), t.baseAddress!, cost.passes, cost.memoryBytes,
                        crypto_pwhash_ALG_ARGON2ID13)
                }
            }
        }
        return status == 0 ? out : nil
    }
}
