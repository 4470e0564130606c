/// A puzzle value out of range, with a message naming it and the accepted range.
public struct PuzzleError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What is wrong.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameter message: What is wrong, naming the value and what is accepted.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
