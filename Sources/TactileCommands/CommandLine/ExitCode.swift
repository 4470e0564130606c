/// The exit codes every `tactile` command uses.
public enum ExitCode: Int32, Sendable {
    /// The command did what was asked.
    case success = 0
    /// A negative answer: a wrong pattern, a failed check.
    case negative = 1
    /// Bad usage or input, or output that could not be written; the message is on
    /// standard error.
    case usage = 2
    /// Locked out or rate-limited.
    case locked = 3
    /// A damaged or unreadable store.
    case damagedStore = 4
}

/// A failure that ends a command with an exit code and a message for standard error.
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    public let code: ExitCode
    public let message: String

    public init(_ code: ExitCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Bad usage or input.
    public static func usage(_ message: String) -> CommandFailure {
        CommandFailure(.usage, message)
    }

    /// The output could not be written (a full disk, a closed pipe).
    static func outputFailed(_ message: String) -> CommandFailure {
        CommandFailure(.usage, message)
    }

    public var description: String { message }
}
