/// Why the store in a state directory cannot be used.
public struct VerifierStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file.
    public var message: String
    /// Whether the path given cannot be a state directory at all (it is a file, a symbolic
    /// link, or in a folder that does not exist), rather than a store that is damaged.
    public var isBadPath: Bool

    /// Creates an error.
    public init(_ message: String, isBadPath: Bool = false) {
        self.message = message
        self.isBadPath = isBadPath
    }

    public var description: String { message }
}
