import Foundation

/// The one way Tactile reads, writes and locks files.
///
/// - Reads are bounded: the size is checked before anything is read, only regular files are
///   read (a FIFO or a device would block or never end), and the file is opened without
///   blocking.
/// - Writes are atomic and never follow a symbolic link: the bytes go to a new temporary file
///   beside the target (`O_CREAT | O_EXCL | O_NOFOLLOW`, a random name), are flushed to disk,
///   and the file is renamed over the target; then the folder is flushed. A reader sees the
///   old file or the whole new one, and a target that is a symbolic link, a directory or a
///   FIFO is refused. Temporary files left by a process that was killed are removed on the
///   next write.
/// - Locks are `flock` locks on a lock file opened without following links.
public enum FileAccess {
    /// The folder holding `path`: `"."` for a bare name, `"/"` for a file at the root.
    public static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = path[..<slash]
        // Drop repeated slashes ("a//b" → "a"), keeping the root.
        let trimmed = parent.reversed().drop { $0 == "/" }
        return trimmed.isEmpty ? "/" : String(trimmed.reversed())
    }

    /// The last component of `path`.
    static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    // MARK: - Reading

    /// Reads a whole regular file of at most `limit` bytes.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - limit: The largest size accepted, in bytes; a larger file is refused before it is
    ///     read.
    ///   - followsSymbolicLinks: Whether a link at `path` is followed (input files) or
    ///     refused (stores, which are replaced on every write).
    /// - Throws: ``FileAccessError`` with ``FileAccessError/Kind/notFound`` when there is no
    ///   file, and the other kinds for everything else.
    public static func read(path: String, limit: Int, followsSymbolicLinks: Bool = true)
        throws(FileAccessError) -> [UInt8]
    {
        func failure(_ kind: FileAccessError.Kind) -> FileAccessError {
            FileAccessError(path: path, kind: kind, operation: "read")
        }
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followsSymbolicLinks ? 0 : O_NOFOLLOW)
        let descriptor = open(path, flags)
        guard descriptor >= 0 else { throw failure(openFailure(path: path, errno: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(.system(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw failure(.notRegularFile) }
        guard info.st_size <= limit else { throw failure(.tooLarge(limit: limit)) }
        // Read until the end, stopping one byte past the limit: the file may have grown.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(limit, Int(info.st_size)) + 1)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limit {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let n = chunk.withUnsafeMutableBytes {
                Foundation.read(descriptor, $0.baseAddress!, wanted)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure(.system(errno: errno))
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        guard bytes.count <= limit else { throw failure(.tooLarge(limit: limit)) }
        return bytes
    }

    // MARK: - Writing

    /// Replaces `path` with `bytes` atomically.
    ///
    /// - Parameters:
    ///   - bytes: The new contents.
    ///   - path: The target; it may not exist yet, and must not be a symbolic link or
    ///     anything but a regular file.
    ///   - permissions: The file's mode (such as `0o600` for a store); `nil` for the usual
    ///     0666 less the umask.
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t? = nil)
        throws(FileAccessError)
    {
        let file = try AtomicFile(path: path, permissions: permissions)
        try file.write(bytes)
        try file.commit()
    }

    /// Checks that `path` is absent or a regular file, not a symbolic link: that a write
    /// to it would be accepted.
    public static func checkTarget(_ path: String, operation: String = "write")
        throws(FileAccessError)
    {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw FileAccessError(path: path, kind: .system(errno: errno), operation: operation)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK:
            throw FileAccessError(path: path, kind: .symbolicLink, operation: operation)
        default:
            throw FileAccessError(path: path, kind: .notRegularFile, operation: operation)
        }
    }

    /// Deletes temporary files beside `path` that a process which no longer runs left
    /// behind (it was killed between creating and renaming them).
    static func removeStaleTemporaries(of path: String) {
        let directory = parentDirectory(of: path)
        let prefix = fileName(of: path) + AtomicFile.temporaryInfix
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            return
        }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let pid = Int32(rest.prefix { $0 != "-" }), pid != getpid(), pid > 0,
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            let stale = directory + "/" + name
            var info = stat()
            if lstat(stale, &info) == 0, info.st_mode & S_IFMT == S_IFREG { unlink(stale) }
        }
    }

    /// Flushes a folder's entries after a rename or an unlink.
    static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    /// Deletes a file (not following a link) and flushes its folder; no file is no error.
    public static func remove(_ path: String) throws(FileAccessError) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw FileAccessError(path: path, kind: .system(errno: errno), operation: "remove")
        }
        syncDirectory(parentDirectory(of: path))
    }

    /// Creates a folder and any missing folders above it, as `mkdir -p` does; an existing
    /// folder (or a link to one) is no error.
    ///
    /// - Parameters:
    ///   - path: The folder.
    ///   - permissions: The mode of every folder created, exactly; `nil` for the system's
    ///     default (0777 less the umask).
    /// - Throws: ``FileAccessError`` naming the folder that could not be created (`path` or
    ///   one above it) and the system's reason, such as "Permission denied" or "Not a
    ///   directory".
    public static func createDirectory(_ path: String, permissions: mode_t? = nil)
        throws(FileAccessError)
    {
        func make() -> Int32 { mkdir(path, permissions ?? 0o777) == 0 ? 0 : errno }
        func failure(_ code: Int32) -> FileAccessError {
            FileAccessError(path: path, kind: .system(errno: code), operation: "create")
        }
        var code = make()
        if code == ENOENT {
            let parent = parentDirectory(of: path)
            if parent != path, parent != ".", parent != "/" {
                try createDirectory(parent, permissions: permissions)
                code = make()
            }
        }
        if code == EEXIST {
            // Something is there: fine if it is a folder (or a link to one).
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        }
        guard code == 0 else { throw failure(code) }
        // mkdir's mode is cut by the umask; the mode asked for is set exactly.
        if let permissions, chmod(path, permissions) != 0 { throw failure(errno) }
    }

    /// Appends `line` and a newline to a log file (mode 0600, created if needed, never
    /// through a link). A file that has reached `limit` bytes is first renamed to
    /// `<path>.1`, replacing an older one, so a log never grows without bound.
    public static func appendLine(_ line: String, to path: String, rotatingAt limit: Int)
        throws(FileAccessError)
    {
        func failure(_ kind: FileAccessError.Kind) -> FileAccessError {
            FileAccessError(path: path, kind: kind, operation: "append to")
        }
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= limit {
            try checkTarget(path + ".1", operation: "append to")
            guard rename(path, path + ".1") == 0 else { throw failure(.system(errno: errno)) }
        }
        let descriptor = open(
            path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(openFailure(path: path, errno: errno)) }
        defer { close(descriptor) }
        guard fstat(descriptor, &info) == 0 else { throw failure(.system(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw failure(.notRegularFile) }
        let bytes = Array((line + "\n").utf8)
        // One write call, so lines from processes that append at once do not interleave.
        let written = bytes.withUnsafeBytes {
            Foundation.write(descriptor, $0.baseAddress!, $0.count)
        }
        guard written == bytes.count else {
            throw failure(.system(errno: written < 0 ? errno : EIO))
        }
    }

    // MARK: - Locking

    /// Runs `body` holding an exclusive `flock` lock on `lockPath` (created with mode 0600,
    /// never through a symbolic link).
    ///
    /// - Parameters:
    ///   - lockPath: The lock file.
    ///   - failure: Turns a failure to open or lock the file into the caller's error.
    ///   - body: The work done under the lock.
    public static func withExclusiveLock<T, E: Error>(
        _ lockPath: String, failure: (FileAccessError) -> E, _ body: () throws(E) -> T
    ) throws(E) -> T {
        func refusal(_ kind: FileAccessError.Kind) -> E {
            failure(FileAccessError(path: lockPath, kind: kind, operation: "lock"))
        }
        let descriptor = open(
            lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw refusal(openFailure(path: lockPath, errno: errno)) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw refusal(.system(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw refusal(.notRegularFile) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw refusal(.system(errno: errno)) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    // MARK: - Helpers

    /// Writes every byte to a descriptor, retrying after interruptions and short writes.
    ///
    /// - Returns: `nil` when all were written, else the `errno` of the failure (`EIO` for a
    ///   write that wrote nothing).
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }

    /// The kind for a failed `open`: a missing folder is told apart from a missing file.
    static func openFailure(path: String, errno code: Int32) -> FileAccessError.Kind {
        switch code {
        case ENOENT:
            var info = stat()
            let parent = parentDirectory(of: path)
            return stat(parent, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                ? .notFound : .missingDirectory
        case ELOOP: return .symbolicLink
        case EISDIR, ENXIO: return .notRegularFile
        default: return .system(errno: code)
        }
    }

    /// A size for messages: "1 MiB", "64 KiB", "512 bytes".
    public static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
