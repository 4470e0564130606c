import Foundation

/// Why a file could not be read, written or locked.
///
/// The kinds separate what the caller got wrong (a path that names a directory, a FIFO, a
/// symbolic link or a missing folder; a file over a size limit) from what went wrong on the
/// way (a full disk, an I/O error), so a command can answer bad input with one exit code and
/// a failed store with another.
public struct FileAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: Hashable, Sendable {
        /// Nothing exists at the path.
        case notFound
        /// The folder that should hold the file does not exist.
        case missingDirectory
        /// The path names something other than a regular file (a directory, a FIFO, a device).
        case notRegularFile
        /// The path is a symbolic link, which is never followed for files Tactile writes.
        case symbolicLink
        /// The file is larger than the limit, in bytes.
        case tooLarge(limit: Int)
        /// The operating system refused or failed (permissions, a full disk, I/O).
        case system(errno: Int32)
    }

    /// The path concerned.
    public var path: String
    /// The kind of problem.
    public var kind: Kind
    /// What was being done: "read", "write", "lock".
    public var operation: String

    /// Creates an error.
    public init(path: String, kind: Kind, operation: String) {
        self.path = path
        self.kind = kind
        self.operation = operation
    }

    /// Whether the path itself is unusable (bad input) rather than the system failing.
    public var isBadPath: Bool {
        switch kind {
        case .notFound, .missingDirectory, .notRegularFile, .symbolicLink, .tooLarge: true
        case .system(let code): code == ENAMETOOLONG || code == ENOTDIR || code == EISDIR
        }
    }

    /// The reason alone, without the path: "is a symbolic link", "No space left on device".
    public var reason: String {
        switch kind {
        case .notFound: Localization.text("does not exist")
        case .missingDirectory: Localization.text("is in a folder that does not exist")
        case .notRegularFile: Localization.text("is not a regular file")
        case .symbolicLink: Localization.text("is a symbolic link (not followed)")
        case .tooLarge(let limit):
            Localization.text("is larger than {1}", FileAccess.describe(bytes: limit))
        case .system(let code): String(cString: strerror(code))
        }
    }

    public var description: String { "cannot \(operation) \(path): \(reason)" }
}
