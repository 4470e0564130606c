/// A value that closures handed to the code under test (a transport, a clock) can change and
/// the test can read.
public final class Box<Value>: @unchecked Sendable {
    /// The value.
    public var value: Value

    /// A box holding `value`.
    public init(_ value: Value) { self.value = value }
}
