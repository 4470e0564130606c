import Foundation

/// The file operations behind a pattern store: bounded reads, atomic writes with mode 0600,
/// and an exclusive lock so concurrent checks cannot lose a counted failure.
struct PatternStoreFile {
    /// The store's path.
    let path: String

    /// The largest file read; anything bigger is not a store.
    static let readLimit = 4096

    /// The lock file next to the store. The store itself is replaced on every write, so
    /// it cannot carry the lock.
    var lockPath: String { path + ".lock" }

    /// The directory holding the store.
    var directory: String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "." : parent
    }

    /// The store's bytes, or `nil` when there is no store.
    func read() throws(PatternVaultError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .unreadable(path: path, reason: Self.lastError())
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: Self.readLimit + 1)
        while bytes.count <= Self.readLimit {
            let count = chunk.withUnsafeMutableBytes {
                Foundation.read(descriptor, $0.baseAddress!, $0.count)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: Self.lastError())
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        guard bytes.count <= Self.readLimit else {
            throw .damaged(path: path, reason: "larger than \(Self.readLimit) bytes")
        }
        return bytes
    }

    /// Replaces the store with `bytes` atomically: a new file with mode 0600 is written and
    /// flushed to disk, renamed over the store, and the directory is flushed, so a crash
    /// leaves either the old store or the new one.
    func write(_ bytes: [UInt8]) throws(PatternVaultError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .unwritable(path: path, reason: Self.lastError()) }
        var isWritten = false
        defer { if !isWritten { unlink(temporary) } }
        let failure = Self.fill(descriptor, with: bytes)
        close(descriptor)
        if let failure { throw .unwritable(path: path, reason: failure) }
        guard rename(temporary, path) == 0 else {
            throw .unwritable(path: path, reason: Self.lastError())
        }
        isWritten = true
        syncDirectory()
    }

    /// Sets mode 0600 (open() applies the umask), writes every byte and flushes them to
    /// disk; returns the reason of a failure.
    private static func fill(_ descriptor: Int32, with bytes: [UInt8]) -> String? {
        guard fchmod(descriptor, 0o600) == 0 else { return lastError() }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return lastError()
            }
            offset += count
        }
        return fsync(descriptor) == 0 ? nil : lastError()
    }

    /// Deletes the store (the lock file stays, as other processes may be waiting on it).
    func remove() throws(PatternVaultError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw .unwritable(path: path, reason: Self.lastError())
        }
        syncDirectory()
    }

    /// Runs `body` holding an exclusive lock on the store's lock file.
    func withExclusiveLock<T>(_ body: () throws(PatternVaultError) -> T)
        throws(PatternVaultError) -> T
    {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .unwritable(path: path, reason: "cannot open its lock file: \(Self.lastError())")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw .unwritable(path: path, reason: "cannot lock it: \(Self.lastError())")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Flushes the directory entry after a rename or unlink.
    private func syncDirectory() {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}
