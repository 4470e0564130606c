import TactileCore
import TactileCrypto
import TactilePatternLock

/// The contents of a pattern store, and its binary format.
///
/// Format version 1, 120 bytes, integers big-endian:
///
/// | offset | bytes | field |
/// |---|---|---|
/// | 0 | 8 | magic `TPATLOCK` |
/// | 8 | 2 | format version (1) |
/// | 10 | 1 | grid size, 2…6 |
/// | 11 | 1 | minimum pattern length |
/// | 12 | 8 | Argon2id passes |
/// | 20 | 8 | Argon2id memory in bytes |
/// | 28 | 16 | salt |
/// | 44 | 32 | Argon2id hash of the pattern |
/// | 76 | 4 | consecutive failed attempts |
/// | 80 | 8 | end of the current wait, seconds since 1970 (IEEE 754 double; 0 for none) |
/// | 88 | 32 | SHA-256 of bytes 0…87 (integrity check) |
///
/// The checksum detects damage (a torn disk write, a flipped bit, truncation); it is not a
/// secret key, and the store's protection against people is its file mode (0600) and the
/// Argon2id cost.
struct PatternStoreRecord: Hashable, Sendable {
    static let magic = Array("TPATLOCK".utf8)
    static let version = 1
    static let encodedLength = 120
    static let checksumOffset = 88

    var grid: PatternGrid
    var minimumLength: Int
    var cost: Argon2idCost
    var salt: [UInt8]
    var hash: [UInt8]
    var failures = 0
    /// When the current wait ends, seconds since 1970; 0 when there is none.
    var waitEnd = 0.0

    /// The bytes written to disk.
    func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.appendBigEndian(UInt64(Self.version), width: 2)
        bytes.append(UInt8(grid.size))
        bytes.append(UInt8(minimumLength))
        bytes.appendBigEndian(cost.passes, width: 8)
        bytes.appendBigEndian(UInt64(cost.memoryBytes), width: 8)
        bytes += salt
        bytes += hash
        bytes.appendBigEndian(UInt64(min(failures, Int(UInt32.max))), width: 4)
        bytes.appendBigEndian(waitEnd.bitPattern, width: 8)
        bytes += Sodium.sha256(bytes)
        return bytes
    }
}

// Beside the type, so that the memberwise initializer stays.
extension PatternStoreRecord {
    /// Reads the bytes of a store; any damage is an error (fail closed).
    init(decoding bytes: [UInt8], path: String) throws(PatternVaultError) {
        func damaged(_ reason: String) -> PatternVaultError {
            .damaged(path: path, reason: reason)
        }
        guard bytes.count >= Self.magic.count + 2 else {
            throw damaged(
                Localization.text(
                    "truncated: {1} bytes, a store has {2}", bytes.count, Self.encodedLength))
        }
        guard Array(bytes[0..<8]) == Self.magic else {
            throw damaged(
                Localization.text("not a pattern store: the file does not start with TPATLOCK"))
        }
        var reader = ByteReader(bytes: bytes, offset: 8)
        let version = Int(reader.integer(width: 2))
        guard version == Self.version else {
            throw .unsupportedVersion(path: path, version: version)
        }
        guard bytes.count == Self.encodedLength else {
            throw damaged(
                bytes.count < Self.encodedLength
                    ? Localization.text(
                        "truncated: {1} bytes, a store has {2}", bytes.count, Self.encodedLength)
                    : Localization.text(
                        "{1} bytes, a store has {2}", bytes.count, Self.encodedLength))
        }
        let body = Array(bytes[..<Self.checksumOffset])
        let checksum = Array(bytes[Self.checksumOffset...])
        guard Sodium.constantTimeEquals(Sodium.sha256(body), checksum) else {
            throw damaged(Localization.text("the integrity check failed"))
        }
        let gridSize = Int(reader.integer(width: 1))
        guard let grid = try? PatternGrid(size: gridSize) else {
            throw damaged(Localization.text("grid size {1} is outside 2…6", gridSize))
        }
        self.grid = grid
        minimumLength = Int(reader.integer(width: 1))
        guard (1...grid.dotCount).contains(minimumLength) else {
            throw damaged(
                Localization.text("minimum length {1} does not fit the grid", minimumLength))
        }
        let passes = reader.integer(width: 8)
        let memory = reader.integer(width: 8)
        cost = Argon2idCost(passes: passes, memoryBytes: Int(clamping: memory))
        guard cost.isValid else {
            throw damaged(
                Localization.text(
                    "the Argon2id cost ({1} passes, {2} bytes) is not valid", passes, memory))
        }
        salt = reader.bytes(Sodium.argon2idSaltLength)
        hash = reader.bytes(32)
        failures = Int(reader.integer(width: 4))
        waitEnd = Double(bitPattern: reader.integer(width: 8))
        guard waitEnd.isFinite, waitEnd >= 0 else {
            throw damaged(Localization.text("the wait end is not a time"))
        }
        // A wait exists only after enough failures to earn one; anything else was not
        // written by the vault.
        guard waitEnd == 0 || PatternThrottle.wait(afterFailures: failures) > 0 else {
            throw damaged(
                Localization.text(
                    "a wait is recorded after {1} failures, which earn none", failures))
        }
    }
}

/// Reads big-endian fields in order.
private struct ByteReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func integer(width: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + width] { value = value << 8 | UInt64(byte) }
        offset += width
        return value
    }

    mutating func bytes(_ count: Int) -> [UInt8] {
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
}

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
