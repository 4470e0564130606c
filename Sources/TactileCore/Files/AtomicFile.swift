import Foundation

/// A file being written under a temporary name, put in place only when it is complete.
///
/// Creating one checks the target (absent, or a regular file that is not a symbolic link),
/// removes temporaries that killed processes left beside it, and creates a new temporary
/// file there with `O_EXCL | O_NOFOLLOW` and a random name. ``write(_:)`` writes every byte
/// or throws; ``commit()`` flushes the file to disk, renames it over the target and flushes
/// the folder. A file that is never committed is deleted when it goes away.
public final class AtomicFile {
    /// Where the finished file goes.
    public let path: String
    /// The temporary file's path, `<path>.tmp-<pid>-<random>`.
    public let temporaryPath: String
    /// The temporary file's descriptor, for writers that take one (a library that writes
    /// through its own calls); valid until ``commit()`` or ``discard()``.
    public private(set) var fileDescriptor: Int32
    /// Whether the temporary file exists (created, not yet renamed or deleted).
    private var isPending = true

    static let temporaryInfix = ".tmp-"

    /// Creates the temporary file for `path`.
    ///
    /// - Parameters:
    ///   - path: The target.
    ///   - permissions: The file's mode, such as `0o600`; `nil` for 0666 less the umask.
    public init(path: String, permissions: mode_t? = nil) throws(FileAccessError) {
        try FileAccess.checkTarget(path, operation: "write")
        FileAccess.removeStaleTemporaries(of: path)
        self.path = path
        let random = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        temporaryPath = path + Self.temporaryInfix + "\(getpid())-\(random)"
        let descriptor = open(
            temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
            permissions ?? 0o666)
        guard descriptor >= 0 else {
            throw FileAccessError(
                path: path, kind: FileAccess.openFailure(path: path, errno: errno),
                operation: "write")
        }
        fileDescriptor = descriptor
        // open() applies the umask; a store's mode must be exactly what was asked.
        if let permissions, fchmod(descriptor, permissions) != 0 {
            let code = errno
            discard()
            throw FileAccessError(path: path, kind: .system(errno: code), operation: "write")
        }
    }

    deinit { discard() }

    /// Appends `bytes`; a short or failed write throws.
    public func write(_ bytes: some ContiguousBytes) throws(FileAccessError) {
        let failure = bytes.withUnsafeBytes { FileAccess.writeAll($0, to: fileDescriptor) }
        if let failure {
            throw FileAccessError(path: path, kind: .system(errno: failure), operation: "write")
        }
    }

    /// Flushes the file, renames it over the target and flushes the folder.
    public func commit() throws(FileAccessError) {
        guard fileDescriptor >= 0, isPending else {
            throw FileAccessError(path: path, kind: .system(errno: EBADF), operation: "write")
        }
        func fail(_ code: Int32) -> FileAccessError {
            discard()
            return FileAccessError(path: path, kind: .system(errno: code), operation: "write")
        }
        guard fsync(fileDescriptor) == 0 else { throw fail(errno) }
        let closed = close(fileDescriptor)
        fileDescriptor = -1
        guard closed == 0 else { throw fail(errno) }
        // The target may have become a link or a directory since the check; rename would
        // replace a link (never write through it), but say so rather than surprise.
        do { try FileAccess.checkTarget(path, operation: "write") } catch {
            discard()
            throw error
        }
        guard rename(temporaryPath, path) == 0 else { throw fail(errno) }
        isPending = false
        FileAccess.syncDirectory(FileAccess.parentDirectory(of: path))
    }

    /// Deletes the temporary file; the target is left as it was.
    public func discard() {
        if fileDescriptor >= 0 {
            close(fileDescriptor)
            fileDescriptor = -1
        }
        if isPending {
            isPending = false
            unlink(temporaryPath)
        }
    }
}
