import Foundation

/// A fresh directory for one test's files, removed when the value goes away.
public final class ScratchDirectory: @unchecked Sendable {
    /// The directory's absolute path.
    public let path: String

    /// Creates `…/tactile-<label>-<UUID>` in the temporary directory.
    public init(_ label: String = "test") {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("tactile-\(label)-\(UUID().uuidString)").path
        // Mode 0700 whatever the umask: a test that sets a permissive umask for a moment
        // (the process has one) must not leave another test a folder others may write to,
        // which a store rightly refuses.
        try? FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }

    /// `path/name`.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes text to `name` and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }

    /// The bytes of `name`, or `nil` when it cannot be read.
    public func contents(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: file(name)).map(Array.init)
    }

    /// The names of the files in the directory.
    public var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
