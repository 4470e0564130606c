import Foundation
import TactileCrypto
import TactilePatternLock

/// The outcome of presenting a pattern to the vault.
public enum PatternVerification: Hashable, Sendable {
    /// The pattern matches; the failure count is back to 0.
    case accepted
    /// The pattern does not match. `failures` counts consecutive failures including this
    /// one; `wait` is the seconds before the next attempt (0 for none); when there is no
    /// wait, `attemptsBeforeWait` more wrong patterns bring one (1: the next does).
    case rejected(failures: Int, wait: Double, attemptsBeforeWait: Int)
    /// Attempts are refused for `secondsLeft` more seconds; nothing was checked or counted.
    case lockedOut(secondsLeft: Double)
}

/// What a store holds, without the secret parts.
public struct PatternVaultStatus: Hashable, Sendable {
    /// The grid the enrolled pattern is drawn on.
    public let grid: PatternGrid
    /// The fewest dots a pattern may have; shorter input is refused without counting.
    public let minimumLength: Int
    /// The Argon2id cost the hash was made with.
    public let cost: Argon2idCost
    /// Consecutive failed attempts.
    public let failures: Int
    /// Seconds until the next attempt is allowed, or `nil` when one is allowed now.
    public let lockoutRemaining: Double?
}

/// Enrols and verifies a pattern against a salted Argon2id hash in a store file, with
/// attempt throttling kept in the same file.
///
/// The store never holds the pattern, its digits or a fast hash of it: only a random salt
/// and the Argon2id hash of the pattern, with the cost used, so stores made with different
/// costs (fast ones in tests) verify alike. Every change is an atomic replacement of the
/// file (mode 0600). A damaged, truncated or unknown-version store is refused with
/// ``PatternVaultError/damaged(path:reason:)`` or
/// ``PatternVaultError/unsupportedVersion(path:version:)``: the vault fails closed.
///
/// Throttling follows ``PatternThrottle``. A failure is written to the store *before* the
/// slow hash runs, and the whole check holds an exclusive lock, so neither killing the
/// process nor running checks in parallel avoids the count. Attempts during a wait are
/// refused without being checked. Patterns shorter than the minimum, or for another grid,
/// are refused as input and not counted.
///
/// The clock is injected: seconds since 1970 (wall time) in the app and the command-line
/// tool, a hand-moved value in tests. If the clock goes back, a wait is never longer than
/// the schedule's wait for the current count.
public struct PatternVault: Sendable {
    /// The cost chosen for new stores: 3 passes over 128 MiB, about 0.18 s per verify on the
    /// 2-core development machine (the target is 50–500 ms). Tests use the cheapest cost
    /// libsodium accepts.
    public static let recommendedCost = Argon2idCost(passes: 3, memoryBytes: 128 << 20)

    /// The store's path.
    public let path: String
    /// The cost for new hashes (enrolment and change); verification uses the stored cost.
    public let cost: Argon2idCost
    private let clock: @Sendable () -> Double
    private var file: PatternStoreFile { PatternStoreFile(path: path) }

    /// Creates a vault for the store at `path` (the file need not exist).
    ///
    /// - Parameters:
    ///   - path: The store file.
    ///   - cost: The Argon2id cost for new hashes.
    ///   - clock: The current time in seconds since 1970.
    public init(
        path: String, cost: Argon2idCost = PatternVault.recommendedCost,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        precondition(cost.isValid, "Argon2id cost outside libsodium's limits")
        self.path = path
        self.cost = cost
        self.clock = clock
    }

    /// What the store holds, or `nil` when nothing is enrolled.
    public func status() throws(PatternVaultError) -> PatternVaultStatus? {
        guard let record = try load() else { return nil }
        let remaining = lockout(of: record, at: clock())
        return PatternVaultStatus(
            grid: record.grid, minimumLength: record.minimumLength, cost: record.cost,
            failures: record.failures, lockoutRemaining: remaining)
    }

    /// Stores `pattern` in a new store.
    ///
    /// - Throws: ``PatternVaultError/alreadyEnrolled(path:)`` when a store exists (use
    ///   ``change(from:to:)``), ``PatternVaultError/invalidPattern(_:)`` when the pattern has
    ///   fewer than `minimumLength` dots.
    public func enroll(
        _ pattern: Pattern, minimumLength: Int = PatternLimits.defaultMinimumLength
    ) throws(PatternVaultError) {
        guard (1...pattern.grid.dotCount).contains(minimumLength) else {
            throw .invalidPattern(
                .minimumLengthOutOfRange(minimumLength, dotCount: pattern.grid.dotCount))
        }
        try check(pattern, minimumLength: minimumLength, grid: pattern.grid)
        try file.withExclusiveLock { () throws(PatternVaultError) in
            guard try file.read() == nil else { throw .alreadyEnrolled(path: path) }
            try file.write(try makeRecord(pattern, minimumLength: minimumLength).encoded())
        }
    }

    /// Checks `pattern` against the store, counting a failure and applying the wait.
    ///
    /// - Throws: ``PatternVaultError/notEnrolled(path:)``, a store failure, or
    ///   ``PatternVaultError/invalidPattern(_:)`` for input that is not counted.
    public func verify(_ pattern: Pattern) throws(PatternVaultError) -> PatternVerification {
        try file.withExclusiveLock { () throws(PatternVaultError) in
            try attempt(pattern)
        }
    }

    /// Replaces the pattern, if `old` is the current one (a failed `old` counts as an attempt).
    ///
    /// - Returns: ``PatternVerification/accepted`` when the change was made.
    public func change(from old: Pattern, to new: Pattern) throws(PatternVaultError)
        -> PatternVerification
    {
        try file.withExclusiveLock { () throws(PatternVaultError) in
            guard let current = try load() else { throw .notEnrolled(path: path) }
            try check(new, minimumLength: current.minimumLength, grid: new.grid)
            let verdict = try attempt(old)
            guard verdict == .accepted else { return verdict }
            try file.write(try makeRecord(new, minimumLength: current.minimumLength).encoded())
            return verdict
        }
    }

    /// Deletes the store, if `pattern` is the current one (a failure counts as an attempt).
    ///
    /// - Returns: ``PatternVerification/accepted`` when the store was removed.
    public func remove(_ pattern: Pattern) throws(PatternVaultError) -> PatternVerification {
        try file.withExclusiveLock { () throws(PatternVaultError) in
            let verdict = try attempt(pattern)
            if verdict == .accepted { try file.remove() }
            return verdict
        }
    }

    // MARK: - Internals (called with the lock held)

    private func load() throws(PatternVaultError) -> PatternStoreRecord? {
        guard let bytes = try file.read() else { return nil }
        return try PatternStoreRecord(decoding: bytes, path: path)
    }

    /// One counted attempt: refuse during a wait; otherwise record the failure first, hash,
    /// and reset the count on a match.
    private func attempt(_ pattern: Pattern) throws(PatternVaultError) -> PatternVerification {
        guard var record = try load() else { throw .notEnrolled(path: path) }
        try check(pattern, minimumLength: record.minimumLength, grid: record.grid)
        let now = clock()
        if record.waitEnd > now {
            let longest = PatternThrottle.wait(afterFailures: record.failures)
            if record.waitEnd - now > longest {
                // The clock went back: restart the wait from now rather than wait longer.
                record.waitEnd = now + longest
                try file.write(record.encoded())
            }
            return .lockedOut(secondsLeft: record.waitEnd - now)
        }
        var failed = record
        failed.failures = min(record.failures + 1, Int(UInt32.max))
        let wait = PatternThrottle.wait(afterFailures: failed.failures)
        failed.waitEnd = wait > 0 ? now + wait : 0
        try file.write(failed.encoded())
        guard let derived = Self.hash(pattern, salt: record.salt, cost: record.cost) else {
            throw .hashingFailed
        }
        if Sodium.constantTimeEquals(derived, record.hash) {
            record.failures = 0
            record.waitEnd = 0
            try file.write(record.encoded())
            return .accepted
        }
        return .rejected(
            failures: failed.failures, wait: wait,
            attemptsBeforeWait: PatternThrottle.attemptsBeforeWait(afterFailures: failed.failures))
    }

    private func lockout(of record: PatternStoreRecord, at now: Double) -> Double? {
        guard record.waitEnd > now else { return nil }
        return min(record.waitEnd - now, PatternThrottle.wait(afterFailures: record.failures))
    }

    private func check(_ pattern: Pattern, minimumLength: Int, grid: PatternGrid)
        throws(PatternVaultError)
    {
        guard pattern.grid == grid else {
            throw .invalidPattern(.gridMismatch(pattern: pattern.grid.size, expected: grid.size))
        }
        do { try pattern.validate(minimumLength: minimumLength) } catch {
            throw .invalidPattern(error)
        }
    }

    private func makeRecord(_ pattern: Pattern, minimumLength: Int) throws(PatternVaultError)
        -> PatternStoreRecord
    {
        let salt = Sodium.randomBytes(Sodium.argon2idSaltLength)
        guard let hash = Self.hash(pattern, salt: salt, cost: cost) else {
            throw .hashingFailed
        }
        return PatternStoreRecord(
            grid: pattern.grid, minimumLength: minimumLength, cost: cost, salt: salt, hash: hash)
    }

    /// The Argon2id hash of a pattern: a context label, the grid size and the dot indices.
    static func hash(_ pattern: Pattern, salt: [UInt8], cost: Argon2idCost) -> [UInt8]? {
        let secret =
            Array("tactile.pattern.v1".utf8) + [UInt8(pattern.grid.size)]
            + pattern.dots.map { UInt8($0) }
        return Sodium.argon2id(secret, salt: salt, cost: cost, length: 32)
    }
}
